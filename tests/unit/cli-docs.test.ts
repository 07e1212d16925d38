/**
 * docs/cli.md against the command tree commander builds (what `account-api --help` prints): every
 * verb has a row of the Verbs table naming each of its options, every row is a verb, every option a
 * row or the synopsis names exists, and the global options are in the synopsis.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { buildCli } from "../../cli/main";

const DOC = readFileSync(join(__dirname, "..", "..", "docs", "cli.md"), "utf8");

interface Verb {
  path: string;
  flags: Set<string>;
}

/** The leaves of the tree (`build trigger`), with their long options; commander's `help` is left out. */
function verbs(cmd: Command, prefix: string[] = []): Verb[] {
  return cmd.commands.flatMap((c) => {
    const path = [...prefix, c.name()];
    if (c.commands.length) return verbs(c, path);
    const flags = new Set(c.options.flatMap((o) => (o.long ? [o.long] : [])));
    return [{ path: path.join(" "), flags }];
  });
}

const flagsIn = (text: string): string[] => text.match(/--[a-z][a-z-]*/g) ?? [];

/** The Verbs table: `| \`build trigger <triggerUuid> --branch B …\` | … |` → path and the flags it names. */
function documentedVerbs(doc: string): Verb[] {
  const section = doc.slice(doc.indexOf("## Verbs"));
  return section
    .split("\n")
    .filter((l) => l.startsWith("| `"))
    .map((l) => {
      const usage = /^\| `([^`]+)`/.exec(l)![1]!;
      const words = usage.split(/\s+/);
      const end = words.findIndex((w) => /^[<[(-]/.test(w));
      return {
        path: words.slice(0, end === -1 ? words.length : end).join(" "),
        flags: new Set(flagsIn(usage)),
      };
    });
}

/** The first code block: the synopsis, with the options every verb (or the program) takes. */
const synopsis = /```\n([\s\S]*?)```/.exec(DOC)![1]!;

describe("docs/cli.md matches the command tree", () => {
  const program = buildCli({ out: () => undefined, err: () => undefined, env: {} });
  const tree = verbs(program).filter((v) => v.path !== "help");
  const documented = documentedVerbs(DOC);

  it("finds the verbs on both sides (the parsers see something)", () => {
    assert.ok(tree.length >= 18, `verbs in the tree: ${tree.map((v) => v.path).join(", ")}`);
    assert.ok(documented.length >= 18, `rows in the doc: ${documented.map((v) => v.path).join(", ")}`);
  });

  it("every verb of the tree has one row, and every row is a verb", () => {
    assert.deepEqual(documented.map((v) => v.path).sort(), tree.map((v) => v.path).sort());
  });

  it("each verb's row names each of its options (--json, --quiet and --help: the synopsis)", () => {
    const common = new Set([...flagsIn(synopsis), "--help"]);
    for (const verb of tree) {
      const row = documented.find((d) => d.path === verb.path)!;
      const missing = [...verb.flags].filter((f) => !row.flags.has(f) && !common.has(f));
      assert.deepEqual(missing, [], `${verb.path}: options missing from docs/cli.md`);
    }
  });

  it("each option a row names is an option of that verb", () => {
    for (const row of documented) {
      const verb = tree.find((v) => v.path === row.path)!;
      const unknown = [...row.flags].filter((f) => !verb.flags.has(f));
      assert.deepEqual(unknown, [], `${row.path}: docs/cli.md names options the verb does not take`);
    }
  });

  it("the synopsis names the program's own options, and only options that exist", () => {
    const own = program.options.flatMap((o) => (o.long ? [o.long] : []));
    const named = new Set(flagsIn(synopsis));
    assert.deepEqual(
      own.filter((f) => !named.has(f)),
      [],
      "global options missing from the synopsis",
    );
    const anywhere = new Set([...own, "--help", ...tree.flatMap((v) => [...v.flags])]);
    assert.deepEqual(
      [...named].filter((f) => !anywhere.has(f)),
      [],
      "the synopsis names options that do not exist",
    );
  });
});
