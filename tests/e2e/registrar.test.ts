/**
 * DomainRegistration and the registrar functions on the real engine: register with a price guard,
 * drift outside the program, reconcile, destroy (the domain stays registered and the output says so);
 * then a registration that stops at action_required is recorded and finished by the next `up`, and an
 * existing registration is adopted with importId.
 */
import { REGISTRANT } from "../helpers/registrar";
import { strict as assert } from "node:assert";
import { checkDomain, quoteDomain } from "../../provider/functions/registrar";
import { DomainRegistration } from "../../provider/resources/domain-registration";
import type { AccountApi } from "../../sdk";
import { useE2E } from "./harness";

describe("registrar end to end (real engine)", function () {
  this.timeout(600_000);
  const e2e = useE2E("registrar");
  let api: AccountApi;

  before(() => {
    api = e2e.api;
  });

  async function control(method: string, path: string, body?: unknown): Promise<void> {
    const res = await fetch(`${e2e.emulator.origin}/__emulator/registrar${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    assert.ok(res.status < 300, await res.text());
  }

  it("registers within the price guard, shows drift, reconciles, and keeps the domain on destroy", async () => {
    const stack = await e2e.stack(async () => {
      const site = new DomainRegistration("site", {
        domainName: "e2e-site.com",
        years: 2,
        maxCost: { amount: "25.00", currency: "USD" },
        contacts: { registrant: REGISTRANT },
      });
      const premium = checkDomain({ domainName: "cars.com" });
      const quote = quoteDomain({ domainName: "other-name.org", years: 10 });
      return {
        id: site.id,
        status: site.status,
        expiresAt: site.expiresAt,
        total: site.price.apply((p) => p?.total),
        premiumReason: premium.apply((c) => c?.reason),
        quoteTotal: quote.apply((q) => q?.total),
      };
    });

    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    assert.equal(up.outputs.id?.value, "e2e-site.com");
    assert.equal(up.outputs.status?.value, "active");
    assert.equal(up.outputs.total?.value, "20.88");
    assert.equal(up.outputs.premiumReason?.value, "domain_premium");
    assert.equal(up.outputs.quoteTotal?.value, "98.49");
    assert.match(String(up.outputs.expiresAt?.value), /^\d{4}-\d\d-\d\dT/);

    await stack.preview({ expectNoChanges: true });

    await control("PATCH", "/registrations/e2e-site.com", { auto_renew: true, locked: false });
    const refresh = await stack.refresh();
    assert.ok(
      (refresh.summary.resourceChanges?.update ?? 0) >= 1,
      JSON.stringify(refresh.summary.resourceChanges),
    );
    const drift = await stack.preview();
    assert.equal(drift.changeSummary.update, 1);

    const reconcile = await stack.up();
    assert.equal(reconcile.summary.result, "succeeded");
    const live = await api.registrar.getRegistration({ domain_name: "e2e-site.com" });
    assert.equal(live.auto_renew, false, "auto_renew reconciled through the update workflow");
    assert.equal(live.locked, false, "locked is not managed: left as the registry has it");
    await stack.preview({ expectNoChanges: true });

    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
    assert.ok(
      stack.output.some((l) => /e2e-site\.com stays registered/.test(l)),
      "the output says the domain stays registered",
    );
    assert.equal((await api.registrar.getRegistration({ domain_name: "e2e-site.com" })).status, "active");
  });

  it("records a registration waiting for the user's action, finishes it on the next up, and adopts", async () => {
    await api.registrar.createRegistration({ domain_name: "e2e-legacy.com" });
    const stack = await e2e.stack(async () => {
      const verify = new DomainRegistration("verify", { domainName: "action-e2e.com" });
      const legacy = new DomainRegistration("legacy", {
        domainName: "e2e-legacy.com",
        importId: "e2e-legacy.com",
        autoRenew: true,
      });
      return { verifyStatus: verify.status, legacyAutoRenew: legacy.autoRenew };
    });

    await assert.rejects(() => stack.up(), /needs your action: Verify the registrant email address/);
    const state = stack.rawState();
    assert.match(state, /action-e2e\.com/, "the registration is recorded in state");
    assert.match(state, /pendingAction/);
    assert.equal((await api.registrar.getRegistration({ domain_name: "e2e-legacy.com" })).auto_renew, true);

    await control("POST", "/workflows/action-e2e.com/registration/resolve");
    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    assert.equal(up.outputs.verifyStatus?.value, "active");
    assert.equal(up.outputs.legacyAutoRenew?.value, true);
    await stack.preview({ expectNoChanges: true });

    await stack.destroy();
    assert.equal((await api.registrar.getRegistration({ domain_name: "action-e2e.com" })).status, "active");
  });
});
