/**
 * The project's copy of the contract (contract/openapi/) and the overlay beside it: the copies parse
 * and hold the operations their READMEs count, every overlay entry names something of the contract,
 * and docs/assumptions.md shows the overlay's override table as it is.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { ContractFileSchema, overlayProblems, type ContractFile } from "../../contract/check-overlay";
import { FAMILIES_PATH, SUBSET_PATH } from "../../contract/files";
import { loadOverlay, type Overlay } from "../../contract/overlay-schema";
import { loadContract } from "../conformance/contract";
import { ASSUMPTIONS_PATH, docTable, overrideRows, overrideTable } from "../conformance/overrides";

const readContractFile = (path: string): ContractFile =>
  ContractFileSchema.parse(JSON.parse(readFileSync(path, "utf8")));

describe("the contract's copy and its overlay", function () {
  const subset = readContractFile(SUBSET_PATH);
  const families = readContractFile(FAMILIES_PATH);
  const overlay = loadOverlay();

  it("holds the 112 operations of public-subset.json and the 31 of public-families.json", function () {
    assert.equal(subset.operations.length, 112);
    assert.equal(families.operations.length, 31);
    assert.equal(loadContract().operations.length, 112, "the conformance suite reads the same copy");
    const keys = [...subset.operations, ...families.operations].map((op) => `${op.method} ${op.path}`);
    assert.equal(new Set(keys).size, keys.length, "no operation is in both files");
  });

  it("every overlay entry names an operation and a place of the contract", function () {
    assert.ok(overlay.overrides.length > 0 && overlay.wireRenames.length > 0);
    assert.ok(overlay.newerFacts.fields.length > 0 && overlay.newerFacts.enums.length > 0);
    assert.deepEqual(overlayProblems(overlay, subset, families), []);
    assert.deepEqual(overrideRows(overlay).problems, []);
  });

  it("an entry that matches nothing fails, naming it", function () {
    const bodyField = overlay.newerFacts.fields.find((f) => f.in === "requestBody");
    assert.ok(bodyField);
    const broken: Overlay = {
      overrides: [{ ...overlay.overrides[0]!, pointer: "/nowhere" }],
      wireRenames: [{ ...overlay.wireRenames[0]!, operation: "POST /accounts/{account_id}/nothing" }],
      newerFacts: {
        source: overlay.newerFacts.source,
        fields: [{ ...bodyField, field: "source_params.nowhere.discover_options" }],
        enums: [{ ...overlay.newerFacts.enums[0]!, subsetEnum: ["other"] }],
      },
      rules: [],
    };
    const problems = overlayProblems(broken, subset, families);
    assert.equal(problems.length, 6, problems.join("\n"));
    assert.match(
      problems[0]!,
      /^overrides\[0\] \(.*\/nowhere\): \/nowhere is not a place of the contract's schema$/,
    );
    assert.match(
      problems[1]!,
      /^wireRenames\[0\] .*: operation POST \/accounts\/\{account_id\}\/nothing is not in the contract$/,
    );
    assert.match(problems[2]!, /^newerFacts\.fields\[0\] .*: not listed in resolutionNotes/);
    assert.match(
      problems[3]!,
      /^newerFacts\.fields\[0\] .*: its parent is not a place of the contract's schema$/,
    );
    assert.match(problems[4]!, /^newerFacts\.enums\[0\] .*: not listed in resolutionNotes/);
    assert.match(
      problems[5]!,
      /^newerFacts\.enums\[0\] .*: the contract's enum there is no longer \["other"\]$/,
    );
  });

  it("docs/assumptions.md shows the overlay's override table as it is", function () {
    const shown = docTable(readFileSync(ASSUMPTIONS_PATH, "utf8"));
    assert.ok(Array.isArray(shown), Array.isArray(shown) ? "" : shown.message);
    assert.deepEqual(
      shown,
      overrideTable(overlay.overrides),
      "regenerate the table from contract/overlay.json",
    );
  });
});
