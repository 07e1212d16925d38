/**
 * The main job's program (examples/main) on the real engine: every resource kind at once, no secret
 * in plaintext in the state file, a refreshing preview with no changes, a second seed and `up` (the
 * main job run again) that write nothing to the API, and a destroy that leaves nothing behind except
 * what the API cannot delete (the output says so).
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
    // 10 resources, the build, the sync job and the message as runs, and the stack.
    assert.equal(up.summary.resourceChanges?.create, 14);
    assert.equal(up.outputs.buildOutcome?.value, "success");
    assert.equal(up.outputs.syncEndReason?.value, "completed");
    assert.deepEqual(up.outputs.emailDelivered?.value, ["team@example.com"]);

    const state = stack.rawState();
    assert.ok(!state.includes(em.token), "the API token is not in the state file");
    assert.ok(!state.includes(DEPLOY_KEY), "the secret variable is not in the state file");
    assert.ok(state.includes("ciphertext"), "secrets are stored encrypted");
    assert.ok(!stack.output.join("").includes(DEPLOY_KEY), "the secret is not in the engine output");

    await stack.preview({ expectNoChanges: true, refresh: true });

    // The main job again (`npm start` a second time): no build, no message, no job, no write at all.
    const since = Date.now();
    assert.deepEqual(await seed(api, em), seeded, "the seed finds what it made");
    const again = await stack.up();
    assert.deepEqual({ ...again.summary.resourceChanges }, { same: 14 });
    const writes = em.requestLog.filter((r) => r.at >= since && r.method !== "GET" && r.method !== "HEAD");
    console.log(`      [figure] write requests of a second seed and up: ${writes.length}`);
    assert.deepEqual(
      writes.map((r) => `${r.method} ${r.url}`),
      [],
    );
    assert.ok(
      !stack.output.join("").includes("runs on every"),
      "no function that runs on every up is left in the main job",
    );

    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
    assert.ok(
      stack.output.some((l) => /stays registered|remains registered|left registered/i.test(l)),
      "the output says the domain stays registered",
    );

    // Nothing left behind but what the API cannot delete.
    const tag = await api.builds.scripts.resolveTag({ scriptName: seeded.scriptName });
    assert.deepEqual(await api.builds.triggers.list({ scriptTag: tag }), []);
    assert.deepEqual(await collect(api.search.instances.list()), []);
    const ruleset = await api.content.configRuleset.get({ zoneId: seeded.zoneId });
    assert.deepEqual(ruleset?.rules ?? [], []);
    assert.equal((await api.content.contentConverter.get({ zoneId: seeded.zoneId })).value, "off");
    const meetings = await api.meetings.meetings.listAll({ appId: "demo-app" });
    assert.deepEqual(
      meetings.map((m) => m.status),
      ["INACTIVE"],
    );
    const registration = await api.registrar.registrations.get({ domainName: "account-api-demo.com" });
    assert.equal(registration.domain_name, "account-api-demo.com");
  });
});
