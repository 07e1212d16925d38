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
import * as rc from "../../provider/resources/repo-connection";
import { useEmulator } from "../helpers/emulator";
import { errorFromResponse } from "../../sdk/errors";
import { offlineContext as offline, providerContext } from "../helpers/provider-context";

const REPO = "00000000-0000-4000-8000-00000000000a";
const seed = seedBuildWorld;

describe("RepoConnection: check and diff without the API", () => {
  const inputs: rc.RepoConnectionInputs = {
    providerType: "github",
    providerAccountId: "acme",
    providerAccountName: "Acme",
    repoId: "1",
    repoName: "shop",
  };
  it("replaces on the upsert key and updates the display names in place", async () => {
    const olds = { ...inputs, repoConnectionUuid: REPO };
    assert.deepEqual(await rc.handler.diff(REPO, olds, { ...inputs, repoName: "x" }, offline), {
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    assert.deepEqual(await rc.handler.diff(REPO, olds, { ...inputs, repoId: "2" }, offline), {
      changes: true,
      replaces: ["repoId"],
      deleteBeforeReplace: false,
    });
  });
  it("refuses a provider the service does not list, at check", async () => {
    const r = await rc.handler.check(undefined, { ...inputs, providerType: "gitlab" }, offline);
    assert.deepEqual(
      r.failures!.map((f) => f.reason),
      ["providerType: must be one of github"],
    );
  });
  it("names each missing field before any request", async () => {
    const r = await rc.handler.check(undefined, { providerType: "github", repoName: "" }, offline);
    assert.deepEqual(
      r.failures!.map((f) => f.reason),
      [
        "providerAccountId: is required",
        "providerAccountName: is required",
        "repoId: is required",
        "repoName: must not be empty",
      ],
    );
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

  it("creates, reads, sees a rename, updates in place, upserts over the repository's connection, adopts with importId, deletes", async () => {
    const ctx = providerContext(fx);
    const { id, outs } = await rc.handler.create(inputs, ctx);
    assert.equal(outs.repoConnectionUuid, id);
    const read = await rc.handler.read(id, outs, ctx);
    assert.deepEqual(read!.inputs, inputs);
    await fx.api.builds.repos.connections.upsert(
      {},
      {
        provider_type: "github",
        provider_account_id: "acme",
        provider_account_name: "Acme",
        repo_id: "9",
        repo_name: "renamed",
      },
    );
    const drift = await rc.handler.read(id, outs, ctx);
    assert.equal(drift!.inputs.repoName, "renamed");
    assert.deepEqual(await rc.handler.diff(id, drift!.props, inputs, ctx), {
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    await rc.handler.update(id, drift!.props, inputs, ctx);
    assert.equal((await fx.api.builds.repos.connections.list())[0]!.repo_name, "web");

    // The PUT is an upsert keyed by the repository: an earlier attempt's connection (a create whose
    // answer was lost) is the same object, and one of the repository made elsewhere takes the
    // program's settings, as the plain script's PUT does (docs/assumptions.md).
    assert.equal((await rc.handler.create(inputs, ctx)).id, id);
    const other = await rc.handler.create({ ...inputs, repoName: "other" }, ctx);
    assert.equal(other.id, id);
    assert.equal((await fx.api.builds.repos.connections.list())[0]!.repo_name, "other");
    const adopted = await rc.handler.create({ ...inputs, importId: id }, ctx);
    assert.equal(adopted.id, id);
    await assert.rejects(
      rc.handler.create({ ...inputs, repoId: "10", importId: id }, ctx),
      /is for github\/acme\/9, not github\/acme\/10/,
    );

    await rc.handler.delete(id, outs, ctx);
    assert.deepEqual(await fx.api.builds.repos.connections.list(), []);
    assert.equal(await rc.handler.read(id, outs, ctx), undefined);
    await rc.handler.delete(id, outs, ctx);
  });
});

describe("RepoConnection: where the service has no listing", () => {
  const fx = useEmulator();

  it("keeps the stored state on refresh and says it could not be checked", async () => {
    const ctx = providerContext(fx);
    const inputs: rc.RepoConnectionInputs = {
      providerType: "github",
      providerAccountId: "acme",
      providerAccountName: "Acme",
      repoId: "7",
      repoName: "docs",
    };
    const { id, outs } = await rc.handler.create(inputs, ctx);
    assert.equal(outs.uncheckedReason, undefined);
    // The public service answers 404 to the listing the emulator offers.
    const connections = Object.create(ctx.api.builds.repos.connections, {
      list: {
        value: async () => {
          throw errorFromResponse({
            status: 404,
            errors: [],
            method: "GET",
            path: "/builds/repos/connections",
          });
        },
      },
    });
    const repos = Object.create(ctx.api.builds.repos, { connections: { value: connections } });
    const builds = Object.create(ctx.api.builds, { repos: { value: repos } });
    const publicCtx = { ...ctx, api: Object.create(ctx.api, { builds: { value: builds } }) };
    const read = await rc.handler.read(id, outs, publicCtx);
    assert.deepEqual(read!.inputs, inputs);
    assert.match(String(read!.props.uncheckedReason), /no read or listing of repository connections/);
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
