/**
 * Reading Pulumi YAML programs as pulumi-yaml v1.38.1 reads them: tools/yaml-roundtrip (built once per
 * user by scripts/build-yaml-roundtrip.sh, cached as codegen is) loads each with pulumi-yaml's own
 * loader and the CLI's project loader, in one process for a whole batch.
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { ok, run } from "./codegen";

const REPO_ROOT = join(__dirname, "..", "..");

/** A value as the tool prints it: tagged, so that a reference never passes for a string. */
export type Tagged =
  | { s: string }
  | { n: number }
  | { b: boolean }
  | { null: true }
  | { list: Tagged[] }
  | { obj: [Tagged, Tagged][] }
  | { ref: string }
  | { other: string };

export interface LoadedProgram {
  id: string;
  /** Errors of either loader; a program with any would not run. */
  errors: string[];
  warnings: string[];
  /** The project name as the CLI reads Pulumi.yaml, null when it refuses the file. */
  project: string | null;
  program: {
    name: string;
    config: { key: string; type: string; secret: boolean }[];
    resources: { name: string; type: string; properties: Tagged; import: string | null }[];
  } | null;
}

let binary: string | undefined;

/** The tool's path, built on the first call (about 2 minutes without a Go build cache). */
export function yamlRoundtripTool(): string {
  if (binary === undefined) {
    const built = ok(
      run("bash", [join(REPO_ROOT, "scripts", "build-yaml-roundtrip.sh")], { timeout: 20 * 60_000 }),
      "scripts/build-yaml-roundtrip.sh (Go and the Go module proxy are needed once)",
    );
    binary = built.stdout.trim().split("\n").pop() ?? "";
  }
  return binary;
}

/**
 * Loads every program in one run of the tool; the answers in the same order. `source` is the program
 * pulumi-yaml reads, `project` the Pulumi.yaml the CLI reads when that is another file (Main.yaml).
 */
export function loadYamlPrograms(
  programs: readonly { id: string; source: string; project?: string }[],
): LoadedProgram[] {
  const res = ok(run(yamlRoundtripTool(), [], { input: JSON.stringify(programs) }), "yaml-roundtrip");
  const loaded = JSON.parse(res.stdout) as LoadedProgram[];
  assert.equal(loaded.length, programs.length);
  return loaded;
}

/** A placeholder as a plain value: what a reference reads back as. */
export const refTo = (key: string): { $ref: string } => ({ $ref: key });

/**
 * A tagged value as plain JSON: a reference becomes `refTo(key)`; an object with a duplicate key, or
 * anything not inert (an interpolation, a builtin), fails with where it is.
 */
export function untag(v: Tagged, where = "properties"): unknown {
  if ("s" in v) return v.s;
  if ("n" in v) return v.n;
  if ("b" in v) return v.b;
  if ("null" in v) return null;
  if ("ref" in v) return refTo(v.ref);
  if ("list" in v) return v.list.map((x, i) => untag(x, `${where}[${i}]`));
  if ("obj" in v) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v.obj) {
      const key = untag(k, `${where} (a key)`);
      assert.equal(typeof key, "string", `${where}: a key reads as ${JSON.stringify(key)}, not a string`);
      const name = key as string;
      assert.ok(!Object.hasOwn(out, name), `${where}: the key ${JSON.stringify(name)} twice`);
      Object.defineProperty(out, name, {
        value: untag(x, `${where}.${name}`),
        enumerable: true,
        writable: true,
      });
    }
    return out;
  }
  assert.fail(`${where}: not a literal value but ${v.other}`);
}
