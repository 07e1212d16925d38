/**
 * `account-api drift` for CI on the real engine: `--sarif` (validated against the SARIF 2.1.0
 * schema), `--junit` (parsed), `--json` with its schema version, the project's
 * `.account-api-driftignore` with an entry in force and an expired one, and `--unmanaged` with
 * coverage per kind and `--fail-on unmanaged`, against objects made outside the program.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { BuildTrigger, SearchInstance, TriggerEnvVars } from "../../provider";
import { DRIFT_SCHEMA_VERSION, type DriftReport } from "../../provider/drift";
import { editTriggerOutOfBand, seedBuildWorld } from "../helpers/builds";
import { runCliWith } from "../helpers/cli";
import { sarifValidator } from "../helpers/sarif";
import { useE2E, type E2EStack } from "./harness";

describe("account-api drift: CI formats, ignore file, unmanaged (real engine)", function () {
  this.timeout(240_000);
  const e2e = useE2E("driftfmt");
  let scratch = "";
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), "drift-formats-"));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  async function drift(stack: E2EStack, extra: string[]) {
    // --unmanaged lists the account through the sdk's own configuration, as every other verb.
    const env = {
      ...stack.stack.workspace.envVars,
      ACCOUNT_API_BASE_URL: e2e.emulator.url,
      ACCOUNT_API_ACCOUNT_ID: e2e.emulator.accountId,
      ACCOUNT_API_TOKEN: e2e.emulator.token,
    };
    const args = ["drift", "--stack", stack.name, "--cwd", stack.stack.workspace.workDir, "--json", ...extra];
    const run = await runCliWith(env, args);
    return { report: run.json as DriftReport, exitCode: run.code, err: run.err };
  }

  it("writes SARIF and JUnit, honours the ignore file and its expiry, and reports unmanaged objects", async () => {
    const world = await seedBuildWorld(e2e, "fmt-shop");
    const stack = await e2e.stack(async () => {
      const prod = new BuildTrigger("prod", {
        scriptName: "fmt-shop",
        repoConnectionUuid: world.repo,
        buildTokenUuid: world.token,
        kind: "production",
        buildCommand: "npm run build",
      });
      new TriggerEnvVars("vars", { triggerUuid: prod.triggerUuid, variables: { MODE: { value: "fast" } } });
      new SearchInstance("kb", { instanceId: "fmt-kb", type: "r2", source: "docs-bucket" });
      return {};
    });
    await stack.up();
    // Made outside any program: an instance and a zone whose converter is on.
    await e2e.api.search.instances.create({}, { id: "by-hand", type: "r2", source: "docs-bucket" });
    const zone = await e2e.api.content.zones.create({}, { name: "fmt.example" });
    await e2e.api.content.contentConverter.set({ zoneId: zone.id }, { value: "on" });
    // Out of band: the trigger's command and one variable.
    const trigger = await editTriggerOutOfBand(e2e.api, world.tag);
    writeFileSync(
      join(stack.stack.workspace.workDir, ".account-api-driftignore"),
      [
        "# accepted drift",
        "BuildTrigger prod buildCommand | trying make in the dashboard | 2999-12-31",
        "TriggerEnvVars vars | was accepted until the spring | 2000-01-01",
        "SearchInstance by-hand | a team's experiment",
      ].join("\n"),
    );

    const sarif = join(scratch, "drift.sarif");
    const junit = join(scratch, "drift.xml");
    const run = await drift(stack, [
      "--sarif",
      sarif,
      "--junit",
      junit,
      "--unmanaged",
      "--zone",
      "fmt.example",
    ]);
    const r = run.report;
    assert.equal(r.schemaVersion, DRIFT_SCHEMA_VERSION);
    const byName = Object.fromEntries(r.resources.map((x) => [x.name, x]));
    assert.equal(byName.prod?.status, "ignored");
    assert.equal(byName.prod?.ignoredChanges?.[0]?.ignoredBy.reason, "trying make in the dashboard");
    assert.equal(byName.vars?.status, "drifted", "the expired entry is not applied");
    assert.deepEqual(
      r.expiredIgnores?.map((e) => [e.line, e.expires]),
      [[3, "2000-01-01"]],
    );
    assert.equal(run.exitCode, 2, run.err);
    // Unmanaged: the instance made by hand (accepted by the ignore file), the zone's converter, and the
    // repository connection the set-up made (the program takes it by id).
    const unmanaged = r.unmanaged?.objects.map(
      (o) => `${o.kind} ${o.id} ${o.ignoredBy ? "ignored" : "open"}`,
    );
    assert.deepEqual(unmanaged?.sort(), [
      `RepoConnection ${world.repo} open`,
      "SearchInstance by-hand ignored",
      `ZoneContentConverter ${zone.id} open`,
    ]);
    const cov = Object.fromEntries(
      (r.unmanaged?.coverage ?? []).map((c) => [c.kind, `${c.managed}/${c.total}`]),
    );
    assert.deepEqual(
      [cov.BuildTrigger, cov.TriggerEnvVars, cov.SearchInstance, cov.ZoneContentConverter],
      ["1/1", "1/1", "1/2", "0/1"],
    );
    // Managed: the trigger, its variables, the instance kb; not: the connection, by-hand, the converter.
    assert.deepEqual(r.unmanaged?.overall, { managed: 3, total: 6, percent: 50 });

    const validate = sarifValidator();
    const log: unknown = JSON.parse(readFileSync(sarif, "utf8"));
    assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
    const results = (log as { runs: { results: { ruleId: string; suppressions?: unknown[] }[] }[] }).runs[0]!
      .results;
    assert.deepEqual(results.map((x) => `${x.ruleId}${x.suppressions ? " (suppressed)" : ""}`).sort(), [
      "drift/property-changed", // vars: variables.MODE.value
      "drift/property-changed (suppressed)", // prod: buildCommand
      "drift/unmanaged-object", // the repository connection
      "drift/unmanaged-object", // the zone's converter
      "drift/unmanaged-object (suppressed)",
    ]);

    const xml = readFileSync(junit, "utf8");
    assert.equal(XMLValidator.validate(xml), true);
    const doc = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "",
      isArray: (n) => n === "testsuite" || n === "testcase",
    }).parse(xml) as {
      testsuites: {
        testsuite: { name: string; testcase: { name: string; failure?: { message: string } }[] }[];
      };
    };
    const suite = doc.testsuites.testsuite.find((s) => s.name === `drift: stack ${stack.name}`);
    assert.deepEqual(
      suite?.testcase.map((c) => c.name).sort(),
      ["kb", "prod", "vars"],
      "one test case per resource",
    );
    assert.match(
      suite?.testcase.find((c) => c.name === "vars")?.failure?.message ?? "",
      /variables\.MODE\.value/,
    );
    assert.equal(suite?.testcase.find((c) => c.name === "prod")?.failure, undefined);

    // Once the variable is put back, only the unmanaged converter is left: 0, or 2 with --fail-on unmanaged.
    await e2e.api.builds.environmentVariables.upsert(
      { triggerUuid: trigger.trigger_uuid },
      { MODE: { value: "fast", is_secret: false } },
    );
    const quiet = await drift(stack, ["--unmanaged", "--zone", zone.id]);
    assert.equal(quiet.exitCode, 0, quiet.err);
    const strict = await drift(stack, ["--fail-on", "unmanaged", "--zone", zone.id]);
    assert.equal(strict.exitCode, 2, strict.err);
    assert.equal(strict.report.counts.drifted, 0);
  });

  it("a bad ignore file is bad input naming the line and the rule, before the engine runs", async () => {
    const stack = await e2e.stack(async () => ({}));
    const file = join(scratch, "bad-ignore");
    writeFileSync(file, "BuildTrigger prod | fine\nBuildTrigger | why\n");
    const run = await runCliWith({ ...stack.stack.workspace.envVars }, [
      "drift",
      "--stack",
      stack.name,
      "--ignore-file",
      file,
    ]);
    assert.equal(run.code, 64);
    assert.equal(run.out, "", "nothing ran");
    assert.match(run.err, /bad-ignore:2: pattern "BuildTrigger": must be TYPE NAME \[PROPERTY\]/);
  });

  it("--unmanaged lists nothing when the engine could not read the stack (never all unmanaged)", async () => {
    const stack = await e2e.stack(async () => ({}));
    const run = await drift({ ...stack, name: "no-such-stack" }, ["--unmanaged"]);
    assert.equal(run.exitCode, 1);
    assert.match(run.report.error ?? "", /no-such-stack/);
    assert.equal(run.report.unmanaged, undefined);
  });
});
