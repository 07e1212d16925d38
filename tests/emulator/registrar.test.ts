import { strict as assert } from "node:assert";
import {
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
  ValidationError,
  collect,
} from "../../sdk";
import { NotRegistrableError } from "../../sdk/registrar";
import { useEmulator } from "../helpers/emulator";
import { EARLIER_REGISTRANT, REGISTRANT_WIRE as CONTACT } from "../helpers/registrar";
import { toApi } from "../../provider/core/values";

interface Envelope {
  success: boolean;
  errors: { code: number; message: string }[];
  messages: { code?: number; message?: string }[];
  result: Record<string, unknown> & { domains?: Record<string, unknown>[] };
  result_info?: Record<string, unknown>;
}

describe("registrar (emulator, through the sdk)", () => {
  const fx = useEmulator();
  const base = (): string => `/accounts/${fx.em.accountId}/registrar`;
  const calls = (fragment: string): number => fx.em.requestLog.filter((e) => e.url.includes(fragment)).length;
  const env = (json: unknown): Envelope => json as Envelope;

  /** Asserts a local refusal that names the field and the rule, and that no request was made. */
  async function rejectsLocally(run: () => Promise<unknown>, field: string, rule: RegExp): Promise<void> {
    const before = fx.em.requestLog.length;
    await assert.rejects(run, (e: unknown) => {
      assert.ok(e instanceof ValidationError, String(e));
      assert.ok(
        e.issues.some((i) => i.field === field && rule.test(i.rule)),
        `${JSON.stringify(e.issues)} lacks ${field}: ${rule}`,
      );
      return true;
    });
    assert.equal(fx.em.requestLog.length, before, "a request was made");
  }

  async function rejectsOnWire(method: string, path: string, body: unknown, message: RegExp): Promise<void> {
    const res = await fx.http(method, `${base()}${path}`, { body });
    assert.equal(res.status, 400, res.text);
    const e = env(res.json);
    assert.equal(e.success, false);
    assert.equal(e.result, null);
    assert.ok(
      e.errors.some((x) => x.code === 13001 && message.test(x.message)),
      `${JSON.stringify(e.errors)} lacks ${message}`,
    );
  }

  describe("search (advisory)", () => {
    it("lists the exact name first, then the label under the default extensions, with pricing", async () => {
      const { domains } = await fx.api.registrar.discovery.search({}, { q: "acme.io" });
      assert.deepEqual(
        domains.map((d) => d.name),
        ["acme.io", "acme.com", "acme.net", "acme.org", "acme.dev", "acme.xyz"],
      );
      const io = domains[0]!;
      assert.equal(io.registrable, true);
      assert.equal(io.tier, "standard");
      assert.deepEqual(io.pricing, { currency: "USD", registration_cost: "39.89", renewal_cost: "49.31" });
    });

    it("sends q, repeated extensions and limit as query parameters", async () => {
      const res = await fx.http(
        "GET",
        `${base()}/domain-search?q=shop&extensions=uk&extensions=tk&extensions=zz&limit=2`,
      );
      assert.equal(res.status, 200);
      const domains = env(res.json).result.domains!;
      assert.deepEqual(
        domains.map((d) => [d.name, d.registrable, d.reason]),
        [
          ["shop.uk", false, "extension_not_supported_via_api"],
          ["shop.tk", false, "extension_disallows_registration"],
        ],
      );
      assert.ok(domains.every((d) => d.pricing === undefined));
      const comma = await fx.http("GET", `${base()}/domain-search?q=shop&extensions=uk,tk&limit=2`);
      assert.deepEqual(
        env(comma.json).result.domains!.map((d) => d.name),
        ["shop.uk", "shop.tk"],
        "the contract's form (explode: false) lists them comma-separated",
      );
    });

    it("may say registrable for a name the authoritative check refuses (stale index)", async () => {
      const search = await fx.api.registrar.discovery.search({}, { q: "stale-shop", extensions: ["com"] });
      assert.equal(search.domains[0]!.registrable, true);
      const check = await fx.api.registrar.discovery.check({}, { domains: ["stale-shop.com"] });
      assert.deepEqual(check.domains, [
        { name: "stale-shop.com", registrable: false, reason: "domain_unavailable" },
      ]);
    });

    it("refuses a bad limit, an empty q and a bad extension locally, without a request", async () => {
      await rejectsLocally(
        () => fx.api.registrar.discovery.search({}, { q: "acme", limit: 0 }),
        "limit",
        /between 1 and 50/,
      );
      await rejectsLocally(() => fx.api.registrar.discovery.search({}, { q: " " }), "q", /must not be empty/);
      await rejectsLocally(
        () => fx.api.registrar.discovery.search({}, { q: "a".repeat(101) }),
        "q",
        /^must be at most 100 characters$/,
      );
      await rejectsLocally(
        () => fx.api.registrar.discovery.search({}, { q: "acme", extensions: ["c_m"] }),
        "extensions.0",
        /must be an extension/,
      );
    });

    it("refuses the same on the wire with 400 naming the field", async () => {
      await rejectsOnWire(
        "GET",
        "/domain-search?q=acme&limit=51",
        undefined,
        /^limit: must be between 1 and 50$/,
      );
      await rejectsOnWire("GET", "/domain-search?q=acme&limit=ten", undefined, /^limit: must be a number$/);
      await rejectsOnWire("GET", "/domain-search", undefined, /^q: is required$/);
      await rejectsOnWire(
        "GET",
        `/domain-search?q=${"a".repeat(101)}`,
        undefined,
        /^q: must be at most 100 characters$/,
      );
      await rejectsOnWire("GET", "/domain-search?q=a&sort=x", undefined, /sort: is not a known field/);
    });
  });

  describe("check (authoritative)", () => {
    it("answers each name, includes unsupported extensions with a reason, omits malformed names", async () => {
      const { domains } = await fx.api.registrar.discovery.check(
        {},
        {
          domains: [
            "Fresh.COM",
            "fresh.uk",
            "fresh.tk",
            "fresh.zz",
            "example.com",
            "cars.com",
            "not..valid",
            "fresh.eu",
          ],
        },
      );
      assert.deepEqual(domains, [
        {
          name: "fresh.com",
          registrable: true,
          tier: "standard",
          pricing: { currency: "USD", registration_cost: "10.44", renewal_cost: "10.44" },
        },
        { name: "fresh.uk", registrable: false, reason: "extension_not_supported_via_api" },
        { name: "fresh.tk", registrable: false, reason: "extension_disallows_registration" },
        { name: "fresh.zz", registrable: false, reason: "extension_not_supported" },
        { name: "example.com", registrable: false, reason: "domain_unavailable" },
        { name: "cars.com", registrable: false, reason: "domain_premium", tier: "premium" },
        {
          name: "fresh.eu",
          registrable: true,
          tier: "standard",
          pricing: { currency: "EUR", registration_cost: "6.71", renewal_cost: "6.71" },
        },
      ]);
    });

    it("is a POST with { domains } that the client may retry, since it only reads", async () => {
      await fx.http("POST", "/__emulator/faults", {
        body: { method: "POST", path: "/domain-check$", status: 503, times: 1 },
      });
      const api = fx.client({ retry: { maxRetries: 1 }, sleep: async () => {} });
      const { domains } = await api.registrar.discovery.check({}, { domains: ["fresh.com"] });
      assert.equal(domains[0]!.registrable, true);
      assert.equal(calls("/domain-check"), 2);
    });

    it("takes any string as a name, answering only the well-formed ones", async () => {
      const { domains } = await fx.api.registrar.discovery.check(
        {},
        { domains: ["", "x".repeat(300), "ok.com"] },
      );
      assert.deepEqual(
        domains.map((d) => d.name),
        ["ok.com"],
      );
    });

    it("refuses an empty or too long list locally and on the wire", async () => {
      await rejectsLocally(
        () => fx.api.registrar.discovery.check({}, { domains: [] }),
        "domains",
        /must not be empty/,
      );
      const many = Array.from({ length: 21 }, (_, i) => `n${i}.com`);
      await rejectsLocally(
        () => fx.api.registrar.discovery.check({}, { domains: many }),
        "domains",
        /must have at most 20 entries/,
      );
      await rejectsOnWire("POST", "/domain-check", { domains: [] }, /^domains: must not be empty$/);
      await rejectsOnWire(
        "POST",
        "/domain-check",
        { domains: many },
        /^domains: must have at most 20 entries$/,
      );
      await rejectsOnWire("POST", "/domain-check", {}, /^domains: is required$/);
      await rejectsOnWire("POST", "/domain-check", { domain: ["a.com"] }, /domain: is not a known field/);
    });

    it("reports a domain registered in this account as unavailable", async () => {
      await fx.api.registrar.registrations.create({}, { domain_name: "mine.com" });
      const { domains } = await fx.api.registrar.discovery.check({}, { domains: ["mine.com"] });
      assert.equal(domains[0]!.reason, "domain_unavailable");
    });
  });

  describe("registrations.quote (rule 3)", () => {
    it("charges registration_cost for year one and renewal_cost after, exactly, with the currency", async () => {
      const q = await fx.api.registrar.registrations.quote({ domainName: "fresh.com" }, { years: 10 });
      assert.deepEqual(q, {
        domain_name: "fresh.com",
        years: 10,
        currency: "USD",
        registration_cost: "10.44",
        renewal_cost: "10.44",
        total: "104.40",
      });
      assert.equal(
        (await fx.api.registrar.registrations.quote({ domainName: "fresh.xyz" }, { years: 2 })).total,
        "0.30",
      );
      assert.equal(
        (await fx.api.registrar.registrations.quote({ domainName: "fresh.xyz" }, { years: 10 })).total,
        "1.90",
      );
      assert.equal(
        (await fx.api.registrar.registrations.quote({ domainName: "fresh.dev" }, { years: 3 })).total,
        "34.54",
      );
      const eu = await fx.api.registrar.registrations.quote({ domainName: "fresh.eu" }, { years: 1 });
      assert.deepEqual([eu.currency, eu.total], ["EUR", "6.71"]);
    });

    it("refuses premium and non-registrable domains with the reason", async () => {
      const cases: [string, string][] = [
        ["premium-shoes.com", "domain_premium"],
        ["taken-shoes.com", "domain_unavailable"],
        ["stale-shoes.com", "domain_unavailable"],
        ["shoes.uk", "extension_not_supported_via_api"],
        ["shoes.tk", "extension_disallows_registration"],
        ["shoes.zz", "extension_not_supported"],
      ];
      for (const [name, reason] of cases) {
        await assert.rejects(
          () => fx.api.registrar.registrations.quote({ domainName: name }, { years: 1 }),
          (e: unknown) =>
            e instanceof NotRegistrableError &&
            e.reason === reason &&
            e.message === `${name}: cannot be registered through this API (${reason})`,
        );
      }
    });

    it("refuses bad years and names before asking", async () => {
      await rejectsLocally(
        () => fx.api.registrar.registrations.quote({ domainName: "fresh.com" }, { years: 11 }),
        "",
        /between 1 and 10/,
      );
      await rejectsLocally(
        () => fx.api.registrar.registrations.quote({ domainName: "fresh" }, { years: 1 }),
        "",
        /fully qualified domain name/,
      );
    });
  });

  describe("create", () => {
    it("answers 201 with the succeeded workflow when it completes within the synchronous window", async () => {
      const created = await fx.api.registrar.registrations.create({}, { domain_name: "quick.com", years: 2 });
      assert.equal(created.status, 201);
      assert.equal(created.recovered, false);
      const w = created.workflow;
      assert.equal(w.state, "succeeded");
      assert.equal(w.completed, true);
      assert.equal(w.context?.domain_name, "quick.com");
      assert.ok(w.links.self.endsWith(`${base()}/registrations/quick.com/registration-status`), w.links.self);
      assert.ok(w.links.resource?.endsWith(`${base()}/registrations/quick.com`), w.links.resource);
      assert.deepEqual(w.context?.registration, {
        domain_name: "quick.com",
        auto_renew: false,
        created_at: "2026-01-01T00:00:00.000Z",
        expires_at: "2028-01-01T00:00:00.000Z",
        locked: true,
        privacy_mode: "redaction",
        status: "active",
      });
      assert.deepEqual(
        await fx.api.registrar.registrations.get({ domainName: "quick.com" }),
        w.context?.registration,
      );
    });

    it("answers 202 when the registry is slower; the registration is pending with no expiry until it succeeds", async () => {
      const created = await fx.api.registrar.registrations.create({}, { domain_name: "slow.dev" });
      assert.equal(created.status, 202);
      assert.equal(created.workflow.state, "pending");
      assert.equal(created.workflow.completed, false);
      const pending = await fx.api.registrar.registrations.get({ domainName: "slow.dev" });
      assert.deepEqual([pending.status, pending.expires_at], ["registration_pending", null]);
      fx.clock.advance(1_000);
      assert.equal(
        (await fx.api.registrar.registrationWorkflow.status({ domainName: "slow.dev" })).state,
        "in_progress",
      );
      fx.clock.advance(44_000);
      const done = await fx.api.registrar.registrationWorkflow.status({ domainName: "slow.dev" });
      assert.deepEqual(
        [done.state, done.completed, done.context?.registration?.status],
        ["succeeded", true, "active"],
      );
      assert.equal(done.context?.registration?.expires_at, "2027-01-01T00:00:00.000Z");
    });

    it("answers 202 at once with Prefer: respond-async, even for a quick registry", async () => {
      const created = await fx.api.registrar.registrations.create(
        {},
        {
          domain_name: "async.com",
          respondAsync: true,
        },
      );
      assert.deepEqual([created.status, created.workflow.state], [202, "pending"]);
      const raw = await fx.http("POST", `${base()}/registrations`, {
        body: { domain_name: "raw-async.com" },
        headers: { prefer: "return=minimal, respond-async" },
      });
      assert.equal(raw.status, 202);
      const plain = await fx.http("POST", `${base()}/registrations`, {
        body: { domain_name: "raw-sync.com" },
      });
      assert.equal(plain.status, 201);
      fx.clock.advance(3_000);
      assert.equal(
        (await fx.api.registrar.registrationWorkflow.status({ domainName: "async.com" })).state,
        "succeeded",
      );
    });

    it("applies the defaults: the extension's minimum years, auto_renew false, privacy redaction", async () => {
      const { workflow } = await fx.api.registrar.registrations.create({}, { domain_name: "defaults.ai" });
      fx.clock.advance(45_000);
      const reg = await fx.api.registrar.registrations.get({ domainName: workflow.context!.domain_name! });
      assert.equal(reg.expires_at, "2028-01-01T00:00:00.000Z"); // .ai: at least 2 years
      assert.deepEqual([reg.auto_renew, reg.privacy_mode, reg.locked], [false, "redaction", true]);
      const off = await fx.api.registrar.registrations.create(
        {},
        {
          domain_name: "off.com",
          privacy_mode: "off",
          auto_renew: true,
        },
      );
      assert.deepEqual(
        [off.workflow.context?.registration?.privacy_mode, off.workflow.context?.registration?.auto_renew],
        ["off", true],
      );
    });

    it("refuses fewer years than the extension's minimum", async () => {
      await rejectsOnWire(
        "POST",
        "/registrations",
        { domain_name: "short.ai", years: 1 },
        /^years: must be at least 2 for \.ai$/,
      );
    });

    it("registers a domain once: a second create is a conflict", async () => {
      await fx.api.registrar.registrations.create({}, { domain_name: "once.com" });
      await assert.rejects(
        () => fx.api.registrar.registrations.create({}, { domain_name: "ONCE.com" }),
        (e: unknown) =>
          e instanceof ConflictError &&
          e.status === 409 &&
          e.apiCode === 13003 &&
          e.errors[0]!.message ===
            "domain_name: once.com is already registered in this account (a domain can be registered once)",
      );
      assert.equal((await collect(fx.api.registrar.registrations.list())).length, 1);
    });

    it("refuses premium, taken and unsupported names with 422 and the reason", async () => {
      const cases: [string, number, string][] = [
        [
          "premium.com",
          13005,
          "domain_name: premium.com is a premium domain; premium registration is not supported by this API",
        ],
        ["example.com", 13004, "domain_name: example.com cannot be registered (domain_unavailable)"],
        [
          "recently-taken.com",
          13004,
          "domain_name: recently-taken.com cannot be registered (domain_unavailable)",
        ],
        ["fresh.uk", 13004, "domain_name: fresh.uk cannot be registered (extension_not_supported_via_api)"],
        ["fresh.zz", 13004, "domain_name: fresh.zz cannot be registered (extension_not_supported)"],
      ];
      for (const [name, code, message] of cases) {
        await assert.rejects(
          () => fx.api.registrar.registrations.create({}, { domain_name: name }),
          (e: unknown) =>
            e instanceof UnprocessableEntityError && e.apiCode === code && e.errors[0]!.message === message,
        );
      }
    });

    it("holds at most 500 domains per account", async () => {
      const seeded = await fx.http("POST", "/__emulator/registrar/seed", { body: { count: 500 } });
      assert.equal(seeded.status, 201, seeded.text);
      await assert.rejects(
        () => fx.api.registrar.registrations.create({}, { domain_name: "one-too-many.com" }),
        (e: unknown) =>
          e instanceof UnprocessableEntityError &&
          e.apiCode === 13006 &&
          e.errors[0]!.message === "account holds 500 domains: at most 500 domains per account",
      );
      await fx.http("DELETE", "/__emulator/registrar/registrations/seeded-0.com");
      assert.equal(
        (await fx.api.registrar.registrations.create({}, { domain_name: "one-too-many.com" })).status,
        201,
      );
    });

    it("refuses malformed bodies locally and on the wire, naming the field", async () => {
      const create = (body: Record<string, unknown>) => () =>
        fx.api.registrar.registrations.create(
          {},
          body as unknown as Parameters<typeof fx.api.registrar.registrations.create>[1],
        );
      await rejectsLocally(
        create({ domain_name: "bad_name.com" }),
        "domain_name",
        /fully qualified domain name/,
      );
      await rejectsLocally(
        create({ domain_name: "a.com", years: 11 }),
        "years",
        /^must be between 1 and 10$/,
      );
      await rejectsLocally(create({ domain_name: "a.com", years: 0 }), "years", /^must be between 1 and 10$/);
      await rejectsLocally(
        create({ domain_name: "a.com", privacy_mode: "on" }),
        "privacy_mode",
        /must be one of off, redaction/,
      );
      await rejectsLocally(
        create({ domain_name: "a.com", auto_renw: true }),
        "auto_renw",
        /^is not a known field$/,
      );
      await rejectsLocally(create({}), "domain_name", /^is required$/);
      await rejectsOnWire(
        "POST",
        "/registrations",
        { domain_name: "bad_name.com" },
        /^domain_name: must be a fully qualified/,
      );
      await rejectsOnWire(
        "POST",
        "/registrations",
        { domain_name: "a.com", years: 11 },
        /^years: must be between 1 and 10$/,
      );
      await rejectsOnWire(
        "POST",
        "/registrations",
        { domain_name: "a.com", privacy_mode: "on" },
        /^privacy_mode: must be one of/,
      );
      await rejectsOnWire(
        "POST",
        "/registrations",
        { domain_name: "a.com", auto_renw: true },
        /auto_renw: is not a known field/,
      );
      const malformed = await fx.http("POST", `${base()}/registrations`, { body: "{not json" });
      assert.deepEqual(
        [malformed.status, env(malformed.json).errors[0]!.message],
        [400, "body: malformed JSON"],
      );
    });
  });

  describe("contacts (the contract's shape)", () => {
    const full = { ...CONTACT, fax: "+1.5555550199" };

    it("takes every role with every field, and registers", async () => {
      const { status } = await fx.api.registrar.registrations.create(
        {},
        {
          domain_name: "c.com",
          contacts: { registrant: full, administrator: full, technical: CONTACT, billing: CONTACT },
        },
      );
      assert.equal(status, 201);
    });

    it("requires email, phone, the name and the whole address, and an email that is one", async () => {
      const { city: _city, ...noCity } = CONTACT.postal_info.address;
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ ...CONTACT, email: undefined }, "contacts.registrant.email", /^is required$/],
        [{ ...CONTACT, email: "ada" }, "contacts.registrant.email", /^must be an email address$/],
        [{ ...CONTACT, phone: undefined }, "contacts.registrant.phone", /^is required$/],
        [
          { ...CONTACT, postal_info: { ...CONTACT.postal_info, name: undefined } },
          "contacts.registrant.postal_info.name",
          /^is required$/,
        ],
        [
          { ...CONTACT, postal_info: { ...CONTACT.postal_info, address: noCity } },
          "contacts.registrant.postal_info.address.city",
          /^is required$/,
        ],
      ];
      for (const [registrant, field, rule] of cases) {
        const body = { domain_name: "d.com", contacts: { registrant } };
        await rejectsLocally(
          () =>
            fx.api.registrar.registrations.create(
              {},
              body as unknown as Parameters<typeof fx.api.registrar.registrations.create>[1],
            ),
          field,
          rule,
        );
        await rejectsOnWire(
          "POST",
          "/registrations",
          body,
          new RegExp(`^${field.replaceAll(".", "\\.")}: ${rule.source.slice(1)}`),
        );
      }
    });

    it("refuses the deprecated contact shape, naming where each field went", async () => {
      const body = { domain_name: "d.com", contacts: { admin: toApi(EARLIER_REGISTRANT) } };
      const role = "contacts.administrator";
      const expected: [string, string][] = [
        ["contacts.admin", `renamed to ${role}`],
        ["contacts.admin.address", `now ${role}.postal_info.address.street`],
        ["contacts.admin.city", `now ${role}.postal_info.address.city`],
        ["contacts.admin.state", `now ${role}.postal_info.address.state`],
        ["contacts.admin.organization", `now ${role}.postal_info.organization`],
        ["contacts.admin.zip", `now ${role}.postal_info.address.postal_code`],
        ["contacts.admin.country", `now ${role}.postal_info.address.country_code`],
        ["contacts.admin.first_name", `now ${role}.postal_info.name (first and last name in one string)`],
        ["contacts.admin.last_name", `now ${role}.postal_info.name (first and last name in one string)`],
      ];
      await assert.rejects(
        () =>
          fx.api.registrar.registrations.create(
            {},
            body as unknown as Parameters<typeof fx.api.registrar.registrations.create>[1],
          ),
        (e: unknown) => {
          assert.ok(e instanceof ValidationError);
          assert.deepEqual(
            e.issues.map((i) => [i.field, i.rule]),
            expected,
          );
          return true;
        },
      );
      const res = await fx.http("POST", `${base()}/registrations`, { body });
      assert.equal(res.status, 400);
      assert.deepEqual(
        env(res.json).errors.map((x) => x.message),
        expected.map(([field, rule]) => `${field}: ${rule}`),
      );
    });
  });

  describe("list and get", () => {
    it("follows the cursor through every page, oldest first", async () => {
      await fx.http("POST", "/__emulator/registrar/seed", { body: { count: 5, prefix: "page" } });
      const before = calls("/registrar/registrations?");
      const names = (await collect(fx.api.registrar.registrations.list({}, { perPage: 2 }))).map(
        (r) => r.domain_name,
      );
      assert.deepEqual(names, ["page-0.com", "page-1.com", "page-2.com", "page-3.com", "page-4.com"]);
      assert.equal(calls("/registrar/registrations?") - before, 3);
    });

    it("gives a cursor while more remain and an empty one at the end", async () => {
      await fx.http("POST", "/__emulator/registrar/seed", { body: { count: 3 } });
      const first = env((await fx.http("GET", `${base()}/registrations?per_page=2`)).json);
      assert.equal(first.result_info?.count, 2);
      const cursor = String(first.result_info?.cursor);
      assert.ok(cursor.length > 0);
      const last = env((await fx.http("GET", `${base()}/registrations?per_page=2&cursor=${cursor}`)).json);
      assert.deepEqual([(last.result as unknown as unknown[]).length, last.result_info?.cursor], [1, ""]);
      await rejectsOnWire(
        "GET",
        "/registrations?cursor=bogus",
        undefined,
        /^cursor: must be a cursor returned/,
      );
      await rejectsOnWire(
        "GET",
        "/registrations?per_page=51",
        undefined,
        /^per_page: must be between 1 and 50$/,
      );
      assert.throws(() => fx.api.registrar.registrations.list({}, { perPage: 0 }), ValidationError);
    });

    it("answers 404 for an unknown registration and for workflows that do not exist", async () => {
      await assert.rejects(
        () => fx.api.registrar.registrations.get({ domainName: "nope.com" }),
        (e: unknown) =>
          e instanceof NotFoundError &&
          e.apiCode === 13002 &&
          e.errors[0]!.message === "registration for nope.com not found",
      );
      await assert.rejects(
        () => fx.api.registrar.registrationWorkflow.status({ domainName: "nope.com" }),
        (e: unknown) =>
          e instanceof NotFoundError &&
          e.errors[0]!.message === "registration workflow for nope.com not found",
      );
      await fx.api.registrar.registrations.create({}, { domain_name: "here.com" });
      await assert.rejects(
        () => fx.api.registrar.updateWorkflow.status({ domainName: "here.com" }),
        (e: unknown) =>
          e instanceof NotFoundError && e.errors[0]!.message === "update workflow for here.com not found",
      );
      assert.equal((await fx.http("GET", `${base()}/registrations/not..a..name`)).status, 404);
      assert.equal(await fx.api.registrar.registrations.find({ domainName: "nope.com" }), undefined);
    });
  });

  describe("update (auto_renew only)", () => {
    it("changes auto_renew through an update workflow answered 200 within the window", async () => {
      await fx.api.registrar.registrations.create({}, { domain_name: "renew.com" });
      const w = await fx.api.registrar.registrations.update(
        { domainName: "renew.com" },
        { auto_renew: true },
      );
      assert.deepEqual([w.state, w.completed], ["succeeded", true]);
      assert.ok(w.links.self.endsWith("/registrations/renew.com/update-status"));
      assert.equal((await fx.api.registrar.registrations.get({ domainName: "renew.com" })).auto_renew, true);
      const raw = await fx.http("PATCH", `${base()}/registrations/renew.com`, {
        body: { auto_renew: false },
      });
      assert.equal(raw.status, 200);
    });

    it("answers 202 with respond-async and applies the change only when the workflow succeeds", async () => {
      await fx.api.registrar.registrations.create({}, { domain_name: "later.com" });
      const w = await fx.api.registrar.registrations.update(
        { domainName: "later.com" },
        { auto_renew: true, respondAsync: true },
      );
      assert.equal(w.state, "pending");
      assert.equal((await fx.api.registrar.registrations.get({ domainName: "later.com" })).auto_renew, false);
      await assert.rejects(
        () => fx.api.registrar.registrations.update({ domainName: "later.com" }, { auto_renew: false }),
        (e: unknown) =>
          e instanceof ConflictError &&
          e.apiCode === 13007 &&
          /an update workflow is in progress/.test(e.message),
      );
      fx.clock.advance(3_000);
      assert.equal((await fx.api.registrar.registrations.get({ domainName: "later.com" })).auto_renew, true);
      assert.equal(
        (await fx.api.registrar.updateWorkflow.status({ domainName: "later.com" })).state,
        "succeeded",
      );
    });

    it("refuses an update while the registration is pending, and fields other than auto_renew", async () => {
      await fx.api.registrar.registrations.create({}, { domain_name: "wait.dev" });
      await assert.rejects(
        () => fx.api.registrar.registrations.update({ domainName: "wait.dev" }, { auto_renew: true }),
        (e: unknown) =>
          e instanceof ConflictError &&
          e.apiCode === 13008 &&
          e.errors[0]!.message ===
            "wait.dev: the registration workflow has not succeeded yet (state pending); update it afterwards",
      );
      await rejectsOnWire(
        "PATCH",
        "/registrations/wait.dev",
        { locked: false },
        /locked: is not a known field/,
      );
      await rejectsOnWire("PATCH", "/registrations/wait.dev", {}, /^auto_renew: is required$/);
      await rejectsLocally(
        () =>
          fx.api.registrar.registrations.update(
            { domainName: "wait.dev" },
            { auto_renew: "yes" as unknown as boolean },
          ),
        "auto_renew",
        /must be a boolean/,
      );
      await assert.rejects(
        () => fx.api.registrar.registrations.update({ domainName: "nope.com" }, { auto_renew: true }),
        NotFoundError,
      );
    });
  });

  describe("registration status over time", () => {
    it("expires a domain that does not auto-renew, and rolls the expiry of one that does", async () => {
      await fx.api.registrar.registrations.create({}, { domain_name: "lapse.com" });
      await fx.api.registrar.registrations.create({}, { domain_name: "keep.com", auto_renew: true });
      fx.clock.advance(366 * 24 * 3_600_000);
      const lapsed = await fx.api.registrar.registrations.get({ domainName: "lapse.com" });
      assert.deepEqual([lapsed.status, lapsed.expires_at], ["expired", "2027-01-01T00:00:00.000Z"]);
      const kept = await fx.api.registrar.registrations.get({ domainName: "keep.com" });
      assert.deepEqual([kept.status, kept.expires_at], ["active", "2028-01-01T00:00:00.000Z"]);
    });
  });

  describe("deprecated domain endpoints", () => {
    it("answer from registrations, with a deprecation message and headers", async () => {
      await fx.api.registrar.registrations.create(
        {},
        {
          domain_name: "old.com",
          contacts: { registrant: CONTACT },
        },
      );
      const raw = await fx.http("GET", `${base()}/domains`);
      assert.equal(raw.status, 200);
      assert.equal(raw.headers.deprecation, "true");
      assert.equal(raw.headers.sunset, "Sun, 27 Sep 2026 00:00:00 GMT");
      const e = env(raw.json);
      assert.equal(e.messages[0]!.code, 13100);
      assert.match(
        String(e.messages[0]!.message),
        /^Deprecated: .*end of life on 2026-09-27; use registrar\/registrations/,
      );
      const listed = await collect(fx.api.registrar.domains.list());
      assert.equal(listed.length, 1);
      const d = await fx.api.registrar.domains.get({ domainName: "old.com" });
      assert.ok(d);
      assert.equal(d.id?.length, 32);
      assert.deepEqual(
        [d.locked, d.registry_statuses, d.supported_tld, d.can_register, d.expires_at],
        [true, "clientTransferProhibited", true, false, "2027-01-01T00:00:00.000Z"],
      );
      assert.deepEqual(d.registrant_contact, {
        first_name: "Ada",
        last_name: "Lovelace",
        organization: "Acme",
        address: "1 Main Street",
        city: "Springfield",
        state: "IL",
        zip: "62701",
        country: "US",
        phone: "+1.5555550100",
        email: "ada@acme.dev",
      });
      assert.equal(d.transfer_in?.approve_transfer, "ok");
    });

    it("update locked, privacy and auto_renew at once; the registration shows it", async () => {
      await fx.api.registrar.registrations.create({}, { domain_name: "put.com" });
      const d = await fx.api.registrar.domains.update(
        { domainName: "put.com" },
        { locked: false, privacy: false, auto_renew: true },
      );
      assert.deepEqual([d?.locked, d?.registry_statuses], [false, "ok"]);
      const reg = await fx.api.registrar.registrations.get({ domainName: "put.com" });
      assert.deepEqual([reg.locked, reg.privacy_mode, reg.auto_renew], [false, "off", true]);
      await rejectsOnWire("PUT", "/domains/put.com", { lock: true }, /lock: is not a known field/);
      assert.equal((await fx.http("GET", `${base()}/domains/nope.com`)).status, 404);
    });
  });

  describe("authentication and permissions", () => {
    it("refuses a missing or unknown token with 401", async () => {
      const missing = await fx.http("GET", `${base()}/registrations`, { token: null });
      assert.equal(missing.status, 401);
      assert.deepEqual(env(missing.json).errors, [{ code: 10000, message: "Authentication error" }]);
      const api = fx.client({ token: "not-a-token" });
      await assert.rejects(() => api.registrar.discovery.search({}, { q: "acme" }), AuthenticationError);
    });

    it("lets registrar:read search, check and read but not write; registrar:edit do both", async () => {
      const reader = fx.client({ token: fx.token("account", ["registrar:read"]) });
      assert.equal((await reader.registrar.discovery.search({}, { q: "acme" })).domains.length, 6);
      assert.equal((await reader.registrar.discovery.check({}, { domains: ["a.com"] })).domains.length, 1);
      await assert.rejects(
        () => reader.registrar.registrations.create({}, { domain_name: "r.com" }),
        (e: unknown) =>
          e instanceof PermissionDeniedError &&
          e.apiCode === 9109 &&
          /Unauthorized to access requested resource/.test(e.message),
      );
      const writer = fx.client({ token: fx.token("account", ["registrar:edit"]) });
      await writer.registrar.registrations.create({}, { domain_name: "w.com" });
      await assert.rejects(
        () => reader.registrar.registrations.update({ domainName: "w.com" }, { auto_renew: true }),
        PermissionDeniedError,
      );
      assert.equal((await reader.registrar.registrations.get({ domainName: "w.com" })).domain_name, "w.com");
      assert.equal((await writer.registrar.registrations.get({ domainName: "w.com" })).domain_name, "w.com");
      const put = await fx.http("PUT", `${base()}/domains/w.com`, {
        body: { locked: false },
        token: fx.token("user", ["registrar:read"]),
      });
      assert.equal(put.status, 403);
    });

    it("refuses a token without registrar permissions and a foreign account", async () => {
      const other = fx.client({ token: fx.token("user", ["email:send"]) });
      await assert.rejects(() => other.registrar.discovery.search({}, { q: "acme" }), PermissionDeniedError);
      const foreign = await fx.http("GET", "/accounts/someone-else/registrar/registrations");
      assert.equal(foreign.status, 403);
      assert.equal(env(foreign.json).errors[0]!.code, 9109);
    });
  });
});
