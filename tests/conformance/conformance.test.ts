/**
 * The conformance suite: each area's scenario (tests/conformance/scenarios/<area>.ts) drives its
 * operations through the sdk against a fresh emulator; every exchange is validated against the public
 * contract (contract/openapi/public-subset.json) and the overlay's override table (contract/overlay.json,
 * shown in docs/assumptions.md). The families' operations (contract/openapi/public-families.json) are
 * judged the same way, each area's by its scenario in tests/conformance/scenarios/families/<area>.ts.
 * Fails for every operation that does not conform and for every area without a scenario; prints
 * `FIGURE conformance {...}` (per area, both files together) and asserts the overall figure.
 */
import { existsSync, readFileSync } from "node:fs";
import { strict as assert } from "node:assert";
import {
  API_SPEC_PATH,
  loadSuiteContract,
  operationKey,
  operationsOf,
  type Contract,
  type SuiteContract,
} from "./contract";
import { evaluate, failureText, figureLine, type AreaReport, type Figure } from "./coverage";
import { loadScenario, openKit, probeFaults, scenarioPath } from "./harness";
import { AREAS, type Area, type ContractPart } from "./kit";
import { checkRows, Overrides, type TableProblem } from "./overrides";
import { ContractValidator } from "./validator";

/** How an area's part is named in the output: `search`, `search (families)`. */
function partName(area: Area, part: ContractPart): string {
  return part === "families" ? `${area} (families)` : area;
}

function printReport(name: string, report: AreaReport): void {
  const lines = [`conformance ${name}: ${report.conforming}/${report.total} operations conform`];
  for (const r of report.operations) {
    lines.push(`  ${r.conforming ? "✓" : "✗"} ${r.key} (${r.exchanges} exchanges)`);
    for (const n of r.notes) lines.push(`      note: ${n}`);
  }
  for (const o of report.outside) lines.push(`  outside the contract: ${o}`);
  console.log(lines.join("\n"));
}

function problemText(problems: readonly TableProblem[]): string {
  return problems.map((p) => `${p.where}: ${p.message}`).join("\n");
}

describe("conformance with the public contract", function () {
  let suite: SuiteContract;
  let overrides: Overrides;
  let tableProblems: TableProblem[] = [];
  const validator = new ContractValidator();
  const figure: Figure = {};
  /** Per area and part, what its run found (an operation absent here was never judged). */
  const judged = new Map<string, AreaReport>();
  /** Operations of the areas whose scenario ran: rows of the table are checked against these. */
  const ran = new Set<string>();

  before(function () {
    suite = loadSuiteContract();
    for (const area of AREAS) figure[area] = { conforming: 0, total: operationsOf(suite.all, area).length };
    const loaded = Overrides.load();
    overrides = loaded.overrides;
    // api.md is the shared spec's, not the project's: without it the rows' api.md lines go unchecked.
    const apiSpec = existsSync(API_SPEC_PATH) ? readFileSync(API_SPEC_PATH, "utf8") : undefined;
    if (apiSpec === undefined)
      console.log(`conformance: ${API_SPEC_PATH} not found; api.md lines not checked`);
    tableProblems = [...loaded.problems, ...checkRows(overrides.rows, suite.all, apiSpec)];
  });

  after(function () {
    console.log(figureLine(figure));
  });

  /** The areas with operations in the families' file (known before `before` runs: mocha needs the list). */
  const familyAreas = AREAS.filter((area) => operationsOf(loadSuiteContract().families, area).length > 0);
  const parts: [Area, ContractPart][] = [
    ...AREAS.map((area): [Area, ContractPart] => [area, "subset"]),
    ...familyAreas.map((area): [Area, ContractPart] => [area, "families"]),
  ];

  for (const [area, part] of parts) {
    const name = partName(area, part);
    it(`${name}: every operation conforms`, async function () {
      this.timeout(300_000);
      const scenario = loadScenario(area, scenarioPath(area, part), part);
      if (typeof scenario === "string") throw new Error(scenario);
      const file: Contract = part === "families" ? suite.families : suite.subset;
      const operations = operationsOf(file, area);
      const open = await openKit();
      let thrown: unknown;
      try {
        try {
          await scenario.run(open.kit);
        } catch (e) {
          thrown = e;
        }
        await probeFaults(operations, open);
      } finally {
        await open.close();
      }
      const report = evaluate(suite.all, operations, open.recorder.exchanges, validator, overrides);
      for (const op of operations) ran.add(operationKey(op));
      judged.set(name, report);
      figure[area]!.conforming += report.conforming;
      printReport(name, report);
      const failed = failureText(report);
      const scenarioError =
        thrown === undefined
          ? ""
          : `the scenario threw: ${thrown instanceof Error ? thrown.stack : String(thrown)}\n`;
      if (failed || scenarioError)
        throw new Error(
          `${name}: ${report.total - report.conforming} of ${report.total} operations do not conform\n${scenarioError}${failed}`,
        );
    });
  }

  it("the figure: every operation of both contract files conforms", function () {
    const total = suite.subset.operations.length + suite.families.operations.length;
    const conforming = new Set(
      [...judged.values()].flatMap((r) => r.operations.filter((o) => o.conforming).map((o) => o.key)),
    );
    const not = suite.all.operations.map(operationKey).filter((key) => !conforming.has(key));
    assert.deepEqual(
      not,
      [],
      `${total - not.length} of ${total} operations conform; not conforming or never judged:\n  ${not.join("\n  ")}`,
    );
    assert.equal(conforming.size, total);
  });

  it("the override table is well-formed and every row accepted something", function () {
    const unused = overrides.unused(ran).map((r) => ({
      where: r.where,
      message: `row matched no validation error: ${r.text}`,
    }));
    const problems = [...tableProblems, ...unused];
    if (problems.length) throw new Error(problemText(problems));
  });
});
