/**
 * The build service's conformance scenario: every one of its 34 operations through the sdk, each
 * documented 4xx the emulator produces (404 on a missing id; 400, 404 and 409 of the deploy hooks;
 * the script endpoints' 4XX), and one call per body with every request field set.
 */
import { strict as assert } from "node:assert";
import { isAdvanceable } from "../../../emulator/clock";
import { collect } from "../../../sdk";
import type { AreaScenario, ConformanceKit } from "../kit";

/** A UUID no object of the emulator has. */
const MISSING = "00000000-0000-4000-8000-000000000000";

/** Builds run on the emulator's clock: push it on (the control API where the clock is not at hand). */
async function advance(kit: ConformanceKit, ms: number): Promise<void> {
  const clock = kit.emulator.clock;
  if (isAdvanceable(clock)) return clock.advance(ms);
  const res = await fetch(`${kit.emulator.origin}/__emulator/clock/advance`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ms }),
  });
  assert.equal(res.status, 200, "the emulator's clock could not be advanced");
}

async function scriptsAndDeployments(kit: ConformanceKit): Promise<{ name: string; tag: string }> {
  const { builds } = kit.api;
  const script = await builds.uploadScript("conformance-shop");
  const tagged = await builds.listScripts({ tags: "unused:no" });
  assert.ok(tagged.some((s) => s.tag === script.tag));
  await kit.expectStatus(builds.listDeployments("no-such-script"), 404);
  const [active] = await builds.listDeployments(script.id);
  const versionId = active!.versions[0]!.version_id;
  await builds.createDeployment(script.id, {
    strategy: "percentage",
    versions: [{ version_id: versionId, percentage: 100 }],
    annotations: { "workers/message": "conformance: every field" },
    force: false,
  });
  await kit.expectStatus(
    builds.createDeployment("no-such-script", { versions: [{ version_id: versionId, percentage: 100 }] }),
    404,
  );
  const bad = await kit.raw("POST", `/accounts/${kit.accountId}/workers/scripts/${script.id}/deployments`, {
    strategy: "all-at-once",
    versions: [],
  });
  assert.equal(bad.status, 400);
  // The listing's 4XX: a token of another account.
  const other = await kit.raw("GET", `/accounts/not-${kit.accountId.slice(0, 20)}/workers/scripts`);
  assert.ok(other.status >= 400 && other.status < 500, `listing another account: ${other.status}`);
  return { name: script.id, tag: script.tag };
}

export const scenario: AreaScenario = {
  area: "builds",
  async run(kit) {
    const { builds } = kit.api;
    const script = await scriptsAndDeployments(kit);

    // Repository connection, tokens, limits, autofill.
    const repo = await builds.upsertRepoConnection({
      provider_type: "github",
      provider_account_id: "acme",
      provider_account_name: "Acme Inc.",
      repo_id: "4242",
      repo_name: "conformance-shop",
    });
    await builds.getConfigAutofill({
      providerType: "github",
      providerAccountId: "acme",
      repoId: "4242",
      branch: "main",
      rootDirectory: "/",
    });
    const made = await builds.createToken({
      build_token_name: "conformance",
      build_token_secret: "s3cr3t-token-value",
      cloudflare_token_id: "0123456789abcdef0123456789abcdef",
    });
    const tokens = await builds.listTokens({ perPage: 1 });
    assert.ok(tokens.some((t) => t.build_token_uuid === made.build_token_uuid));
    await builds.getAccountLimits();

    // Triggers: one with every create field, updated with every PATCH field.
    const trigger = await builds.createTrigger({
      external_script_id: script.tag,
      repo_connection_uuid: repo.repo_connection_uuid,
      build_token_uuid: made.build_token_uuid,
      trigger_name: "production",
      build_command: "npm run build",
      deploy_command: "npx wrangler deploy",
      root_directory: "/",
      branch_includes: ["main"],
      branch_excludes: ["dependabot/*"],
      path_includes: ["*"],
      path_excludes: ["docs/*"],
      build_caching_enabled: true,
    });
    const token = tokens.find((t) => t.build_token_uuid !== made.build_token_uuid)!;
    await builds.updateTrigger(trigger.trigger_uuid, {
      trigger_name: "production (main)",
      build_token_uuid: token.build_token_uuid,
      build_command: "pnpm build",
      deploy_command: "npx wrangler deploy --minify",
      root_directory: "/app",
      branch_includes: ["main"],
      branch_excludes: [],
      path_includes: ["src/*"],
      path_excludes: [],
      build_caching_enabled: false,
    });
    await kit.expectStatus(builds.updateTrigger(MISSING, { build_command: "x" }), 404);
    await builds.listTriggers(script.tag);
    await builds.deleteToken(made.build_token_uuid);
    await kit.expectStatus(builds.deleteToken(MISSING), 404);

    // Variables of the trigger.
    await builds.patchEnvironmentVariables(trigger.trigger_uuid, {
      variables: {
        NODE_ENV: { value: "production", is_secret: false },
        API_KEY: { value: "hunter2", is_secret: true },
      },
    });
    await builds.patchEnvironmentVariables(trigger.trigger_uuid, {
      variables: { NODE_ENV: { value: null, is_secret: false } },
    });
    await kit.expectStatus(
      builds.patchEnvironmentVariables(MISSING, { variables: { A: { value: "a", is_secret: false } } }),
      404,
    );
    await builds.getEnvironmentVariables(trigger.trigger_uuid);
    await builds.deleteEnvironmentVariable(trigger.trigger_uuid, "API_KEY");
    await kit.expectStatus(builds.deleteEnvironmentVariable(trigger.trigger_uuid, "API_KEY"), 404);

    // Builds: one with every field, run to its end; one cancelled.
    const seeded = await builds.triggerBuild(trigger.trigger_uuid, {
      branch: "main",
      commitHash: "0123456789abcdef0123456789abcdef01234567",
      seedRepo: {
        provider: "github",
        owner: "acme",
        repository: "conformance-shop",
        branch: "main",
        path: "/",
        files: [
          { filename: "wrangler.jsonc", content: "{}", isBase64: false, replace: "name" },
          { filename: "README.md", content: "IyBzaG9w", isBase64: true },
        ],
      },
    });
    await builds.waitForBuild(seeded.build_uuid, {
      sleep: (ms) => advance(kit, ms),
      now: () => kit.emulator.clock.now(),
    });
    await builds.collectLogs(seeded.build_uuid);
    await kit.expectStatus(builds.getLogsPage(MISSING), 404);
    await kit.expectStatus(builds.getBuild(MISSING), 404);
    const listed = await collect(builds.listBuilds(script.tag, { perPage: 200 }));
    assert.ok(listed.length >= 1);
    const [live] = await builds.listDeployments(script.name);
    await builds.listBuildsByVersionIds([live!.versions[0]!.version_id]);
    await builds.getLatestBuilds([script.tag]);
    const running = await builds.triggerBuild(trigger.trigger_uuid, { branch: "main" });
    await builds.cancelBuild(running.build_uuid);
    await kit.expectStatus(builds.cancelBuild(MISSING), 404);
    await builds.purgeBuildCache(trigger.trigger_uuid);
    await kit.expectStatus(builds.purgeBuildCache(MISSING), 404);

    // Deploy hooks of the script.
    const hook = await builds.createDeployHook(script.tag, { deploy_hook_name: "nightly", branch: "main" });
    await kit.expectStatus(
      builds.createDeployHook(script.tag, { deploy_hook_name: "nightly", branch: "x" }),
      409,
    );
    await kit.expectStatus(builds.createDeployHook(MISSING, { deploy_hook_name: "n", branch: "main" }), 404);
    const hooks = `/accounts/${kit.accountId}/builds/workers/${script.tag}/deploy_hooks`;
    assert.equal((await kit.raw("POST", hooks, { deploy_hook_name: "", branch: "main" })).status, 400);
    const other = await builds.createDeployHook(script.tag, { deploy_hook_name: "weekly", branch: "main" });
    await builds.updateDeployHook(script.tag, hook.deploy_hook_uuid, {
      deploy_hook_name: "nightly (main)",
      branch: "main",
    });
    await kit.expectStatus(
      builds.updateDeployHook(script.tag, hook.deploy_hook_uuid, {
        deploy_hook_name: "weekly",
        branch: "main",
      }),
      409,
    );
    await kit.expectStatus(
      builds.updateDeployHook(script.tag, MISSING, { deploy_hook_name: "n", branch: "main" }),
      404,
    );
    const bad = await kit.raw("PUT", `${hooks}/${hook.deploy_hook_uuid}`, {
      deploy_hook_name: "x".repeat(59),
    });
    assert.equal(bad.status, 400);
    await builds.listDeployHooks(script.tag);
    await builds.getDeployHook(script.tag, hook.deploy_hook_uuid);
    await kit.expectStatus(builds.getDeployHook(script.tag, MISSING), 404);
    await builds.deleteDeployHook(script.tag, other.deploy_hook_uuid);
    await kit.expectStatus(builds.deleteDeployHook(script.tag, other.deploy_hook_uuid), 404);

    // Worker build configuration of the script.
    await builds.createWorkerBuildConfig({
      external_script_id: script.tag,
      repo_connection_uuid: repo.repo_connection_uuid,
    });
    await builds.getWorkerBuildConfig(script.tag);
    await builds.updateWorkerBuildConfig(script.tag, { repo_connection_uuid: repo.repo_connection_uuid });
    await builds.deleteWorkerBuildConfig(script.tag);

    // Tear down: the trigger, then its repository connection.
    await builds.deleteTrigger(trigger.trigger_uuid);
    await kit.expectStatus(builds.deleteTrigger(trigger.trigger_uuid), 404);
    await builds.deleteRepoConnection(repo.repo_connection_uuid);
    await kit.expectStatus(builds.deleteRepoConnection(repo.repo_connection_uuid), 404);
  },
};
