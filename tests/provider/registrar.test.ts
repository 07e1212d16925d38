import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import { EARLIER_REGISTRANT, REGISTRANT, REGISTRANT_WIRE } from "../helpers/registrar";
import { toWire } from "../../provider/core/define";
import { UNKNOWN } from "../../provider/core/values";
import { PartialCreateError } from "../../provider/errors";
import {
  listExtensions,
  runCheckDomain,
  runQuoteDomain,
  runSearchDomains,
} from "../../provider/functions/registrar";
import * as dr from "../../provider/resources/domain-registration";
import type {
  DomainRegistrationInputs,
  DomainRegistrationOutputs,
} from "../../provider/resources/domain-registration";
import { handlerFor } from "../../provider/registry";
import type { HandlerContext } from "../../provider/types";
import { collect } from "../../sdk";
import { errorFromResponse } from "../../sdk/errors";
import type { Registration } from "../../sdk/registrar";
import { useEmulator } from "../helpers/emulator";
import { offlineContext as offline, providerContext } from "../helpers/provider-context";

const { handler } = dr;

/** Rejects with a message (the runtime prefixes kind and operation to it) matching `re`. */
async function rejectsWith(p: Promise<unknown>, re: RegExp): Promise<void> {
  await assert.rejects(p, (e: Error) => {
    assert.match(e.message, re);
    return true;
  });
}

/**
 * Checked inputs (defaults filled, the name normalized) in the context `ctxOf` gives: a new
 * registration's check lists the registrar's extensions (once per client), and sends nothing else.
 */
function checkedIn(ctxOf: () => HandlerContext) {
  return async (raw: Record<string, unknown>): Promise<DomainRegistrationInputs> => {
    const r = await handler.check(undefined, raw, ctxOf());
    assert.deepEqual(r.failures ?? [], [], JSON.stringify(raw));
    assert.ok(r.inputs);
    return r.inputs;
  };
}

const LIVE: Registration = {
  domain_name: "a.com",
  auto_renew: false,
  created_at: "2026-01-01T00:00:00.000Z",
  expires_at: "2028-01-01T00:00:00.000Z",
  locked: true,
  privacy_mode: "redaction",
  status: "active",
};

describe("DomainRegistration: hooks (tables, no engine)", () => {
  it("registers the handler under its kind, with the drift outputs the drift command reads", () => {
    assert.equal(handlerFor("DomainRegistration"), handler);
    assert.deepEqual(handler.driftOutputs, ["status", "locked", "expiresAt"]);
  });

  it("rules: years with maxCost, importId equal to domainName, unknowns wait", () => {
    const known = () => true;
    const table: [Partial<DomainRegistrationInputs>, string[]][] = [
      [{ domainName: "a.com" }, []],
      [{ domainName: "a.com", years: 1, maxCost: { amount: "1", currency: "USD" } }, []],
      [{ domainName: "a.com", maxCost: { amount: "1", currency: "USD" } }, ["years"]],
      [{ domainName: "a.com", importId: "a.com" }, []],
      [{ domainName: "a.com", importId: "b.com" }, ["importId"]],
    ];
    for (const [i, fields] of table) {
      const inputs = {
        autoRenew: false,
        privacyMode: "redaction" as const,
        ...i,
        domainName: i.domainName ?? "",
      };
      assert.deepEqual(
        dr.rules(inputs, known).map((x) => x.field),
        fields,
        JSON.stringify(i),
      );
    }
    const unknownImport = {
      domainName: "a.com",
      importId: UNKNOWN,
      autoRenew: false,
      privacyMode: "off" as const,
    };
    assert.deepEqual(
      dr.rules(unknownImport, (k) => k !== "importId"),
      [],
    );
  });

  it("prices exactly and guards the price in its currency", () => {
    const price = dr.priceFor({ currency: "USD", registrationCost: "10.44", renewalCost: "10.44" }, 10);
    assert.equal(price.total, "104.40");
    const table: [{ amount: string; currency: string }, RegExp | undefined][] = [
      [{ amount: "104.40", currency: "USD" }, undefined],
      [{ amount: "104.4", currency: "USD" }, undefined],
      [{ amount: "1000", currency: "USD" }, undefined],
      [
        { amount: "104.39", currency: "USD" },
        /^registering a\.com for 10 year\(s\) costs 104\.40 USD \(10\.44 the first year, 10\.44 each further year\), above maxCost 104\.39 USD$/,
      ],
      [{ amount: "500", currency: "EUR" }, /^a\.com is priced in USD, not EUR; refusing to register$/],
    ];
    for (const [maxCost, rule] of table) {
      const issue = dr.priceGuard(price, maxCost, "a.com");
      if (!rule) assert.equal(issue, undefined, JSON.stringify(maxCost));
      else {
        assert.equal(issue?.field, "maxCost");
        assert.match(issue.rule, rule);
      }
    }
  });

  it("reads the term and the outputs beyond the table, the live lock among them", () => {
    assert.equal(dr.termOf(LIVE), 2);
    assert.equal(dr.termOf({ ...LIVE, expires_at: null }), undefined);
    assert.deepEqual(dr.outputs(LIVE, {}), {
      locked: true,
      lockManaged: false,
      expiresAt: "2028-01-01T00:00:00.000Z",
    });
    assert.equal(dr.outputs(LIVE, { locked: false }).lockManaged, true);
    const price = dr.priceFor({ currency: "USD", registrationCost: "1", renewalCost: "2" }, 2);
    assert.deepEqual(dr.outputs({ ...LIVE, expires_at: null, pendingAction: "Verify.", price }, {}), {
      locked: true,
      lockManaged: false,
      pendingAction: "Verify.",
      price,
    });
  });

  it("puts locked and privacy through the domain PUT only where they differ, and never an unset lock", () => {
    const i = { domainName: "a.com", autoRenew: false, privacyMode: "redaction" as const };
    const table: [Partial<DomainRegistrationInputs>, Partial<Registration>, object | undefined][] = [
      [{}, {}, undefined],
      [{ locked: true }, {}, undefined],
      [{}, { locked: false }, undefined],
      [{ locked: true }, { locked: false }, { locked: true }],
      [{ locked: false }, {}, { locked: false }],
      [{ privacyMode: "off" }, {}, { privacy: false }],
      [{}, { privacy_mode: "off" }, { privacy: true }],
      [{ locked: false, privacyMode: "off" }, {}, { locked: false, privacy: false }],
      [{ autoRenew: true }, {}, undefined],
    ];
    for (const [inputs, live, body] of table)
      assert.deepEqual(
        dr.domainChanges({ ...LIVE, ...live }, { ...i, ...inputs }),
        body,
        JSON.stringify([inputs, live]),
      );
  });

  it("upgrades contacts stored by the earlier release to today's shape", () => {
    const { email: _none, ...noEmail } = EARLIER_REGISTRANT;
    const stored = {
      domainName: "a.com",
      locked: true,
      contacts: {
        registrant: { ...EARLIER_REGISTRANT, address2: "Suite 5", id: "c-1", fax: "+1.5555550199" },
        admin: noEmail,
        technical: REGISTRANT,
      },
    };
    assert.deepEqual(dr.upgradeContacts(stored), {
      domainName: "a.com",
      locked: true,
      contacts: {
        registrant: {
          ...REGISTRANT,
          fax: "+1.5555550199",
          postalInfo: {
            ...REGISTRANT.postalInfo,
            address: { ...REGISTRANT.postalInfo.address, street: "1 Main Street, Suite 5" },
          },
        },
        administrator: { phone: REGISTRANT.phone, postalInfo: REGISTRANT.postalInfo },
        technical: REGISTRANT,
      },
    });
    const today = { domainName: "a.com", contacts: { registrant: REGISTRANT } };
    assert.deepEqual(dr.upgradeContacts(today), today, "today's shape is left as it is");
    assert.deepEqual(dr.upgradeContacts({ domainName: "a.com" }), { domainName: "a.com" });
    assert.deepEqual(
      dr.upgradeContactsValue({ registrant: { firstName: "Cher" } }),
      { registrant: { postalInfo: { name: "Cher", address: {} } } },
      "a single name is the whole name",
    );
  });
});

describe("DomainRegistration: check and diff (no request but the extensions listing)", () => {
  const fx = useEmulator();
  let ctx: HandlerContext;
  beforeEach(() => {
    ctx = providerContext(fx);
  });
  const checked = checkedIn(() => ctx);

  it("fills defaults and normalizes the domain name, so stored inputs are stable", async () => {
    assert.deepEqual(await checked({ domainName: "Bücher.EU" }), {
      domainName: "xn--bcher-kva.eu",
      autoRenew: false,
      privacyMode: "redaction",
    });
    assert.deepEqual(
      (await checked({ domainName: "A.com", importId: "a.COM." })).importId,
      "a.com",
      "importId is normalized like domainName",
    );
    const later = await handler.check(undefined, { domainName: UNKNOWN, years: UNKNOWN }, offline);
    assert.deepEqual(later.failures, [], "unknowns wait for the real run");
    assert.deepEqual(
      fx.em.requestLog.map((e) => `${e.method} ${e.url.split("?")[0]!.replace(/.*\/registrar/, "")}`),
      ["GET /extensions"],
      "one listing for the client, nothing else",
    );
  });

  it("names the input and the rule of every invalid field, all at once, before any request", async () => {
    const r = await handler.check(
      undefined,
      {
        domainName: "no_dots",
        years: 11,
        privacyMode: "on",
        contacts: {
          registrant: { ...REGISTRANT, email: "ada", phone: 5, fox: "" },
        },
        locked: "yes",
        maxCost: { amount: "ten", currency: "usd" },
        accountId: "x".repeat(33),
        registrar: "other",
      },
      offline,
    );
    const reasons = (r.failures ?? []).map((f) => f.reason);
    const expected: [string, RegExp][] = [
      ["domainName", /^domainName: must be a fully qualified domain name/],
      ["years", /^years: must be between 1 and 10$/],
      ["privacyMode", /^privacyMode: must be one of off, redaction$/],
      ["contacts", /^contacts\.registrant\.email: must be an email address$/],
      ["contacts", /^contacts\.registrant\.phone: must be a string$/],
      ["contacts", /^contacts\.registrant\.fox: is not a known field$/],
      ["locked", /^locked: must be true or false$/],
      ["maxCost", /^maxCost\.amount: must be a non-negative decimal string$/],
      ["maxCost", /^maxCost\.currency: must be a three-letter ISO 4217 code such as USD$/],
      ["accountId", /^accountId: must be at most 32 characters$/],
      ["registrar", /^registrar: is not a known field$/],
    ];
    for (const [property, reason] of expected)
      assert.ok(
        (r.failures ?? []).some((f) => f.property === property && reason.test(f.reason)),
        `${reason} in ${JSON.stringify(reasons)}`,
      );
    assert.equal(reasons.length, expected.length, JSON.stringify(reasons));

    const cross = await handler.check(
      undefined,
      { domainName: "a.com", importId: "b.com", maxCost: { amount: "10", currency: "USD" } },
      offline,
    );
    assert.deepEqual((cross.failures ?? []).map((f) => f.reason).sort(), [
      "importId: must equal domainName (a registration's id is its domain name)",
      "years: is required with maxCost (the guard prices a number of years; the service's default depends on the extension)",
    ]);
    assert.deepEqual(
      (await handler.check(undefined, { domainName: UNKNOWN, years: UNKNOWN, importId: "b.com" }, offline))
        .failures,
      [],
      "unknowns wait for the real run",
    );
  });

  it("refuses contacts of the earlier shape at check, naming each new name", async () => {
    const r = await handler.check(
      undefined,
      { domainName: "a.com", contacts: { registrant: EARLIER_REGISTRANT, admin: REGISTRANT } },
      offline,
    );
    assert.deepEqual(
      (r.failures ?? []).map((f) => [f.property, f.reason]),
      [
        ["contacts", "contacts.registrant.address: now contacts.registrant.postalInfo.address.street"],
        ["contacts", "contacts.registrant.city: now contacts.registrant.postalInfo.address.city"],
        ["contacts", "contacts.registrant.state: now contacts.registrant.postalInfo.address.state"],
        ["contacts", "contacts.registrant.organization: now contacts.registrant.postalInfo.organization"],
        ["contacts", "contacts.registrant.zip: now contacts.registrant.postalInfo.address.postalCode"],
        ["contacts", "contacts.registrant.country: now contacts.registrant.postalInfo.address.countryCode"],
        [
          "contacts",
          "contacts.registrant.firstName: now contacts.registrant.postalInfo.name (first and last name in one string)",
        ],
        [
          "contacts",
          "contacts.registrant.lastName: now contacts.registrant.postalInfo.name (first and last name in one string)",
        ],
        ["contacts", "contacts.admin: renamed to contacts.administrator"],
      ],
    );
    await checked({ domainName: "a.com", contacts: { registrant: REGISTRANT, administrator: REGISTRANT } });
  });

  it("sends contacts and the free-form maps in the API's naming", async () => {
    const i = await checked({
      domainName: "contacts.com",
      contacts: { registrant: REGISTRANT },
      contactExtensions: { someKey: "v" },
      maxCost: { amount: "1", currency: "USD" },
      years: 1,
    });
    assert.deepEqual(toWire(dr.DomainRegistrationSpec, i), {
      domain_name: "contacts.com",
      years: 1,
      auto_renew: false,
      privacy_mode: "redaction",
      contacts: { registrant: REGISTRANT_WIRE },
      contact_extensions: { someKey: "v" },
    });
  });

  it("replaces on a new domain or account, updates autoRenew/privacyMode/locked, ignores create-only inputs", async () => {
    const base = await checked({ domainName: "a.com", years: 1, contacts: { registrant: REGISTRANT } });
    const olds: DomainRegistrationOutputs = {
      ...base,
      status: "active",
      locked: true,
      createdAt: "2026-01-01T00:00:00.000Z",
    };
    const table: [Partial<DomainRegistrationInputs>, boolean, string[]][] = [
      [{}, false, []],
      [{ domainName: "b.com" }, true, ["domainName"]],
      [{ accountId: "other" }, true, ["accountId"]],
      [{ autoRenew: true }, true, []],
      [{ privacyMode: "off" }, true, []],
      [{ locked: false }, true, []],
      [{ locked: true }, false, []],
      [
        {
          years: 5,
          contacts: undefined,
          maxCost: { amount: "1", currency: "USD" },
          importId: "a.com",
          contactExtensions: { x: 1 },
          acknowledgements: { y: true },
        },
        false,
        [],
      ],
    ];
    for (const [change, changes, replaces] of table) {
      const d = await handler.diff("a.com", olds, { ...base, ...change }, offline);
      assert.deepEqual(d, { changes, replaces, deleteBeforeReplace: false }, JSON.stringify(change));
    }
  });
});

describe("DomainRegistration handler against the emulator", () => {
  const fx = useEmulator();
  let ctx: HandlerContext;
  let logs: string[];

  beforeEach(() => {
    logs = [];
    ctx = providerContext(fx, logs);
  });
  const checked = checkedIn(() => ctx);

  async function control(method: string, path: string, body?: unknown): Promise<void> {
    const res = await fx.http(method, `/__emulator/registrar${path}`, body === undefined ? {} : { body });
    assert.ok(res.status < 300, res.text);
  }

  async function registered(): Promise<string[]> {
    return (await collect(fx.api.registrar.registrations.list())).map((r) => r.domain_name);
  }

  /** The deprecated domain PUT answers as past its end of life: 410 Gone. */
  function endOfLife(c: HandlerContext): void {
    c.api.registrar.domains.update = async ({ domainName }) => {
      throw errorFromResponse({
        status: 410,
        errors: [{ code: 1002, message: "Gone" }],
        method: "PUT",
        path: `/registrar/domains/${domainName}`,
      });
    };
  }

  const posts = (): number =>
    fx.em.requestLog.filter((e) => e.method === "POST" && e.url.endsWith("/registrations")).length;

  it("checks, prices and registers, recording status, expiry and the price", async () => {
    const { id, outs } = await handler.create(
      await checked({ domainName: "Fresh.com", years: 2, maxCost: { amount: "25.00", currency: "USD" } }),
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
    const { outs } = await handler.create(await checked({ domainName: "term.ai" }), ctx);
    assert.deepEqual([outs.price?.years, outs.price?.total], [2, "160.00"]);
  });

  it("refuses a premium or non-registrable domain with the reason, registering nothing", async () => {
    const cases: [string, RegExp][] = [
      [
        "premium-shoes.com",
        /^domainName: premium-shoes\.com: cannot be registered \(domain_premium\): premium registration/,
      ],
      ["stale-shoes.com", /^domainName: stale-shoes\.com: cannot be registered \(domain_unavailable\)$/],
    ];
    for (const [domainName, message] of cases) {
      await rejectsWith(handler.create(await checked({ domainName }), ctx), message);
    }
    // An unsupported extension is refused at check (below); past it, the create's check still says why.
    const onUk = { ...(await checked({ domainName: "shoes.com" })), domainName: "shoes.uk" };
    await rejectsWith(handler.create(onUk, ctx), /cannot be registered \(extension_not_supported_via_api\)$/);
    assert.deepEqual(await registered(), []);
  });

  it("refuses an unsupported extension at check (preview), naming domainName and a few supported ones, before any registration request", async () => {
    const cases: [string, string][] = [
      ["shoes.uk", "uk"],
      ["Shop.Co.UK", "co.uk"],
      ["fresh.zzz", "zzz"],
      ["gone.tk", "tk"],
    ];
    for (const [domainName, ext] of cases) {
      const r = await handler.check(undefined, { domainName, years: 1 }, ctx);
      assert.deepEqual(
        (r.failures ?? []).map((f) => [f.property, f.reason]),
        [
          [
            "domainName",
            `domainName: ${domainName.toLowerCase()}: must be on an extension the registrar supports; "${ext}" is not one ` +
              "(supported: ai, com, dev, eu, io, net and 2 more; listExtensions lists them)",
          ],
        ],
        domainName,
      );
    }
    // A name under a supported extension passes, whatever its depth; the create's check decides the name.
    await checked({ domainName: "www.acme.com" });
    // Adopting, and a registration already made (the same name in the stored inputs), list nothing.
    await checked({ domainName: "held.uk", importId: "held.uk" });
    const stored = await handler.check({ domainName: "kept.uk" }, { domainName: "kept.uk" }, ctx);
    assert.deepEqual(stored.failures ?? [], []);
    const sent = fx.em.requestLog.map(
      (e) => `${e.method} ${e.url.split("?")[0]!.replace(/.*\/registrar/, "")}`,
    );
    assert.deepEqual(
      sent,
      ["GET /extensions"],
      "one listing for the provider's client, no check, no registration",
    );
  });

  it("leaves the extension to the create's check when the listing is refused (403), saying so", async () => {
    const c = providerContext(fx, logs);
    c.api.registrar.extensions.list = () => {
      throw errorFromResponse({
        status: 403,
        errors: [{ code: 10000, message: "Authentication error" }],
        method: "GET",
        path: "/registrar/extensions",
      });
    };
    const r = await handler.check(undefined, { domainName: "shoes.uk" }, c);
    assert.deepEqual(r.failures ?? [], []);
    assert.match(logs.join("\n"), /the registrar's extensions cannot be listed \(HTTP 403\)/);
    await rejectsWith(handler.create(r.inputs!, c), /extension_not_supported_via_api/);
  });

  it("refuses above maxCost or in another currency before registering", async () => {
    await rejectsWith(
      handler.create(
        await checked({ domainName: "pricey.io", years: 3, maxCost: { amount: "138.50", currency: "USD" } }),
        ctx,
      ),
      /^maxCost: registering pricey\.io for 3 year\(s\) costs 138\.51 USD .* above maxCost 138\.50 USD$/,
    );
    await rejectsWith(
      handler.create(
        await checked({ domainName: "euro.eu", years: 1, maxCost: { amount: "100", currency: "USD" } }),
        ctx,
      ),
      /^maxCost: euro\.eu is priced in EUR, not USD; refusing to register$/,
    );
    assert.deepEqual(await registered(), []);
    const ok = await handler.create(
      await checked({ domainName: "pricey.io", years: 3, maxCost: { amount: "138.51", currency: "USD" } }),
      ctx,
    );
    assert.equal(ok.outs.price?.total, "138.51");
  });

  it("never registers a domain twice: it refuses another's, adopts its own, and adopting reconciles autoRenew", async () => {
    await fx.api.registrar.registrations.create({}, { domain_name: "mine.com", auto_renew: true });
    await assert.rejects(
      handler.create(await checked({ domainName: "mine.com" }), ctx),
      (e: Error) =>
        e.message ===
        'domainName: a registration with this domainName already exists (mine.com) with other settings (autoRenew); set importId: "mine.com" to adopt it',
    );
    // The same settings: a create of ours whose answer was lost, or a run of the same program.
    const same = await handler.create(await checked({ domainName: "mine.com", autoRenew: true }), ctx);
    assert.equal(same.id, "mine.com");
    const { id, outs } = await handler.create(
      await checked({ domainName: "mine.com", importId: "mine.com", autoRenew: false }),
      ctx,
    );
    assert.deepEqual([id, outs.autoRenew, outs.status], ["mine.com", false, "active"]);
    assert.equal((await fx.api.registrar.registrations.get({ domainName: "mine.com" })).auto_renew, false);
    assert.equal(posts(), 1);
    await rejectsWith(
      handler.create(await checked({ domainName: "absent.com", importId: "absent.com" }), ctx),
      /^importId: registration absent\.com not found; nothing to adopt$/,
    );
    const off = await handler.create(
      await checked({ domainName: "mine.com", importId: "mine.com", privacyMode: "off", locked: false }),
      ctx,
    );
    assert.deepEqual([off.outs.privacyMode, off.outs.locked], ["off", false]);
    const live = await fx.api.registrar.registrations.get({ domainName: "mine.com" });
    assert.deepEqual(
      [live.privacy_mode, live.locked],
      ["off", false],
      "adopting put them through the domain PUT",
    );
  });

  it("stops at action_required with the action and records the resource; the next up finishes it", async () => {
    const news = await checked({ domainName: "action-needed.com", years: 1 });
    let partial: PartialCreateError | undefined;
    await assert.rejects(handler.create(news, ctx), (e: unknown) => {
      assert.ok(e instanceof PartialCreateError);
      partial = e;
      return true;
    });
    assert.ok(partial);
    assert.equal(partial.id, "action-needed.com");
    assert.match(
      partial.reasons[0] ?? "",
      /needs your action: Verify the registrant email address.* Then run up again to continue\.$/,
    );
    const props: DomainRegistrationOutputs = {
      ...news,
      ...partial.properties,
      status: "registration_pending",
    };
    assert.deepEqual(partial.properties, props, "the recorded state is the inputs and the outputs");
    assert.match(props.pendingAction ?? "", /^Verify the registrant email address/);
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

    const read = await handler.read("action-needed.com", props, ctx);
    assert.match(read?.props.pendingAction ?? "", /^Verify/);
    assert.deepEqual(read?.props.price, props.price, "the price is kept from the state");

    // Still waiting for the user: the next up stops again, and records it again.
    await assert.rejects(handler.update("action-needed.com", props, news, ctx), PartialCreateError);

    await control("POST", "/workflows/action-needed.com/registration/resolve");
    const { outs } = await handler.update("action-needed.com", props, news, ctx);
    assert.deepEqual(
      [outs.status, outs.pendingAction, outs.expiresAt, outs.price?.total],
      ["active", undefined, "2027-01-01T00:00:00.000Z", "10.44"],
    );
    assert.equal(posts(), 1, "registered once");
  });

  it("waits through blocked, and reports a failed workflow with its code without retrying", async () => {
    const { outs } = await handler.create(await checked({ domainName: "blocked-slow.com" }), ctx);
    assert.equal(outs.status, "active");
    await rejectsWith(
      handler.create(await checked({ domainName: "fail-registry.com" }), ctx),
      /^registration workflow of fail-registry\.com failed \(registry_rejected\): The registry rejected .*validation; nothing was registered\. Review it/,
    );
    assert.equal(posts(), 2);
    assert.deepEqual(await registered(), ["blocked-slow.com"]);
  });

  it("records a registration still running at the session's deadline, to continue on the next up", async () => {
    const short = providerContext(fx, logs, { deadlineMs: 5_000 });
    await assert.rejects(
      handler.create(await checked({ domainName: "slow.dev" }), short),
      (e: unknown) =>
        e instanceof PartialCreateError &&
        e.id === "slow.dev" &&
        /still running after 5000 ms .*run up again to keep waiting/.test(e.reasons[0] ?? ""),
    );
  });

  it("updates autoRenew through the update workflow", async () => {
    const news = await checked({ domainName: "upd.com" });
    const created = await handler.create(news, ctx);
    const { outs } = await handler.update("upd.com", created.outs, { ...news, autoRenew: true }, ctx);
    assert.equal(outs.autoRenew, true);
    assert.equal((await fx.api.registrar.registrations.get({ domainName: "upd.com" })).auto_renew, true);
    assert.equal(
      (await fx.api.registrar.updateWorkflow.status({ domainName: "upd.com" })).state,
      "succeeded",
    );

    await control("POST", "/scenarios", { domain_name: "upd.com", kind: "update", scenario: "failed" });
    await rejectsWith(
      handler.update("upd.com", outs, news, ctx),
      /^update workflow of upd\.com failed \(registry_update_rejected\).*auto_renew was not changed/,
    );
  });

  it("updates privacyMode and locked through the domain PUT, and says what to do once it is gone", async () => {
    const news = await checked({ domainName: "lock.com" });
    const created = await handler.create(news, ctx);
    const puts = (): number => fx.em.requestLog.filter((e) => e.method === "PUT").length;
    const changed = { ...news, privacyMode: "off" as const, locked: false };
    const { outs } = await handler.update("lock.com", created.outs, changed, ctx);
    assert.deepEqual([outs.privacyMode, outs.locked, puts()], ["off", false, 1]);
    const live = await fx.api.registrar.registrations.get({ domainName: "lock.com" });
    assert.deepEqual([live.privacy_mode, live.locked], ["off", false]);
    await handler.update("lock.com", outs, changed, ctx);
    assert.equal(puts(), 1, "nothing differs: no request");

    endOfLife(ctx);
    await rejectsWith(
      handler.update("lock.com", outs, { ...changed, locked: true }, ctx),
      /^locked: lock\.com: the service no longer answers the deprecated registrar\/domains update \(HTTP 410; its end of life was 2026-09-27\), the only operation that changes locked\. Change it in the dashboard, or leave locked unset\.$/,
    );
    await rejectsWith(
      handler.update("lock.com", outs, { ...changed, privacyMode: "redaction" }, ctx),
      /^privacyMode: .*Change it in the dashboard, or set privacyMode: "off"\.$/,
    );
  });

  it("applies a lock the program sets after registering, and records the registration if that fails", async () => {
    const { outs } = await handler.create(await checked({ domainName: "open.com", locked: false }), ctx);
    assert.equal(outs.locked, false);
    assert.equal((await fx.api.registrar.registrations.get({ domainName: "open.com" })).locked, false);

    endOfLife(ctx);
    await assert.rejects(
      handler.create(await checked({ domainName: "closed.com", locked: false }), ctx),
      (e) => {
        assert.ok(e instanceof PartialCreateError, String(e));
        assert.equal(e.id, "closed.com");
        assert.match(
          e.reasons[0] ?? "",
          /^closed\.com is registered, but locked: .*run up again to apply the rest$/,
        );
        return true;
      },
    );
    assert.deepEqual(await registered(), ["open.com", "closed.com"]);
  });

  it("goes on from a state of the earlier release: contacts upgraded, no replace, no diff", async () => {
    const news = await checked({ domainName: "earlier.com", years: 1, contacts: { registrant: REGISTRANT } });
    const { outs } = await handler.create(news, ctx);
    // What the earlier release stored: contacts in the deprecated shape, locked an output and no
    // lockManaged. A stored state is whatever the release that wrote it stored: its contacts fit no
    // type of today's.
    const { lockManaged: _notYet, ...earlierOuts } = outs;
    const stored = {
      ...earlierOuts,
      contacts: { registrant: EARLIER_REGISTRANT },
    } as unknown as DomainRegistrationOutputs;
    const d = await handler.diff("earlier.com", stored, news, ctx);
    assert.deepEqual(d, { changes: false, replaces: [], deleteBeforeReplace: false });
    const read = await handler.read("earlier.com", stored, ctx);
    assert.ok(read);
    assert.deepEqual(read.props.contacts, { registrant: REGISTRANT }, "read stores today's shape");
    assert.deepEqual(
      [read.inputs.locked, read.props.locked, read.props.lockManaged],
      [undefined, true, false],
    );
    assert.equal((await handler.diff("earlier.com", read.props, news, ctx)).changes, false);
    const { outs: updated } = await handler.update("earlier.com", stored, news, ctx);
    assert.deepEqual(updated.contacts, { registrant: REGISTRANT });
  });

  it("reads drift in autoRenew, privacyMode, locked, status and expiresAt, and nothing when unchanged", async () => {
    const news = await checked({ domainName: "drift.com", years: 1, contacts: { registrant: REGISTRANT } });
    const { outs } = await handler.create(news, ctx);
    const same = await handler.read("drift.com", outs, ctx);
    assert.ok(same);
    assert.deepEqual(same.inputs, news, "no perpetual diff: an unset lock is no input");
    assert.deepEqual(same.props, outs);
    assert.deepEqual([outs.locked, outs.lockManaged], [true, false], "the registry's lock is reported");
    assert.equal((await handler.diff("drift.com", same.props, news, ctx)).changes, false);

    await control("PATCH", "/registrations/drift.com", {
      auto_renew: true,
      locked: false,
      privacy_mode: "off",
      status: "suspended",
      expires_at: "2031-01-01T00:00:00Z",
    });
    const drifted = await handler.read("drift.com", outs, ctx);
    assert.ok(drifted);
    assert.deepEqual(
      [drifted.props.locked, drifted.props.status, drifted.props.expiresAt],
      [false, "suspended", "2031-01-01T00:00:00.000Z"],
    );
    const unmanaged = await handler.diff(
      "drift.com",
      drifted.props,
      { ...news, autoRenew: true, privacyMode: "off" },
      ctx,
    );
    assert.equal(unmanaged.changes, false, "an unset lock is not managed: its drift is no change");
    const managed = await handler.diff(
      "drift.com",
      drifted.props,
      { ...news, autoRenew: true, privacyMode: "off", locked: true },
      ctx,
    );
    assert.equal(managed.changes, true, "a set lock is: its drift is a change");
    assert.equal(drifted.inputs.locked, undefined);
    assert.deepEqual([drifted.inputs.autoRenew, drifted.inputs.privacyMode], [true, "off"]);
    assert.deepEqual(drifted.inputs.contacts, outs.contacts, "create-only contacts keep their old value");
    const d = await handler.diff("drift.com", drifted.props, news, ctx);
    assert.deepEqual([d.changes, d.replaces], [true, []]);
  });

  it("reads a managed lock among the inputs, and records when the program stops managing it", async () => {
    const news = await checked({ domainName: "held.com", locked: true });
    const { outs } = await handler.create(news, ctx);
    assert.deepEqual([outs.locked, outs.lockManaged], [true, true]);
    await control("PATCH", "/registrations/held.com", { locked: false });
    const read = await handler.read("held.com", outs, ctx);
    assert.ok(read);
    assert.equal(read.inputs.locked, false, "the drift shows as an input");
    assert.equal((await handler.diff("held.com", read.props, news, ctx)).changes, true);
    const { locked: _left, ...unmanaged } = news;
    assert.equal(
      (await handler.diff("held.com", read.props, unmanaged, ctx)).changes,
      true,
      "leaving locked out is a change once: the update records it",
    );
    const { outs: after } = await handler.update("held.com", read.props, unmanaged, ctx);
    assert.deepEqual([after.locked, after.lockManaged], [false, false], "the lock is left as it is");
    assert.equal((await handler.diff("held.com", after, unmanaged, ctx)).changes, false);
  });

  it("propagates a read failure other than 404, and reads a 404 as gone", async () => {
    const { id, outs } = await handler.create(await checked({ domainName: "gone.com" }), ctx);
    fx.em.faults.add({ method: "GET", path: "/registrar/registrations/gone\\.com$", status: 500 });
    await assert.rejects(handler.read(id, outs, ctx), (e: Error) => e.name !== "NotFoundError");
    fx.em.faults.clear();
    assert.equal((await handler.read(id, outs, ctx))?.id, "gone.com");
    await control("DELETE", "/registrations/gone.com");
    assert.equal(await handler.read(id, outs, ctx), undefined);
  });

  it("delete leaves the domain registered and says so", async () => {
    const { outs } = await handler.create(await checked({ domainName: "keep.com", autoRenew: true }), ctx);
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

describe("listExtensions in a program", () => {
  const fx = useEmulator();
  const ENV_KEYS = ["ACCOUNT_API_BASE_URL", "ACCOUNT_API_TOKEN", "ACCOUNT_API_ACCOUNT_ID"] as const;
  const saved: Record<string, string | undefined> = {};
  beforeEach(() => {
    for (const k of ENV_KEYS) saved[k] = process.env[k];
    process.env.ACCOUNT_API_BASE_URL = fx.em.url;
    process.env.ACCOUNT_API_TOKEN = fx.em.token;
    process.env.ACCOUNT_API_ACCOUNT_ID = fx.em.accountId;
  });
  afterEach(() => {
    for (const k of ENV_KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it("answers on preview as on up (a read a program decides on before anything is made)", async () => {
    const mocks: pulumi.runtime.Mocks = {
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: (args) => args.inputs,
    };
    for (const preview of [true, false]) {
      await pulumi.runtime.setMocks(mocks, "proj", "stack", preview);
      const out = listExtensions();
      // `isKnown` is the SDK's own (not in its typings): known on preview, unlike checkDomain's.
      assert.equal(await Reflect.get(out, "isKnown"), true, `preview ${preview}`);
      const names = await new Promise<string[]>((resolve) => out.apply((l) => resolve(l.map((e) => e.name))));
      assert.deepEqual(names, ["ai", "com", "dev", "eu", "io", "net", "org", "xyz"]);
    }
  });
});
