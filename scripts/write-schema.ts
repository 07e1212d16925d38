/**
 * Writes the native provider's package schema, made from the resource descriptions, to
 * dist/schema.json, and the descriptions read from the specs' comments to
 * dist/provider/native/field-docs.json (what an installed provider reads: it has no compiler).
 * Called by `npm run build` after tsc.
 *   node -r ts-node/register/transpile-only scripts/write-schema.ts           # write
 *   node -r ts-node/register/transpile-only scripts/write-schema.ts --check   # write nothing; exit 1 when
 *                    sdk-gen/schema.json (what the committed SDKs came from) is not this schema
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { FIELD_DOCS_FILE, extractFieldDocs } from "../provider/native/field-docs";
import { providerSchema } from "../provider/native/schema";

const root = resolve(__dirname, "..");
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };

/** The schema's bytes: two-space JSON and a final newline, as gen-sdk.sh keeps and compares them. */
export function schemaText(): { schema: string; docs: string } {
  const docs = extractFieldDocs(join(root, "provider"));
  return {
    schema: `${JSON.stringify(providerSchema(version, docs), null, 2)}\n`,
    docs: `${JSON.stringify(docs, null, 2)}\n`,
  };
}

function main(args: string[]): number {
  const { schema, docs } = schemaText();
  if (args.includes("--check")) {
    const kept = join(root, "sdk-gen", "schema.json");
    if (existsSync(kept) && readFileSync(kept, "utf8") === schema) {
      console.error("[write-schema] sdk-gen/schema.json is the schema the descriptions give");
      return 0;
    }
    console.log(`stale:   ${kept}`);
    console.error(
      "[write-schema] sdk-gen/ was generated from another schema: run  npm run build && bash scripts/gen-sdk.sh --schema dist/schema.json  and commit sdk-gen/",
    );
    return 1;
  }
  mkdirSync(join(root, "dist", "provider", "native"), { recursive: true });
  writeFileSync(join(root, "dist", "provider", "native", FIELD_DOCS_FILE), docs);
  writeFileSync(join(root, "dist", "schema.json"), schema);
  console.error(
    `[write-schema] wrote dist/schema.json (${schema.length} bytes) and dist/provider/native/${FIELD_DOCS_FILE}`,
  );
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
