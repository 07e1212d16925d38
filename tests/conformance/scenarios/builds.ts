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
  const script = await builds.scripts.upload({ scriptName: "conformance-shop" });
  const tagged = await builds.scripts.list({}, { tags: "unused:no" });
  assert.ok(tagged.some((s) => s.tag === script.tag));
  await kit.expectStatus(builds.deployments.list({ scriptName: "no-such-script" }), 404);
  const [active] = await builds.deployments.list({ scriptName: script.id });
  const versionId = active!.versions[0]!.version_id;
  await builds.deployments.create(
    { scriptName: script.id },
    {
      strategy: "percentage",
      versions: [{ version_id: versionId, percentage: 100 }],
      annotations: { "workers/message": "conformance: every field" },
      force: false,
    },
  );
  await kit.expectStatus(
    builds.deployments.create(
      { scriptName: "no-such-script" },
      { versions: [{ version_id: versionId, percentage: 100 }] },
    ),
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
    const repo = await builds.repos.connections.upsert(
      {},
      {
        provider_type: "github",
        provider_account_id: "acme",
        provider_account_name: "Acme Inc.",
        repo_id: "4242",
        repo_name: "conformance-shop",
      },
    );
    await builds.repos.configAutofill(
      { providerType: "github", providerAccountId: "acme", repoId: "4242" },
      { branch: "main", root_directory: "/" },
    );
    const made = await builds.tokens.create(
      {},
      {
        build_token_name: "conformance",
        build_token_secret: "s3cr3t-token-value",
        cloudflare_token_id: "0123456789abcdef0123456789abcdef",
      },
    );
    const tokens = await builds.tokens.list({}, { perPage: 1 });
    assert.ok(tokens.some((t) => t.build_token_uuid === made.build_token_uuid));
    await builds.accountLimits.get();

    // Triggers: one with every create field, updated with every PATCH field.
    const trigger = await builds.triggers.create(
      {},
      {
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
      },
    );
    const token = tokens.find((t) => t.build_token_uuid !== made.build_token_uuid)!;
    await builds.triggers.update(
      { triggerUuid: trigger.trigger_uuid },
      {
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
      },
    );
    await kit.expectStatus(builds.triggers.update({ triggerUuid: MISSING }, { build_command: "x" }), 404);
    await builds.triggers.list({ scriptTag: script.tag });
    await builds.tokens.delete({ buildTokenUuid: made.build_token_uuid });
    await kit.expectStatus(builds.tokens.delete({ buildTokenUuid: MISSING }), 404);

    // Variables of the trigger.
    await builds.environmentVariables.upsert(
      { triggerUuid: trigger.trigger_uuid },
      {
        NODE_ENV: { value: "production", is_secret: false },
        API_KEY: { value: "hunter2", is_secret: true },
      },
    );
    await builds.environmentVariables.upsert(
      { triggerUuid: trigger.trigger_uuid },
      { NODE_ENV: { value: null, is_secret: false } },
    );
    await kit.expectStatus(
      builds.environmentVariables.upsert({ triggerUuid: MISSING }, { A: { value: "a", is_secret: false } }),
      404,
    );
    await builds.environmentVariables.list({ triggerUuid: trigger.trigger_uuid });
    await builds.environmentVariables.delete({
      triggerUuid: trigger.trigger_uuid,
      environmentVariableKey: "API_KEY",
    });
    await kit.expectStatus(
      builds.environmentVariables.delete({
        triggerUuid: trigger.trigger_uuid,
        environmentVariableKey: "API_KEY",
      }),
      404,
    );

    // Builds: one with every field, run to its end; one cancelled.
    const seeded = await builds.builds.create(
      { triggerUuid: trigger.trigger_uuid },
      {
        branch: "main",
        commit_hash: "0123456789abcdef0123456789abcdef01234567",
        seed_repo: {
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
      },
    );
    await builds.builds.wait(
      { buildUuid: seeded.build_uuid },
      { sleep: (ms) => advance(kit, ms), now: () => kit.emulator.clock.now() },
    );
    await builds.builds.collectLogs({ buildUuid: seeded.build_uuid });
    await kit.expectStatus(builds.builds.logs({ buildUuid: MISSING }), 404);
    await kit.expectStatus(builds.builds.get({ buildUuid: MISSING }), 404);
    const listed = await collect(builds.builds.list({ scriptTag: script.tag }, { perPage: 200 }));
    assert.ok(listed.length >= 1);
    const [live] = await builds.deployments.list({ scriptName: script.name });
    await builds.builds.listByVersionIds({}, { version_ids: [live!.versions[0]!.version_id] });
    await builds.builds.latest({}, { external_script_ids: [script.tag] });
    const running = await builds.builds.create({ triggerUuid: trigger.trigger_uuid }, { branch: "main" });
    await builds.builds.cancel({ buildUuid: running.build_uuid });
    await kit.expectStatus(builds.builds.cancel({ buildUuid: MISSING }), 404);
    await builds.triggers.purgeCache({ triggerUuid: trigger.trigger_uuid });
    await kit.expectStatus(builds.triggers.purgeCache({ triggerUuid: MISSING }), 404);

    // Deploy hooks of the script.
    const hook = await builds.deployHooks.create(
      { scriptTag: script.tag },
      { deploy_hook_name: "nightly", branch: "main" },
    );
    await kit.expectStatus(
      builds.deployHooks.create({ scriptTag: script.tag }, { deploy_hook_name: "nightly", branch: "x" }),
      409,
    );
    await kit.expectStatus(
      builds.deployHooks.create({ scriptTag: MISSING }, { deploy_hook_name: "n", branch: "main" }),
      404,
    );
    const hooks = `/accounts/${kit.accountId}/builds/workers/${script.tag}/deploy_hooks`;
    assert.equal((await kit.raw("POST", hooks, { deploy_hook_name: "", branch: "main" })).status, 400);
    const other = await builds.deployHooks.create(
      { scriptTag: script.tag },
      { deploy_hook_name: "weekly", branch: "main" },
    );
    await builds.deployHooks.update(
      { scriptTag: script.tag, deployHookUuid: hook.deploy_hook_uuid },
      { deploy_hook_name: "nightly (main)", branch: "main" },
    );
    await kit.expectStatus(
      builds.deployHooks.update(
        { scriptTag: script.tag, deployHookUuid: hook.deploy_hook_uuid },
        { deploy_hook_name: "weekly", branch: "main" },
      ),
      409,
    );
    await kit.expectStatus(
      builds.deployHooks.update(
        { scriptTag: script.tag, deployHookUuid: MISSING },
        { deploy_hook_name: "n", branch: "main" },
      ),
      404,
    );
    const bad = await kit.raw("PUT", `${hooks}/${hook.deploy_hook_uuid}`, {
      deploy_hook_name: "x".repeat(59),
    });
    assert.equal(bad.status, 400);
    await builds.deployHooks.list({ scriptTag: script.tag });
    await builds.deployHooks.get({ scriptTag: script.tag, deployHookUuid: hook.deploy_hook_uuid });
    await kit.expectStatus(builds.deployHooks.get({ scriptTag: script.tag, deployHookUuid: MISSING }), 404);
    await builds.deployHooks.delete({ scriptTag: script.tag, deployHookUuid: other.deploy_hook_uuid });
    await kit.expectStatus(
      builds.deployHooks.delete({ scriptTag: script.tag, deployHookUuid: other.deploy_hook_uuid }),
      404,
    );

    // Worker build configuration of the script.
    await builds.workers.create(
      {},
      { external_script_id: script.tag, repo_connection_uuid: repo.repo_connection_uuid },
    );
    await builds.workers.get({ scriptTag: script.tag });
    await builds.workers.update(
      { scriptTag: script.tag },
      { repo_connection_uuid: repo.repo_connection_uuid },
    );
    await builds.workers.delete({ scriptTag: script.tag });

    // Tear down: the trigger, then its repository connection.
    await builds.triggers.delete({ triggerUuid: trigger.trigger_uuid });
    await kit.expectStatus(builds.triggers.delete({ triggerUuid: trigger.trigger_uuid }), 404);
    await builds.repos.connections.delete({ repoConnectionUuid: repo.repo_connection_uuid });
    await kit.expectStatus(
      builds.repos.connections.delete({ repoConnectionUuid: repo.repo_connection_uuid }),
      404,
    );
  },
};
