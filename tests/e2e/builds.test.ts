/**
 * The build-service resources on the real engine: RepoConnection, two BuildTriggers (by script name)
 * and TriggerEnvVars with a secret, through up → preview → drift → refresh → up → preview, a third
 * trigger failing at preview, the triggerBuild function on up, adoption with importId, and destroy.
 */
import { strict as assert } from "node:assert";
import { request } from "undici";
import { triggerBuild } from "../../provider/functions/builds";
import { BuildTrigger } from "../../provider/resources/build-trigger";
import { RepoConnection } from "../../provider/resources/repo-connection";
import { TriggerEnvVars } from "../../provider/resources/trigger-env-vars";
import type { AccountApi } from "../../sdk";
import { variablesOf } from "../helpers/builds";
import { useE2E } from "./harness";

const SECRET = "super-secret-build-value";

describe("builds end to end (real engine)", function () {
  this.timeout(600_000);
  const e2e = useE2E("builds");
  let api: AccountApi;

  before(() => {
    api = e2e.api;
  });

  async function uploadScript(name: string): Promise<string> {
    const res = await request(
      `${e2e.emulator.url}/accounts/${e2e.emulator.accountId}/workers/scripts/${name}`,
      {
        method: "PUT",
        headers: { authorization: `Bearer ${e2e.emulator.token}`, "content-type": "application/json" },
        body: "{}",
      },
    );
    const json = (await res.body.json()) as { result: { tag: string } };
    return json.result.tag;
  }

  it("manages a repository connection, two triggers and their variables, with drift, limits and a build", async () => {
    const tag = await uploadScript("shop");
    const [token] = await api.builds.tokens.list();
    const phase = { third: false, build: false, edit: false };
    const stack = await e2e.stack(async () => {
      const repo = new RepoConnection("repo", {
        providerType: "github",
        providerAccountId: "acme",
        providerAccountName: "Acme",
        repoId: "shop",
        repoName: "shop",
      });
      const common = {
        scriptName: "shop",
        repoConnectionUuid: repo.repoConnectionUuid,
        buildTokenUuid: token!.build_token_uuid,
      };
      const prod = new BuildTrigger("prod", {
        ...common,
        kind: "production",
        buildCommand: phase.edit ? "npm run build:prod" : "npm run build",
      });
      const preview = new BuildTrigger("preview", { ...common, kind: "preview", branchExcludes: ["main"] });
      new TriggerEnvVars("vars", {
        triggerUuid: prod.triggerUuid,
        variables: { MODE: { value: "fast" }, API_KEY: { value: SECRET, isSecret: true } },
      });
      if (phase.third) new BuildTrigger("third", { ...common, kind: "production", triggerName: "another" });
      const out: Record<string, unknown> = {
        prod: prod.triggerUuid,
        preview: preview.triggerUuid,
        tag: prod.externalScriptId,
      };
      if (phase.build) out.build = triggerBuild({ triggerUuid: prod.triggerUuid, branch: "main" });
      return out;
    });

    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    assert.equal(up.summary.resourceChanges?.create, 5);
    assert.equal(up.outputs.tag?.value, tag);
    const prodUuid = String(up.outputs.prod?.value);
    const triggers = await api.builds.triggers.list({ scriptTag: tag });
    assert.deepEqual(triggers.map((t) => t.trigger_name).sort(), ["preview", "production"]);
    assert.deepEqual(await variablesOf(api, prodUuid), {
      MODE: { value: "fast", is_secret: false },
      API_KEY: { value: null, is_secret: true },
    });
    const state = stack.rawState();
    assert.ok(!state.includes(SECRET), "the secret value is not in state in plain text");
    assert.ok(!state.includes(e2e.emulator.token), "the token is not in state");
    // Secrets per leaf: the plain variable stays readable in state, the secret one is ciphertext.
    const vars = JSON.parse(state).checkpoint.latest.resources.find((r: { urn: string }) =>
      r.urn.endsWith("::vars"),
    );
    for (const where of [vars.inputs, vars.outputs]) {
      assert.deepEqual(where.variables.MODE, { value: "fast", isSecret: false });
      assert.equal(where.variables.API_KEY.isSecret, true);
      assert.equal(typeof where.variables.API_KEY.value.ciphertext, "string");
    }

    await stack.preview({ expectNoChanges: true });

    // Editing the trigger updates it in place; its variables, which follow its id, do not move.
    phase.edit = true;
    const edit = await stack.preview();
    assert.deepEqual(edit.changeSummary, { same: 4, update: 1 });
    phase.edit = false;

    // Out of band: a setting, a plain value and a secret's key.
    await api.builds.triggers.update({ triggerUuid: prodUuid }, { build_command: "changed by hand" });
    await api.builds.environmentVariables.upsert(
      { triggerUuid: prodUuid },
      { MODE: { value: "slow", is_secret: false } },
    );
    await api.builds.environmentVariables.delete({
      triggerUuid: prodUuid,
      environmentVariableKey: "API_KEY",
    });
    // …and the repository connection's display names (same upsert key, so the same connection).
    await api.builds.repos.connections.upsert(
      {},
      {
        provider_type: "github",
        provider_account_id: "acme",
        provider_account_name: "Acme Renamed",
        repo_id: "shop",
        repo_name: "shop-renamed",
      },
    );
    const refresh = await stack.refresh();
    assert.ok(
      (refresh.summary.resourceChanges?.update ?? 0) >= 3,
      JSON.stringify(refresh.summary.resourceChanges),
    );

    assert.ok(
      !stack.rawState().includes(SECRET),
      "after refresh the secret is still not in state in plain text",
    );
    const reconcile = await stack.up();
    assert.ok((reconcile.summary.resourceChanges?.update ?? 0) >= 3);
    const [repoLive] = await api.builds.repos.connections.list();
    assert.equal(repoLive?.repo_name, "shop");
    assert.equal(repoLive?.provider_account_name, "Acme");
    const prodLive = (await api.builds.triggers.list({ scriptTag: tag })).find(
      (t) => t.trigger_uuid === prodUuid,
    )!;
    assert.equal(prodLive.build_command, "npm run build");
    assert.deepEqual(await variablesOf(api, prodUuid), {
      MODE: { value: "fast", is_secret: false },
      API_KEY: { value: null, is_secret: true },
    });
    await stack.preview({ expectNoChanges: true });

    // Spec Limits: a third trigger for the script fails at preview, before anything changes.
    phase.third = true;
    await assert.rejects(
      stack.preview(),
      /already has a production trigger "production"|also takes the production trigger of script shop/,
    );
    phase.third = false;

    // Functions run on up only.
    phase.build = true;
    const withBuild = await stack.up();
    const build = withBuild.outputs.build?.value as {
      buildUuid: string;
      triggerUuid: string;
      branch: string;
    };
    assert.equal(build.triggerUuid, prodUuid);
    assert.equal(build.branch, "main");
    assert.equal(
      (await api.builds.builds.get({ buildUuid: build.buildUuid })).trigger?.trigger_uuid,
      prodUuid,
    );

    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
    assert.deepEqual(await api.builds.triggers.list({ scriptTag: tag }), []);
    assert.deepEqual(await api.builds.repos.connections.list(), []);
  });

  it("adopts a trigger made by hand with importId and brings it to the program", async () => {
    const tag = await uploadScript("blog");
    const [token] = await api.builds.tokens.list();
    const repo = await api.builds.repos.connections.upsert(
      {},
      {
        provider_type: "github",
        provider_account_id: "acme",
        provider_account_name: "Acme",
        repo_id: "blog",
        repo_name: "blog",
      },
    );
    const byHand = await api.builds.triggers.create(
      {},
      {
        external_script_id: tag,
        repo_connection_uuid: repo.repo_connection_uuid,
        build_token_uuid: token!.build_token_uuid,
        trigger_name: "by hand",
        build_command: "",
        deploy_command: "npx wrangler deploy",
        root_directory: "/",
        branch_includes: ["main"],
      },
    );
    const stack = await e2e.stack(async () => {
      const t = new BuildTrigger("adopted", {
        externalScriptId: tag,
        repoConnectionUuid: repo.repo_connection_uuid,
        buildTokenUuid: token!.build_token_uuid,
        kind: "production",
        triggerName: "managed",
        importId: byHand.trigger_uuid,
      });
      return { uuid: t.triggerUuid };
    });
    const up = await stack.up();
    assert.equal(up.outputs.uuid?.value, byHand.trigger_uuid);
    assert.equal((await api.builds.triggers.list({ scriptTag: tag }))[0]!.trigger_name, "managed");
    await stack.preview({ expectNoChanges: true });
    await stack.destroy();
    assert.deepEqual(await api.builds.triggers.list({ scriptTag: tag }), []);
    await api.builds.repos.connections.delete({ repoConnectionUuid: repo.repo_connection_uuid });
  });
});
