/**
 * What drift writes from hostile names, ids, paths and values reads back as exactly that, in every
 * format: the Markdown job summary rendered by a CommonMark/GFM renderer (each value one run of text
 * in its cell, nothing else), JUnit parsed as XML, SARIF and the JSON report parsed as JSON, and the
 * text report free of any control. Values read back exactly (JSON.parse of what is shown); names,
 * ids and paths as `shown` folds them (a line ending shows as `\n`, a backslash as `\\`).
 */
import { strict as assert } from "node:assert";
import fc from "fast-check";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import {
  renderMarkdown,
  renderText,
  summarize,
  type DriftReport,
  type ResourceDrift,
} from "../../provider/drift";
import { shown, visible } from "../../provider/drift-display";
import { renderJunit } from "../../provider/drift-junit";
import { renderSarif, sarifText } from "../../provider/drift-sarif";
import { readMarkdown } from "../helpers/markdown";

/** Pieces that broke, or could break, one format or another. */
const HOSTILE = [
  "`",
  "``",
  "${",
  "$$",
  "$x$",
  "*/",
  "/*",
  "\r\n",
  "\r",
  "\n",
  "\u0085",
  "\u2028",
  "\u2029",
  "\t",
  "\u0000",
  "\u0007",
  "\u001b]52;c;aGVsbG8=\u0007",
  "\u001b[2K\u001b[1A",
  "\u009b31m",
  "\u202e",
  "\u2066",
  "\u200b",
  "\ufeff",
  "\ud800",
  "\udc00",
  "\ud83d\ude00",
  "\ufffe",
  "\uffff",
  "\u00a0",
  " ",
  "  ",
  "|",
  "\\|",
  "\\",
  "# No drift",
  "### Drift",
  "**bold**",
  "_em_",
  "~~del~~",
  "[link](https://evil.example)",
  "![img](https://evil.example/i.png)",
  "<img src=x onerror=alert(1)>",
  "<!--",
  "-->",
  "</td>",
  "&amp;",
  "&#124;",
  "a@b.com",
  "www.evil.example",
  "https://evil.example",
  ":tada:",
  "- [ ] ",
  "1. ",
  "> ",
  "---",
  "===",
  "key: value",
  "- item",
  "? ",
  "&anchor",
  "*alias",
  "!!tag",
  "'",
  '"',
  "]]>",
  "<![CDATA[",
  "]",
  "[",
];

const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const hostile = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: anyUnit, maxLength: 4 })), {
    minLength: 1,
    maxLength: 5,
  })
  .map((parts) => parts.join(""))
  .filter((s) => s !== "");
const value = fc.oneof(
  hostile,
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostile, { maxLength: 2 }),
  fc.dictionary(hostile, hostile, { maxKeys: 2, noNullPrototype: true }),
);

interface Sample {
  stack: string;
  name: string;
  id: string;
  path: string;
  old: unknown;
  now: unknown;
  reason: string;
}

const sample = fc.record<Sample>({
  stack: hostile,
  name: hostile,
  id: hostile,
  path: hostile,
  old: value,
  now: value,
  reason: hostile,
});

/** A drifted resource, a gone one, and one whose read failed, all named by the sample. */
function reportOf(s: Sample): DriftReport {
  const base = (kind: string): Omit<ResourceDrift, "status" | "changes"> => ({
    urn: `urn:pulumi:${s.stack}::p::account-api:${kind}::${s.name}`,
    type: `account-api:${kind}`,
    name: s.name,
    id: s.id,
  });
  return summarize(s.stack, [
    {
      ...base("BuildTrigger"),
      status: "drifted",
      changes: [{ path: s.path, old: s.old, new: s.now, restorable: false, note: s.reason }],
    },
    { ...base("ConfigRule"), status: "gone", changes: [] },
    { ...base("RepoConnection"), status: "unchecked", reason: s.reason, failed: true, changes: [] },
  ]);
}

/** Display text never holds a control, line ending, bidi or zero-width character. */
const isVisible = (text: string): boolean => visible(text) === text;

const RUNS = { numRuns: 300, seed: 24 };

describe("drift's writers read back what the account holds, whatever it holds", () => {
  it("Markdown: every value is one run of text in its own cell; no row, heading, link, image or HTML of its own", () => {
    fc.assert(
      fc.property(sample, (s) => {
        const read = readMarkdown(renderMarkdown(reportOf(s)));
        assert.deepEqual(
          read.blocks.filter((b) => b.endsWith("_open")),
          [
            "heading_open",
            "paragraph_open",
            "table_open",
            "thead_open",
            "tr_open",
            ...Array<string>(6).fill("th_open"),
            "tbody_open",
            ...[1, 2, 3].flatMap(() => ["tr_open", ...Array<string>(6).fill("td_open")]),
            "bullet_list_open",
            "list_item_open",
            "paragraph_open",
            "list_item_open",
            "paragraph_open",
          ],
        );
        assert.deepEqual(read.headings, [{ text: `Drift: stack ${shown(s.stack)}`, markup: [] }]);
        const [, drifted, gone, failed] = read.rows;
        for (const row of [drifted, gone, failed]) {
          assert.equal(row?.length, 6);
          assert.ok(
            row?.every((c) => c.markup.length === 0),
            JSON.stringify(row),
          );
        }
        const what = (kind: string) => `account-api:${kind} ${shown(s.name)}`;
        assert.equal(drifted?.[0]?.text, what("BuildTrigger"));
        assert.equal(drifted?.[2]?.text, shown(s.path));
        assert.deepEqual(JSON.parse(drifted?.[3]?.text ?? ""), s.old);
        assert.deepEqual(JSON.parse(drifted?.[4]?.text ?? ""), s.now);
        assert.equal(drifted?.[5]?.text, shown(s.reason));
        assert.equal(gone?.[0]?.text, what("ConfigRule"));
        assert.equal(failed?.[2]?.text, shown(s.reason));
      }),
      RUNS,
    );
  });

  it("text: one line per item, no control of the account's, each name as shown, each value as JSON", () => {
    fc.assert(
      fc.property(sample, (s) => {
        const lines = renderText(reportOf(s)).split("\n");
        assert.ok(lines.every(isVisible));
        assert.equal(lines[0], `account-api:BuildTrigger ${shown(s.name)} (${shown(s.id)}): drifted`);
        const change = lines[1] ?? "";
        assert.ok(change.startsWith(`  ${shown(s.path)}: `));
        assert.ok(change.endsWith(` (${shown(s.reason)})`));
        assert.equal(lines[2], `account-api:ConfigRule ${shown(s.name)} (${shown(s.id)}): gone`);
        assert.equal(
          lines[4],
          `account-api:RepoConnection ${shown(s.name)} (${shown(s.id)}): could not be checked: ${shown(s.reason)}`,
        );
      }),
      RUNS,
    );
  });

  it("JUnit: well-formed XML whose names, messages and bodies are the shown values", () => {
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "",
      trimValues: false,
      parseTagValue: false,
      parseAttributeValue: false,
      isArray: (n) => n === "testcase" || n === "testsuite",
    });
    fc.assert(
      fc.property(sample, (s) => {
        const xml = renderJunit(reportOf(s));
        assert.equal(XMLValidator.validate(xml), true);
        const doc = parser.parse(xml) as {
          testsuites: { testsuite: { name: string; testcase: Record<string, unknown>[] }[] };
        };
        const [suite] = doc.testsuites.testsuite;
        assert.equal(suite?.name, `drift: stack ${shown(s.stack)}`);
        const [drifted, gone, failed] = suite?.testcase ?? [];
        assert.deepEqual([drifted?.classname, drifted?.name], ["account-api:BuildTrigger", shown(s.name)]);
        const failure = drifted?.failure as { message: string; "#text": string };
        assert.equal(failure.message, `1 property changed outside the program: ${shown(s.path)}`);
        const body = failure["#text"];
        assert.ok(body.startsWith(`${shown(s.path)}: `) && body.endsWith(` (${shown(s.reason)})`));
        assert.ok(!body.includes("\n") && isVisible(body));
        assert.equal(
          (gone?.failure as { message: string }).message,
          `deleted outside the program (id ${shown(s.id)})`,
        );
        assert.equal((failed?.error as { message: string }).message, shown(s.reason));
      }),
      RUNS,
    );
  });

  it("SARIF: the structured fields hold the values exactly; messages are shown text, brackets escaped", () => {
    fc.assert(
      fc.property(sample, (s) => {
        const r = reportOf(s);
        const log = JSON.parse(
          JSON.stringify(renderSarif(r, { projectFile: "Pulumi.yaml", version: "0" })),
        ) as {
          runs: {
            results: {
              message: { text: string };
              properties?: Record<string, unknown>;
              locations: { logicalLocations: { fullyQualifiedName: string }[] }[];
            }[];
          }[];
        };
        const [changed, gone, failed] = log.runs[0]?.results ?? [];
        assert.deepEqual(changed?.properties, { path: s.path, old: s.old, new: s.now, restorable: false });
        assert.equal(changed?.locations[0]?.logicalLocations[0]?.fullyQualifiedName, r.resources[0]?.urn);
        for (const m of [changed, gone, failed]) assert.ok(isVisible(m?.message.text ?? ""));
        assert.ok(changed?.message.text.startsWith(sarifText(`account-api:BuildTrigger ${shown(s.name)}`)));
        assert.ok(failed?.message.text.endsWith(`could not be read: ${sarifText(shown(s.reason))}`));
      }),
      RUNS,
    );
  });

  it("JSON: the report parses back to itself", () => {
    fc.assert(
      fc.property(sample, (s) => {
        const r = reportOf(s);
        assert.deepEqual(JSON.parse(JSON.stringify(r)), r);
      }),
      RUNS,
    );
  });
});
