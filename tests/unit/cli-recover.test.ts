/**
 * `account-api recover`: the pure steps (a file backend's repair, the pending creates), the verb's
 * usage, and what it removes: only what carries the pending create's marker, unless the user says so.
 */
import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { EXIT } from "../../cli/main";
import {
  addRecoverVerb,
  pendingCreates,
  repairFileBackend,
  type Ask,
  type RecoverReport,
  type RecoverTarget,
} from "../../cli/recover";
import { keyOfUrn } from "../../provider/core/urn-key";
import { markerFromKey } from "../../provider/resources/meeting-template/hooks";
import { emulatorEnv, runCliWith } from "../helpers/cli";
import { useEmulator } from "../helpers/emulator";

describe("account-api recover", () => {
  it("repairs what a kill leaves in a file backend: a 0-byte .attrs, a broken checkpoint", () => {
    const dir = mkdtempSync(join(tmpdir(), "recover-"));
    try {
      const stacks = join(dir, ".pulumi", "stacks", "proj");
      mkdirSync(stacks, { recursive: true });
      writeFileSync(join(stacks, "dev.json.attrs"), "");
      writeFileSync(join(stacks, "dev.json"), "");
      writeFileSync(join(stacks, "dev.json.bak"), '{"version":3}');
      writeFileSync(join(stacks, "ok.json"), '{"version":3}');
      const repaired = repairFileBackend(dir)
        .map((f) => f.slice(stacks.length + 1))
        .sort();
      assert.deepEqual(repaired, ["dev.json", "dev.json.attrs"]);
      assert.equal(existsSync(join(stacks, "dev.json.attrs")), false);
      assert.equal(readFileSync(join(stacks, "dev.json"), "utf8"), '{"version":3}');
      assert.deepEqual(repairFileBackend(dir), [], "a second run finds nothing to repair");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("finds the pending creates of our kinds only, without the stored provider", () => {
    const exported = {
      deployment: {
        pending_operations: [
          {
            type: "creating",
            resource: {
              urn: "urn:pulumi:s::p::pulumi-nodejs:dynamic/account-api:BuildTrigger::prod",
              type: "pulumi-nodejs:dynamic/account-api:BuildTrigger",
              inputs: { __provider: "code", kind: "production" },
            },
          },
          {
            type: "updating",
            resource: { urn: "u", type: "pulumi-nodejs:dynamic/account-api:RepoConnection" },
          },
          { type: "creating", resource: { urn: "v", type: "aws:s3/bucket:Bucket", inputs: {} } },
        ],
      },
    };
    assert.deepEqual(pendingCreates(exported), [
      {
        kind: "BuildTrigger",
        urn: "urn:pulumi:s::p::pulumi-nodejs:dynamic/account-api:BuildTrigger::prod",
        inputs: { kind: "production" },
      },
    ]);
    assert.deepEqual(pendingCreates({ deployment: {} }), []);
    assert.deepEqual(pendingCreates("not an export"), []);
  });

  it("needs a stack and an existing --cwd, and says so before running anything (exit 64)", async () => {
    const none = await runCliWith({}, ["recover", "--quiet"]);
    assert.match(none.err, /--stack: required/);
    assert.equal(none.out, "");
    assert.equal(none.code, EXIT.usage);
    const cwd = await runCliWith({ PULUMI_STACK: "dev" }, ["recover", "--cwd", "/nonexistent/project"]);
    assert.equal(cwd.code, EXIT.usage);
    assert.match(cwd.err, /^error: --cwd \/nonexistent\/project: no such folder\n$/);
  });
});

describe("account-api recover removes only what the pending create made", () => {
  const fx = useEmulator();
  const TYPE = (kind: string) => `pulumi-nodejs:dynamic/account-api:${kind}`;
  const urnOf = (kind: string, name: string) => `urn:pulumi:dev::proj::${TYPE(kind)}::${name}`;
  const repo = {
    providerType: "github",
    providerAccountId: "acme",
    providerAccountName: "Acme",
    repoId: "9",
    repoName: "web",
  };

  /** A stack whose checkpoint holds these pending creates (and these resources). */
  function stackWith(
    pending: { kind: string; name: string; inputs: Record<string, unknown> }[],
    resources: { kind: string; id: string }[] = [],
  ) {
    const calls = { cleared: 0 };
    const target: RecoverTarget = {
      cancel: async () => undefined,
      exportState: async () => ({
        deployment: {
          resources: resources.map((r) => ({ type: TYPE(r.kind), id: r.id, urn: urnOf(r.kind, r.id) })),
          pending_operations: pending.map((p) => ({
            type: "creating",
            resource: { urn: urnOf(p.kind, p.name), type: TYPE(p.kind), inputs: p.inputs },
          })),
        },
      }),
      clearPendingCreates: async () => void calls.cleared++,
    };
    return { target, calls };
  }

  async function run(target: RecoverTarget, args: string[], ask?: Ask) {
    const out: string[] = [];
    const err: string[] = [];
    let code = -1;
    const io = {
      out: (t: string) => void out.push(t),
      err: (t: string) => void err.push(t),
      env: { ...emulatorEnv(fx), PULUMI_STACK: "dev" },
      isTTY: false,
      setExitCode: (c: number) => void (code = c),
    };
    const program = new Command("account-api").exitOverride();
    addRecoverVerb(program, io, { target: () => target, ask });
    await program.parseAsync(["node", "account-api", "recover", ...args]);
    const json = args.includes("--json") ? (JSON.parse(out.join("")) as RecoverReport) : undefined;
    return { out: out.join(""), err: err.join(""), code, json };
  }

  const connections = async () =>
    (await fx.api.builds.repos.connections.list()).map((c) => c.repo_connection_uuid);

  it("an object with equal settings but no marker is listed, not deleted, without a terminal or --yes (exit 3)", async () => {
    // Another team's connection of the same repository, with the very settings of the pending create.
    const theirs = await fx.api.builds.repos.connections.upsert(
      {},
      {
        provider_type: "github",
        provider_account_id: "acme",
        provider_account_name: "Acme",
        repo_id: "9",
        repo_name: "web",
      },
    );
    const { target, calls } = stackWith([{ kind: "RepoConnection", name: "web", inputs: repo }]);
    const r = await run(target, []);
    assert.equal(r.code, EXIT.unsuccessful, r.err);
    assert.deepEqual(await connections(), [theirs.repo_connection_uuid], "never deleted");
    assert.match(
      r.out,
      new RegExp(`not removed: RepoConnection ${theirs.repo_connection_uuid} has the settings`),
    );
    assert.match(r.out, /--yes/);
    assert.equal(calls.cleared, 0, "the pending create is kept for a later decision");

    // Asked on a terminal, "no" keeps it and the pending create is dropped.
    const questions: string[] = [];
    const no = await run(target, ["--json"], async (q) => (questions.push(q), "n"));
    assert.equal(no.code, EXIT.ok);
    assert.equal(questions.length, 1);
    assert.match(questions[0] ?? "", /nothing marks it as made by it .*\[y\/N\]/);
    assert.deepEqual(no.json?.kept, [`RepoConnection ${theirs.repo_connection_uuid}`]);
    assert.deepEqual(await connections(), [theirs.repo_connection_uuid]);
    assert.equal(calls.cleared, 1);

    // --yes is the user's word: it is removed.
    const yes = await run(target, ["--yes", "--json"]);
    assert.equal(yes.code, EXIT.ok);
    assert.deepEqual(yes.json?.removed, [`RepoConnection ${theirs.repo_connection_uuid}`]);
    assert.deepEqual(await connections(), []);
  });

  it("an object a resource of the stack holds is never touched, --yes or not", async () => {
    const ours = await fx.api.builds.repos.connections.upsert(
      {},
      {
        provider_type: "github",
        provider_account_id: "acme",
        provider_account_name: "Acme",
        repo_id: "9",
        repo_name: "web",
      },
    );
    const { target } = stackWith(
      [{ kind: "RepoConnection", name: "web-renamed", inputs: repo }],
      [{ kind: "RepoConnection", id: ours.repo_connection_uuid }],
    );
    const r = await run(target, ["--yes", "--json"]);
    assert.equal(r.code, EXIT.ok);
    assert.deepEqual([r.json?.removed, r.json?.notFound], [[], 1]);
    assert.deepEqual(await connections(), [ours.repo_connection_uuid]);
  });

  it("what carries the pending create's marker is removed without asking", async () => {
    const urn = urnOf("MeetingTemplate", "standup");
    const marker = markerFromKey(keyOfUrn(urn));
    const aiConfig = { transcription: { keywords: [marker] } };
    const made = await fx.api.meetings.meetings.create(
      { appId: "app-a" },
      { title: "Standup", ai_config: aiConfig },
    );
    const { target, calls } = stackWith([
      { kind: "MeetingTemplate", name: "standup", inputs: { appId: "app-a", title: "Standup", aiConfig } },
    ]);
    const r = await run(target, ["--json"], async () => assert.fail("a marked object needs no question"));
    assert.equal(r.code, EXIT.ok, r.err);
    assert.deepEqual(r.json?.removed, [`MeetingTemplate ${made.id}`]);
    assert.equal(calls.cleared, 1);
    const after = await fx.api.meetings.meetings.get({ appId: "app-a", meetingId: made.id });
    assert.equal(after.status, "INACTIVE");
  });

  it("the text report shows ids and names escaped", async () => {
    const { target } = stackWith([
      { kind: "RepoConnection", name: "web\u001b]52;c;aGk=\u0007", inputs: repo },
    ]);
    await fx.api.builds.repos.connections.upsert(
      {},
      {
        provider_type: "github",
        provider_account_id: "acme",
        provider_account_name: "Acme",
        repo_id: "9",
        repo_name: "web",
      },
    );
    const r = await run(target, ["--stack", "dev\u001b[2J"]);
    // eslint-disable-next-line no-control-regex -- no control may reach the terminal
    assert.doesNotMatch(r.out.replace(/\n/g, ""), /[\u0000-\u001f\u007f-\u009f]/);
    assert.match(r.out, /^recovered dev\\x1b\[2J: /);
    assert.match(r.out, /::web\\x1b\]52;c;aGk=\\x07, but nothing marks it/);
  });
});
