/**
 * DomainRegistration and the registrar functions on the real engine: register with contacts and a
 * price guard, refresh clean, drift outside the program, `up --refresh` puts it back, destroy (the
 * domain stays registered and the output says so); a stack whose state the release before wrote
 * (contacts of the deprecated shape, the role `admin`) goes up without a replace or a diff; then a
 * registration that stops at action_required is recorded and finished by the next `up`, and an
 * existing registration is adopted with importId. A registration on an extension the registrar does
 * not support fails the preview (listExtensions, known at preview, says which are supported).
 */
import { EARLIER_REGISTRANT, REGISTRANT } from "../helpers/registrar";
import { strict as assert } from "node:assert";
import { checkDomain, listExtensions, quoteDomain } from "../../provider/functions/registrar";
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

  it("registers with contacts, refreshes clean, shows drift, up --refresh restores it, refuses an unsupported extension at preview, and keeps the domain on destroy", async () => {
    let onUnsupported = false;
    const stack = await e2e.stack(async () => {
      // Added for one preview: refused at check, so before any request of its own.
      if (onUnsupported) new DomainRegistration("elsewhere", { domainName: "e2e-site.uk" });
      const site = new DomainRegistration("site", {
        domainName: "e2e-site.com",
        years: 2,
        maxCost: { amount: "25.00", currency: "USD" },
        locked: true,
        contacts: { registrant: REGISTRANT, technical: REGISTRANT },
      });
      const premium = checkDomain({ domainName: "cars.com" });
      const quote = quoteDomain({ domainName: "other-name.org", years: 10 });
      const extensions = listExtensions();
      return {
        supported: extensions.apply((l) => l.map((e) => e.name).join(",")),
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
    assert.equal(up.outputs.supported?.value, "ai,com,dev,eu,io,net,org,xyz");
    assert.match(String(up.outputs.expiresAt?.value), /^\d{4}-\d\d-\d\dT/);
    assert.match(stack.rawState(), /"postalInfo"/, "contacts are stored in the contract's shape");

    const clean = await stack.refresh();
    assert.equal(
      clean.summary.resourceChanges?.update ?? 0,
      0,
      JSON.stringify(clean.summary.resourceChanges),
    );

    await control("PATCH", "/registrations/e2e-site.com", { auto_renew: true, locked: false });
    const drift = await stack.preview({ refresh: true });
    assert.equal(drift.changeSummary.update, 1, JSON.stringify(drift.changeSummary));

    const restore = await stack.stack.up({ refresh: true, onOutput: (l) => stack.output.push(l) });
    assert.equal(restore.summary.result, "succeeded");
    const live = await api.registrar.registrations.get({ domainName: "e2e-site.com" });
    assert.equal(live.auto_renew, false, "auto_renew put back through the update workflow");
    assert.equal(live.locked, true, "the lock put back through the domain PUT");
    await stack.preview({ expectNoChanges: true });

    onUnsupported = true;
    const checks = (): number =>
      e2e.emulator.requestLog.filter((r) => /\/registrar\/(domain-check|registrations)$/.test(r.url)).length;
    const before = checks();
    await assert.rejects(
      () => stack.preview(),
      /domainName: e2e-site\.uk: must be on an extension the registrar supports; "uk" is not one \(supported: ai, com, dev, eu, io, net and 2 more/,
    );
    assert.equal(checks(), before, "no check and no registration request for the refused one");
    assert.equal(await api.registrar.registrations.find({ domainName: "e2e-site.uk" }), undefined);
    onUnsupported = false;

    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
    assert.ok(
      stack.output.some((l) => /e2e-site\.com stays registered/.test(l)),
      "the output says the domain stays registered",
    );
    assert.equal((await api.registrar.registrations.get({ domainName: "e2e-site.com" })).status, "active");
  });

  it("goes on from a state the release before wrote: no replace, no diff", async () => {
    const stack = await e2e.stack(async () => {
      const kept = new DomainRegistration("kept", {
        domainName: "e2e-kept.com",
        contacts: { registrant: REGISTRANT, administrator: REGISTRANT },
      });
      return { status: kept.status };
    });
    assert.equal((await stack.up()).summary.result, "succeeded");

    // The state as the release before stored it: contacts of the deprecated shape, `admin` for
    // `administrator`, `locked` only among the outputs (it was no input then), no `lockManaged`.
    const deployment = await stack.stack.exportStack();
    const resources: Record<string, unknown>[] = deployment.deployment.resources;
    const kept = resources.find((r) => String(r.urn).endsWith("::kept"));
    assert.ok(kept);
    const earlier = { registrant: EARLIER_REGISTRANT, admin: EARLIER_REGISTRANT };
    const { locked: _noInput, ...inputs } = kept.inputs as Record<string, unknown>;
    kept.inputs = { ...inputs, contacts: earlier };
    const { lockManaged: _notYet, ...outputs } = kept.outputs as Record<string, unknown>;
    kept.outputs = { ...outputs, contacts: earlier };
    await stack.stack.importStack(deployment);
    assert.match(stack.rawState(), /"firstName"/);

    await stack.preview({ expectNoChanges: true });
    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    assert.deepEqual(up.summary.resourceChanges, { same: 2 }, "no replace and no update");
    assert.equal((await stack.refresh()).summary.result, "succeeded");
    assert.doesNotMatch(stack.rawState(), /"firstName"/, "a refresh stores today's shape");
    await stack.destroy();
  });

  it("records a registration waiting for the user's action, finishes it on the next up, and adopts", async () => {
    await api.registrar.registrations.create({}, { domain_name: "e2e-legacy.com" });
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
    assert.equal((await api.registrar.registrations.get({ domainName: "e2e-legacy.com" })).auto_renew, true);

    await control("POST", "/workflows/action-e2e.com/registration/resolve");
    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    assert.equal(up.outputs.verifyStatus?.value, "active");
    assert.equal(up.outputs.legacyAutoRenew?.value, true);
    await stack.preview({ expectNoChanges: true });

    await stack.destroy();
    assert.equal((await api.registrar.registrations.get({ domainName: "action-e2e.com" })).status, "active");
  });
});
