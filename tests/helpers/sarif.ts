/** A validator of SARIF 2.1.0 logs, on the schema as published (tests/fixtures/sarif/SOURCE.md). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";

/**
 * The schema is draft-04, which ajv 8 reads once its two draft-04 spellings are given today's names
 * (`id` → `$id`, the meta-schema's URI).
 */
export function sarifValidator() {
  const file = join(__dirname, "..", "fixtures", "sarif", "sarif-2.1.0-rtm.5.json");
  const {
    id,
    $schema: _draft04,
    ...rest
  } = JSON.parse(readFileSync(file, "utf8")) as {
    id: string;
    $schema: string;
  };
  // Its `language` pattern is no valid unicode regex (`…{2}]?$`): read as draft-04 meant, without the u flag.
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile({ ...rest, $id: id, $schema: "http://json-schema.org/draft-07/schema#" });
}
