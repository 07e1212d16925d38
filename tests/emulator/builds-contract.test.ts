/**
 * The build service's operations beyond the spec's table, as the public contract has them: deploy
 * hooks, worker build configurations, build tokens made and deleted, account limits, configuration
 * autofill, the latest builds; and the contract's shapes of variables, builds and deployments.
 */
import { strict as assert } from "node:assert";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  AccountApi as Client,
  BadRequestError,
  ConflictError,
  NotFoundError,
  ValidationError,
  collect,
  type AccountApi,
} from "../../sdk";
import type { Build, TriggerCreateBody } from "../../sdk/builds";
import { productionTriggerBody, seedBuildWorld, type BuildWorld } from "../helpers/builds";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

type Json = Record<string, unknown>;
const MISSING = "00000000-0000-4000-8000-000000000000";
const A = (fx: EmulatorFixture): string => `/accounts/${fx.em.accountId}`;
const resultOf = (res: { json: unknown }): unknown => (res.json as { result: unknown }).result;
const errorsOf = (res: { json: unknown }): { code: number; message: string }[] =>
  (res.json as { errors: { code: number; message: string }[] }).errors;

async function trigger(
  api: AccountApi,
  w: BuildWorld,
  over: Partial<TriggerCreateBody> = {},
): Promise<string> {
  return (await api.builds.triggers.create({}, productionTriggerBody(w, over))).trigger_uuid;
}

async function settle(fx: EmulatorFixture, b: Build): Promise<Build> {
  return fx.api.builds.builds.wait(
    { buildUuid: b.build_uuid },
    { sleep: async (ms) => fx.clock.advance(ms), now: () => fx.clock.now() },
  );
}

/** Asserts a local refusal naming the rule, with no request sent. */
async function refusedLocally(fx: EmulatorFixture, run: () => Promise<unknown>, rule: RegExp): Promise<void> {
  const before = fx.em.requestLog.length;
  await assert.rejects(run, (e: unknown) => e instanceof ValidationError && rule.test(e.message));
  assert.equal(fx.em.requestLog.length, before, "no request is made");
}

describe("builds area: the public contract's operations", () => {
  const fx = useEmulator();

  describe("deploy hooks", () => {
    it("creates, lists, reads, renames and deletes a script's hooks; names are unique per script", async () => {
      const w = await seedBuildWorld(fx);
      const hooks = fx.api.builds;
      const nightly = await hooks.deployHooks.create(
        { scriptTag: w.tag },
        { deploy_hook_name: "nightly", branch: "main" },
      );
      assert.equal(nightly.external_script_id, w.tag);
      assert.equal(nightly.branch, "main");
      fx.clock.advance(1_000);
      const weekly = await hooks.deployHooks.create(
        { scriptTag: w.tag },
        { deploy_hook_name: "weekly", branch: "release" },
      );
      assert.deepEqual(
        (await hooks.deployHooks.list({ scriptTag: w.tag })).map((h) => h.deploy_hook_name),
        ["nightly", "weekly"],
      );
      await assert.rejects(
        hooks.deployHooks.create({ scriptTag: w.tag }, { deploy_hook_name: "nightly", branch: "x" }),
        (e: unknown) => e instanceof ConflictError && e.apiCode === 12010 && /already exists/.test(e.message),
      );
      await assert.rejects(
        hooks.deployHooks.update(
          { scriptTag: w.tag, deployHookUuid: nightly.deploy_hook_uuid },
          { deploy_hook_name: "weekly", branch: "main" },
        ),
        ConflictError,
      );
      fx.clock.advance(1_000);
      const renamed = await hooks.deployHooks.update(
        { scriptTag: w.tag, deployHookUuid: nightly.deploy_hook_uuid },
        { deploy_hook_name: "nightly (main)", branch: "develop" },
      );
      assert.equal(renamed.deploy_hook_name, "nightly (main)");
      assert.notEqual(renamed.modified_on, renamed.created_on);
      assert.deepEqual(
        await hooks.deployHooks.get({ scriptTag: w.tag, deployHookUuid: nightly.deploy_hook_uuid }),
        renamed,
      );
      await hooks.deployHooks.delete({ scriptTag: w.tag, deployHookUuid: weekly.deploy_hook_uuid });
      await assert.rejects(
        hooks.deployHooks.get({ scriptTag: w.tag, deployHookUuid: weekly.deploy_hook_uuid }),
        NotFoundError,
      );
      // The same name is free again once its hook is gone, and other scripts have their own names.
      await hooks.deployHooks.create({ scriptTag: w.tag }, { deploy_hook_name: "weekly", branch: "release" });
      const other = await seedBuildWorld(fx, "api");
      await hooks.deployHooks.create(
        { scriptTag: other.tag },
        { deploy_hook_name: "weekly", branch: "main" },
      );
      await assert.rejects(
        hooks.deployHooks.get({ scriptTag: other.tag, deployHookUuid: nightly.deploy_hook_uuid }),
        NotFoundError,
      );
    });

    it("answers a script name where the tag belongs with 404, and a bad body with 400, and checks both locally", async () => {
      const w = await seedBuildWorld(fx);
      const byName = await fx.http("GET", `${A(fx)}/builds/workers/shop/deploy_hooks`);
      assert.equal(byName.status, 404);
      assert.deepEqual(errorsOf(byName), [{ code: 12000, message: "Resource not found" }]);
      const bad = await fx.http("POST", `${A(fx)}/builds/workers/${w.tag}/deploy_hooks`, {
        body: { deploy_hook_name: "x".repeat(59) },
      });
      assert.equal(bad.status, 400);
      assert.deepEqual(
        errorsOf(bad).map((e) => e.message),
        ["branch: is required", "deploy_hook_name: must be at most 58 characters"],
      );
      await refusedLocally(
        fx,
        () =>
          fx.api.builds.deployHooks.create({ scriptTag: "shop" }, { deploy_hook_name: "n", branch: "main" }),
        /scriptTag: must be the script's tag/,
      );
      await refusedLocally(
        fx,
        () =>
          fx.api.builds.deployHooks.create({ scriptTag: w.tag }, { deploy_hook_name: "", branch: "main" }),
        /deploy_hook_name: must not be empty/,
      );
    });
  });

  describe("worker build configuration", () => {
    it("connects a script to a repository once, keeps the fields it was sent, updates and deletes", async () => {
      const w = await seedBuildWorld(fx);
      const made = await fx.api.builds.workers.create(
        {},
        { external_script_id: w.tag, repo_connection_uuid: w.repo, production_branch: "main" },
      );
      assert.equal(made.external_script_id, w.tag);
      assert.equal(made.repo_connection_uuid, w.repo);
      assert.equal(made.production_branch, "main");
      await assert.rejects(
        fx.api.builds.workers.create({}, { external_script_id: w.tag, repo_connection_uuid: w.repo }),
        (e: unknown) => e instanceof ConflictError && e.apiCode === 12010,
      );
      const other = await fx.api.builds.repos.connections.upsert(
        {},
        {
          provider_type: "github",
          provider_account_id: "acme",
          provider_account_name: "Acme",
          repo_id: "other",
          repo_name: "other",
        },
      );
      fx.clock.advance(1_000);
      const changed = await fx.api.builds.workers.update(
        { scriptTag: w.tag },
        { repo_connection_uuid: other.repo_connection_uuid },
      );
      assert.equal(changed.repo_connection_uuid, other.repo_connection_uuid);
      assert.equal(changed.production_branch, "main", "fields left out stay");
      assert.deepEqual(await fx.api.builds.workers.get({ scriptTag: w.tag }), changed);
      // The connection it builds from cannot be deleted under it.
      await assert.rejects(
        fx.api.builds.repos.connections.delete({ repoConnectionUuid: other.repo_connection_uuid }),
        (e: unknown) => e instanceof BadRequestError && e.apiCode === 12005,
      );
      await fx.api.builds.workers.delete({ scriptTag: w.tag });
      await assert.rejects(fx.api.builds.workers.get({ scriptTag: w.tag }), NotFoundError);
      await fx.api.builds.repos.connections.delete({ repoConnectionUuid: other.repo_connection_uuid });
    });

    it("refuses an unknown repository connection, and a change of the script in a PATCH", async () => {
      const w = await seedBuildWorld(fx);
      await assert.rejects(
        fx.api.builds.workers.create({}, { external_script_id: w.tag, repo_connection_uuid: MISSING }),
        (e: unknown) => e instanceof BadRequestError && e.apiCode === 12004,
      );
      await refusedLocally(
        fx,
        () => fx.api.builds.workers.update({ scriptTag: w.tag }, { external_script_id: w.tag }),
        /external_script_id: is fixed by the path/,
      );
      const unknownScript = await fx.http("POST", `${A(fx)}/builds/workers`, {
        body: { external_script_id: "shop", repo_connection_uuid: w.repo },
      });
      assert.equal(unknownScript.status, 404);
    });
  });

  describe("build tokens", () => {
    it("registers a token without ever answering its secret, pages the listing, deletes one not in use", async () => {
      const w = await seedBuildWorld(fx);
      const made = await fx.api.builds.tokens.create(
        {},
        {
          build_token_name: "ci",
          build_token_secret: "very-secret-value",
          cloudflare_token_id: "0123456789abcdef0123456789abcdef",
        },
      );
      assert.equal(made.cloudflare_token_id, "0123456789abcdef0123456789abcdef");
      const page = await fx.http("GET", `${A(fx)}/builds/tokens?per_page=1`);
      assert.equal((resultOf(page) as unknown[]).length, 1);
      assert.deepEqual((page.json as { result_info: Json }).result_info, {
        page: 1,
        per_page: 1,
        count: 1,
        total_count: 2,
      });
      const all = await fx.api.builds.tokens.list({}, { perPage: 1 });
      assert.deepEqual(
        all.map((t) => t.build_token_name),
        ["Default build token", "ci"],
      );
      assert.ok(!page.text.includes("very-secret-value"));
      const inUse = await trigger(fx.api, { ...w, token: made.build_token_uuid });
      await assert.rejects(
        fx.api.builds.tokens.delete({ buildTokenUuid: made.build_token_uuid }),
        (e: unknown) => e instanceof BadRequestError && e.apiCode === 12005 && e.message.includes(inUse),
      );
      await fx.api.builds.triggers.update({ triggerUuid: inUse }, { build_token_uuid: w.token });
      await fx.api.builds.tokens.delete({ buildTokenUuid: made.build_token_uuid });
      await assert.rejects(
        fx.api.builds.tokens.delete({ buildTokenUuid: made.build_token_uuid }),
        NotFoundError,
      );
      assert.deepEqual(
        (await fx.api.builds.tokens.list()).map((t) => t.build_token_uuid),
        [w.token],
      );
    });
  });

  describe("account limits and configuration autofill", () => {
    it("counts this month's build minutes against the allowance, and says when they refresh", async () => {
      const w = await seedBuildWorld(fx);
      const t = await trigger(fx.api, w);
      const limits = await fx.api.builds.accountLimits.get();
      assert.equal(limits.has_reached_build_minutes_limit, false);
      const now = new Date(fx.clock.now());
      assert.equal(
        limits.build_minutes_refresh_on,
        new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      );
      const set = await fx.http("PUT", "/__emulator/builds/limits", { body: { build_minutes: 1 } });
      assert.equal(set.status, 200, set.text);
      assert.equal((await fx.api.builds.accountLimits.get()).has_reached_build_minutes_limit, false);
      await settle(fx, await fx.api.builds.builds.create({ triggerUuid: t }, { branch: "main" }));
      // A 14-second build counts as a whole minute.
      assert.equal((await fx.api.builds.accountLimits.get()).has_reached_build_minutes_limit, true);
    });

    it("prefills from a connected repository only, honouring the root directory", async () => {
      await seedBuildWorld(fx, "My Shop");
      const filled = await fx.api.builds.repos.configAutofill(
        { providerType: "github", providerAccountId: "acme", repoId: "My Shop" },
        { branch: "main", root_directory: "/apps/web/" },
      );
      assert.deepEqual(filled, {
        config_file: "apps/web/wrangler.jsonc",
        default_worker_name: "my-shop",
        env_worker_names: {},
        package_manager: "npm",
        scripts: { build: "npm run build", deploy: "npx wrangler deploy" },
      });
      await assert.rejects(
        fx.api.builds.repos.configAutofill({
          providerType: "github",
          providerAccountId: "acme",
          repoId: "nope",
        }),
        NotFoundError,
      );
      await refusedLocally(
        fx,
        () =>
          fx.api.builds.repos.configAutofill({ providerType: "gitlab", providerAccountId: "a", repoId: "b" }),
        /providerType: must be one of github/,
      );
    });
  });

  describe("builds as the contract shows them", () => {
    it("reads the newest build of each script by tag, leaving out scripts without builds", async () => {
      const w = await seedBuildWorld(fx);
      const idle = await seedBuildWorld(fx, "idle");
      const t = await trigger(fx.api, w);
      await fx.api.builds.builds.create({ triggerUuid: t }, { branch: "main" });
      fx.clock.advance(1_000);
      const second = await fx.api.builds.builds.create({ triggerUuid: t }, { branch: "feature-x" });
      const latest = await fx.api.builds.builds.latest({}, { external_script_ids: [w.tag, idle.tag] });
      assert.deepEqual(Object.keys(latest), [w.tag]);
      assert.equal(latest[w.tag]!.build_uuid, second.build_uuid);
      const none = await fx.http("GET", `${A(fx)}/builds/builds/latest`);
      assert.equal(none.status, 400);
      assert.deepEqual(errorsOf(none), [
        { code: 12001, message: "external_script_ids: at least one script tag is required" },
      ]);
    });

    it("takes seed_repo with a build, and refuses more than two seed files locally", async () => {
      const w = await seedBuildWorld(fx);
      const t = await trigger(fx.api, w);
      const seedRepo = {
        provider: "github",
        owner: "acme",
        repository: "shop",
        branch: "main",
        path: "/",
        files: [{ filename: "a.txt", content: "YQ==", isBase64: true }],
      };
      const b = await fx.api.builds.builds.create(
        { triggerUuid: t },
        { branch: "main", seed_repo: seedRepo },
      );
      assert.equal(b.status, "queued");
      await refusedLocally(
        fx,
        () =>
          fx.api.builds.builds.create(
            { triggerUuid: t },
            {
              branch: "main",
              seed_repo: { ...seedRepo, files: [...seedRepo.files, ...seedRepo.files, ...seedRepo.files] },
            },
          ),
        /seed_repo\.files: must have at most 2 entries/,
      );
    });

    it("answers the cancelled build, its outcome and stop time", async () => {
      const w = await seedBuildWorld(fx);
      const t = await trigger(fx.api, w);
      const b = await fx.api.builds.builds.create({ triggerUuid: t }, { branch: "main" });
      fx.clock.advance(3_000);
      const res = await fx.http("PUT", `${A(fx)}/builds/builds/${b.build_uuid}/cancel`);
      const r = resultOf(res) as Json;
      assert.equal(r.build_uuid, b.build_uuid);
      assert.equal(r.build_outcome, "cancelled");
      assert.equal(r.stopped_on, new Date(fx.clock.now()).toISOString());
    });
  });

  describe("environment variables as the contract shows them", () => {
    it("flips is_secret without resending the value (value null or left out keeps it), but a new variable needs one", async () => {
      const w = await seedBuildWorld(fx);
      const t = await trigger(fx.api, w);
      await fx.api.builds.environmentVariables.upsert(
        { triggerUuid: t },
        { MODE: { value: "fast", is_secret: false }, KEY: { value: "k", is_secret: true } },
      );
      const flipped = await fx.api.builds.environmentVariables.upsert(
        { triggerUuid: t },
        { MODE: { is_secret: true }, KEY: { value: null, is_secret: false } },
      );
      assert.equal(flipped.MODE!.value, null, "now a secret");
      assert.equal(flipped.KEY!.value, "k", "the stored value, now plain");
      const res = await fx.http("PATCH", `${A(fx)}/builds/triggers/${t}/environment_variables`, {
        body: { NEW: { is_secret: false }, MODE: { value: "slow", is_secret: false } },
      });
      assert.equal(res.status, 400);
      assert.deepEqual(errorsOf(res), [
        {
          code: 12001,
          message:
            "NEW.value: is required for a variable the trigger does not have yet (null keeps an existing value)",
        },
      ]);
      // All or nothing: MODE was not changed by the refused PATCH.
      assert.equal((await fx.api.builds.environmentVariables.list({ triggerUuid: t })).MODE!.is_secret, true);
    });
  });

  describe("scripts and deployments as the contract shows them", () => {
    it("filters scripts on their own tags, and carries a deployment's message and who made it", async () => {
      const tagged = await fx.http("PUT", `${A(fx)}/workers/scripts/api`, {
        body: { metadata: { tags: ["team:web", "prod"] } },
      });
      assert.equal(tagged.status, 200, tagged.text);
      await fx.api.builds.scripts.upload({ scriptName: "plain" });
      const names = async (tags: string) => (await fx.api.builds.scripts.list({}, { tags })).map((s) => s.id);
      assert.deepEqual(await names("prod"), ["api"]);
      assert.deepEqual(await names("prod:no"), ["plain"]);
      assert.deepEqual(await names("prod:yes,team:web"), ["api"]);

      const [first] = await fx.api.builds.deployments.list({ scriptName: "api" });
      assert.deepEqual(first!.annotations, { "workers/triggered_by": "upload" });
      const versionId = first!.versions[0]!.version_id;
      const made = await fx.api.builds.deployments.create(
        { scriptName: "api" },
        {
          versions: [{ version_id: versionId, percentage: 100 }],
          annotations: { "workers/message": "roll back" },
          force: true,
        },
      );
      assert.deepEqual(made.annotations, {
        "workers/triggered_by": "deployment",
        "workers/message": "roll back",
      });
      assert.deepEqual(
        (await fx.api.builds.deployments.list({ scriptName: "api" }))[0]!.annotations,
        made.annotations,
      );
      // Read-only fields of a deployment are ignored when sent, as the service does.
      const raw = await fx.http("POST", `${A(fx)}/workers/scripts/api/deployments`, {
        body: {
          strategy: "percentage",
          versions: [{ version_id: versionId, percentage: 100 }],
          id: MISSING,
          source: "dash",
          annotations: { "workers/triggered_by": "me" },
        },
      });
      assert.equal(raw.status, 200, raw.text);
      assert.notEqual((resultOf(raw) as Json).id, MISSING);
      await refusedLocally(
        fx,
        () =>
          fx.api.builds.deployments.create(
            { scriptName: "api" },
            {
              versions: [{ version_id: versionId, percentage: 100 }],
              annotations: { "workers/message": "x".repeat(1001) },
            },
          ),
        /annotations\.workers\/message: must be at most 1000 characters/,
      );
      assert.equal((await collect(fx.api.builds.versions.list({ scriptName: "api" }))).length, 1);
    });
  });
});

describe("builds sdk: answers in the contract's minimal shapes", () => {
  const BUILD = "11111111-2222-4333-8444-555555555555";
  const TRIGGER = "66666666-7777-4888-8999-aaaaaaaaaaaa";
  let server: Server;
  let seen: string[];
  let client: Client;

  before(async () => {
    // The contract's answers: a build's POST carries only build_uuid and created_on, a cancel only
    // build_uuid, build_outcome and stopped_on; a GET carries the whole build.
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const result =
        req.method === "POST"
          ? { build_uuid: BUILD, created_on: "2026-01-01T00:00:00Z" }
          : req.url?.endsWith("/cancel")
            ? { build_uuid: BUILD, build_outcome: "cancelled", stopped_on: "2026-01-01T00:00:01Z" }
            : { build_uuid: BUILD, status: "queued", created_on: "2026-01-01T00:00:00Z" };
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ success: true, errors: [], messages: [], result }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    client = new Client({
      baseUrl: `http://127.0.0.1:${port}/client/v4`,
      token: "t",
      accountId: "acct",
      retry: { maxRetries: 0 },
      env: {},
    });
  });
  beforeEach(() => {
    seen = [];
  });
  after(async () => {
    await client.close();
    await new Promise((r) => server.close(r));
  });

  it("reads the build once after a POST that answers only its uuid", async () => {
    const b = await client.builds.builds.create({ triggerUuid: TRIGGER }, { branch: "main" });
    assert.equal(b.status, "queued");
    assert.deepEqual(seen, [
      `POST /client/v4/accounts/acct/builds/triggers/${TRIGGER}/builds`,
      `GET /client/v4/accounts/acct/builds/builds/${BUILD}`,
    ]);
  });

  it("reads the build after a cancel that answers only its outcome", async () => {
    const b = await client.builds.builds.cancel({ buildUuid: BUILD });
    assert.equal(b.build_uuid, BUILD);
    assert.deepEqual(seen, [
      `PUT /client/v4/accounts/acct/builds/builds/${BUILD}/cancel`,
      `GET /client/v4/accounts/acct/builds/builds/${BUILD}`,
    ]);
  });
});
