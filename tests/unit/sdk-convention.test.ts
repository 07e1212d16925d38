/**
 * One calling convention: our own code (provider, CLI, emulator, examples, bench, scripts, docs)
 * calls the sdk's sub-resources, `(ids, params, options?)`, never the flat methods of release 0.1.0
 * that stay, deprecated, for one more minor release. Each area names its deprecated methods in a
 * table (`DEPRECATED_<AREA>_METHODS`); a call `.<area>.<name>(` of one of them anywhere in our
 * sources or tests fails here, naming the file, the line and the replacement.
 */
import { strict as assert } from "node:assert";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { DEPRECATED_BUILDS_METHODS } from "../../sdk/builds";
import { DEPRECATED_CONTENT_METHODS } from "../../sdk/content";
import { DEPRECATED_EMAIL_METHODS } from "../../sdk/email";
import { DEPRECATED_MEETINGS_METHODS } from "../../sdk/meetings";
import { DEPRECATED_REGISTRAR_METHODS } from "../../sdk/registrar";
import { DEPRECATED_SEARCH_METHODS } from "../../sdk/search";

const ROOT = resolve(__dirname, "../..");

const TABLES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  builds: DEPRECATED_BUILDS_METHODS,
  content: DEPRECATED_CONTENT_METHODS,
  email: DEPRECATED_EMAIL_METHODS,
  meetings: DEPRECATED_MEETINGS_METHODS,
  registrar: DEPRECATED_REGISTRAR_METHODS,
  search: DEPRECATED_SEARCH_METHODS,
};

/** Where our own code, docs and tests live. */
const OURS = [
  "provider",
  "cli",
  "emulator",
  "examples",
  "bench",
  "scripts",
  "docs",
  "README.md",
  "index.ts",
  "tests",
];

/**
 * The surface tests call the old methods on purpose (they pin 0.1.0's flat calls until 0.3.0), and
 * the fixtures are release 0.1.0's own files.
 */
function mayCallDeprecated(file: string): boolean {
  const path = relative(ROOT, file).split(sep).join("/");
  return path.endsWith("-surface.test.ts") || path.startsWith("tests/fixtures/");
}

function* files(at: string): Generator<string> {
  if (statSync(at).isFile()) {
    if (/\.(ts|md)$/.test(at)) yield at;
    return;
  }
  for (const name of readdirSync(at)) {
    if (name === "node_modules" || name === "dist") continue;
    yield* files(join(at, name));
  }
}

describe("one calling convention", () => {
  it("every area names its deprecated flat methods, each replaced by a sub-resource method", () => {
    for (const [area, table] of Object.entries(TABLES)) {
      assert.ok(Object.isFrozen(table), `${area}: the table is frozen`);
      assert.ok(Object.keys(table).length > 0, `${area}: the table names its methods`);
      for (const [old, replacement] of Object.entries(table))
        for (const path of replacement.split("|"))
          assert.match(path, /^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)+$/, `${area}.${old} -> ${replacement}`);
    }
  });

  it("each area is importable on its own as pulumi-account-api/sdk/<area> (its folder's index)", () => {
    for (const area of Object.keys(TABLES)) {
      const published: unknown = require(`pulumi-account-api/sdk/${area}`);
      const name = `DEPRECATED_${area.toUpperCase()}_METHODS`;
      assert.ok(
        published && typeof published === "object" && name in published,
        `sdk/${area} exports ${name}`,
      );
    }
  });

  it("our own code and docs call no deprecated method", () => {
    const found: string[] = [];
    for (const top of OURS)
      for (const file of files(resolve(ROOT, top))) {
        if (mayCallDeprecated(file)) continue;
        const lines = readFileSync(file, "utf8").split("\n");
        for (const [area, table] of Object.entries(TABLES)) {
          const names = Object.keys(table).join("|");
          // Through the client (`api.`, `ctx.api.`): `b.builds.collectLogs(` on an alias of
          // `api.builds` is the sub-resource's method of the same name, not the flat one.
          const call = new RegExp(`\\bapi\\.${area}\\.(${names})\\(`);
          lines.forEach((line, i) => {
            // A doc may name an old method where it says what release 0.1.0 had; the upgrading
            // page maps each old call to its replacement.
            if (file.endsWith(".md") && (line.includes("0.1.0") || file.endsWith("upgrading.md"))) return;
            const m = call.exec(line);
            if (m?.[1] !== undefined)
              found.push(`${relative(ROOT, file)}:${i + 1}: ${area}.${m[1]} -> ${area}.${table[m[1]]}`);
          });
        }
      }
    assert.deepEqual(found, [], `deprecated calls:\n${found.join("\n")}`);
  });
});
