import { strict as assert } from "node:assert";
import { productionTrigger, seedBuildWorld } from "../helpers/builds";
import {
  runBuildLogs,
  runCancelBuild,
  runPurgeBuildCache,
  runRedeploy,
  runTriggerBuild,
  runWaitForBuild,
} from "../../provider/functions/builds";
import { UNKNOWN, secretHash } from "../../provider/inputs";
import * as bt from "../../provider/resources/build-trigger";
import * as rc from "../../provider/resources/repo-connection";
import * as ev from "../../provider/resources/trigger-env-vars";
import type { HandlerContext } from "../../provider/types";
import type { Trigger } from "../../sdk/builds";
import { useEmulator } from "../helpers/emulator";
import { providerContext } from "../helpers/provider-context";

const TAG = "0123456789abcdef0123456789abcdef";
const REPO = "00000000-0000-4000-8000-00000000000a";
const TOKEN = "00000000-0000-4000-8000-00000000000b";

const BASE = { externalScriptId: TAG, repoConnectionUuid: REPO, buildTokenUuid: TOKEN };

describe("BuildTrigger: check (pure part)", () => {
  it("fills the defaults of a production trigger from its kind", () => {
    const { inputs, failures } = bt.normalizeInputs({ ...BASE, kind: "production" });
    assert.deepEqual(failures, []);
    assert.deepEqual(inputs, {
      ...BASE,
      kind: "production",
      triggerName: "production",
      branchIncludes: ["main"],
      deployCommand: "npx wrangler deploy",
      buildCommand: "",
      rootDirectory: "/",
      branchExcludes: [],
      pathIncludes: ["*"],
      pathExcludes: [],
      buildCachingEnabled: true,
    });
  });

  it("derives the kind from branchIncludes, and preview defaults to an upload that leaves the live deployment", () => {
    const { inputs } = bt.normalizeInputs({ ...BASE, branchIncludes: ["*"], branchExcludes: ["main"] });
    assert.equal(inputs.kind, "preview");
    assert.equal(inputs.deployCommand, "npx wrangler versions upload");
    assert.deepEqual(inputs.branchExcludes, ["main"]);
  });

  it("names the input and the rule of each failure", () => {
    const table: [Record<string, unknown>, string[]][] = [
      [
        { ...BASE },
        [
          'branchIncludes: required unless kind is set ("production" defaults to ["main"], "preview" to ["*"])',
        ],
      ],
      [{ ...BASE, kind: "staging" }, ['kind: must be "production" or "preview"']],
      [
        { ...BASE, kind: "preview", branchIncludes: ["main"] },
        ["kind: a preview trigger needs a branch pattern with '*' in branchIncludes"],
      ],
      [
        { ...BASE, kind: "production", branchIncludes: ["*"] },
        ["kind: a production trigger names its branches in branchIncludes without '*'"],
      ],
      [
        { repoConnectionUuid: REPO, buildTokenUuid: TOKEN, kind: "production" },
        ["scriptName: required (or externalScriptId, the script's tag)"],
      ],
      [
        { ...BASE, scriptName: "shop", kind: "production" },
        ["scriptName: give either scriptName or externalScriptId, not both"],
      ],
      [
        { ...BASE, kind: "production", importId: "nope" },
        ["importId: must be the trigger's UUID (trigger_uuid)"],
      ],
    ];
    for (const [news, reasons] of table) {
      assert.deepEqual(
        bt.normalizeInputs(news).failures.map((f) => f.reason),
        reasons,
        JSON.stringify(news),
      );
    }
  });

  it("maps API paths back to the script input the program used", () => {
    assert.equal(bt.inputFieldName("external_script_id", true), "scriptName");
    assert.equal(bt.inputFieldName("external_script_id", false), "externalScriptId");
    assert.equal(bt.inputFieldName("branch_includes.0", false), "branchIncludes.0");
  });

  it("refuses a third trigger or a second of a kind, but not the resource's own or the adopted one", () => {
    const live = [
      { trigger_uuid: "p", trigger_name: "prod", branch_includes: ["main"] },
      { trigger_uuid: "v", trigger_name: "prev", branch_includes: ["*"] },
    ] as Trigger[];
    const none = (): boolean => false;
    assert.match(
      bt.slotFailure(live, "production", none, "shop")!.reason,
      /already has a production trigger "prod" \(p\).*set importId: "p"/,
    );
    assert.equal(
      bt.slotFailure(live, "production", (t) => t.trigger_uuid === "p", "shop"),
      undefined,
    );
    assert.equal(bt.slotFailure(live.slice(1), "production", none, "shop"), undefined);
  });
});

describe("BuildTrigger: diff", () => {
  const olds: bt.BuildTriggerOutputs = {
    ...(bt.normalizeInputs({ ...BASE, kind: "production" }).inputs as bt.BuildTriggerInputs),
    triggerUuid: "t",
  };
  const table: [string, Partial<bt.BuildTriggerInputs>, string[], string[]][] = [
    ["nothing", {}, [], []],
    ["buildCommand", { buildCommand: "make" }, ["buildCommand"], []],
    ["branchIncludes and kind", { branchIncludes: ["*"], kind: "preview" }, ["kind", "branchIncludes"], []],
    [
      "repoConnectionUuid",
      { repoConnectionUuid: "00000000-0000-4000-8000-0000000000ff" },
      ["repoConnectionUuid"],
      ["repoConnectionUuid"],
    ],
    [
      "externalScriptId",
      { externalScriptId: "fedcba9876543210fedcba9876543210" },
      ["externalScriptId"],
      ["externalScriptId"],
    ],
    ["accountId", { accountId: "other" }, ["accountId"], ["accountId"]],
    ["importId only", { importId: "x" }, [], []],
    ["scriptName naming the same script", { scriptName: "shop" }, ["scriptName"], []],
  ];
  for (const [label, change, changed, replaces] of table) {
    it(`on a change of ${label}`, () => {
      const d = bt.planDiff(olds, { ...olds, ...change });
      assert.deepEqual(d.changed.sort(), [...changed].sort());
      assert.deepEqual(d.replaces, replaces);
    });
  }
});

describe("TriggerEnvVars: planning", () => {
  const olds = ev.outputsOf({
    triggerUuid: REPO,
    plainVariables: { A: "1", B: "2" },
    secretVariables: { S: "old-secret" },
  });

  it("splits the program's map into plain and secret halves", () => {
    assert.deepEqual(
      ev.splitVariables({
        A: { value: "1" },
        S: { value: "x", isSecret: true },
        P: { value: "p", isSecret: false },
      }),
      {
        plainVariables: { A: "1", P: "p" },
        secretVariables: { S: "x" },
      },
    );
  });

  it("hashes secrets and never stores a hash that equals the plain text", () => {
    assert.deepEqual(Object.keys(olds.secretHashes), ["S"]);
    assert.equal(olds.secretHashes.S, secretHash("secretVariables.S", "old-secret"));
    assert.ok(!olds.secretHashes.S!.includes("old-secret"));
    assert.deepEqual(olds.keys, ["A", "B", "S"]);
  });

  const table: [string, Partial<ev.TriggerEnvVarsInputs>, string[], string[], string[]][] = [
    ["nothing", {}, [], [], []],
    ["a plain value", { plainVariables: { A: "9", B: "2" } }, ["A"], [], ["plainVariables"]],
    ["a secret value", { secretVariables: { S: "new-secret" } }, ["S"], [], ["secretVariables"]],
    ["a key removed", { plainVariables: { A: "1" } }, [], ["B"], ["plainVariables"]],
    [
      "a plain key turned secret",
      { plainVariables: { B: "2" }, secretVariables: { S: "old-secret", A: "1" } },
      ["A"],
      [],
      ["plainVariables", "secretVariables"],
    ],
    ["the trigger", { triggerUuid: TOKEN }, [], [], ["triggerUuid"]],
  ];
  for (const [label, change, set, removed, changedInputs] of table) {
    it(`plans ${label}`, () => {
      const p = ev.planChanges(olds, { ...olds, ...change });
      assert.deepEqual(p.set, set);
      assert.deepEqual(p.removed, removed);
      assert.deepEqual(p.changedInputs, changedInputs);
    });
  }

  it("counts an unknown secret map at preview as a change without planning keys", () => {
    const p = ev.planChanges(olds, {
      ...olds,
      secretVariables: UNKNOWN as unknown as Record<string, string>,
    });
    assert.ok(p.changedInputs.includes("secretVariables"));
  });

  it("projects drift: live plain values, dropped keys, a secret that turned plain", () => {
    const live = {
      A: { value: "changed", is_secret: false },
      S: { value: "now-visible", is_secret: false },
      OTHER: { value: "x", is_secret: false },
    };
    assert.deepEqual(ev.projectInputs(olds, live), {
      triggerUuid: REPO,
      plainVariables: { A: "changed" },
      secretVariables: {},
    });
  });

  it("checks names, the trigger and importId", () => {
    const r = ev.checkInputs({
      triggerUuid: "x",
      plainVariables: { "": "v" },
      secretVariables: {},
      importId: REPO,
    });
    assert.deepEqual(
      r.failures.map((f) => f.reason),
      [
        "triggerUuid: must be a UUID",
        "importId: must equal triggerUuid (the variables of that trigger are adopted)",
        "variables.: variable names must not be empty",
      ],
    );
    const both = ev.checkInputs({
      triggerUuid: REPO,
      plainVariables: { K: "a" },
      secretVariables: { K: "b" },
    });
    assert.deepEqual(
      both.failures.map((f) => f.reason),
      ["variables.K: given both as plain and as secret"],
    );
  });
});

describe("RepoConnection: planning", () => {
  const inputs: rc.RepoConnectionInputs = {
    providerType: "github",
    providerAccountId: "acme",
    providerAccountName: "Acme",
    repoId: "1",
    repoName: "shop",
  };
  it("replaces on the upsert key and updates the display names in place", () => {
    const olds = { ...inputs, repoConnectionUuid: REPO };
    assert.deepEqual(rc.planDiff(olds, { ...inputs, repoName: "x" }), {
      changed: ["repoName"],
      replaces: [],
    });
    assert.deepEqual(rc.planDiff(olds, { ...inputs, repoId: "2" }), {
      changed: ["repoId"],
      replaces: ["repoId"],
    });
  });
  it("names each missing field", () => {
    assert.deepEqual(
      rc.checkInputs({ providerType: "github", repoName: "" }).failures.map((f) => f.reason),
      [
        "providerAccountId: Invalid input: expected string, received undefined",
        "providerAccountName: Invalid input: expected string, received undefined",
        "repoId: Invalid input: expected string, received undefined",
        "repoName: must not be empty",
      ],
    );
  });
});

// ------------------------------------------------------------------------------------------------
// Handlers against the emulator

const seed = seedBuildWorld;

async function checked(
  ctx: HandlerContext,
  news: Record<string, unknown>,
  olds?: Partial<bt.BuildTriggerInputs>,
) {
  return bt.handler.check(olds, news, ctx);
}

describe("BuildTrigger: handler on the emulator", () => {
  const fx = useEmulator();

  it("resolves a script name to its tag in check and refuses an unknown name", async () => {
    const s = await seed(fx);
    const ctx = providerContext(fx);
    const ok = await checked(ctx, {
      scriptName: "shop",
      repoConnectionUuid: s.repo,
      buildTokenUuid: s.token,
      kind: "production",
    });
    assert.deepEqual(ok.failures, []);
    assert.equal(ok.inputs!.externalScriptId, s.tag);
    const bad = await checked(ctx, {
      scriptName: "nope",
      repoConnectionUuid: s.repo,
      buildTokenUuid: s.token,
      kind: "production",
    });
    assert.deepEqual(
      bad.failures!.map((f) => f.property),
      ["scriptName"],
    );
    assert.match(
      bad.failures![0]!.reason,
      /^scriptName: no script named "nope" in account .*; scripts in the account: shop$/,
    );
    const unknown = await checked(ctx, {
      scriptName: UNKNOWN,
      repoConnectionUuid: s.repo,
      buildTokenUuid: s.token,
      kind: "production",
    });
    assert.deepEqual(unknown.failures, []);
  });

  it("fails a third trigger (or a second of a kind) at check time, and accepts the resource's own", async () => {
    const s = await seed(fx);
    const ctx = providerContext(fx);
    const base = { scriptName: "shop", repoConnectionUuid: s.repo, buildTokenUuid: s.token };
    const prod = await bt.handler.create((await checked(ctx, { ...base, kind: "production" })).inputs!, ctx);
    await bt.handler.create((await checked(ctx, { ...base, kind: "preview" })).inputs!, ctx);
    const third = await checked(ctx, { ...base, kind: "production", triggerName: "another" });
    assert.equal(third.failures!.length, 1);
    assert.match(
      third.failures![0]!.reason,
      /^kind: script shop already has a production trigger "production" \([0-9a-f-]+\)/,
    );
    assert.match(third.failures![0]!.reason, new RegExp(`set importId: "${prod.id}"`));
    const own = await checked(ctx, { ...base, kind: "production", buildCommand: "make" }, prod.outs);
    assert.deepEqual(own.failures, []);
    const adopt = await checked(ctx, { ...base, kind: "production", importId: prod.id });
    assert.deepEqual(adopt.failures, []);
  });

  it("creates, reads without drift, sees out-of-band drift, updates in place and deletes", async () => {
    const s = await seed(fx);
    const ctx = providerContext(fx);
    const { inputs } = await checked(ctx, {
      scriptName: "shop",
      repoConnectionUuid: s.repo,
      buildTokenUuid: s.token,
      kind: "production",
      buildCommand: "npm run build",
    });
    const { id, outs } = await bt.handler.create(inputs!, ctx);
    assert.equal(outs.triggerUuid, id);
    assert.equal(outs.externalScriptId, s.tag);
    const read = await bt.handler.read(id, outs, ctx);
    assert.deepEqual(read!.inputs, inputs);
    assert.equal((await bt.handler.diff(id, read!.props, inputs!, ctx)).changes, false);

    await fx.api.builds.updateTrigger(id, { build_command: "changed by hand", path_excludes: ["docs/*"] });
    const drift = await bt.handler.read(id, outs, ctx);
    assert.equal(drift!.inputs.buildCommand, "changed by hand");
    const d = await bt.handler.diff(id, drift!.props, inputs!, ctx);
    assert.deepEqual(d, { changes: true, replaces: [], deleteBeforeReplace: false });
    const { outs: updated } = await bt.handler.update(id, drift!.props, inputs!, ctx);
    assert.equal(updated.buildCommand, "npm run build");
    const live = (await fx.api.builds.listTriggers(s.tag))[0]!;
    assert.equal(live.build_command, "npm run build");
    assert.deepEqual(live.path_excludes, []);

    await bt.handler.delete(id, updated, ctx);
    assert.deepEqual(await fx.api.builds.listTriggers(s.tag), []);
    assert.equal(await bt.handler.read(id, updated, ctx), undefined);
    await bt.handler.delete(id, updated, ctx); // a 404 is success
  });

  it("refuses to create over an existing trigger of the kind and adopts one with importId", async () => {
    const s = await seed(fx);
    const ctx = providerContext(fx);
    const existing = await fx.api.builds.createTrigger({
      external_script_id: s.tag,
      repo_connection_uuid: s.repo,
      build_token_uuid: s.token,
      trigger_name: "by hand",
      build_command: "",
      deploy_command: "npx wrangler deploy",
      root_directory: "/",
      branch_includes: ["main"],
    });
    const base = {
      externalScriptId: s.tag,
      repoConnectionUuid: s.repo,
      buildTokenUuid: s.token,
      kind: "production",
      triggerName: "managed",
    };
    const normal = bt.normalizeInputs(base).inputs;
    await assert.rejects(
      bt.handler.create(normal, ctx),
      new RegExp(`set importId: "${existing.trigger_uuid}" to adopt it`),
    );
    const { id, outs } = await bt.handler.create({ ...normal, importId: existing.trigger_uuid }, ctx);
    assert.equal(id, existing.trigger_uuid);
    assert.equal(outs.triggerName, "managed");
    assert.equal((await fx.api.builds.listTriggers(s.tag))[0]!.trigger_name, "managed");
  });
});

describe("TriggerEnvVars: handler on the emulator", () => {
  const fx = useEmulator();

  async function trigger(): Promise<string> {
    return productionTrigger(fx, await seed(fx));
  }

  it("owns only its keys, detects drift on plain values and the key set, and cleans up its keys only", async () => {
    const uuid = await trigger();
    const ctx = providerContext(fx);
    await fx.api.builds.patchEnvironmentVariables(uuid, {
      variables: { FOREIGN: { value: "keep", is_secret: false } },
    });
    const { inputs } = ev.checkInputs({
      triggerUuid: uuid,
      plainVariables: { MODE: "fast" },
      secretVariables: { KEY: "s3cr3t" },
    });
    const { id, outs } = await ev.handler.create(inputs, ctx);
    assert.deepEqual(await fx.api.builds.getEnvironmentVariables(uuid), {
      FOREIGN: { value: "keep", is_secret: false },
      MODE: { value: "fast", is_secret: false },
      KEY: { value: null, is_secret: true },
    });
    const clean = await ev.handler.read(id, outs, ctx);
    assert.deepEqual(clean!.inputs, inputs);
    assert.equal((await ev.handler.diff(id, clean!.props, inputs, ctx)).changes, false);

    await fx.api.builds.patchEnvironmentVariables(uuid, {
      variables: { MODE: { value: "slow", is_secret: false } },
    });
    await fx.api.builds.deleteEnvironmentVariable(uuid, "KEY");
    const drift = await ev.handler.read(id, outs, ctx);
    assert.deepEqual(drift!.inputs.plainVariables, { MODE: "slow" });
    assert.deepEqual(drift!.inputs.secretVariables, {});
    assert.deepEqual((await ev.handler.diff(id, drift!.props, inputs, ctx)).changes, true);
    await ev.handler.update(id, drift!.props, inputs, ctx);
    assert.deepEqual(await fx.api.builds.getEnvironmentVariables(uuid), {
      FOREIGN: { value: "keep", is_secret: false },
      MODE: { value: "fast", is_secret: false },
      KEY: { value: null, is_secret: true },
    });

    const smaller = { ...inputs, secretVariables: {} };
    const { outs: after } = await ev.handler.update(id, outs, smaller, ctx);
    assert.deepEqual(Object.keys(await fx.api.builds.getEnvironmentVariables(uuid)).sort(), [
      "FOREIGN",
      "MODE",
    ]);
    await ev.handler.delete(id, after, ctx);
    assert.deepEqual(Object.keys(await fx.api.builds.getEnvironmentVariables(uuid)), ["FOREIGN"]);
  });

  it("refuses keys that already exist unless adopted, and reads a deleted trigger as gone", async () => {
    const uuid = await trigger();
    const ctx = providerContext(fx);
    await fx.api.builds.patchEnvironmentVariables(uuid, {
      variables: { MODE: { value: "x", is_secret: false } },
    });
    const inputs = ev.checkInputs({ triggerUuid: uuid, plainVariables: { MODE: "y" } }).inputs;
    await assert.rejects(
      ev.handler.create(inputs, ctx),
      new RegExp(`variables: MODE already set on trigger ${uuid}; set importId: "${uuid}" to adopt them`),
    );
    const { outs } = await ev.handler.create({ ...inputs, importId: uuid }, ctx);
    assert.equal((await fx.api.builds.getEnvironmentVariables(uuid)).MODE!.value, "y");
    await fx.api.builds.deleteTrigger(uuid);
    assert.equal(await ev.handler.read(uuid, outs, ctx), undefined);
    await ev.handler.delete(uuid, outs, ctx);
  });
});

describe("RepoConnection: handler on the emulator", () => {
  const fx = useEmulator();
  const inputs: rc.RepoConnectionInputs = {
    providerType: "github",
    providerAccountId: "acme",
    providerAccountName: "Acme",
    repoId: "9",
    repoName: "web",
  };

  it("creates, reads, sees a rename, updates in place, refuses a duplicate, adopts, deletes", async () => {
    const ctx = providerContext(fx);
    const { id, outs } = await rc.handler.create(inputs, ctx);
    assert.equal(outs.repoConnectionUuid, id);
    const read = await rc.handler.read(id, outs, ctx);
    assert.deepEqual(read!.inputs, inputs);
    await fx.api.builds.upsertRepoConnection({ ...rc.toBody(inputs), repo_name: "renamed" });
    const drift = await rc.handler.read(id, outs, ctx);
    assert.equal(drift!.inputs.repoName, "renamed");
    assert.deepEqual(await rc.handler.diff(id, drift!.props, inputs, ctx), {
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    await rc.handler.update(id, drift!.props, inputs, ctx);
    assert.equal((await fx.api.builds.listRepoConnections())[0]!.repo_name, "web");

    await assert.rejects(
      rc.handler.create(inputs, ctx),
      new RegExp(`already connected \\(${id}\\); set importId: "${id}" to adopt it`),
    );
    const adopted = await rc.handler.create({ ...inputs, importId: id }, ctx);
    assert.equal(adopted.id, id);
    await assert.rejects(
      rc.handler.create({ ...inputs, repoId: "10", importId: id }, ctx),
      /is for github\/acme\/9, not github\/acme\/10/,
    );

    await rc.handler.delete(id, outs, ctx);
    assert.deepEqual(await fx.api.builds.listRepoConnections(), []);
    assert.equal(await rc.handler.read(id, outs, ctx), undefined);
    await rc.handler.delete(id, outs, ctx);
  });
});

describe("build functions", () => {
  const fx = useEmulator();

  it("trigger, wait, logs, redeploy, purge, cancel over the sdk", async () => {
    const t = { trigger_uuid: await productionTrigger(fx, await seed(fx)) };
    const api = fx.client({ sleep: async (ms) => fx.clock.advance(ms) });
    const started = await runTriggerBuild(api, {
      triggerUuid: t.trigger_uuid,
      branch: "main",
      commitHash: "abc1234",
    });
    assert.deepEqual(
      {
        status: started.status,
        branch: started.branch,
        commitHash: started.commitHash,
        triggerUuid: started.triggerUuid,
      },
      { status: "queued", branch: "main", commitHash: "abc1234", triggerUuid: t.trigger_uuid },
    );
    fx.clock.advance(60_000);
    const done = await runWaitForBuild(api, { buildUuid: started.buildUuid });
    assert.equal(done.buildOutcome, "success");
    const logs = await runBuildLogs(api, { buildUuid: started.buildUuid });
    assert.equal(logs.lines.at(-1)!.text, "Success: build completed");
    const again = await runRedeploy(api, { scriptName: "shop" });
    assert.equal(again.build.commitHash, "abc1234");
    const cancelled = await runCancelBuild(api, { buildUuid: again.build.buildUuid });
    assert.equal(cancelled.buildOutcome, "cancelled");
    assert.deepEqual(await runPurgeBuildCache(api, { triggerUuid: t.trigger_uuid }), {
      triggerUuid: t.trigger_uuid,
    });
    const failing = await runTriggerBuild(api, { triggerUuid: t.trigger_uuid, branch: "fail-now" });
    fx.clock.advance(60_000);
    await assert.rejects(
      runTriggerBuild(api, {
        triggerUuid: t.trigger_uuid,
        branch: "fail-again",
        wait: true,
        pollIntervalMs: 1,
        deadlineMs: 1,
      }),
      /not finished within 1 ms|stopped with outcome fail/,
    );
    assert.equal((await runWaitForBuild(api, { buildUuid: failing.buildUuid })).buildOutcome, "fail");
  });
});
