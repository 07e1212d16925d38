import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { ManualClock } from "../../emulator/clock";
import { startEmulator } from "../../emulator/server";
import { buildMultipart } from "../../emulator/builds/multipart";
import {
  AbortedError,
  AccountApi,
  AuthenticationError,
  BadRequestError,
  DeadlineExceededError,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
  collect,
} from "../../sdk";
import { RedeployError, ScriptNotFoundError, type Trigger, type TriggerCreateBody } from "../../sdk/builds";
import { productionTriggerBody } from "../helpers/builds";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

type Json = Record<string, unknown>;
interface Envelope {
  success: boolean;
  errors: { code: number; message: string }[];
  result: unknown;
  result_info?: Json;
}
const env = (res: { json: unknown }): Envelope => res.json as Envelope;

const A = (fx: EmulatorFixture): string => `/accounts/${fx.em.accountId}`;

/** Uploads a script with the emulator's JSON shortcut; returns its name and tag. */
async function upload(fx: EmulatorFixture, name: string): Promise<{ name: string; tag: string }> {
  const res = await fx.http("PUT", `${A(fx)}/workers/scripts/${name}`, { body: {} });
  assert.equal(res.status, 200, res.text);
  return { name, tag: (env(res).result as { tag: string }).tag };
}

interface World {
  script: { name: string; tag: string };
  repo: string;
  token: string;
}

async function world(fx: EmulatorFixture, name = "shop"): Promise<World> {
  const script = await upload(fx, name);
  const repo = await fx.api.builds.repos.connections.upsert(
    {},
    {
      provider_type: "github",
      provider_account_id: "acme",
      provider_account_name: "Acme",
      repo_id: "r1",
      repo_name: "shop",
    },
  );
  const [token] = await fx.api.builds.tokens.list();
  return { script, repo: repo.repo_connection_uuid, token: token!.build_token_uuid };
}

const triggerBody = (w: World, over: Partial<TriggerCreateBody> = {}): TriggerCreateBody =>
  productionTriggerBody({ tag: w.script.tag, repo: w.repo, token: w.token }, over);

const previewBody = (w: World): TriggerCreateBody =>
  triggerBody(w, {
    trigger_name: "preview",
    deploy_command: "npx wrangler versions upload",
    branch_includes: ["*"],
    branch_excludes: ["main"],
  });

/** Requests the emulator saw since `from`, for "no request was made" checks. */
const requestsSince = (fx: EmulatorFixture, from: number): string[] =>
  fx.em.requestLog.slice(from).map((r) => `${r.method} ${r.url}`);

async function rejectsLocally(
  fx: EmulatorFixture,
  run: () => Promise<unknown>,
  pattern: RegExp,
): Promise<void> {
  const before = fx.em.requestLog.length;
  await assert.rejects(run, (e: unknown) => e instanceof ValidationError && pattern.test(e.message));
  assert.deepEqual(requestsSince(fx, before), []);
}

const sleepOn = (fx: EmulatorFixture) => async (ms: number) => fx.clock.advance(ms);

describe("builds area", () => {
  const fx = useEmulator();

  describe("scripts, versions, deployments", () => {
    it("uploads a script as multipart with a metadata part and lists it with id = name and a UUID tag", async () => {
      const { body, contentType } = buildMultipart([
        { name: "metadata", body: Buffer.from(JSON.stringify({ main_module: "index.js" })) },
        {
          name: "index.js",
          filename: "index.js",
          contentType: "application/javascript+module",
          body: Buffer.from("export default {}"),
        },
      ]);
      const res = await fx.http("PUT", `${A(fx)}/workers/scripts/api`, {
        body: body.toString("utf8"),
        headers: { "content-type": contentType },
      });
      assert.equal(res.status, 200, res.text);
      const created = env(res).result as Json;
      assert.equal(created.id, "api");
      assert.match(String(created.tag), /^[0-9a-f-]{36}$/);
      const scripts = await fx.api.builds.scripts.list();
      assert.deepEqual(
        scripts.map((s) => [s.id, s.tag]),
        [["api", created.tag]],
      );
    });

    it("refuses a multipart upload without a metadata part, or whose main_module names no part", async () => {
      const noMeta = buildMultipart([{ name: "index.js", body: Buffer.from("x") }]);
      const r1 = await fx.http("PUT", `${A(fx)}/workers/scripts/api`, {
        body: noMeta.body.toString(),
        headers: { "content-type": noMeta.contentType },
      });
      assert.equal(r1.status, 400);
      assert.deepEqual(env(r1).errors, [
        { code: 12001, message: "metadata: the multipart body must include a metadata part" },
      ]);
      const badMain = buildMultipart([
        { name: "metadata", body: Buffer.from('{"main_module":"worker.js"}') },
      ]);
      const r2 = await fx.http("PUT", `${A(fx)}/workers/scripts/api`, {
        body: badMain.body.toString(),
        headers: { "content-type": badMain.contentType },
      });
      assert.equal(r2.status, 400);
      assert.deepEqual(env(r2).errors, [{ code: 12001, message: 'main_module: no part named "worker.js"' }]);
    });

    it("keeps the tag across uploads; each upload adds a version and deploys it (newest first)", async () => {
      const first = await upload(fx, "api");
      fx.clock.advance(1000);
      const second = await upload(fx, "api");
      assert.equal(second.tag, first.tag);
      const versions = await collect(fx.api.builds.versions.list({ scriptName: "api" }));
      assert.deepEqual(
        versions.map((v) => v.number),
        [2, 1],
      );
      const deployments = await fx.api.builds.deployments.list({ scriptName: "api" });
      assert.equal(deployments.length, 2);
      assert.equal(deployments[0]!.versions[0]!.version_id, versions[0]!.id);
      assert.equal(deployments[0]!.versions[0]!.percentage, 100);
    });

    it("pages through versions with the page-style iterator", async () => {
      for (let i = 0; i < 5; i++) await upload(fx, "api");
      const before = fx.em.requestLog.length;
      const versions = await collect(fx.api.builds.versions.list({ scriptName: "api" }, { perPage: 2 }));
      assert.deepEqual(
        versions.map((v) => v.number),
        [5, 4, 3, 2, 1],
      );
      assert.equal(requestsSince(fx, before).length, 3);
    });

    it("creates a split deployment and rejects unknown versions and bad percentages", async () => {
      await upload(fx, "api");
      await upload(fx, "api");
      const [v2, v1] = await collect(fx.api.builds.versions.list({ scriptName: "api" }));
      const d = await fx.api.builds.deployments.create(
        { scriptName: "api" },
        {
          versions: [
            { version_id: v1!.id, percentage: 10 },
            { version_id: v2!.id, percentage: 90 },
          ],
        },
      );
      assert.equal(d.versions.length, 2);
      assert.equal((await fx.api.builds.deployments.list({ scriptName: "api" }))[0]!.id, d.id);

      await rejectsLocally(
        fx,
        () =>
          fx.api.builds.deployments.create(
            { scriptName: "api" },
            { versions: [{ version_id: v1!.id, percentage: 50 }] },
          ),
        /versions: percentages must add up to 100/,
      );
      const unknown = "00000000-0000-4000-8000-000000000000";
      const raw = await fx.http("POST", `${A(fx)}/workers/scripts/api/deployments`, {
        body: { strategy: "percentage", versions: [{ version_id: unknown, percentage: 100 }] },
      });
      assert.equal(raw.status, 400);
      assert.deepEqual(env(raw).errors, [
        { code: 12001, message: "versions.0.version_id: no version with this id on script api" },
      ]);
      const bad = await fx.http("POST", `${A(fx)}/workers/scripts/api/deployments`, {
        body: { strategy: "all-at-once", versions: [] },
      });
      assert.equal(bad.status, 400);
      assert.deepEqual(
        env(bad).errors.map((e) => e.message),
        ["strategy: must be one of percentage", "versions: must not be empty"],
      );
    });

    it("resolves a name (or a tag) to the tag, and names the scripts when there is no such script", async () => {
      const { tag } = await upload(fx, "api");
      await upload(fx, "web");
      assert.equal(await fx.api.builds.scripts.resolveTag({ scriptName: "api" }), tag);
      assert.equal(await fx.api.builds.scripts.resolveTag({ scriptName: tag }), tag);
      await assert.rejects(
        fx.api.builds.scripts.resolveTag({ scriptName: "nope" }),
        (e: unknown) =>
          e instanceof ScriptNotFoundError &&
          e.message ===
            `no script named "nope" in account ${fx.em.accountId}; scripts in the account: api, web`,
      );
    });

    it("answers a tag on a script-name path with 404 and a hint that the path takes the name", async () => {
      const { tag } = await upload(fx, "api");
      await assert.rejects(fx.api.builds.deployments.list({ scriptName: tag }), (e: unknown) => {
        assert.ok(e instanceof NotFoundError);
        assert.equal(e.apiCode, 12000);
        assert.match(e.message, /Resource not found \(code 12000\)/);
        assert.match(
          e.message,
          /script paths take the script's name \(field `id` of builds\.scripts\.list\(\)\), not its tag/,
        );
        return true;
      });
    });
  });

  describe("triggers", () => {
    it("creates a production trigger with every field and lists it under the script's tag", async () => {
      const w = await world(fx);
      const t = await fx.api.builds.triggers.create(
        {},
        triggerBody(w, {
          branch_excludes: ["wip"],
          path_includes: ["src/*"],
          path_excludes: ["docs/*"],
          build_caching_enabled: false,
        }),
      );
      assert.match(t.trigger_uuid, /^[0-9a-f-]{36}$/);
      const expected = {
        trigger_name: "production",
        external_script_id: w.script.tag,
        repo_connection_uuid: w.repo,
        build_token_uuid: w.token,
        build_command: "npm run build",
        deploy_command: "npx wrangler deploy",
        root_directory: "/",
        branch_includes: ["main"],
        branch_excludes: ["wip"],
        path_includes: ["src/*"],
        path_excludes: ["docs/*"],
        build_caching_enabled: false,
        environment_variables: {},
      };
      for (const [k, v] of Object.entries(expected)) assert.deepEqual((t as Json)[k], v, k);
      assert.equal(t.repo_connection?.repo_name, "shop");
      const listed = await fx.api.builds.triggers.list({ scriptTag: w.script.tag });
      assert.deepEqual(
        listed.map((x) => x.trigger_uuid),
        [t.trigger_uuid],
      );
    });

    it("after a dropped create response, finds the trigger that landed instead of creating another", async () => {
      const w = await world(fx);
      fx.em.faults.add({ method: "POST", path: "/builds/triggers$", commitThenDrop: true, times: 1 });
      const events: string[] = [];
      const api = fx.client({ onEvent: (e) => events.push(`${e.type} ${e.method}`) });
      const t = await api.builds.triggers.create({}, triggerBody(w));
      assert.deepEqual(events, ["request POST", "error POST", "request GET", "response GET"]);
      const listed = await fx.api.builds.triggers.list({ scriptTag: w.script.tag });
      assert.deepEqual(
        listed.map((x) => x.trigger_uuid),
        [t.trigger_uuid],
      );
    });

    it("fills defaults for the optional pattern lists, and caching is off unless asked (the contract's default)", async () => {
      const w = await world(fx);
      const t = await fx.api.builds.triggers.create({}, triggerBody(w));
      assert.deepEqual([t.branch_excludes, t.path_includes, t.path_excludes], [[], ["*"], []]);
      assert.equal(t.build_caching_enabled, false);
      const raw = await fx.http("POST", `${A(fx)}/builds/triggers`, {
        body: { ...previewBody(w), build_caching_enabled: undefined },
      });
      assert.equal(raw.status, 200, raw.text);
      assert.equal((env(raw).result as Json).build_caching_enabled, false);
    });

    it("allows one production and one preview trigger, and refuses a third or a second of a kind", async () => {
      const w = await world(fx);
      await fx.api.builds.triggers.create({}, triggerBody(w));
      const preview = await fx.api.builds.triggers.create({}, previewBody(w));
      assert.deepEqual(preview.branch_includes, ["*"]);
      await assert.rejects(
        fx.api.builds.triggers.create({}, triggerBody(w, { trigger_name: "third" })),
        (e: unknown) => {
          assert.ok(e instanceof BadRequestError);
          assert.equal(e.apiCode, 12002);
          assert.match(e.message, /at most two triggers \(one production, one preview\)/);
          return true;
        },
      );
      const other = await world(fx, "blog");
      await fx.api.builds.triggers.create({}, triggerBody(other));
      await assert.rejects(
        fx.api.builds.triggers.create({}, triggerBody(other, { trigger_name: "again" })),
        (e: unknown) => {
          assert.ok(e instanceof BadRequestError);
          assert.equal(e.apiCode, 12002);
          assert.match(e.message, /already has a production trigger \([0-9a-f-]{36}\)/);
          return true;
        },
      );
      assert.equal((await fx.api.builds.triggers.list({ scriptTag: w.script.tag })).length, 2);
    });

    it("updates a subset of fields with PATCH and refuses a change that would make two of a kind", async () => {
      const w = await world(fx);
      const prod = await fx.api.builds.triggers.create({}, triggerBody(w));
      const preview = await fx.api.builds.triggers.create({}, previewBody(w));
      fx.clock.advance(5000);
      const updated = await fx.api.builds.triggers.update(
        { triggerUuid: prod.trigger_uuid },
        { build_command: "pnpm build", branch_includes: ["release"] },
      );
      assert.equal(updated.build_command, "pnpm build");
      assert.deepEqual(updated.branch_includes, ["release"]);
      assert.equal(updated.deploy_command, "npx wrangler deploy");
      assert.notEqual(updated.modified_on, prod.modified_on);
      await assert.rejects(
        fx.api.builds.triggers.update({ triggerUuid: preview.trigger_uuid }, { branch_includes: ["main"] }),
        (e: unknown) =>
          e instanceof BadRequestError &&
          e.apiCode === 12002 &&
          /already has a production trigger/.test(e.message),
      );
      const raw = await fx.http("PATCH", `${A(fx)}/builds/triggers/${prod.trigger_uuid}`, {
        body: { external_script_id: w.script.tag },
      });
      assert.equal(raw.status, 400);
      assert.deepEqual(env(raw).errors, [
        { code: 12001, message: "external_script_id: is not a known field" },
      ]);
    });

    it("deletes a trigger (DELETE on the trigger path), after which it is not found", async () => {
      const w = await world(fx);
      const t = await fx.api.builds.triggers.create({}, triggerBody(w));
      await fx.api.builds.triggers.delete({ triggerUuid: t.trigger_uuid });
      assert.deepEqual(await fx.api.builds.triggers.list({ scriptTag: w.script.tag }), []);
      const again = await fx.http("DELETE", `${A(fx)}/builds/triggers/${t.trigger_uuid}`);
      assert.equal(again.status, 404);
      assert.deepEqual(env(again).errors, [{ code: 12000, message: "Resource not found" }]);
      // The slot is free again.
      await fx.api.builds.triggers.create({}, triggerBody(w));
    });

    it("answers a script name where the tag belongs with 404 Resource not found (paths and bodies)", async () => {
      const w = await world(fx);
      const list = await fx.http("GET", `${A(fx)}/builds/workers/${w.script.name}/triggers`);
      assert.equal(list.status, 404);
      assert.deepEqual(env(list).errors, [{ code: 12000, message: "Resource not found" }]);
      const create = await fx.http("POST", `${A(fx)}/builds/triggers`, {
        body: triggerBody(w, { external_script_id: w.script.name }),
      });
      assert.equal(create.status, 404);
      assert.deepEqual(env(create).errors, [{ code: 12000, message: "Resource not found" }]);
      const builds = await fx.http("GET", `${A(fx)}/builds/workers/${w.script.name}/builds`);
      assert.equal(builds.status, 404);
    });

    it("rejects a name in the sdk before any request, and explains tag vs name on a 404", async () => {
      const w = await world(fx);
      await rejectsLocally(
        fx,
        () => fx.api.builds.triggers.list({ scriptTag: w.script.name }),
        /scriptTag: must be the script's tag \(a UUID, field `tag` of the script listing\), not its name/,
      );
      await rejectsLocally(
        fx,
        () => fx.api.builds.triggers.create({}, triggerBody(w, { external_script_id: "shop" })),
        /external_script_id: must be the script's tag/,
      );
      const unknownTag = "0123456789abcdef0123456789abcdef";
      await assert.rejects(fx.api.builds.triggers.list({ scriptTag: unknownTag }), (e: unknown) => {
        assert.ok(e instanceof NotFoundError);
        assert.equal(e.apiCode, 12000);
        assert.match(
          e.message,
          /Resource not found \(code 12000\)\. build-service paths and external_script_id take the script's tag/,
        );
        assert.match(e.message, /builds\.scripts\.resolveTag\(\{ scriptName \}\)/);
        return true;
      });
    });

    it("refuses unknown build tokens and repository connections", async () => {
      const w = await world(fx);
      const none = "00000000-0000-4000-8000-000000000001";
      await assert.rejects(
        fx.api.builds.triggers.create({}, triggerBody(w, { build_token_uuid: none })),
        (e: unknown) =>
          e instanceof BadRequestError &&
          e.apiCode === 12004 &&
          /build_token_uuid: no build token with this UUID/.test(e.message),
      );
      await assert.rejects(
        fx.api.builds.triggers.create({}, triggerBody(w, { repo_connection_uuid: none })),
        (e: unknown) =>
          e instanceof BadRequestError &&
          e.apiCode === 12004 &&
          /repo_connection_uuid: no repository connection with this UUID/.test(e.message),
      );
    });

    it("validates the create body on the wire, naming each field", async () => {
      const w = await world(fx);
      const { deploy_command: _d, ...rest } = triggerBody(w);
      const res = await fx.http("POST", `${A(fx)}/builds/triggers`, {
        body: { ...rest, branch_includes: [], build_token_uuid: "nope", typo: 1 },
      });
      assert.equal(res.status, 400);
      assert.deepEqual(
        env(res).errors.map((e) => [e.code, e.message]),
        [
          [12001, "branch_includes: must not be empty"],
          [12001, "build_token_uuid: must be a UUID"],
          [12001, "deploy_command: is required"],
          [12001, "typo: is not a known field"],
        ],
      );
    });

    it("validates the create and update bodies locally, without a request", async () => {
      const w = await world(fx);
      await rejectsLocally(
        fx,
        () => fx.api.builds.triggers.create({}, { ...triggerBody(w), branch_includes: [] }),
        /branch_includes: must not be empty/,
      );
      await rejectsLocally(
        fx,
        () => fx.api.builds.triggers.update({ triggerUuid: "not-a-uuid" }, { build_command: "x" }),
        /triggerUuid: must be a UUID/,
      );
      await rejectsLocally(
        fx,
        () =>
          fx.api.builds.triggers.update(
            { triggerUuid: "00000000-0000-4000-8000-000000000001" },
            { deploy_command: "" },
          ),
        /deploy_command: must not be empty/,
      );
    });
  });

  describe("environment variables", () => {
    it("sets plain and secret variables; a secret's value comes back null; patch merges; delete removes one", async () => {
      const w = await world(fx);
      const t = await fx.api.builds.triggers.create({}, triggerBody(w));
      const after = await fx.api.builds.environmentVariables.upsert(
        { triggerUuid: t.trigger_uuid },
        {
          NODE_ENV: { value: "production", is_secret: false },
          API_KEY: { value: "s3cr3t", is_secret: true },
        },
      );
      const first = new Date(fx.clock.now()).toISOString();
      assert.deepEqual(after, {
        NODE_ENV: { value: "production", is_secret: false, created_on: first },
        API_KEY: { value: null, is_secret: true, created_on: first },
      });
      fx.clock.advance(60_000);
      await fx.api.builds.environmentVariables.upsert(
        { triggerUuid: t.trigger_uuid },
        { NODE_ENV: { value: "staging", is_secret: false } },
      );
      // A variable set again keeps the time it was first set.
      assert.deepEqual(await fx.api.builds.environmentVariables.list({ triggerUuid: t.trigger_uuid }), {
        NODE_ENV: { value: "staging", is_secret: false, created_on: first },
        API_KEY: { value: null, is_secret: true, created_on: first },
      });
      await fx.api.builds.environmentVariables.delete({
        triggerUuid: t.trigger_uuid,
        environmentVariableKey: "API_KEY",
      });
      assert.deepEqual(
        Object.keys(await fx.api.builds.environmentVariables.list({ triggerUuid: t.trigger_uuid })),
        ["NODE_ENV"],
      );
      const trigger = (await fx.api.builds.triggers.list({ scriptTag: w.script.tag }))[0]!;
      assert.deepEqual(trigger.environment_variables, {
        NODE_ENV: { value: "staging", is_secret: false, created_on: first },
      });
      await assert.rejects(
        fx.api.builds.environmentVariables.delete({
          triggerUuid: t.trigger_uuid,
          environmentVariableKey: "API_KEY",
        }),
        (e: unknown) => e instanceof NotFoundError && e.apiCode === 12000,
      );
      const raw = await fx.http("GET", `${A(fx)}/builds/triggers/${t.trigger_uuid}/environment_variables`);
      assert.ok(!raw.text.includes("s3cr3t"));
    });

    it("validates the variables map on the wire and locally", async () => {
      const w = await world(fx);
      const t = await fx.api.builds.triggers.create({}, triggerBody(w));
      const res = await fx.http("PATCH", `${A(fx)}/builds/triggers/${t.trigger_uuid}/environment_variables`, {
        body: { A: { value: 1, is_secret: false }, B: { value: "x" } },
      });
      assert.equal(res.status, 400);
      assert.deepEqual(
        env(res).errors.map((e) => e.message),
        ["A.value: must be a string", "B.is_secret: is required"],
      );
      await rejectsLocally(
        fx,
        () =>
          fx.api.builds.environmentVariables.upsert(
            { triggerUuid: t.trigger_uuid },
            { "": { value: "x", is_secret: false } },
          ),
        /variable names must not be empty/,
      );
    });

    it("keeps secrets out of build metadata and build logs", async () => {
      const w = await world(fx);
      const t = await fx.api.builds.triggers.create({}, triggerBody(w));
      await fx.api.builds.environmentVariables.upsert(
        { triggerUuid: t.trigger_uuid },
        {
          TOKEN: { value: "hunter2", is_secret: true },
          MODE: { value: "fast", is_secret: false },
        },
      );
      const b = await fx.api.builds.builds.create({ triggerUuid: t.trigger_uuid }, { branch: "main" });
      const done = await fx.api.builds.builds.wait(
        { buildUuid: b.build_uuid },
        { sleep: sleepOn(fx), now: () => fx.clock.now() },
      );
      const set = new Date(b.created_on ?? "").toISOString();
      assert.deepEqual(done.build_trigger_metadata?.environment_variables, {
        TOKEN: { value: null, is_secret: true, created_on: set },
        MODE: { value: "fast", is_secret: false, created_on: set },
      });
      const { lines } = await fx.api.builds.builds.collectLogs({ buildUuid: b.build_uuid });
      assert.ok(lines.some((l) => l.text === "Build environment variables: TOKEN=********, MODE=fast"));
      const raw = await fx.http("GET", `${A(fx)}/builds/builds/${b.build_uuid}`);
      assert.ok(!raw.text.includes("hunter2"));
    });
  });

  describe("builds", () => {
    async function prodTrigger(): Promise<{ w: World; t: Trigger }> {
      const w = await world(fx);
      return {
        w,
        t: await fx.api.builds.triggers.create({}, triggerBody(w, { build_caching_enabled: true })),
      };
    }

    it("requires a branch or a commit hash (rule 1), locally and on the wire", async () => {
      const { t } = await prodTrigger();
      await rejectsLocally(
        fx,
        () => fx.api.builds.builds.create({ triggerUuid: t.trigger_uuid }, {}),
        /at least one of branch and commit_hash is required/,
      );
      const res = await fx.http("POST", `${A(fx)}/builds/triggers/${t.trigger_uuid}/builds`, { body: {} });
      assert.equal(res.status, 400);
      assert.deepEqual(env(res).errors, [
        { code: 12001, message: "body: at least one of branch and commit_hash is required" },
      ]);
    });

    it("goes queued → initializing → running → stopped(success) with the clock, and deploys a new version", async () => {
      const { w, t } = await prodTrigger();
      const before = await fx.api.builds.deployments.list({ scriptName: w.script.name });
      const b = await fx.api.builds.builds.create(
        { triggerUuid: t.trigger_uuid },
        { branch: "main", commit_hash: "abc1234def" },
      );
      assert.equal(b.status, "queued");
      // No outcome until the build stops: absent, not null (the contract's enum has no null).
      assert.ok(!("build_outcome" in b));
      assert.equal(b.branch, "main");
      assert.equal(b.trigger?.trigger_uuid, t.trigger_uuid);
      assert.equal(b.build_trigger_metadata?.commit_hash, "abc1234def");
      assert.equal(b.build_trigger_metadata?.build_trigger_source, "api");
      const seen: string[] = [];
      for (const step of [0, 2000, 3000, 8000, 1000]) {
        fx.clock.advance(step);
        seen.push((await fx.api.builds.builds.get({ buildUuid: b.build_uuid })).status);
      }
      assert.deepEqual(seen, ["queued", "initializing", "running", "running", "stopped"]);
      const done = await fx.api.builds.builds.get({ buildUuid: b.build_uuid });
      assert.equal(done.build_outcome, "success");
      assert.equal(done.created_on, "2026-01-01T00:00:00.000Z");
      assert.equal(done.initializing_on, "2026-01-01T00:00:02.000Z");
      assert.equal(done.running_on, "2026-01-01T00:00:05.000Z");
      assert.equal(done.stopped_on, "2026-01-01T00:00:14.000Z");
      const after = await fx.api.builds.deployments.list({ scriptName: w.script.name });
      assert.equal(after.length, before.length + 1);
      assert.equal(after[0]!.source, "build");
      const versions = await collect(fx.api.builds.versions.list({ scriptName: w.script.name }));
      assert.equal(versions[0]!.id, after[0]!.versions[0]!.version_id);
      assert.equal(versions[0]!.metadata?.build_uuid, b.build_uuid);
    });

    it("a preview build uploads a version but leaves the live deployment alone", async () => {
      const w = await world(fx);
      const preview = await fx.api.builds.triggers.create({}, previewBody(w));
      const before = await fx.api.builds.deployments.list({ scriptName: w.script.name });
      const b = await fx.api.builds.builds.create(
        { triggerUuid: preview.trigger_uuid },
        { branch: "feature-x" },
      );
      const done = await fx.api.builds.builds.wait(
        { buildUuid: b.build_uuid },
        { sleep: sleepOn(fx), now: () => fx.clock.now() },
      );
      assert.equal(done.build_outcome, "success");
      assert.deepEqual(await fx.api.builds.deployments.list({ scriptName: w.script.name }), before);
      const versions = await collect(fx.api.builds.versions.list({ scriptName: w.script.name }));
      assert.equal(versions.length, 2);
      assert.equal(versions[0]!.metadata?.branch, "feature-x");
    });

    it('fails deterministically when the branch or commit contains "fail", leaving no version', async () => {
      const { w, t } = await prodTrigger();
      const b = await fx.api.builds.builds.create({ triggerUuid: t.trigger_uuid }, { branch: "fail-fast" });
      const done = await fx.api.builds.builds.wait(
        { buildUuid: b.build_uuid },
        { sleep: sleepOn(fx), now: () => fx.clock.now() },
      );
      assert.equal(done.build_outcome, "fail");
      assert.equal((await collect(fx.api.builds.versions.list({ scriptName: w.script.name }))).length, 1);
      const { lines } = await fx.api.builds.builds.collectLogs({ buildUuid: b.build_uuid });
      assert.equal(lines.at(-1)!.text, "✘ Build failed: the build command exited with code 1");
      const c = await fx.api.builds.builds.create(
        { triggerUuid: t.trigger_uuid },
        { branch: "main", commit_hash: "deadfail00" },
      );
      assert.equal(
        (
          await fx.api.builds.builds.wait(
            { buildUuid: c.build_uuid },
            { sleep: sleepOn(fx), now: () => fx.clock.now() },
          )
        ).build_outcome,
        "fail",
      );
    });

    it("with only a commit hash, builds it on the branch it was last built on, else the production branch", async () => {
      const { t } = await prodTrigger();
      const first = await fx.api.builds.builds.create(
        { triggerUuid: t.trigger_uuid },
        { branch: "hotfix", commit_hash: "c0ffee1" },
      );
      assert.equal(first.branch, "hotfix");
      const again = await fx.api.builds.builds.create(
        { triggerUuid: t.trigger_uuid },
        { commit_hash: "c0ffee1" },
      );
      assert.equal(again.build_trigger_metadata?.branch, "hotfix");
      const fresh = await fx.api.builds.builds.create(
        { triggerUuid: t.trigger_uuid },
        { commit_hash: "beef123" },
      );
      assert.equal(fresh.build_trigger_metadata?.branch, "main");
      const byBranch = await fx.api.builds.builds.create({ triggerUuid: t.trigger_uuid }, { branch: "main" });
      assert.match(byBranch.build_trigger_metadata?.commit_hash ?? "", /^[0-9a-f]{40}$/);
    });

    it("cancels a running build, and refuses to cancel one that stopped", async () => {
      const { w, t } = await prodTrigger();
      const b = await fx.api.builds.builds.create({ triggerUuid: t.trigger_uuid }, { branch: "main" });
      fx.clock.advance(7000);
      assert.equal((await fx.api.builds.builds.get({ buildUuid: b.build_uuid })).status, "running");
      const cancelled = await fx.api.builds.builds.cancel({ buildUuid: b.build_uuid });
      assert.equal(cancelled.status, "stopped");
      assert.equal(cancelled.build_outcome, "cancelled");
      assert.equal(cancelled.stopped_on, "2026-01-01T00:00:07.000Z");
      fx.clock.advance(60_000);
      const { lines } = await fx.api.builds.builds.collectLogs({ buildUuid: b.build_uuid });
      assert.equal(lines.at(-1)!.text, "Build cancelled");
      assert.equal(lines.at(-1)!.at, Date.parse("2026-01-01T00:00:07.000Z"));
      assert.equal((await collect(fx.api.builds.versions.list({ scriptName: w.script.name }))).length, 1);
      await assert.rejects(fx.api.builds.builds.cancel({ buildUuid: b.build_uuid }), (e: unknown) => {
        assert.ok(e instanceof BadRequestError);
        assert.equal(e.apiCode, 12003);
        assert.match(e.message, /Build cannot be cancelled: it already stopped \(outcome cancelled\)/);
        return true;
      });
      const raw = await fx.http("PUT", `${A(fx)}/builds/builds/${b.build_uuid}/cancel`);
      assert.equal(raw.status, 400);
      assert.equal(env(raw).errors[0]!.code, 12003);
    });

    it("pages logs by cursor; lines appear one per second while running; an empty cursor ends a stopped build", async () => {
      const { t } = await prodTrigger();
      const b = await fx.api.builds.builds.create({ triggerUuid: t.trigger_uuid }, { branch: "main" });
      const url = `${A(fx)}/builds/builds/${b.build_uuid}/logs`;
      const queued = env(await fx.http("GET", url)).result as {
        cursor: string;
        lines: unknown[];
        truncated: boolean;
      };
      assert.deepEqual(queued.lines, []);
      assert.notEqual(queued.cursor, "");
      fx.clock.advance(7000); // initializing lines at 2 s and 3 s, running lines at 5, 6, 7 s
      const partial = await collect(fx.api.builds.builds.logLines({ buildUuid: b.build_uuid }));
      assert.equal(partial.length, 5);
      assert.equal(partial[0]!.text, "Initializing build environment...");
      assert.equal(partial[0]!.at, Date.parse("2026-01-01T00:00:02.000Z"));
      fx.clock.advance(60_000);
      const first = env(await fx.http("GET", url)).result as {
        cursor: string;
        lines: [number, string][];
        truncated: boolean;
      };
      assert.equal(first.lines.length, 5);
      assert.equal(first.truncated, false);
      const before = fx.em.requestLog.length;
      const all = await fx.api.builds.builds.collectLogs({ buildUuid: b.build_uuid });
      assert.equal(all.lines.length, 12);
      assert.equal(all.truncated, false);
      assert.equal(requestsSince(fx, before).length, 3);
      assert.deepEqual(
        all.lines.map((l) => l.at),
        [...all.lines.map((l) => l.at)].sort((x, y) => x - y),
      );
      assert.equal(all.lines.at(-1)!.text, "Success: build completed");
      const last = env(await fx.http("GET", `${url}?cursor=${encodeURIComponent(first.cursor)}`)).result as {
        cursor: string;
      };
      assert.notEqual(last.cursor, "");
      const bad = await fx.http("GET", `${url}?cursor=garbage`);
      assert.equal(bad.status, 400);
      assert.deepEqual(env(bad).errors, [
        { code: 12001, message: "cursor: is not a cursor of this build's logs" },
      ]);
    });

    it("lists a script's builds newest first with the page-style iterator", async () => {
      const { w, t } = await prodTrigger();
      const made: string[] = [];
      for (const branch of ["a", "b", "c"]) {
        made.push(
          (await fx.api.builds.builds.create({ triggerUuid: t.trigger_uuid }, { branch })).build_uuid,
        );
        fx.clock.advance(1000);
      }
      const before = fx.em.requestLog.length;
      const listed = await collect(fx.api.builds.builds.list({ scriptTag: w.script.tag }, { perPage: 2 }));
      assert.deepEqual(
        listed.map((b) => b.build_uuid),
        [...made].reverse(),
      );
      assert.deepEqual(
        listed.map((b) => b.branch),
        ["c", "b", "a"],
      );
      assert.ok(listed.every((b) => typeof b.created_at === "string"));
      assert.equal(requestsSince(fx, before).length, 2);
      const raw = await fx.http("GET", `${A(fx)}/builds/workers/${w.script.tag}/builds?per_page=2&page=1`);
      assert.deepEqual(env(raw).result_info, { page: 1, per_page: 2, count: 2, total_count: 3 });
    });

    it("finds the build of a version through version_ids (result.builds keyed by version id)", async () => {
      const { w, t } = await prodTrigger();
      const b = await fx.api.builds.builds.create(
        { triggerUuid: t.trigger_uuid },
        { branch: "main", commit_hash: "1234567" },
      );
      await fx.api.builds.builds.wait(
        { buildUuid: b.build_uuid },
        { sleep: sleepOn(fx), now: () => fx.clock.now() },
      );
      const versionId = (await fx.api.builds.deployments.list({ scriptName: w.script.name }))[0]!.versions[0]!
        .version_id;
      const found = await fx.api.builds.builds.listByVersionIds({}, { version_ids: [versionId] });
      assert.equal(found.length, 1);
      assert.equal(found[0]!.versionId, versionId);
      assert.equal(found[0]!.build.build_uuid, b.build_uuid);
      assert.equal(found[0]!.build.build_trigger_metadata?.commit_hash, "1234567");
      const uploaded = (await collect(fx.api.builds.versions.list({ scriptName: w.script.name }))).at(-1)!.id;
      assert.deepEqual(await fx.api.builds.builds.listByVersionIds({}, { version_ids: [uploaded] }), []);
      const raw = await fx.http("GET", `${A(fx)}/builds/builds`);
      assert.equal(raw.status, 400);
      assert.deepEqual(env(raw).errors, [
        { code: 12001, message: "version_ids: at least one version id is required" },
      ]);
      const ids = Array.from({ length: 21 }, () => versionId);
      await rejectsLocally(
        fx,
        () => fx.api.builds.builds.listByVersionIds({}, { version_ids: ids }),
        /versionIds: must hold at most 20 version ids/,
      );
    });

    it("restores the build cache on later builds until the cache is purged", async () => {
      const { t } = await prodTrigger();
      const wait = (id: string) =>
        fx.api.builds.builds.wait({ buildUuid: id }, { sleep: sleepOn(fx), now: () => fx.clock.now() });
      const cacheLine = async (id: string) =>
        (await fx.api.builds.builds.collectLogs({ buildUuid: id })).lines[2]!.text;
      const b1 = await fx.api.builds.builds.create({ triggerUuid: t.trigger_uuid }, { branch: "main" });
      await wait(b1.build_uuid);
      assert.equal(await cacheLine(b1.build_uuid), "No build cache to restore");
      const b2 = await fx.api.builds.builds.create({ triggerUuid: t.trigger_uuid }, { branch: "main" });
      await wait(b2.build_uuid);
      assert.equal(await cacheLine(b2.build_uuid), "Restored build cache");
      await fx.api.builds.triggers.purgeCache({ triggerUuid: t.trigger_uuid });
      const b3 = await fx.api.builds.builds.create({ triggerUuid: t.trigger_uuid }, { branch: "main" });
      await wait(b3.build_uuid);
      assert.equal(await cacheLine(b3.build_uuid), "No build cache to restore");
      const raw = await fx.http(
        "POST",
        `${A(fx)}/builds/triggers/00000000-0000-4000-8000-000000000009/purge_build_cache`,
      );
      assert.equal(raw.status, 404);
    });

    it("waitForBuild polls with backoff on the injected clock, reports progress and returns the stopped build", async () => {
      const { t } = await prodTrigger();
      const b = await fx.api.builds.builds.create({ triggerUuid: t.trigger_uuid }, { branch: "main" });
      const statuses: string[] = [];
      const pauses: number[] = [];
      const done = await fx.api.builds.builds.wait(
        { buildUuid: b.build_uuid },
        {
          pollIntervalMs: 1000,
          maxPollIntervalMs: 4000,
          onProgress: (x) => statuses.push(x.status),
          sleep: async (ms) => {
            pauses.push(ms);
            fx.clock.advance(ms);
          },
          now: () => fx.clock.now(),
        },
      );
      assert.equal(done.status, "stopped");
      assert.equal(done.build_outcome, "success");
      assert.deepEqual(pauses, [1000, 1500, 2250, 3375, 4000, 4000]);
      assert.equal(statuses[0], "queued");
      assert.equal(statuses.at(-1), "stopped");
      assert.ok(statuses.includes("running"));
    });

    it("waitForBuild gives up at the deadline and stops on abort", async () => {
      const { t } = await prodTrigger();
      const b = await fx.api.builds.builds.create({ triggerUuid: t.trigger_uuid }, { branch: "main" });
      await assert.rejects(
        fx.api.builds.builds.wait(
          { buildUuid: b.build_uuid },
          { deadlineMs: 4000, pollIntervalMs: 1000, sleep: sleepOn(fx), now: () => fx.clock.now() },
        ),
        (e: unknown) =>
          e instanceof DeadlineExceededError &&
          /build .*: not finished within 4000 ms \(last state: initializing\)/.test(e.message),
      );
      const controller = new AbortController();
      await assert.rejects(
        fx.api.builds.builds.wait(
          { buildUuid: b.build_uuid },
          {
            signal: controller.signal,
            sleep: async (ms) => {
              fx.clock.advance(ms);
              controller.abort();
            },
            now: () => fx.clock.now(),
          },
        ),
        (e: unknown) => e instanceof AbortedError,
      );
      await rejectsLocally(
        fx,
        () => fx.api.builds.builds.wait({ buildUuid: b.build_uuid }, { deadlineMs: 0 }),
        /deadlineMs: must be greater than 0/,
      );
    });

    it("answers unknown builds with 404 and validates build ids locally", async () => {
      await world(fx);
      const raw = await fx.http("GET", `${A(fx)}/builds/builds/00000000-0000-4000-8000-000000000000`);
      assert.equal(raw.status, 404);
      assert.deepEqual(env(raw).errors, [{ code: 12000, message: "Resource not found" }]);
      await rejectsLocally(
        fx,
        () => fx.api.builds.builds.get({ buildUuid: "nope" }),
        /buildUuid: must be a UUID/,
      );
    });
  });

  describe("redeploying the active deployment (rule 2)", () => {
    it("rebuilds the branch and commit of the build behind the active deployment, step by step", async () => {
      const w = await world(fx);
      const t = await fx.api.builds.triggers.create({}, triggerBody(w));
      const b = await fx.api.builds.builds.create(
        { triggerUuid: t.trigger_uuid },
        { branch: "main", commit_hash: "feedbee" },
      );
      await fx.api.builds.builds.wait(
        { buildUuid: b.build_uuid },
        { sleep: sleepOn(fx), now: () => fx.clock.now() },
      );
      const active = (await fx.api.builds.deployments.list({ scriptName: w.script.name }))[0]!.versions[0]!
        .version_id;
      const before = fx.em.requestLog.length;
      const r = await fx.api.builds.builds.redeployActiveDeployment({ scriptName: w.script.name });
      const a = A(fx);
      assert.deepEqual(requestsSince(fx, before), [
        `GET /client/v4${a}/workers/scripts/${w.script.name}/deployments`,
        `GET /client/v4${a}/builds/builds?version_ids=${active}`,
        `POST /client/v4${a}/builds/triggers/${t.trigger_uuid}/builds`,
      ]);
      assert.deepEqual(
        { versionId: r.versionId, triggerUuid: r.triggerUuid, branch: r.branch, commitHash: r.commitHash },
        { versionId: active, triggerUuid: t.trigger_uuid, branch: "main", commitHash: "feedbee" },
      );
      assert.notEqual(r.build.build_uuid, b.build_uuid);
      assert.equal(r.build.build_trigger_metadata?.commit_hash, "feedbee");
      const done = await fx.api.builds.builds.wait(
        { buildUuid: r.build.build_uuid },
        { sleep: sleepOn(fx), now: () => fx.clock.now() },
      );
      assert.equal(done.build_outcome, "success");
      assert.equal(
        (await fx.api.builds.deployments.list({ scriptName: w.script.name }))[0]!.versions[0]!.version_id !==
          active,
        true,
      );
    });

    it("names the failing step: no build behind an uploaded version, an unknown script", async () => {
      const w = await world(fx);
      await assert.rejects(
        fx.api.builds.builds.redeployActiveDeployment({ scriptName: w.script.name }),
        (e: unknown) => {
          assert.ok(e instanceof RedeployError);
          assert.equal(e.step, "builds");
          assert.match(
            e.message,
            /failed at step 3\. list builds by that version id: no build produced version/,
          );
          return true;
        },
      );
      await assert.rejects(
        fx.api.builds.builds.redeployActiveDeployment({ scriptName: "ghost" }),
        (e: unknown) => {
          assert.ok(e instanceof RedeployError);
          assert.equal(e.step, "deployments");
          assert.ok(e.cause instanceof NotFoundError);
          assert.match(e.message, /step 1\. list the script's deployments: .*Resource not found/);
          return true;
        },
      );
    });

    it("names the post step when the trigger is gone", async () => {
      const w = await world(fx);
      const t = await fx.api.builds.triggers.create({}, triggerBody(w));
      const b = await fx.api.builds.builds.create({ triggerUuid: t.trigger_uuid }, { branch: "main" });
      await fx.api.builds.builds.wait(
        { buildUuid: b.build_uuid },
        { sleep: sleepOn(fx), now: () => fx.clock.now() },
      );
      await fx.api.builds.triggers.delete({ triggerUuid: t.trigger_uuid });
      await assert.rejects(
        fx.api.builds.builds.redeployActiveDeployment({ scriptName: w.script.name }),
        (e: unknown) => e instanceof RedeployError && e.step === "post" && e.cause instanceof NotFoundError,
      );
    });
  });

  describe("tokens and repository connections", () => {
    it("lists the build token seeded at first use, and one added through the control API", async () => {
      const [seeded] = await fx.api.builds.tokens.list();
      assert.equal(seeded!.build_token_name, "Default build token");
      assert.match(seeded!.build_token_uuid, /^[0-9a-f-]{36}$/);
      const added = await fx.http("POST", "/__emulator/builds/tokens", { body: { build_token_name: "ci" } });
      assert.equal(added.status, 200);
      assert.deepEqual(
        (await fx.api.builds.tokens.list()).map((t) => t.build_token_name),
        ["Default build token", "ci"],
      );
    });

    it("upserts a repository connection by provider, account and repository id (PUT)", async () => {
      const body = {
        provider_type: "github",
        provider_account_id: "acme",
        provider_account_name: "Acme",
        repo_id: "42",
        repo_name: "shop",
      };
      const first = await fx.api.builds.repos.connections.upsert({}, body);
      const again = await fx.api.builds.repos.connections.upsert({}, { ...body, repo_name: "shop-renamed" });
      assert.equal(again.repo_connection_uuid, first.repo_connection_uuid);
      assert.equal(again.repo_name, "shop-renamed");
      const other = await fx.api.builds.repos.connections.upsert({}, { ...body, repo_id: "43" });
      assert.notEqual(other.repo_connection_uuid, first.repo_connection_uuid);
      assert.deepEqual(
        (await fx.api.builds.repos.connections.list()).map((c) => c.repo_name),
        ["shop-renamed", "shop"],
      );
      await rejectsLocally(
        fx,
        () => fx.api.builds.repos.connections.upsert({}, { ...body, repo_name: "" }),
        /repo_name: must not be empty/,
      );
      const raw = await fx.http("PUT", `${A(fx)}/builds/repos/connections`, {
        body: { provider_type: "github" },
      });
      assert.equal(raw.status, 400);
      assert.equal(env(raw).errors.length, 4);
      assert.equal(env(raw).errors[0]!.message, "provider_account_id: is required");
    });

    it("deletes an unused repository connection and refuses one a trigger uses", async () => {
      const w = await world(fx);
      await fx.api.builds.triggers.create({}, triggerBody(w));
      await assert.rejects(
        fx.api.builds.repos.connections.delete({ repoConnectionUuid: w.repo }),
        (e: unknown) =>
          e instanceof BadRequestError && e.apiCode === 12005 && /in use by trigger/.test(e.message),
      );
      const spare = await fx.api.builds.repos.connections.upsert(
        {},
        {
          provider_type: "github",
          provider_account_id: "acme",
          provider_account_name: "Acme",
          repo_id: "spare",
          repo_name: "spare",
        },
      );
      await fx.api.builds.repos.connections.delete({ repoConnectionUuid: spare.repo_connection_uuid });
      assert.deepEqual(
        (await fx.api.builds.repos.connections.list()).map((c) => c.repo_id),
        ["r1"],
      );
      await assert.rejects(
        fx.api.builds.repos.connections.delete({ repoConnectionUuid: spare.repo_connection_uuid }),
        (e: unknown) => e instanceof NotFoundError && e.apiCode === 12000,
      );
    });
  });

  describe("authentication", () => {
    const asToken = (token: string): AccountApi => fx.client({ token });

    it("refuses a request without a token (401) and an unknown token with Invalid token (401)", async () => {
      const none = await fx.http("GET", `${A(fx)}/builds/tokens`, { token: null });
      assert.equal(none.status, 401);
      assert.deepEqual(env(none).errors, [
        {
          code: 12007,
          message: "Authentication required: send Authorization: Bearer <user-scoped API token>",
        },
      ]);
      const wrong = await fx.http("GET", `${A(fx)}/builds/tokens`, { token: "not-a-token" });
      assert.equal(wrong.status, 401);
      assert.deepEqual(env(wrong).errors, [{ code: 12006, message: "Invalid token" }]);
    });

    it("refuses an account-scoped token with 401 Invalid token, and the sdk explains user scope", async () => {
      const token = fx.token("account", ["*"]);
      const raw = await fx.http("GET", `${A(fx)}/builds/tokens`, { token });
      assert.equal(raw.status, 401);
      assert.deepEqual(env(raw).errors, [{ code: 12006, message: "Invalid token" }]);
      const scripts = await fx.http("GET", `${A(fx)}/workers/scripts`, { token });
      assert.equal(scripts.status, 401);
      await assert.rejects(asToken(token).builds.tokens.list(), (e: unknown) => {
        assert.ok(e instanceof AuthenticationError);
        assert.equal(e.apiCode, 12006);
        assert.match(
          e.message,
          /Invalid token \(code 12006\)\. the build service accepts only user-scoped API tokens/,
        );
        assert.ok(!e.message.includes(token));
        return true;
      });
    });

    it("needs builds:edit for build configuration and scripts:read only for listing scripts", async () => {
      const w = await world(fx);
      const reader = asToken(fx.token("user", ["scripts:read"]));
      assert.equal((await reader.builds.scripts.list()).length, 1);
      assert.equal(await reader.builds.scripts.resolveTag({ scriptName: w.script.name }), w.script.tag);
      await assert.rejects(reader.builds.triggers.list({ scriptTag: w.script.tag }), (e: unknown) => {
        assert.ok(e instanceof PermissionDeniedError);
        assert.equal(e.apiCode, 12008);
        assert.match(e.message, /Forbidden: the token lacks the permission builds:edit/);
        return true;
      });
      const editor = asToken(fx.token("user", ["builds:edit"]));
      assert.equal((await editor.builds.tokens.list()).length, 1);
      await assert.rejects(
        editor.builds.scripts.list(),
        (e: unknown) =>
          e instanceof PermissionDeniedError && /lacks the permission scripts:read/.test(e.message),
      );
      const upload = await fx.http("PUT", `${A(fx)}/workers/scripts/x`, {
        body: {},
        token: fx.token("user", ["scripts:read"]),
      });
      assert.equal(upload.status, 403);
      assert.deepEqual(env(upload).errors, [
        { code: 12008, message: "Forbidden: the token lacks the permission scripts:edit" },
      ]);
    });

    it("refuses a token of another account with 403, and an over-long account id locally", async () => {
      const other = fx.em.auth.add({ scope: "user", permissions: ["*"], accountId: "someone-else" }).value;
      const raw = await fx.http("GET", `${A(fx)}/builds/tokens`, { token: other });
      assert.equal(raw.status, 403);
      assert.deepEqual(env(raw).errors, [
        { code: 12009, message: "Forbidden: the token does not belong to this account" },
      ]);
      await rejectsLocally(
        fx,
        () => fx.api.builds.tokens.list({ accountId: "x".repeat(33) }),
        /accountId: must be at most 32 characters/,
      );
    });

    it("keeps each account's builds apart", async () => {
      await world(fx);
      const otherToken = fx.em.auth.add({ scope: "user", permissions: ["*"], accountId: "acct2" }).value;
      const other = fx.client({ token: otherToken, accountId: "acct2" });
      assert.deepEqual(await other.builds.scripts.list(), []);
      assert.equal((await other.builds.tokens.list()).length, 1);
    });
  });
});

describe("builds area: persistence", () => {
  it("keeps scripts, triggers and builds across a restart, and a finished build's effects are the same", async () => {
    const dir = mkdtempSync(join(tmpdir(), "builds-state-"));
    const stateFile = join(dir, "state.json");
    const clock = new ManualClock();
    const opts = { clock, env: {}, stateFile, accountId: "acct", token: "tok" };
    const open = async () => {
      const em = await startEmulator(opts);
      const api = new AccountApi({
        baseUrl: em.url,
        token: "tok",
        accountId: "acct",
        retry: { maxRetries: 0 },
        env: {},
      });
      return { em, api };
    };
    try {
      let { em, api } = await open();
      await api.client.request({
        method: "PUT",
        path: "/accounts/acct/workers/scripts/shop",
        body: {},
        schema: z.unknown(),
      });
      const tag = await api.builds.scripts.resolveTag({ scriptName: "shop" });
      const repo = await api.builds.repos.connections.upsert(
        {},
        {
          provider_type: "github",
          provider_account_id: "o",
          provider_account_name: "O",
          repo_id: "1",
          repo_name: "shop",
        },
      );
      const [token] = await api.builds.tokens.list();
      const t = await api.builds.triggers.create(
        {},
        {
          external_script_id: tag,
          repo_connection_uuid: repo.repo_connection_uuid,
          build_token_uuid: token!.build_token_uuid,
          trigger_name: "prod",
          build_command: "",
          deploy_command: "deploy",
          root_directory: "/",
          branch_includes: ["main"],
        },
      );
      const b = await api.builds.builds.create({ triggerUuid: t.trigger_uuid }, { branch: "main" });
      clock.advance(60_000);
      // Seen by a GET only (not saved), then seen again after the restart: same version id.
      const seen = (await api.builds.deployments.list({ scriptName: "shop" }))[0]!.versions[0]!.version_id;
      await api.close();
      await em.stop();
      ({ em, api } = await open());
      assert.equal((await api.builds.builds.get({ buildUuid: b.build_uuid })).build_outcome, "success");
      assert.equal(
        (await api.builds.deployments.list({ scriptName: "shop" }))[0]!.versions[0]!.version_id,
        seen,
      );
      assert.equal((await api.builds.triggers.list({ scriptTag: tag }))[0]!.trigger_uuid, t.trigger_uuid);
      await api.close();
      await em.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
