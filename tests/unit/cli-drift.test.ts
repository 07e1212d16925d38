/**
 * The drift report from engine events, without an engine: statuses, masked secrets, restorability,
 * counts and exit codes, the text and the Markdown table; and the provider's `buildTokens` logic.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  LocalWorkspace,
  PulumiCommand,
  type EngineEvent,
  type StepEventMetadata,
  type StepEventStateMetadata,
} from "@pulumi/pulumi/automation";
import { EXIT } from "../../cli/main";
import { selectUserStack } from "../../cli/drift";
import { runBuildTokens } from "../../provider/functions/builds";
import { runCliWith } from "../helpers/cli";
import {
  driftFromEvents,
  engineError,
  leafChanges,
  MASK,
  renderMarkdown,
  renderText,
} from "../../provider/drift";
import { useEmulator } from "../helpers/emulator";
import { readMarkdown } from "../helpers/markdown";

const SIG = "4dabf18193072939515e22adb298388d";
const secret = { [SIG]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: "[secret]" };
const TYPE = (kind: string) => `pulumi-nodejs:dynamic/account-api:${kind}`;
const urn = (kind: string, name: string) => `urn:pulumi:dev::proj::${TYPE(kind)}::${name}`;

function state(
  kind: string,
  name: string,
  inputs: Record<string, unknown>,
  outputs = inputs,
): StepEventStateMetadata {
  return {
    type: TYPE(kind),
    urn: urn(kind, name),
    custom: true,
    id: `${name}-id`,
    parent: "",
    inputs: { __provider: "exports.handler = …", ...inputs },
    outputs,
    provider: "",
  };
}

let seq = 0;
function step(
  op: StepEventMetadata["op"],
  old: StepEventStateMetadata,
  now?: StepEventStateMetadata,
): StepEventMetadata {
  return { op, urn: old.urn, type: old.type, old, ...(now ? { new: now } : {}), provider: "" };
}
const pre = (m: StepEventMetadata): EngineEvent => ({
  sequence: seq++,
  timestamp: 0,
  resourcePreEvent: { metadata: m },
});
const done = (m: StepEventMetadata): EngineEvent => ({
  sequence: seq++,
  timestamp: 0,
  resOutputsEvent: { metadata: m },
});
const diag = (u: string, message: string): EngineEvent => ({
  sequence: seq++,
  timestamp: 0,
  diagnosticEvent: { urn: u, message, color: "never", severity: "error" },
});

describe("drift report from refresh-preview events", () => {
  it("an empty stack is no resources, no drift, exit 0", () => {
    const r = driftFromEvents("dev", []);
    assert.equal(r.exitCode, 0);
    assert.match(renderText(r), /^no resources, no drift\n$/);
  });

  it("in sync resources: exit 0 and the count", () => {
    const t = state("BuildTrigger", "prod", { buildCommand: "npm run build" });
    const r = driftFromEvents("dev", [pre(step("refresh", t, t)), done(step("same", t, t))]);
    assert.equal(r.exitCode, 0);
    assert.deepEqual(r.counts, { resources: 1, inSync: 1, drifted: 0, gone: 0, unchecked: 0, ignored: 0 });
    assert.match(renderText(r), /^no drift: 1 resources checked\n$/);
  });

  it("drift: leaf paths with old → new, secrets masked, not-restorable fields said so, status outputs watched", () => {
    const vOld = state("TriggerEnvVars", "vars", {
      variables: { MODE: { value: "fast" }, KEY: { value: secret } },
    });
    const vNew = state("TriggerEnvVars", "vars", {
      variables: { MODE: { value: "slow" }, KEY: { value: secret } },
    });
    const dOld = state(
      "DomainRegistration",
      "site",
      { autoRenew: true },
      { autoRenew: true, locked: true, status: "active", createdAt: "a" },
    );
    const dNew = state(
      "DomainRegistration",
      "site",
      { autoRenew: true },
      { autoRenew: true, locked: false, status: "suspended", createdAt: "b" },
    );
    const r = driftFromEvents("dev", [done(step("update", vOld, vNew)), done(step("update", dOld, dNew))]);
    assert.equal(r.exitCode, 2);
    const vars = r.resources.find((x) => x.name === "vars")!;
    assert.deepEqual(vars.changes, [
      { path: "variables.MODE.value", old: "fast", new: "slow", restorable: true },
    ]);
    const site = r.resources.find((x) => x.name === "site")!;
    assert.deepEqual(
      site.changes.map((c) => [c.path, c.old, c.new, c.restorable]),
      [
        ["locked", true, false, false],
        ["status", "active", "suspended", false],
      ],
    );
    const text = renderText(r);
    assert.match(
      text,
      /account-api:DomainRegistration site \(site-id\): drifted\n {2}locked: true → false \(the API's registration PATCH/,
    );
    assert.match(text, /status: "active" → "suspended"/);
    assert.match(text, /2 resources: 0 in sync, 2 drifted, 0 gone, 0 could not be checked/);
    assert.match(text, /next: `pulumi up --refresh` restores/);
    assert.match(text, /next: `pulumi refresh` accepts/);
    assert.ok(!text.includes("ciphertext") && !text.includes(SIG));
  });

  it("a secret compared with a plain value shows as [secret], never its envelope", () => {
    assert.deepEqual(leafChanges({ a: secret }, { a: "x" }), [{ path: "a", old: MASK, new: "x" }]);
    assert.deepEqual(leafChanges({ a: secret }, { a: secret }), []);
  });

  it("gone, and could not be checked with the engine's reason (exit 1 without drift, 2 with)", () => {
    const t = state("BuildTrigger", "prod", { buildCommand: "x" });
    const s = state("SearchInstance", "kb", { instanceId: "kb" });
    const gone = driftFromEvents("dev", [pre(step("refresh", t)), done(step("delete", t))]);
    assert.equal(gone.resources[0]!.status, "gone");
    assert.equal(gone.exitCode, 2);
    assert.match(renderText(gone), /gone\n {2}deleted outside the program/);
    const failed = driftFromEvents(
      "dev",
      [pre(step("refresh", s)), diag(s.urn, "\u001b[31mGET …/instances/kb failed with 500\u001b[0m\n")],
      "refresh failed",
    );
    assert.deepEqual(
      failed.resources.map((x) => [x.status, x.reason]),
      [["unchecked", "GET …/instances/kb failed with 500"]],
    );
    assert.equal(failed.exitCode, 1);
    const both = driftFromEvents(
      "dev",
      [pre(step("refresh", t)), done(step("delete", t)), pre(step("refresh", s))],
      "x",
    );
    assert.equal(both.exitCode, 2);
    assert.deepEqual(both.counts, { resources: 2, inSync: 0, drifted: 0, gone: 1, unchecked: 1, ignored: 0 });
  });

  it("a provider's uncheckedReason output makes the resource 'could not be checked' without failing", () => {
    const r0 = state("RepoConnection", "repo", { repoId: "a" });
    const r1 = state(
      "RepoConnection",
      "repo",
      { repoId: "a" },
      { repoId: "a", uncheckedReason: "the API has no read" },
    );
    const r = driftFromEvents("dev", [done(step("same", r0, r1))]);
    assert.deepEqual(
      [r.resources[0]!.status, r.resources[0]!.reason, r.exitCode],
      ["unchecked", "the API has no read", 0],
    );
  });

  it("providers and the stack are not resources of the report", () => {
    const p: StepEventStateMetadata = { ...state("X", "p", {}), type: "pulumi:providers:pulumi-nodejs" };
    const stack: StepEventStateMetadata = {
      ...state("X", "s", {}),
      type: "pulumi:pulumi:Stack",
      custom: false,
    };
    assert.equal(
      driftFromEvents("dev", [
        done({ ...step("same", p, p), type: p.type }),
        done({ ...step("same", stack, stack), type: stack.type }),
      ]).counts.resources,
      0,
    );
  });

  it("Markdown: a heading, the counts and a table whose cells cannot break it", () => {
    const o = state("BuildTrigger", "prod", { buildCommand: "a | b" });
    const n = state("BuildTrigger", "prod", { buildCommand: "c\nd" });
    const read = readMarkdown(renderMarkdown(driftFromEvents("dev", [done(step("update", o, n))])));
    assert.deepEqual(read.headings, [{ text: "Drift: stack dev", markup: [] }]);
    const cells = read.rows.map((row) => row.map((c) => c.text));
    assert.deepEqual(cells, [
      ["Resource", "Status", "Property or reason", "Declared (state)", "Remote (now)", "Restored by"],
      [
        "account-api:BuildTrigger prod",
        "drifted",
        "buildCommand",
        '"a | b"',
        '"c\\nd"',
        "pulumi up --refresh",
      ],
    ]);
    // Values are text; only our own command is code.
    assert.deepEqual(
      read.rows[1]?.map((c) => c.markup),
      [[], [], [], [], [], ["code_inline"]],
    );
  });
});

describe("a drift check that failed never reads as no drift", () => {
  it("an engine that could not run: the text and the Markdown say the check failed and why (exit 1)", () => {
    const r = driftFromEvents("nope", [], "no stack named 'nope' found");
    assert.equal(r.exitCode, 1);
    assert.equal(renderText(r), "drift check failed: no stack named 'nope' found\n");
    const md = readMarkdown(renderMarkdown(r));
    assert.deepEqual(md.headings[0]?.text, "Drift: stack nope");
    assert.deepEqual(md.paragraphs[0], {
      text: "drift check failed: no stack named 'nope' found",
      markup: ["strong_open", "strong_close"],
    });
    for (const text of [renderText(r), md.paragraphs[0]?.text ?? ""]) assert.doesNotMatch(text, /no drift/);
  });

  it("a run that stopped after some resources: the failure first, what was seen after it", () => {
    const t = state("BuildTrigger", "prod", { buildCommand: "x" });
    const stopped = driftFromEvents(
      "dev",
      [pre(step("refresh", t)), done(step("same", t, t))],
      "engine crashed",
    );
    assert.equal(stopped.exitCode, 1);
    assert.match(
      renderText(stopped),
      /^drift check failed: engine crashed \(before it stopped: 1 resources: 1 in sync, 0 drifted/m,
    );
    const o = state("BuildTrigger", "prod", { buildCommand: "a" });
    const n = state("BuildTrigger", "prod", { buildCommand: "b" });
    const drifted = driftFromEvents("dev", [done(step("update", o, n))], "engine crashed");
    assert.equal(drifted.exitCode, 2);
    assert.match(renderText(drifted), /^drift found, but the check did not finish: engine crashed/m);
  });

  it("a resource whose read failed makes the verdict a failure, not a bare count", () => {
    const s = state("SearchInstance", "kb", { instanceId: "kb" });
    const r = driftFromEvents("dev", [
      pre(step("refresh", s)),
      diag(s.urn, "GET …/instances/kb failed with 500"),
    ]);
    assert.equal(r.exitCode, 1);
    assert.match(renderText(r), /^drift check failed: 1 of 1 resources could not be read/m);
  });

  describe("account-api drift without the engine's prerequisites", () => {
    let dir = "";
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), "cli-drift-"));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it("no `pulumi` on PATH: exit 1, stdout, stderr and the summary say the check failed and why", async () => {
      const summary = join(dir, "summary.md");
      // A PATH with no `pulumi` on it: the user's environment, as io.env.
      const r = await runCliWith({ PATH: dir }, [
        "drift",
        "--stack",
        "nope",
        "--cwd",
        dir,
        "--markdown",
        summary,
      ]);
      assert.equal(r.code, EXIT.error);
      const why = "the `pulumi` CLI was not found on PATH";
      assert.ok(r.out.startsWith(`drift check failed: ${why}`), r.out);
      assert.ok(r.err.startsWith(`error: drift check failed: ${why}`), r.err);
      const md = readMarkdown(readFileSync(summary, "utf8")).paragraphs[0]?.text ?? "";
      assert.ok(md.startsWith(`drift check failed: ${why}`), md);
      for (const text of [r.out, md]) assert.doesNotMatch(text, /no drift/);
      const json = await runCliWith({ PATH: dir }, ["drift", "--stack", "nope", "--cwd", dir, "--json"]);
      assert.equal((json.json as { exitCode: number; error: string }).exitCode, EXIT.error);
      assert.ok((json.json as { error: string }).error.startsWith(why));
    });

    it("--markdown into a missing folder and a --cwd that does not exist are bad input (64), before the engine", async () => {
      const md = await runCliWith({ PATH: dir }, ["drift", "--markdown", join(dir, "no", "x.md")]);
      assert.equal(md.code, EXIT.usage);
      assert.equal(
        md.err,
        `error: --markdown ${join(dir, "no", "x.md")}: its folder ${join(dir, "no")} does not exist\n`,
      );
      const cwd = await runCliWith({ PATH: dir }, ["drift", "--cwd", join(dir, "nope")]);
      assert.equal(cwd.code, EXIT.usage);
      assert.equal(cwd.err, `error: --cwd ${join(dir, "nope")}: no such folder\n`);
    });
  });

  it("engineError: the engine's words, without the command line the Automation API echoes", () => {
    const wrapped =
      "code: -2\n stdout: \n stderr: Command failed with exit code 6: /x/bin/pulumi stack select --stack nope --non-interactive\nerror: no stack named 'nope' found\n err?: Error: Command failed";
    assert.equal(engineError(new Error(wrapped)), "no stack named 'nope' found");
    assert.match(
      engineError(
        new Error(
          "code: -2\n stdout: \n stderr: Command failed with ENOENT: pulumi version\nspawn pulumi ENOENT\n",
        ),
      ),
      /^the `pulumi` CLI was not found on PATH/,
    );
  });
});

describe("buildTokens (provider function)", () => {
  const fx = useEmulator();
  it("lists the account's tokens in program naming", async () => {
    const tokens = await runBuildTokens(fx.api, {});
    assert.ok(tokens.length > 0);
    assert.deepEqual(
      tokens.map((t) => t.buildTokenUuid),
      (await fx.api.builds.tokens.list()).map((t) => t.build_token_uuid),
    );
  });
});

describe("drift shows the account's names and values, never its markup or controls", () => {
  const hostileTitle = "Standup\r### No drift\r";
  const o = state("MeetingTemplate", "standup|x", { title: "Standup" });
  const n = state("MeetingTemplate", "standup|x", {
    title: hostileTitle,
    note: "<img src=x onerror=alert(1)>",
  });
  const report = () =>
    driftFromEvents("dev", [
      done(step("update", o, { ...n, inputs: { ...n.inputs, link: "[x](https://evil.example) a@b.com" } })),
    ]);

  it("Markdown: a lone \\r, HTML, a link or a pipe stays text in its own cell (rendered by a CommonMark/GFM renderer)", () => {
    const read = readMarkdown(renderMarkdown(report()));
    assert.equal(read.headings.length, 1, "no heading of the account's");
    assert.equal(read.rows.length, 4, "the header and one row per changed property");
    const byPath = Object.fromEntries(read.rows.slice(1).map((r) => [r[2]?.text, r]));
    assert.deepEqual(Object.keys(byPath).sort(), ["link", "note", "title"]);
    for (const row of read.rows.slice(1)) {
      assert.equal(row.length, 6);
      assert.equal(row[0]?.text, "account-api:MeetingTemplate standup|x");
      assert.deepEqual(
        row.slice(0, 5).map((c) => c.markup),
        [[], [], [], [], []],
      );
    }
    assert.equal(byPath.title?.[4]?.text, JSON.stringify(hostileTitle));
    assert.equal(JSON.parse(byPath.note?.[4]?.text ?? ""), "<img src=x onerror=alert(1)>");
    assert.equal(JSON.parse(byPath.link?.[4]?.text ?? ""), "[x](https://evil.example) a@b.com");
  });

  it("text: terminal escapes in a name, an id or a reason are shown escaped, never sent to the terminal", () => {
    const osc52 = "\u001b]52;c;aGVsbG8=\u0007";
    const r = driftFromEvents("dev", [
      done(
        step(
          "update",
          state("BuildTrigger", `prod${osc52}`, { a: "x" }),
          state("BuildTrigger", `prod${osc52}`, { a: "y\u001b[1A\u001b[2K" }),
        ),
      ),
    ]);
    const text = renderText(r);
    // eslint-disable-next-line no-control-regex -- no control may reach the terminal
    assert.doesNotMatch(text.replace(/\n/g, ""), /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
    assert.match(text, /^account-api:BuildTrigger prod\\x1b\]52;c;aGVsbG8=\\x07 \(/);
    assert.match(text, /a: "x" → "y\\u001b\[1A\\u001b\[2K"/);
  });
});

describe("the engine a drift or discover check starts", function () {
  this.timeout(60_000);
  it("gets --insecure-http as ACCOUNT_API_INSECURE_HTTP, for the provider it runs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "drift-env-"));
    try {
      writeFileSync(join(dir, "Pulumi.yaml"), "name: env-check\nruntime: nodejs\n");
      const env = {
        PATH: [join(__dirname, "..", "..", ".engine", "bin"), process.env.PATH ?? ""].join(":"),
        PULUMI_BACKEND_URL: `file://${dir}`,
        PULUMI_CONFIG_PASSPHRASE: "x",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_HOME: join(dir, ".home"),
      };
      const io = { out: () => undefined, err: () => undefined, env };
      const pulumiCommand = await PulumiCommand.get({
        root: join(__dirname, "..", "..", ".engine"),
        skipVersionCheck: true,
      });
      const ws = await LocalWorkspace.create({ workDir: dir, envVars: env, pulumiCommand });
      await ws.createStack("dev");
      const plain = await selectUserStack(io, { cwd: dir, stack: "dev" });
      assert.equal(plain.workspace.envVars.ACCOUNT_API_INSECURE_HTTP, undefined);
      const insecure = await selectUserStack(io, { cwd: dir, stack: "dev", insecureHttp: true });
      assert.equal(insecure.workspace.envVars.ACCOUNT_API_INSECURE_HTTP, "1");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
