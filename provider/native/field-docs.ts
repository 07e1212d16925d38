/**
 * The words of the package schema: each resource's description is the comment that opens its
 * `spec.ts`, and each field's is the doc comment on it in `defineResource({ fields })`. The comments
 * are read with the TypeScript compiler, which is a build tool: the build writes what it read to
 * `field-docs.json` beside the compiled module (scripts/write-schema.ts), and an installed provider
 * reads that file. From a source checkout the comments are read afresh, so they are never stale.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { snakeToCamel } from "../core/values";

const KindDocsSchema = z.strictObject({
  description: z.string(),
  fields: z.record(z.string(), z.string()),
});
export const FieldDocsSchema = z.record(z.string(), KindDocsSchema);
/** Kind → its description and its fields' descriptions (fields without a comment are absent). */
export type FieldDocs = z.infer<typeof FieldDocsSchema>;

export const FIELD_DOCS_FILE = "field-docs.json";

/** Where the descriptions live, relative to the `provider` folder (sources or compiled). */
const SPEC_FOLDERS = ["resources", "runs"];

/** A doc comment's text as markdown: lines joined, paragraphs kept. */
function prose(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, " ").trim())
    .filter((p) => p !== "")
    .join("\n\n");
}

/** The text of a `/** … *\/` block without its frame. */
function blockText(comment: string): string {
  return comment
    .replace(/^\/\*\*/, "")
    .replace(/\*\/$/, "")
    .split("\n")
    .map((l) => l.replace(/^\s*\* ?/, ""))
    .join("\n");
}

/**
 * The words on the plans of `...contractInputs(shape, { wire_name: plan })`: each describes the input
 * the plan concerns (its `name`, else the wire name in camelCase); a field kept out has none.
 */
function planDocs(
  ts: typeof import("typescript"),
  source: import("typescript").SourceFile,
  call: import("typescript").Expression,
  docOf: (p: import("typescript").Node) => string,
): Record<string, string> {
  const plans =
    ts.isCallExpression(call) && call.expression.getText(source) === "contractInputs" && call.arguments[1];
  if (!plans || !ts.isObjectLiteralExpression(plans)) return {};
  const docs: Record<string, string> = {};
  for (const p of plans.properties) {
    if (!ts.isPropertyAssignment(p) || !ts.isObjectLiteralExpression(p.initializer) || docOf(p) === "")
      continue;
    const plan = p.initializer;
    const key = (name: string) =>
      plan.properties.find(
        (q): q is import("typescript").PropertyAssignment =>
          ts.isPropertyAssignment(q) && q.name.getText(source) === name,
      )?.initializer;
    if (key("omit")) continue;
    const named = key("name");
    const wireName = p.name.getText(source);
    docs[named && ts.isStringLiteral(named) ? named.text : snakeToCamel(wireName)] = docOf(p);
  }
  return docs;
}

/**
 * Reads the descriptions from the spec files under `providerDir` (`spec.ts` in sources, `spec.js`
 * compiled: the compiler keeps comments). Needs the `typescript` package.
 */
export function extractFieldDocs(providerDir: string): FieldDocs {
  // A build tool, loaded only here: an installed provider reads field-docs.json instead.
  const ts: typeof import("typescript") = require("typescript");
  const docs: FieldDocs = {};
  for (const folder of SPEC_FOLDERS)
    for (const entry of readdirSync(join(providerDir, folder), { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      if (!entry.isDirectory()) continue;
      const file = ["spec.ts", "spec.js"]
        .map((f) => join(providerDir, folder, entry.name, f))
        .find(existsSync);
      if (!file) continue;
      const text = readFileSync(file, "utf8");
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
      const header = (ts.getLeadingCommentRanges(text, 0) ?? [])
        .map((r) => text.slice(r.pos, r.end))
        .find((c) => c.startsWith("/**"));
      const visit = (node: import("typescript").Node): void => {
        if (
          ts.isCallExpression(node) &&
          /(^|\.)defineResource$/.test(node.expression.getText(source)) &&
          node.arguments[0] &&
          ts.isObjectLiteralExpression(node.arguments[0])
        ) {
          const init = node.arguments[0];
          const prop = (name: string) =>
            init.properties.find(
              (p): p is import("typescript").PropertyAssignment =>
                ts.isPropertyAssignment(p) && p.name.getText(source) === name,
            );
          const kind = prop("kind")?.initializer;
          const fields = prop("fields")?.initializer;
          if (!kind || !ts.isStringLiteral(kind) || !fields || !ts.isObjectLiteralExpression(fields)) return;
          const fieldDocs: Record<string, string> = {};
          const docOf = (p: import("typescript").Node): string =>
            prose(
              ts
                .getJSDocCommentsAndTags(p)
                .filter(ts.isJSDoc)
                .map((d) => ts.getTextOfJSDocComment(d.comment) ?? "")
                .join("\n\n"),
            );
          for (const p of fields.properties) {
            if (p.name && docOf(p) !== "") fieldDocs[p.name.getText(source)] = docOf(p);
            if (ts.isSpreadAssignment(p)) Object.assign(fieldDocs, planDocs(ts, source, p.expression, docOf));
          }
          docs[kind.text] = { description: header ? prose(blockText(header)) : "", fields: fieldDocs };
          return;
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  return docs;
}

/** The descriptions for the provider folder this module runs from: the build's file, else read afresh. */
export function loadFieldDocs(providerDir = join(__dirname, "..")): FieldDocs {
  const built = join(__dirname, FIELD_DOCS_FILE);
  if (existsSync(built)) return FieldDocsSchema.parse(JSON.parse(readFileSync(built, "utf8")));
  try {
    require.resolve("typescript");
  } catch {
    throw new Error(
      `account-api: ${built} is missing (the build writes it) and the typescript package is not installed to read the descriptions afresh`,
    );
  }
  return extractFieldDocs(providerDir);
}
