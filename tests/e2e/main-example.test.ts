/**
 * The main job's program (examples/main) on the real engine: every resource kind at once, no secret
 * in plaintext in the state file, a refreshing preview with no changes, and a destroy that leaves
 * nothing behind except what the API cannot delete (the output says so).
 */
import { strict as assert } from "node:assert";
import { program, seed, type Seeded } from "../../examples/main";
import { collect } from "../../sdk/paging";
import { useE2E } from "./harness";

describe("main example end to end (every resource kind)", function () {
  this.timeout(600_000);
  const e2e = useE2E("main");
  const DEPLOY_KEY = "deploy-key-that-must-stay-secret-7f3a";

  it("goes up, stays stable under refresh, keeps secrets out of state, and destroys cleanly", async () => {
    const em = e2e.emulator;
    const api = e2e.api;
    const seeded: Seeded = await seed(api, em);
    const stack = await e2e.stack(() => program(seeded), {
      config: { "account-api-main:deployKey": { value: DEPLOY_KEY, secret: true } },
    });

    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    assert.equal(up.summary.resourceChanges?.create, 11);
    assert.equal(up.outputs.buildOutcome?.value, "success");
    assert.equal(up.outputs.syncEndReason?.value, "completed");
    assert.deepEqual(up.outputs.emailDelivered?.value, ["team@example.com"]);

    const state = stack.rawState();
    assert.ok(!state.includes(em.token), "the API token is not in the state file");
    assert.ok(!state.includes(DEPLOY_KEY), "the secret variable is not in the state file");
    assert.ok(state.includes("ciphertext"), "secrets are stored encrypted");
    assert.ok(!stack.output.join("").includes(DEPLOY_KEY), "the secret is not in the engine output");

    await stack.preview({ expectNoChanges: true, refresh: true });

    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
    assert.ok(
      stack.output.some((l) => /stays registered|remains registered|left registered/i.test(l)),
      "the output says the domain stays registered",
    );

    // Nothing left behind but what the API cannot delete.
    const tag = await api.builds.resolveScriptTag(seeded.scriptName);
    assert.deepEqual(await api.builds.listTriggers(tag), []);
    assert.deepEqual(await collect(api.search.listInstances()), []);
    const ruleset = await api.content.getConfigRuleset({ zoneId: seeded.zoneId });
    assert.deepEqual(ruleset?.rules ?? [], []);
    assert.equal((await api.content.getContentConverter({ zoneId: seeded.zoneId })).value, "off");
    const meetings = await api.meetings.listAllMeetings({ appId: "demo-app" });
    assert.deepEqual(
      meetings.map((m) => m.status),
      ["INACTIVE"],
    );
    const registration = await api.registrar.getRegistration({ domain_name: "account-api-demo.com" });
    assert.equal(registration.domain_name, "account-api-demo.com");
  });
});
