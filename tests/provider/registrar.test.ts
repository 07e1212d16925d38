import { strict as assert } from "node:assert";
import { REGISTRANT } from "../helpers/registrar";
import { PartialCreateError } from "../../provider/errors";
import { runCheckDomain, runQuoteDomain, runSearchDomains } from "../../provider/functions/registrar";
import { UNKNOWN } from "../../provider/inputs";
import {
  checkInputs,
  handler,
  planDiff,
  priceFor,
  priceGuard,
  registrationWaits,
  withDefaults,
  type DomainRegistrationInputs,
  type DomainRegistrationOutputs,
} from "../../provider/resources/domain-registration";
import type { HandlerContext } from "../../provider/types";
import { collect } from "../../sdk";
import { useEmulator } from "../helpers/emulator";
import { providerContext } from "../helpers/provider-context";

function inputs(extra: Record<string, unknown>): DomainRegistrationInputs {
  return withDefaults(extra);
}

describe("DomainRegistration: check, diff and the price guard (no engine)", () => {
  it("fills defaults and normalizes the domain name, so stored inputs are stable", () => {
    assert.deepEqual(withDefaults({ domainName: "Bücher.DE" }), {
      domainName: "xn--bcher-kva.de",
      autoRenew: false,
      privacyMode: "redaction",
    });
    assert.deepEqual(withDefaults({ domainName: UNKNOWN }).domainName, UNKNOWN);
  });

  it("names the input and the rule for every invalid field", () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ domainName: "no_dots" }, "domainName", /^domainName: must be a fully qualified domain name/],
      [{ domainName: "a.com", years: 11 }, "years", /^years: must be between 1 and 10$/],
      [
        { domainName: "a.com", privacyMode: "on" },
        "privacyMode",
        /^privacyMode: must be one of "off", "redaction"$/,
      ],
      [
        { domainName: "a.com", contacts: { registrant: { ...REGISTRANT, firstName: "x".repeat(61) } } },
        "contacts.registrant.firstName",
        /^contacts\.registrant\.firstName: must be at most 60 characters$/,
      ],
      [
        { domainName: "a.com", contacts: { registrant: { ...REGISTRANT, phone: "1".repeat(21) } } },
        "contacts.registrant.phone",
        /must be at most 20 characters$/,
      ],
      [
        { domainName: "a.com", years: 1, maxCost: { amount: "ten", currency: "USD" } },
        "maxCost.amount",
        /decimal string/,
      ],
      [
        { domainName: "a.com", years: 1, maxCost: { amount: "10", currency: "usd" } },
        "maxCost.currency",
        /ISO 4217/,
      ],
      [
        { domainName: "a.com", maxCost: { amount: "10", currency: "USD" } },
        "years",
        /^years: is required with maxCost/,
      ],
      [{ domainName: "a.com", importId: "b.com" }, "importId", /^importId: must equal domainName/],
    ];
    for (const [news, property, reason] of cases) {
      const failures = checkInputs(news);
      assert.ok(
        failures.some((f) => f.property === property && reason.test(f.reason)),
        `${JSON.stringify(news)} → ${JSON.stringify(failures)}`,
      );
    }
    assert.deepEqual(
      checkInputs({ domainName: "ok.com", years: 2, contacts: { registrant: REGISTRANT } }),
      [],
    );
    assert.deepEqual(
      checkInputs({ domainName: UNKNOWN, years: UNKNOWN }),
      [],
      "unknowns wait for the real run",
    );
  });

  it("replaces on a new domain or account, updates autoRenew/privacyMode, ignores create-only inputs", () => {
    const olds = {
      ...inputs({ domainName: "a.com", years: 1, contacts: { registrant: REGISTRANT } }),
      status: "active",
      locked: true,
      createdAt: "2026-01-01T00:00:00.000Z",
    } as DomainRegistrationOutputs;
    const table: [Record<string, unknown>, string[], string[]][] = [
      [{}, [], []],
      [{ domainName: "b.com" }, ["domainName"], ["domainName"]],
      [{ accountId: "other" }, ["accountId"], ["accountId"]],
      [{ autoRenew: true }, ["autoRenew"], []],
      [{ privacyMode: "off" }, ["privacyMode"], []],
      [
        { years: 5, contacts: undefined, maxCost: { amount: "1", currency: "USD" }, importId: "a.com" },
        [],
        [],
      ],
    ];
    for (const [change, changes, replaces] of table) {
      const news = { ...olds, ...change } as DomainRegistrationInputs;
      assert.deepEqual(planDiff(olds, news), { changes, replaces }, JSON.stringify(change));
    }
  });

  it("guards the price exactly, in its currency", () => {
    const price = priceFor({ currency: "USD", registrationCost: "10.44", renewalCost: "10.44" }, 10);
    assert.equal(price.total, "104.40");
    assert.equal(priceGuard(price, { amount: "104.40", currency: "USD" }, "a.com"), undefined);
    assert.equal(priceGuard(price, { amount: "104.4", currency: "USD" }, "a.com"), undefined);
    assert.equal(
      priceGuard(price, { amount: "104.39", currency: "USD" }, "a.com"),
      "maxCost: registering a.com for 10 year(s) costs 104.40 USD (10.44 the first year, 10.44 each further year), above maxCost 104.39 USD",
    );
    assert.match(priceGuard(price, { amount: "500", currency: "EUR" }, "a.com")!, /priced in USD, not EUR/);
  });
});

describe("DomainRegistration handler against the emulator", () => {
  const fx = useEmulator();
  let ctx: HandlerContext;
  let logs: string[];
  const saved = { ...registrationWaits };

  beforeEach(() => {
    logs = [];
    ctx = providerContext(fx, logs);
    registrationWaits.sleep = async (ms) => fx.clock.advance(ms);
    registrationWaits.now = () => fx.clock.now();
  });
  afterEach(() => {
    Object.assign(registrationWaits, saved);
    delete registrationWaits.sleep;
    delete registrationWaits.now;
  });

  async function control(method: string, path: string, body?: unknown): Promise<void> {
    const res = await fx.http(method, `/__emulator/registrar${path}`, body === undefined ? {} : { body });
    assert.ok(res.status < 300, res.text);
  }

  async function registered(): Promise<string[]> {
    return (await collect(fx.api.registrar.listRegistrations())).map((r) => r.domain_name);
  }

  it("checks, prices and registers, recording status, expiry and the price", async () => {
    const { id, outs } = await handler.create(
      inputs({ domainName: "Fresh.com", years: 2, maxCost: { amount: "25.00", currency: "USD" } }),
      ctx,
    );
    assert.equal(id, "fresh.com");
    assert.deepEqual(
      [outs.status, outs.locked, outs.expiresAt, outs.autoRenew, outs.privacyMode],
      ["active", true, "2028-01-01T00:00:00.000Z", false, "redaction"],
    );
    assert.deepEqual(outs.price, {
      currency: "USD",
      registrationCost: "10.44",
      renewalCost: "10.44",
      years: 2,
      total: "20.88",
    });
    const checks = fx.em.requestLog.filter((e) => e.url.endsWith("/domain-check"));
    assert.equal(checks.length, 1, "checked before registering");
  });

  it("records the price of the term the service chose when years is left out", async () => {
    const { outs } = await handler.create(inputs({ domainName: "term.ai" }), ctx);
    assert.deepEqual([outs.price?.years, outs.price?.total], [2, "160.00"]);
  });

  it("refuses a premium or non-registrable domain with the reason, registering nothing", async () => {
    const cases: [string, RegExp][] = [
      [
        "premium-shoes.com",
        /domainName: premium-shoes\.com: cannot be registered \(domain_premium\): premium registration/,
      ],
      ["stale-shoes.com", /cannot be registered \(domain_unavailable\)$/],
      ["shoes.uk", /cannot be registered \(extension_not_supported_via_api\)$/],
    ];
    for (const [domainName, message] of cases) {
      await assert.rejects(() => handler.create(inputs({ domainName }), ctx), message);
    }
    assert.deepEqual(await registered(), []);
  });

  it("refuses above maxCost or in another currency before registering", async () => {
    await assert.rejects(
      () =>
        handler.create(
          inputs({ domainName: "pricey.io", years: 3, maxCost: { amount: "138.50", currency: "USD" } }),
          ctx,
        ),
      /costs 138\.51 USD .* above maxCost 138\.50 USD/,
    );
    await assert.rejects(
      () =>
        handler.create(
          inputs({ domainName: "euro.eu", years: 1, maxCost: { amount: "100", currency: "USD" } }),
          ctx,
        ),
      /priced in EUR, not USD/,
    );
    assert.deepEqual(await registered(), []);
    const ok = await handler.create(
      inputs({ domainName: "pricey.io", years: 3, maxCost: { amount: "138.51", currency: "USD" } }),
      ctx,
    );
    assert.equal(ok.outs.price?.total, "138.51");
  });

  it("never registers a domain twice: it says how to adopt, and adopting reconciles autoRenew", async () => {
    await fx.api.registrar.createRegistration({ domain_name: "mine.com" });
    await assert.rejects(
      () => handler.create(inputs({ domainName: "mine.com" }), ctx),
      (e: Error) =>
        e.message ===
        `domainName: mine.com is already registered in account ${fx.em.accountId}; a domain is registered once. Set importId: "mine.com" to adopt it.`,
    );
    const { id, outs } = await handler.create(
      inputs({ domainName: "mine.com", importId: "mine.com", autoRenew: true }),
      ctx,
    );
    assert.deepEqual([id, outs.autoRenew, outs.status], ["mine.com", true, "active"]);
    assert.equal(
      fx.em.requestLog.filter((e) => e.method === "POST" && e.url.endsWith("/registrations")).length,
      1,
    );
    await assert.rejects(
      () => handler.create(inputs({ domainName: "absent.com", importId: "absent.com" }), ctx),
      /importId: absent\.com is not registered in account .*; nothing to adopt/,
    );
  });

  it("stops at action_required with the action and records the resource; the next up finishes it", async () => {
    const news = inputs({ domainName: "action-needed.com", years: 1 });
    let partial: PartialCreateError<DomainRegistrationOutputs> | undefined;
    await assert.rejects(
      () => handler.create(news, ctx),
      (e: unknown) => {
        assert.ok(e instanceof PartialCreateError);
        partial = e as PartialCreateError<DomainRegistrationOutputs>;
        return true;
      },
    );
    assert.equal(partial!.id, "action-needed.com");
    assert.match(
      partial!.reasons[0]!,
      /needs your action: Verify the registrant email address.* Then run up again to continue\.$/,
    );
    const props = partial!.properties;
    assert.equal(props.status, "registration_pending");
    assert.match(props.pendingAction!, /^Verify the registrant email address/);
    assert.equal(props.expiresAt, undefined);
    assert.deepEqual(props.price, {
      currency: "USD",
      registrationCost: "10.44",
      renewalCost: "10.44",
      years: 1,
      total: "10.44",
    });
    assert.deepEqual(
      await registered(),
      ["action-needed.com"],
      "nothing is lost: it exists remotely and in the error",
    );

    const read = await handler.read(props.domainName, props, ctx);
    assert.match(read!.props.pendingAction!, /^Verify/);

    // Still waiting for the user: the next up stops again, and records it again.
    await assert.rejects(() => handler.update("action-needed.com", props, news, ctx), PartialCreateError);

    await control("POST", "/workflows/action-needed.com/registration/resolve");
    const { outs } = await handler.update("action-needed.com", props, news, ctx);
    assert.deepEqual(
      [outs.status, outs.pendingAction, outs.expiresAt],
      ["active", undefined, "2027-01-01T00:00:00.000Z"],
    );
  });

  it("waits through blocked, and reports a failed workflow with its code without retrying", async () => {
    const { outs } = await handler.create(inputs({ domainName: "blocked-slow.com" }), ctx);
    assert.equal(outs.status, "active");
    await assert.rejects(
      () => handler.create(inputs({ domainName: "fail-registry.com" }), ctx),
      /: registration workflow of fail-registry\.com failed \(registry_rejected\): The registry rejected .*validation; nothing was registered\. Review it/,
    );
    assert.equal(
      fx.em.requestLog.filter((e) => e.method === "POST" && e.url.endsWith("/registrations")).length,
      2,
    );
    assert.deepEqual(await registered(), ["blocked-slow.com"]);
  });

  it("records a registration still running at the deadline, to continue on the next up", async () => {
    registrationWaits.deadlineMs = 5_000;
    await assert.rejects(
      () => handler.create(inputs({ domainName: "slow.dev" }), ctx),
      (e: unknown) =>
        e instanceof PartialCreateError &&
        e.id === "slow.dev" &&
        /still running after 5000 ms .*run up again to keep waiting/.test(e.reasons[0]!),
    );
  });

  it("updates autoRenew through the update workflow and refuses a privacyMode the API cannot change", async () => {
    const created = await handler.create(inputs({ domainName: "upd.com" }), ctx);
    const news = { ...inputPartOf(created.outs), autoRenew: true };
    const { outs } = await handler.update("upd.com", created.outs, news, ctx);
    assert.equal(outs.autoRenew, true);
    assert.equal((await fx.api.registrar.getRegistration({ domain_name: "upd.com" })).auto_renew, true);
    assert.equal((await fx.api.registrar.updateStatus({ domain_name: "upd.com" })).state, "succeeded");

    await control("POST", "/scenarios", { domain_name: "upd.com", kind: "update", scenario: "failed" });
    await assert.rejects(
      () => handler.update("upd.com", outs, { ...news, autoRenew: false }, ctx),
      /update workflow of upd\.com failed \(registry_update_rejected\).*auto_renew was not changed/,
    );
    await assert.rejects(
      () => handler.update("upd.com", outs, { ...news, privacyMode: "off" }, ctx),
      /: privacyMode: upd\.com has privacy_mode "redaction"; it cannot be changed to "off" through this API/,
    );
  });

  it("reads drift in autoRenew, privacyMode, locked, status and expiresAt, and nothing when unchanged", async () => {
    const { outs } = await handler.create(
      inputs({ domainName: "drift.com", years: 1, contacts: { registrant: REGISTRANT } }),
      ctx,
    );
    const same = await handler.read("drift.com", outs, ctx);
    assert.deepEqual(same!.inputs, inputPartOf(outs), "no perpetual diff");
    assert.deepEqual(same!.props, outs);
    assert.deepEqual(planDiff(same!.props, same!.inputs), { changes: [], replaces: [] });

    await control("PATCH", "/registrations/drift.com", {
      auto_renew: true,
      locked: false,
      privacy_mode: "off",
      status: "suspended",
      expires_at: "2031-01-01T00:00:00Z",
    });
    const drifted = await handler.read("drift.com", outs, ctx);
    assert.deepEqual(
      [drifted!.props.locked, drifted!.props.status, drifted!.props.expiresAt],
      [false, "suspended", "2031-01-01T00:00:00.000Z"],
    );
    assert.deepEqual([drifted!.inputs.autoRenew, drifted!.inputs.privacyMode], [true, "off"]);
    assert.deepEqual(drifted!.inputs.contacts, outs.contacts, "write-only contacts keep their old value");
    assert.deepEqual(planDiff(drifted!.props, inputPartOf(outs)).changes, ["autoRenew", "privacyMode"]);

    await control("DELETE", "/registrations/drift.com");
    assert.equal(await handler.read("drift.com", outs, ctx), undefined);
  });

  it("delete leaves the domain registered and says so", async () => {
    const { outs } = await handler.create(inputs({ domainName: "keep.com", autoRenew: true }), ctx);
    await handler.delete("keep.com", outs, ctx);
    assert.deepEqual(await registered(), ["keep.com"]);
    assert.deepEqual(logs, [
      "DomainRegistration: keep.com stays registered until 2027-01-01T00:00:00.000Z (the API cannot delete a registration); it was removed from the stack only, and it still auto-renews.",
    ]);
  });
});

describe("registrar functions against the emulator", () => {
  const fx = useEmulator();

  it("checks one domain, searches names and quotes a registration in camelCase", async () => {
    assert.deepEqual(await runCheckDomain(fx.api, { domainName: "Fresh.org" }), {
      name: "fresh.org",
      registrable: true,
      tier: "standard",
      pricing: { currency: "USD", registrationCost: "7.50", renewalCost: "10.11" },
    });
    assert.deepEqual(await runCheckDomain(fx.api, { domainName: "cars.com" }), {
      name: "cars.com",
      registrable: false,
      reason: "domain_premium",
      tier: "premium",
    });
    const found = await runSearchDomains(fx.api, { query: "acme", extensions: ["com", "uk"], limit: 2 });
    assert.deepEqual(
      found.map((d) => [d.name, d.registrable]),
      [
        ["acme.com", true],
        ["acme.uk", false],
      ],
    );
    assert.deepEqual(await runQuoteDomain(fx.api, { domainName: "fresh.org", years: 10 }), {
      domainName: "fresh.org",
      years: 10,
      currency: "USD",
      registrationCost: "7.50",
      renewalCost: "10.11",
      total: "98.49",
    });
    await assert.rejects(
      () => runQuoteDomain(fx.api, { domainName: "cars.com", years: 1 }),
      /\(domain_premium\)/,
    );
  });
});

function inputPartOf(o: DomainRegistrationOutputs): DomainRegistrationInputs {
  const { status: _s, locked: _l, createdAt: _c, expiresAt: _e, pendingAction: _p, price: _pr, ...rest } = o;
  return rest;
}
