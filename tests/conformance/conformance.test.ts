/**
 * The conformance suite: each area's scenario (tests/conformance/scenarios/<area>.ts) drives its
 * operations through the sdk against a fresh emulator; every exchange is validated against the public
 * contract (contract/openapi/public-subset.json) and the overlay's override table (contract/overlay.json,
 * shown in docs/assumptions.md).
 * Fails for every operation that does not conform and for every area without a scenario; prints
 * `FIGURE conformance {...}`.
 */
import { existsSync, readFileSync } from "node:fs";
import { API_SPEC_PATH, loadContract, operationKey, operationsOf, type Contract } from "./contract";
import { evaluate, failureText, figureLine, type AreaReport, type Figure } from "./coverage";
import { loadScenario, openKit, probeFaults } from "./harness";
import { AREAS, type Area } from "./kit";
import { checkRows, Overrides, type TableProblem } from "./overrides";
import { ContractValidator } from "./validator";

function printReport(area: Area, report: AreaReport): void {
  const lines = [`conformance ${area}: ${report.conforming}/${report.total} operations conform`];
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
  let contract: Contract;
  let overrides: Overrides;
  let tableProblems: TableProblem[] = [];
  const validator = new ContractValidator();
  const figure: Figure = {};
  /** Operations of the areas whose scenario ran: rows of the table are checked against these. */
  const ran = new Set<string>();

  before(function () {
    contract = loadContract();
    for (const area of AREAS) figure[area] = { conforming: 0, total: operationsOf(contract, area).length };
    const loaded = Overrides.load();
    overrides = loaded.overrides;
    // api.md is the shared spec's, not the project's: without it the rows' api.md lines go unchecked.
    const apiSpec = existsSync(API_SPEC_PATH) ? readFileSync(API_SPEC_PATH, "utf8") : undefined;
    if (apiSpec === undefined)
      console.log(`conformance: ${API_SPEC_PATH} not found; api.md lines not checked`);
    tableProblems = [...loaded.problems, ...checkRows(overrides.rows, contract, apiSpec)];
  });

  after(function () {
    console.log(figureLine(figure));
  });

  for (const area of AREAS) {
    it(`${area}: every operation conforms`, async function () {
      this.timeout(300_000);
      const scenario = loadScenario(area);
      if (typeof scenario === "string") throw new Error(scenario);
      const operations = operationsOf(contract, area);
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
      const report = evaluate(contract, operations, open.recorder.exchanges, validator, overrides);
      for (const op of operations) ran.add(operationKey(op));
      figure[area] = { conforming: report.conforming, total: report.total };
      printReport(area, report);
      const failed = failureText(report);
      const scenarioError =
        thrown === undefined
          ? ""
          : `the scenario threw: ${thrown instanceof Error ? thrown.stack : String(thrown)}\n`;
      if (failed || scenarioError)
        throw new Error(
          `${area}: ${report.total - report.conforming} of ${report.total} operations do not conform\n${scenarioError}${failed}`,
        );
    });
  }

  it("the override table is well-formed and every row accepted something", function () {
    const unused = overrides.unused(ran).map((r) => ({
      where: r.where,
      message: `row matched no validation error: ${r.text}`,
    }));
    const problems = [...tableProblems, ...unused];
    if (problems.length) throw new Error(problemText(problems));
  });
});
