/**
 * The drift report's CI formats and its ignore file, without an engine: SARIF validated against the
 * SARIF 2.1.0 schema, JUnit parsed as XML, the ignore file's rules and expiry, unmanaged coverage.
 */
import { strict as assert } from "node:assert";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import {
  DriftIgnoreError,
  applyIgnores,
  parseIgnoreFile,
  renderJunit,
  renderMarkdown,
  renderSarif,
  render,
  renderText,
  runDriftCheck,
  summarize,
  unmanagedReport,
  type DriftReport,
  type ResourceDrift,
} from "../../provider/drift";
import type { DiscoveredObject } from "../../provider/discovery/list";
import { readMarkdown } from "../helpers/markdown";
import { sarifValidator } from "../helpers/sarif";

const urn = (kind: string, name: string) =>
  `urn:pulumi:dev::shop::pulumi-nodejs:dynamic/account-api:${kind}::${name}`;

function resource(kind: string, name: string, over: Partial<ResourceDrift> = {}): ResourceDrift {
  return {
    urn: urn(kind, name),
    type: `account-api:${kind}`,
    name,
    id: `${name}-id`,
    status: "in-sync",
    changes: [],
    ...over,
  };
}

const change = (path: string, old: unknown, now: unknown) => ({ path, old, new: now, restorable: true });

/** A stack with one resource of each outcome. */
function sample(): DriftReport {
  return summarize("dev", [
    resource("BuildTrigger", "prod", {
      status: "drifted",
      changes: [
        change("buildCommand", "npm run build", "make all"),
        change("variables.MODE.value", "a", "b"),
      ],
    }),
    resource("ConfigRule", "docs", { status: "gone" }),
    resource("SearchInstance", "kb"),
    resource("RepoConnection", "repo", { status: "unchecked", reason: "read failed: 500", failed: true }),
    resource("MeetingTemplate", "standup", {
      status: "drifted",
      changes: [change("title", "Standup", 'Daily <standup> & "more"')],
    }),
  ]);
}

describe("drift formats", () => {
  describe("ignore file", () => {
    it("reads entries with a reason and an optional expiry; comments and blank lines are skipped", () => {
      const entries = parseIgnoreFile(
        [
          "# accepted drift",
          "",
          "BuildTrigger prod buildCommand | trying make in the dashboard | 2026-12-31",
          "account-api:ConfigRule *   | the incident switch removes rules",
        ].join("\n"),
      );
      assert.deepEqual(entries, [
        {
          line: 3,
          pattern: "BuildTrigger prod buildCommand",
          reason: "trying make in the dashboard",
          type: "BuildTrigger",
          name: "prod",
          property: "buildCommand",
          expires: "2026-12-31",
        },
        {
          line: 4,
          pattern: "account-api:ConfigRule *",
          reason: "the incident switch removes rules",
          type: "account-api:ConfigRule",
          name: "*",
        },
      ]);
    });

    it("names every bad line and the rule it breaks", () => {
      const text = [
        "BuildTrigger prod",
        "BuildTrigger | no name",
        "BuildTrigger prod |  ",
        "BuildTrigger prod | why | 2026-02-30",
        "BuildTrigger prod | why | 2026-12-31 | more",
        "ok one | fine",
      ].join("\n");
      assert.throws(
        () => parseIgnoreFile(text, ".account-api-driftignore"),
        (err: unknown) => {
          assert.ok(err instanceof DriftIgnoreError);
          assert.deepEqual(
            err.issues.map((i) => i.line),
            [1, 2, 3, 4, 5],
          );
          assert.match(
            err.message,
            /\.account-api-driftignore:1: no reason: an entry is PATTERN \| REASON \[\| EXPIRES\]/,
          );
          assert.match(err.message, /:2: pattern "BuildTrigger": must be TYPE NAME \[PROPERTY\]/);
          assert.match(err.message, /:3: no reason: every entry says why/);
          assert.match(err.message, /:4: expiry "2026-02-30": must be a date YYYY-MM-DD/);
          assert.match(err.message, /:5: 4 fields: an entry is PATTERN/);
          return true;
        },
      );
    });

    it("hides what it covers, through its last day, and reports an expired entry without applying it", () => {
      const entries = parseIgnoreFile(
        [
          "BuildTrigger prod buildCommand | trying make | 2026-12-31",
          "BuildTrigger prod variables | set by the on-call script",
          "ConfigRule d* | removed during the incident",
          "MeetingTemplate standup | renamed by the team | 2026-11-01",
        ].join("\n"),
      );
      const r = applyIgnores(sample(), entries, "2026-11-26");
      const byName = Object.fromEntries(r.resources.map((x) => [x.name, x]));
      assert.equal(byName.prod?.status, "ignored");
      assert.deepEqual(
        byName.prod?.ignoredChanges?.map((c) => [c.path, c.ignoredBy.line]),
        [
          ["buildCommand", 1],
          ["variables.MODE.value", 2],
        ],
      );
      assert.equal(byName.docs?.status, "ignored");
      assert.equal(byName.docs?.ignoredBy?.reason, "removed during the incident");
      // Expired on 2026-11-01: the meeting's drift stands.
      assert.equal(byName.standup?.status, "drifted");
      assert.deepEqual(r.expiredIgnores, [
        { line: 4, pattern: "MeetingTemplate standup", reason: "renamed by the team", expires: "2026-11-01" },
      ]);
      assert.equal(r.exitCode, 2);
      assert.deepEqual(r.counts, { resources: 5, inSync: 1, drifted: 1, gone: 0, unchecked: 1, ignored: 2 });
      const text = renderText(r);
      assert.match(text, /ignore entry expired on 2026-11-01, not applied: line 4 "MeetingTemplate standup"/);
      assert.match(
        text,
        /buildCommand: "npm run build" → "make all" \(ignored: trying make \(ignore file line 1, until 2026-12-31\)\)/,
      );
      const md = readMarkdown(renderMarkdown(r));
      const rows = md.rows.map((row) => row.map((c) => c.text));
      assert.deepEqual(rows[1], [
        "account-api:BuildTrigger prod",
        "ignored",
        "buildCommand",
        '"npm run build"',
        '"make all"',
        "ignored: trying make (ignore file line 1, until 2026-12-31)",
      ]);
      assert.deepEqual(rows[3], [
        "account-api:ConfigRule docs",
        "ignored",
        "ignored: removed during the incident (ignore file line 3)",
        "",
        "",
        "",
      ]);
      assert.deepEqual(rows[6]?.slice(3), [
        '"Standup"',
        '"Daily <standup> & \\"more\\""',
        "pulumi up --refresh",
      ]);
      assert.match(md.items[0]?.text ?? "", /^ignore entry expired on 2026-11-01, not applied: line 4/);
      // The last day still applies.
      const lastDay = applyIgnores(sample(), entries, "2026-11-01");
      assert.equal(lastDay.resources.find((x) => x.name === "standup")?.status, "ignored");
      assert.equal(lastDay.exitCode, 1, "only the failed read is left: an error, not drift");
    });
  });

  describe("SARIF", () => {
    const validate = sarifValidator();

    it("validates against the SARIF 2.1.0 schema, one result per drifted property", () => {
      const r = applyIgnores(
        sample(),
        parseIgnoreFile("BuildTrigger prod variables | on-call"),
        "2026-11-26",
      );
      const log = renderSarif(r, { projectFile: "infra/Pulumi.yaml", version: "1.2.3" });
      assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
      const [run] = log.runs as {
        results: {
          ruleId: string;
          message: { text: string };
          suppressions?: unknown[];
          locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
        }[];
      }[];
      const results = run?.results ?? [];
      assert.deepEqual(
        results.map((x) => `${x.ruleId} ${x.suppressions ? "suppressed" : "open"}`),
        [
          "drift/property-changed open", // prod buildCommand
          "drift/property-changed suppressed", // prod variables.MODE.value, by the ignore file
          "drift/resource-gone open",
          "drift/check-failed open",
          "drift/property-changed open", // standup title
        ],
      );
      const props = results.filter((x) => x.ruleId === "drift/property-changed");
      assert.equal(props.length, 3, "one result per drifted property, ignored ones included as suppressed");
      assert.equal(props.filter((x) => x.suppressions).length, 1);
      assert.match(
        props[0]?.message.text ?? "",
        /account-api:BuildTrigger prod \(stack dev\): `buildCommand` changed outside the program: "npm run build" → "make all"/,
      );
      assert.equal(results[0]?.locations[0]?.physicalLocation.artifactLocation.uri, "infra/Pulumi.yaml");
    });

    it("a failed run is an unsuccessful invocation, still valid SARIF", () => {
      const r = summarize("dev", [], "no stack named dev");
      const log = renderSarif(r, { projectFile: "Pulumi.yaml", version: "1.2.3" });
      assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
      const inv = (log.runs as { invocations: { executionSuccessful: boolean }[] }[])[0]?.invocations[0];
      assert.equal(inv?.executionSuccessful, false);
    });

    it("the schema copy refuses what is not SARIF (the validation can fail)", () => {
      assert.equal(validate({ version: "2.1.0", runs: [{ results: [] }] }), false, "a run needs its tool");
      assert.equal(validate({ version: "2.0.0", runs: [] }), false);
    });
  });

  describe("JUnit", () => {
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "",
      isArray: (n) => n === "testcase" || n === "testsuite",
    });

    it("parses as XML, one test case per resource; a drifted one fails with its properties", () => {
      const xml = renderJunit(sample());
      assert.equal(XMLValidator.validate(xml), true);
      const doc = parser.parse(xml) as {
        testsuites: {
          testsuite: {
            name: string;
            tests: string;
            failures: string;
            errors: string;
            testcase: Record<string, unknown>[];
          }[];
        };
      };
      const [suite] = doc.testsuites.testsuite;
      assert.equal(suite?.name, "drift: stack dev");
      assert.deepEqual([suite?.tests, suite?.failures, suite?.errors], ["5", "3", "1"]);
      const byName = Object.fromEntries((suite?.testcase ?? []).map((c) => [String(c.name), c]));
      const prod = byName.prod?.failure as { type: string; message: string; "#text": string };
      assert.equal(prod.type, "drifted");
      assert.equal(
        prod.message,
        "2 properties changed outside the program: buildCommand, variables.MODE.value",
      );
      assert.equal(
        prod["#text"],
        'buildCommand: "npm run build" → "make all"\nvariables.MODE.value: "a" → "b"',
      );
      assert.equal((byName.docs?.failure as { type: string }).type, "gone");
      assert.equal((byName.repo?.error as { message: string }).message, "read failed: 500");
      assert.equal(byName.kb?.failure, undefined);
      // Markup in values is escaped, never markup.
      const standup = byName.standup?.failure as { "#text": string };
      assert.equal(standup["#text"], 'title: "Standup" → "Daily <standup> & \\"more\\""');
    });

    it("unmanaged objects are a suite of their own: failures with --fail-on unmanaged, skipped without", () => {
      const listed: DiscoveredObject[] = [
        {
          kind: "BuildTrigger",
          id: "u1",
          resourceId: "u1",
          importId: "shop/u1",
          name: "shop/manual",
          scope: { scriptName: "shop" },
          settings: {},
        },
        {
          kind: "SearchInstance",
          id: "kb",
          resourceId: "default/kb",
          importId: "default/kb",
          name: "default/kb",
          scope: {},
          settings: {},
        },
      ];
      const managed = [resource("SearchInstance", "kb", { id: "default/kb" })];
      for (const failOn of [true, false]) {
        const unmanaged = unmanagedReport(
          managed,
          listed,
          [{ kind: "MeetingTemplate", reason: "no app named" }],
          failOn,
        );
        const r = summarize("dev", managed, undefined, { unmanaged });
        assert.equal(r.exitCode, failOn ? 2 : 0);
        const xml = renderJunit(r);
        assert.equal(XMLValidator.validate(xml), true);
        const doc = parser.parse(xml) as {
          testsuites: { testsuite: { name: string; testcase: Record<string, unknown>[] }[] };
        };
        const suite = doc.testsuites.testsuite.find((s) => s.name === "unmanaged objects");
        assert.equal(suite?.testcase.length, 1);
        assert.ok(suite?.testcase[0]?.[failOn ? "failure" : "skipped"]);
        assert.deepEqual(unmanaged.overall, { managed: 1, total: 2, percent: 50 });
        const cov = Object.fromEntries(unmanaged.coverage.map((c) => [c.kind, c]));
        assert.deepEqual([cov.SearchInstance?.managed, cov.SearchInstance?.total], [1, 1]);
        assert.deepEqual([cov.BuildTrigger?.managed, cov.BuildTrigger?.total], [0, 1]);
        assert.equal(cov.MeetingTemplate?.notListed, "no app named");
        assert.match(
          renderText(r),
          /coverage: 50% \(1 of 2 objects managed\); per kind: BuildTrigger 0 of 1, .*MeetingTemplate not listed \(no app named\), .*SearchInstance 1 of 1/,
        );
      }
    });
  });

  describe("the module's entry", () => {
    it("render(report, format) is each format's text, SARIF as its JSON log", () => {
      const r = sample();
      assert.equal(render(r, "text"), renderText(r));
      assert.equal(render(r, "markdown"), renderMarkdown(r));
      assert.equal(render(r, "junit"), renderJunit(r));
      const options = { projectFile: "Pulumi.yaml", version: "1.2.3" };
      const sarif = render(r, "sarif", options);
      assert.ok(sarif.endsWith("}\n"));
      assert.deepEqual(JSON.parse(sarif), renderSarif(r, options));
    });

    it("runDriftCheck: a stack that cannot be selected is the run's error (exit 1), no listing, ignores still read", async () => {
      const ignores = parseIgnoreFile("BuildTrigger prod | accepted | 2020-01-01\n");
      const report = await runDriftCheck({
        selectStack: () => Promise.reject(new Error("no stack selected in /p: pass --stack")),
        stackName: "dev",
        ignores,
        day: "2026-01-01",
      });
      assert.equal(report.stack, "dev");
      assert.equal(report.exitCode, 1);
      assert.equal(report.error, "no stack selected in /p: pass --stack");
      assert.equal(report.unmanaged, undefined);
      assert.deepEqual(
        report.expiredIgnores?.map((e) => e.pattern),
        ["BuildTrigger prod"],
      );
      assert.match(render(report, "text"), /^drift check failed: no stack selected in \/p: pass --stack$/m);
    });
  });
});
