/**
 * The builds sdk's surface: every sub-resource method in the `(ids, params, options?)` convention,
 * once, against the emulator; and every deprecated flat method giving what its replacement gives.
 */
import { strict as assert } from "node:assert";
import { ValidationError, collect, type AccountApi } from "../../sdk";
import { BuildsApi, DEPRECATED_BUILDS_METHODS, type Build } from "../../sdk/builds";
import { productionTriggerBody, seedBuildWorld, type BuildWorld } from "../helpers/builds";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

/** The flat methods of release 0.1.0's BuildsApi, every one of which must stay (deprecated). */
const RELEASE_0_1_0_METHODS = [
  "listScripts",
  "uploadScript",
  "resolveScriptTag",
  "listDeployments",
  "createDeployment",
  "listVersions",
  "listTriggers",
  "createTrigger",
  "updateTrigger",
  "deleteTrigger",
  "purgeBuildCache",
  "getEnvironmentVariables",
  "patchEnvironmentVariables",
  "deleteEnvironmentVariable",
  "triggerBuild",
  "getLatestBuilds",
  "getBuild",
  "listBuilds",
  "listBuildsByVersionIds",
  "getLogsPage",
  "logLines",
  "collectLogs",
  "cancelBuild",
  "waitForBuild",
  "redeployActiveDeployment",
  "listTokens",
  "createToken",
  "deleteToken",
  "getAccountLimits",
  "getConfigAutofill",
  "upsertRepoConnection",
  "listRepoConnections",
  "deleteRepoConnection",
  "listDeployHooks",
  "createDeployHook",
  "getDeployHook",
  "updateDeployHook",
  "deleteDeployHook",
  "createWorkerBuildConfig",
  "getWorkerBuildConfig",
  "updateWorkerBuildConfig",
  "deleteWorkerBuildConfig",
];

const clockOf = (fx: EmulatorFixture) => ({
  sleep: async (ms: number) => fx.clock.advance(ms),
  now: () => fx.clock.now(),
});

/** A value with the keys the service generates per call (uuids of new things) left out, recursively. */
function withoutFresh(value: unknown, keys: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutFresh(v, keys));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !keys.includes(k))
      .map(([k, v]) => [k, withoutFresh(v, keys)]),
  );
}

/** The member a dotted path (`repos.connections.upsert`) names on the area object. */
function memberAt(root: object, dotted: string): unknown {
  return dotted
    .split(".")
    .reduce<unknown>((o, k) => (o === null || typeof o !== "object" ? undefined : Reflect.get(o, k)), root);
}

/** A running build of a production trigger, and one finished build behind the active deployment. */
async function builtWorld(fx: EmulatorFixture): Promise<BuildWorld & { trigger: string; done: Build }> {
  const w = await seedBuildWorld(fx);
  const trigger = (await fx.api.builds.triggers.create({}, productionTriggerBody(w))).trigger_uuid;
  const started = await fx.api.builds.builds.create(
    { triggerUuid: trigger },
    { branch: "main", commit_hash: "c0ffee" },
  );
  const done = await fx.api.builds.builds.wait({ buildUuid: started.build_uuid }, clockOf(fx));
  return { ...w, trigger, done };
}

describe("builds sdk surface: sub-resources in the (ids, params, options?) convention", () => {
  const fx = useEmulator();

  it("the deprecated table names every flat method of release 0.1.0, each replacement exists", () => {
    const flat: string[] = [];
    for (
      let p: object | null = BuildsApi.prototype;
      p && p !== Object.prototype;
      p = Object.getPrototypeOf(p)
    )
      flat.push(...Object.getOwnPropertyNames(p).filter((n) => n !== "constructor"));
    assert.deepEqual([...flat].sort(), [...RELEASE_0_1_0_METHODS].sort());
    assert.deepEqual(Object.keys(DEPRECATED_BUILDS_METHODS).sort(), [...RELEASE_0_1_0_METHODS].sort());
    assert.ok(Object.isFrozen(DEPRECATED_BUILDS_METHODS));
    for (const [old, replacement] of Object.entries(DEPRECATED_BUILDS_METHODS))
      assert.equal(typeof memberAt(fx.api.builds, replacement), "function", `${old} -> ${replacement}`);
  });

  it("scripts, deployments and versions take the script's name", async () => {
    const b = fx.api.builds;
    const script = await b.scripts.upload(
      { scriptName: "shop" },
      { modules: { "main.js": "export default {}" } },
    );
    assert.equal(script.id, "shop");
    assert.deepEqual(
      (await b.scripts.list({}, {})).map((s) => s.id),
      ["shop"],
    );
    assert.deepEqual(await b.scripts.list({}, { tags: "absent" }), []);
    assert.equal(await b.scripts.resolveTag({ scriptName: "shop" }), script.tag);
    const [version] = await collect(b.versions.list({ scriptName: "shop" }, { perPage: 1 }));
    assert.ok(version);
    const deployed = await b.deployments.create(
      { scriptName: "shop" },
      { versions: [{ version_id: version.id, percentage: 100 }], annotations: { "workers/message": "m" } },
    );
    assert.equal((await b.deployments.list({ scriptName: "shop" }))[0]!.id, deployed.id);
  });

  it("triggers, their variables, builds, logs, cancel, wait and redeploy", async () => {
    const b = fx.api.builds;
    const w = await builtWorld(fx);
    const [listed] = await b.triggers.list({ scriptTag: w.tag });
    assert.equal(listed?.trigger_uuid, w.trigger);
    const updated = await b.triggers.update({ triggerUuid: w.trigger }, { build_command: "pnpm build" });
    assert.equal(updated.build_command, "pnpm build");
    await b.triggers.purgeCache({ triggerUuid: w.trigger });

    const vars = await b.environmentVariables.upsert(
      { triggerUuid: w.trigger },
      { NODE_ENV: { value: "production", is_secret: false }, API_KEY: { value: "k", is_secret: true } },
    );
    assert.equal(vars.API_KEY?.value, null);
    await b.environmentVariables.delete({ triggerUuid: w.trigger, environmentVariableKey: "API_KEY" });
    assert.deepEqual(Object.keys(await b.environmentVariables.list({ triggerUuid: w.trigger })), [
      "NODE_ENV",
    ]);

    assert.equal(w.done.status, "stopped");
    assert.equal((await b.builds.get({ buildUuid: w.done.build_uuid })).build_uuid, w.done.build_uuid);
    assert.deepEqual(
      (await collect(b.builds.list({ scriptTag: w.tag }, { perPage: 1 }))).map((x) => x.build_uuid),
      [w.done.build_uuid],
    );
    assert.equal(
      (await b.builds.latest({}, { external_script_ids: [w.tag] }))[w.tag]?.build_uuid,
      w.done.build_uuid,
    );
    const active = (await b.deployments.list({ scriptName: "shop" }))[0]!.versions[0]!.version_id;
    const byVersion = await b.builds.listByVersionIds({}, { version_ids: [active] });
    assert.equal(byVersion[0]?.build.build_uuid, w.done.build_uuid);
    const page = await b.builds.logs({ buildUuid: w.done.build_uuid }, {});
    assert.ok(page.lines.length > 0);
    const { lines } = await b.builds.collectLogs({ buildUuid: w.done.build_uuid });
    assert.deepEqual(await collect(b.builds.logLines({ buildUuid: w.done.build_uuid })), lines);

    const again = await b.builds.redeployActiveDeployment({ scriptName: "shop" });
    assert.deepEqual(
      { versionId: again.versionId, branch: again.branch, commitHash: again.commitHash },
      { versionId: active, branch: "main", commitHash: "c0ffee" },
    );
    const cancelled = await b.builds.cancel({ buildUuid: again.build.build_uuid });
    assert.equal(cancelled.build_outcome, "cancelled");
    await b.triggers.delete({ triggerUuid: w.trigger });
    assert.deepEqual(await b.triggers.list({ scriptTag: w.tag }), []);
  });

  it("tokens, limits, repositories, deploy hooks and worker build configs", async () => {
    const b = fx.api.builds;
    const w = await seedBuildWorld(fx);
    const made = await b.tokens.create(
      {},
      { build_token_name: "ci", build_token_secret: "s", cloudflare_token_id: "t" },
    );
    assert.ok(
      (await b.tokens.list({}, { perPage: 1 })).some((t) => t.build_token_uuid === made.build_token_uuid),
    );
    await b.tokens.delete({ buildTokenUuid: made.build_token_uuid });
    assert.equal(typeof (await b.accountLimits.get()).has_reached_build_minutes_limit, "boolean");

    const filled = await b.repos.configAutofill(
      { providerType: "github", providerAccountId: "acme", repoId: "shop" },
      { branch: "main", root_directory: "/" },
    );
    assert.equal(filled.default_worker_name, "shop");
    const repo = await b.repos.connections.upsert(
      {},
      {
        provider_type: "github",
        provider_account_id: "acme",
        provider_account_name: "Acme",
        repo_id: "x",
        repo_name: "x",
      },
    );
    assert.ok(
      (await b.repos.connections.list()).some((r) => r.repo_connection_uuid === repo.repo_connection_uuid),
    );
    await b.repos.connections.delete({ repoConnectionUuid: repo.repo_connection_uuid });

    const hook = await b.deployHooks.create(
      { scriptTag: w.tag },
      { deploy_hook_name: "nightly", branch: "main" },
    );
    const ids = { scriptTag: w.tag, deployHookUuid: hook.deploy_hook_uuid };
    assert.equal(
      (await b.deployHooks.update(ids, { deploy_hook_name: "nightly", branch: "release" })).branch,
      "release",
    );
    assert.equal((await b.deployHooks.get(ids)).branch, "release");
    assert.equal((await b.deployHooks.list({ scriptTag: w.tag })).length, 1);
    await b.deployHooks.delete(ids);

    const config = await b.workers.create({}, { external_script_id: w.tag, repo_connection_uuid: w.repo });
    assert.equal(config.external_script_id, w.tag);
    assert.equal(
      (await b.workers.update({ scriptTag: w.tag }, { production_branch: "main" })).production_branch,
      "main",
    );
    assert.equal((await b.workers.get({ scriptTag: w.tag })).production_branch, "main");
    await b.workers.delete({ scriptTag: w.tag });
  });

  it("checks ids before any request, with the messages of the flat methods", async () => {
    const b = fx.api.builds;
    const refusals: [() => Promise<unknown>, () => Promise<unknown>][] = [
      [() => b.builds.get({ buildUuid: "nope" }), () => b.getBuild("nope")],
      [() => b.triggers.update({ triggerUuid: "x" }, {}), () => b.updateTrigger("x", {})],
      [
        () => b.environmentVariables.delete({ triggerUuid: "x", environmentVariableKey: "" }),
        () => b.deleteEnvironmentVariable("x", ""),
      ],
      [() => b.builds.create({ triggerUuid: "x" }, {}), () => b.triggerBuild("x", {})],
      [() => b.scripts.upload({ scriptName: "" }), () => b.uploadScript("")],
      [() => b.builds.latest({}, { external_script_ids: [] }), () => b.getLatestBuilds([])],
    ];
    for (const [now, flat] of refusals) {
      const messages = await Promise.all(
        [now, flat].map((run) =>
          run().then(
            () => assert.fail("expected a ValidationError"),
            (e: unknown) => (assert.ok(e instanceof ValidationError), e.message),
          ),
        ),
      );
      assert.equal(messages[0], messages[1]);
    }
    assert.equal(fx.em.requestLog.length, 0);
  });
});

describe("builds sdk surface: each deprecated flat method gives what its replacement gives", () => {
  const fx = useEmulator();

  it("covers every entry of DEPRECATED_BUILDS_METHODS", async () => {
    const api: AccountApi = fx.api;
    const b = api.builds;
    const w = await builtWorld(fx);
    const buildUuid = w.done.build_uuid;
    const version = (await b.deployments.list({ scriptName: "shop" }))[0]!.versions[0]!.version_id;
    const other = await b.scripts.upload({ scriptName: "other" });
    const previewBody = { ...productionTriggerBody({ ...w, tag: other.tag }), branch_includes: ["*"] };
    const hook = await b.deployHooks.create({ scriptTag: w.tag }, { deploy_hook_name: "h", branch: "main" });
    const hookIds = { scriptTag: w.tag, deployHookUuid: hook.deploy_hook_uuid };
    const repoBody = (repo_id: string) => ({
      provider_type: "github",
      provider_account_id: "acme",
      provider_account_name: "Acme",
      repo_id,
      repo_name: repo_id,
    });
    const tokenBody = { build_token_name: "ci", build_token_secret: "s", cloudflare_token_id: "t" };
    await b.environmentVariables.upsert(
      { triggerUuid: w.trigger },
      { A: { value: "a", is_secret: false }, B: { value: "b", is_secret: false } },
    );
    await b.workers.create({}, { external_script_id: w.tag, repo_connection_uuid: w.repo });

    /** Old call, new call, and the keys the service generates afresh for each (left out of the comparison). */
    type Case = { old: () => Promise<unknown>; now: () => Promise<unknown>; fresh?: string[] };
    const cases: Record<string, Case> = {
      listScripts: { old: () => b.listScripts(), now: () => b.scripts.list() },
      uploadScript: {
        old: () => b.uploadScript("shop"),
        now: () => b.scripts.upload({ scriptName: "shop" }),
      },
      resolveScriptTag: {
        old: () => b.resolveScriptTag("shop"),
        now: () => b.scripts.resolveTag({ scriptName: "shop" }),
      },
      listDeployments: {
        old: () => b.listDeployments("shop"),
        now: () => b.deployments.list({ scriptName: "shop" }),
      },
      createDeployment: {
        old: () => b.createDeployment("shop", { versions: [{ version_id: version, percentage: 100 }] }),
        now: () =>
          b.deployments.create(
            { scriptName: "shop" },
            { versions: [{ version_id: version, percentage: 100 }] },
          ),
        fresh: ["id"],
      },
      listVersions: {
        old: () => collect(b.listVersions("shop", { perPage: 1 })),
        now: () => collect(b.versions.list({ scriptName: "shop" }, { perPage: 1 })),
      },
      listTriggers: { old: () => b.listTriggers(w.tag), now: () => b.triggers.list({ scriptTag: w.tag }) },
      createTrigger: {
        old: async () => {
          const t = await b.createTrigger(previewBody);
          await b.triggers.delete({ triggerUuid: t.trigger_uuid });
          return t;
        },
        now: () => b.triggers.create({}, previewBody),
        fresh: ["trigger_uuid"],
      },
      updateTrigger: {
        old: () => b.updateTrigger(w.trigger, { build_command: "x" }),
        now: () => b.triggers.update({ triggerUuid: w.trigger }, { build_command: "x" }),
      },
      deleteTrigger: {
        old: async () => b.deleteTrigger((await b.triggers.list({ scriptTag: other.tag }))[0]!.trigger_uuid),
        now: async () => {
          const t = await b.triggers.create({}, previewBody);
          return b.triggers.delete({ triggerUuid: t.trigger_uuid });
        },
      },
      purgeBuildCache: {
        old: () => b.purgeBuildCache(w.trigger),
        now: () => b.triggers.purgeCache({ triggerUuid: w.trigger }),
      },
      getEnvironmentVariables: {
        old: () => b.getEnvironmentVariables(w.trigger),
        now: () => b.environmentVariables.list({ triggerUuid: w.trigger }),
      },
      patchEnvironmentVariables: {
        old: () =>
          b.patchEnvironmentVariables(w.trigger, { variables: { C: { value: "c", is_secret: true } } }),
        now: () =>
          b.environmentVariables.upsert({ triggerUuid: w.trigger }, { C: { value: "c", is_secret: true } }),
      },
      deleteEnvironmentVariable: {
        old: () => b.deleteEnvironmentVariable(w.trigger, "A"),
        now: () => b.environmentVariables.delete({ triggerUuid: w.trigger, environmentVariableKey: "B" }),
      },
      getBuild: { old: () => b.getBuild(buildUuid), now: () => b.builds.get({ buildUuid }) },
      listBuilds: {
        old: () => collect(b.listBuilds(w.tag)),
        now: () => collect(b.builds.list({ scriptTag: w.tag })),
      },
      getLatestBuilds: {
        old: () => b.getLatestBuilds([w.tag]),
        now: () => b.builds.latest({}, { external_script_ids: [w.tag] }),
      },
      listBuildsByVersionIds: {
        old: () => b.listBuildsByVersionIds([version]),
        now: () => b.builds.listByVersionIds({}, { version_ids: [version] }),
      },
      getLogsPage: { old: () => b.getLogsPage(buildUuid), now: () => b.builds.logs({ buildUuid }) },
      logLines: {
        old: () => collect(b.logLines(buildUuid)),
        now: () => collect(b.builds.logLines({ buildUuid })),
      },
      collectLogs: { old: () => b.collectLogs(buildUuid), now: () => b.builds.collectLogs({ buildUuid }) },
      waitForBuild: {
        old: () => b.waitForBuild(buildUuid, clockOf(fx)),
        now: () => b.builds.wait({ buildUuid }, clockOf(fx)),
      },
      triggerBuild: {
        old: () => b.triggerBuild(w.trigger, { branch: "main", commitHash: "c0ffee" }),
        now: () => b.builds.create({ triggerUuid: w.trigger }, { branch: "main", commit_hash: "c0ffee" }),
        fresh: ["build_uuid"],
      },
      cancelBuild: {
        old: async () => b.cancelBuild((await b.triggerBuild(w.trigger, { branch: "main" })).build_uuid),
        now: async () => {
          const started = await b.builds.create({ triggerUuid: w.trigger }, { branch: "main" });
          return b.builds.cancel({ buildUuid: started.build_uuid });
        },
        fresh: ["build_uuid"],
      },
      redeployActiveDeployment: {
        old: () => b.redeployActiveDeployment("shop"),
        now: () => b.builds.redeployActiveDeployment({ scriptName: "shop" }),
        fresh: ["build_uuid"],
      },
      listTokens: { old: () => b.listTokens(), now: () => b.tokens.list() },
      createToken: {
        old: async () => {
          const t = await b.createToken(tokenBody);
          await b.tokens.delete({ buildTokenUuid: t.build_token_uuid });
          return t;
        },
        now: () => b.tokens.create({}, tokenBody),
        fresh: ["build_token_uuid"],
      },
      deleteToken: {
        old: async () => b.deleteToken((await b.tokens.create({}, tokenBody)).build_token_uuid),
        now: async () =>
          b.tokens.delete({ buildTokenUuid: (await b.tokens.create({}, tokenBody)).build_token_uuid }),
      },
      getAccountLimits: { old: () => b.getAccountLimits(), now: () => b.accountLimits.get() },
      getConfigAutofill: {
        old: () =>
          b.getConfigAutofill({
            providerType: "github",
            providerAccountId: "acme",
            repoId: "shop",
            rootDirectory: "/",
          }),
        now: () =>
          b.repos.configAutofill(
            { providerType: "github", providerAccountId: "acme", repoId: "shop" },
            { root_directory: "/" },
          ),
      },
      upsertRepoConnection: {
        old: () => b.upsertRepoConnection(repoBody("shop")),
        now: () => b.repos.connections.upsert({}, repoBody("shop")),
      },
      listRepoConnections: { old: () => b.listRepoConnections(), now: () => b.repos.connections.list() },
      deleteRepoConnection: {
        old: async () =>
          b.deleteRepoConnection((await b.repos.connections.upsert({}, repoBody("x1"))).repo_connection_uuid),
        now: async () =>
          b.repos.connections.delete({
            repoConnectionUuid: (await b.repos.connections.upsert({}, repoBody("x2"))).repo_connection_uuid,
          }),
      },
      listDeployHooks: {
        old: () => b.listDeployHooks(w.tag),
        now: () => b.deployHooks.list({ scriptTag: w.tag }),
      },
      createDeployHook: {
        old: async () => {
          const h = await b.createDeployHook(w.tag, { deploy_hook_name: "made", branch: "main" });
          await b.deployHooks.delete({ scriptTag: w.tag, deployHookUuid: h.deploy_hook_uuid });
          return h;
        },
        now: () => b.deployHooks.create({ scriptTag: w.tag }, { deploy_hook_name: "made", branch: "main" }),
        fresh: ["deploy_hook_uuid"],
      },
      getDeployHook: {
        old: () => b.getDeployHook(w.tag, hook.deploy_hook_uuid),
        now: () => b.deployHooks.get(hookIds),
      },
      updateDeployHook: {
        old: () => b.updateDeployHook(w.tag, hook.deploy_hook_uuid, { deploy_hook_name: "h", branch: "b" }),
        now: () => b.deployHooks.update(hookIds, { deploy_hook_name: "h", branch: "b" }),
      },
      deleteDeployHook: {
        old: () => b.deleteDeployHook(w.tag, hook.deploy_hook_uuid),
        now: async () => {
          const h = await b.deployHooks.create(
            { scriptTag: w.tag },
            { deploy_hook_name: "h", branch: "main" },
          );
          return b.deployHooks.delete({ scriptTag: w.tag, deployHookUuid: h.deploy_hook_uuid });
        },
      },
      getWorkerBuildConfig: {
        old: () => b.getWorkerBuildConfig(w.tag),
        now: () => b.workers.get({ scriptTag: w.tag }),
      },
      updateWorkerBuildConfig: {
        old: () => b.updateWorkerBuildConfig(w.tag, { production_branch: "p" }),
        now: () => b.workers.update({ scriptTag: w.tag }, { production_branch: "p" }),
      },
      deleteWorkerBuildConfig: {
        old: () => b.deleteWorkerBuildConfig(w.tag),
        now: async () => {
          await b.workers.create({}, { external_script_id: w.tag, repo_connection_uuid: w.repo });
          return b.workers.delete({ scriptTag: w.tag });
        },
      },
      createWorkerBuildConfig: {
        old: async () => {
          const c = await b.createWorkerBuildConfig({
            external_script_id: w.tag,
            repo_connection_uuid: w.repo,
          });
          await b.workers.delete({ scriptTag: w.tag });
          return c;
        },
        now: () => b.workers.create({}, { external_script_id: w.tag, repo_connection_uuid: w.repo }),
      },
    };
    assert.deepEqual(Object.keys(cases).sort(), Object.keys(DEPRECATED_BUILDS_METHODS).sort());
    for (const [name, c] of Object.entries(cases)) {
      const old = await c.old();
      const now = await c.now();
      assert.deepEqual(withoutFresh(old, c.fresh ?? []), withoutFresh(now, c.fresh ?? []), name);
    }
  });
});
