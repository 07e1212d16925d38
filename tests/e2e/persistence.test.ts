/**
 * The emulator's state file: a stack goes up, the emulator restarts from its file, and a refresh
 * finds every object again (no change), then destroy works against the restarted server.
 */
import { strict as assert } from "node:assert";
import { DomainRegistration, SearchInstance, ZoneContentConverter } from "../../provider";
import { AccountApi } from "../../sdk";
import { useE2E } from "./harness";

describe("emulator persistence end to end", function () {
  this.timeout(300_000);
  const e2e = useE2E("persist");

  it("refreshes with no changes after the emulator restarts from its state file", async () => {
    const first = e2e.emulator;
    const api = new AccountApi({
      baseUrl: first.url,
      token: first.token,
      accountId: first.accountId,
      env: {},
    });
    const zone = await api.content.zones.create({ accountId: first.accountId }, { name: "persist.example" });
    await api.close();

    const stack = await e2e.stack(async () => {
      const kb = new SearchInstance("kb", { instanceId: "persist-kb", syncInterval: 7200 });
      const md = new ZoneContentConverter("md", { zoneId: zone.id });
      const dom = new DomainRegistration("dom", { domainName: "persist-demo.org", autoRenew: true });
      return { kb: kb.id, md: md.id, expires: dom.expiresAt };
    });
    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");

    const restarted = await e2e.restartEmulator();
    assert.equal(restarted.url, first.url);

    const refresh = await stack.refresh({ expectNoChanges: true });
    assert.equal(refresh.summary.result, "succeeded");
    assert.equal(refresh.summary.resourceChanges?.update ?? 0, 0);
    assert.equal(refresh.summary.resourceChanges?.delete ?? 0, 0);

    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
    const after = new AccountApi({
      baseUrl: restarted.url,
      token: restarted.token,
      accountId: restarted.accountId,
      env: {},
    });
    try {
      await assert.rejects(after.search.instances.get({ id: "persist-kb" }), /404|not found/i);
    } finally {
      await after.close();
    }
  });
});
