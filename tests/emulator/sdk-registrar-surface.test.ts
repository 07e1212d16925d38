/**
 * The registrar's sub-resource surface, `(ids, params, options?)`: every method once against the
 * emulator, and every deprecated flat method of release 0.1.0 giving what its replacement gives.
 */
import { strict as assert } from "node:assert";
import { NotFoundError, collect } from "../../sdk";
import { DEPRECATED_REGISTRAR_METHODS, RegistrarApi, type WorkflowStatus } from "../../sdk/registrar";
import { useEmulator } from "../helpers/emulator";
import { REGISTRANT_WIRE as CONTACT } from "../helpers/registrar";

/** The flat methods of `RegistrarApi` in release 0.1.0. */
const FLAT_METHODS_0_1_0 = [
  "search",
  "check",
  "quoteRegistration",
  "listRegistrations",
  "getRegistration",
  "findRegistration",
  "createRegistration",
  "updateRegistration",
  "registrationStatus",
  "updateStatus",
  "waitForWorkflow",
  "listDomains",
  "getDomain",
  "updateDomain",
];

/** A workflow status without what names its domain, so two domains' workflows compare. */
function shapeOf(w: WorkflowStatus): Record<string, unknown> {
  const { links: _links, context: _context, ...rest } = w;
  return rest;
}

describe("sdk registrar surface (emulator)", () => {
  const fx = useEmulator();
  const polling = () => ({ sleep: async (ms: number) => fx.clock.advance(ms), now: () => fx.clock.now() });

  it("is importable as pulumi-account-api/sdk/registrar (the package's explicit export of the folder)", () => {
    const published = require("pulumi-account-api/sdk/registrar") as { RegistrarApi: unknown };
    assert.equal(typeof published.RegistrarApi, "function");
  });

  it("names every flat method of 0.1.0 in the deprecated table, and nothing else", () => {
    assert.deepEqual(Object.keys(DEPRECATED_REGISTRAR_METHODS).sort(), [...FLAT_METHODS_0_1_0].sort());
    const own = Object.getOwnPropertyNames(RegistrarApi.prototype).filter((n) => n !== "constructor");
    assert.deepEqual(own.sort(), [...FLAT_METHODS_0_1_0].sort());
    assert.ok(Object.isFrozen(DEPRECATED_REGISTRAR_METHODS));
    // Every replacement the table names exists on its sub-resource.
    const api = fx.api.registrar as unknown as Record<string, Record<string, unknown>>;
    for (const target of Object.values(DEPRECATED_REGISTRAR_METHODS).flatMap((t) => t.split("|"))) {
      const [field, method] = target.split(".") as [string, string];
      assert.equal(typeof api[field]?.[method], "function", target);
    }
  });

  it("discovery: search and check", async () => {
    const { discovery } = fx.api.registrar;
    const found = await discovery.search({}, { q: "acme", extensions: [".com"], limit: 3 });
    assert.equal(found.domains[0]!.name, "acme.com");
    const checked = await discovery.check({ accountId: fx.em.accountId }, { domains: ["fresh.com"] });
    assert.deepEqual(checked.domains[0]!.pricing, {
      currency: "USD",
      registration_cost: "10.44",
      renewal_cost: "10.44",
    });
    assert.deepEqual(await fx.api.registrar.search({ q: "acme", extensions: [".com"], limit: 3 }), found);
    assert.deepEqual(await fx.api.registrar.check({ domains: ["fresh.com"] }), checked);
  });

  it("registrations: quote, create, get, find, list, update", async () => {
    const { registrations } = fx.api.registrar;
    const quote = await registrations.quote({ domainName: "fresh.com" }, { years: 2 });
    assert.equal(quote.total, "20.88");
    assert.deepEqual(await fx.api.registrar.quoteRegistration("fresh.com", 2), quote);

    const created = await registrations.create(
      {},
      { domain_name: "one.com", contacts: { registrant: CONTACT } },
    );
    assert.deepEqual([created.status, created.recovered], [201, false]);
    const old = await fx.api.registrar.createRegistration({
      domain_name: "two.com",
      contacts: { registrant: CONTACT },
    });
    assert.deepEqual(
      [old.status, old.recovered, shapeOf(old.workflow)],
      [created.status, created.recovered, shapeOf(created.workflow)],
    );

    const one = await registrations.get({ domainName: "one.com" });
    assert.equal(one.domain_name, "one.com");
    assert.deepEqual(await fx.api.registrar.getRegistration({ domain_name: "one.com" }), one);
    assert.deepEqual(await registrations.find({ domainName: "one.com" }), one);
    assert.equal(await registrations.find({ domainName: "none.com" }), undefined);
    assert.equal(await fx.api.registrar.findRegistration({ domain_name: "none.com" }), undefined);

    const listed = await collect(registrations.list({}, { perPage: 1, sort_by: "name", direction: "desc" }));
    assert.deepEqual(
      listed.map((r) => r.domain_name),
      ["two.com", "one.com"],
    );
    const listedOld = await collect(
      fx.api.registrar.listRegistrations({ perPage: 1, sortBy: "name", direction: "desc" }),
    );
    assert.deepEqual(listedOld, listed);

    const updated = await registrations.update({ domainName: "one.com" }, { auto_renew: true });
    const updatedOld = await fx.api.registrar.updateRegistration({
      domain_name: "two.com",
      auto_renew: true,
    });
    assert.deepEqual(shapeOf(updatedOld), shapeOf(updated));
    assert.equal((await registrations.get({ domainName: "one.com" })).auto_renew, true);
  });

  it("workflows: status and wait, for registrations and updates", async () => {
    const { registrations, registrationWorkflow, updateWorkflow } = fx.api.registrar;
    await registrations.create({}, { domain_name: "slow.io", years: 3 });
    await registrations.create({}, { domain_name: "slower.io", years: 3 });
    assert.equal((await registrationWorkflow.status({ domainName: "slow.io" })).state, "pending");
    assert.deepEqual(
      await fx.api.registrar.registrationStatus({ domain_name: "slow.io" }),
      await registrationWorkflow.status({ domainName: "slow.io" }),
    );
    const seen: string[] = [];
    const out = await registrationWorkflow.wait(
      { domainName: "slow.io" },
      { ...polling(), onProgress: (w) => seen.push(w.state) },
    );
    assert.ok(out.state === "succeeded");
    assert.equal(out.registration.domain_name, "slow.io");
    assert.ok(seen.length > 0);
    const outOld = await fx.api.registrar.waitForWorkflow("slower.io", "registration", polling());
    assert.ok(outOld.state === "succeeded");
    assert.equal(outOld.registration.domain_name, "slower.io");

    await registrations.update({ domainName: "slow.io" }, { auto_renew: true, respondAsync: true });
    assert.equal((await updateWorkflow.status({ domainName: "slow.io" })).state, "pending");
    assert.deepEqual(
      await fx.api.registrar.updateStatus({ domain_name: "slow.io" }),
      await updateWorkflow.status({ domainName: "slow.io" }),
    );
    const updated = await updateWorkflow.wait({ domainName: "slow.io" }, polling());
    assert.ok(updated.state === "succeeded");
    assert.equal(updated.registration.auto_renew, true);
    await fx.api.registrar.updateRegistration({
      domain_name: "slower.io",
      auto_renew: true,
      respondAsync: true,
    });
    const updatedOld = await fx.api.registrar.waitForWorkflow("slower.io", "update", polling());
    assert.ok(updatedOld.state === "succeeded");
    assert.equal(updatedOld.registration.auto_renew, true);
  });

  it("gives the same errors through the deprecated methods", async () => {
    const { registrations, updateWorkflow } = fx.api.registrar;
    const failures = await Promise.all([
      registrations.get({ domainName: "nope.com" }).catch((e: unknown) => e),
      fx.api.registrar.getRegistration({ domain_name: "nope.com" }).catch((e: unknown) => e),
    ]);
    for (const e of failures) assert.ok(e instanceof NotFoundError);
    assert.equal((failures[0] as Error).message, (failures[1] as Error).message);
    const invalid = await Promise.all([
      registrations.quote({ domainName: "fresh" }, { years: 1 }).catch((e: unknown) => e),
      fx.api.registrar.quoteRegistration("fresh", 1).catch((e: unknown) => e),
    ]);
    assert.equal((invalid[0] as Error).message, (invalid[1] as Error).message);
    assert.throws(() => registrations.list({}, { perPage: 51 }), /per_page/);
    assert.throws(() => fx.api.registrar.listRegistrations({ perPage: 51 }), /per_page/);
    await assert.rejects(() => updateWorkflow.wait({ domainName: "nope.com" }, polling()), NotFoundError);
  });

  it("domains (legacy endpoints): list, get, update", async () => {
    const { registrations, domains } = fx.api.registrar;
    await registrations.create({}, { domain_name: "old.com", contacts: { registrant: CONTACT } });
    const listed = await collect(domains.list({}, { perPage: 5 }));
    assert.deepEqual(
      listed.map((d) => d.name),
      ["old.com"],
    );
    assert.deepEqual(await collect(fx.api.registrar.listDomains({ perPage: 5 })), listed);
    const got = await domains.get({ domainName: "old.com" });
    assert.equal(got?.locked, true);
    assert.deepEqual(await fx.api.registrar.getDomain({ domain_name: "old.com" }), got);
    const put = await domains.update({ domainName: "old.com" }, { locked: false });
    assert.equal(put?.locked, false);
    const putOld = await fx.api.registrar.updateDomain({ domain_name: "old.com", locked: false });
    assert.deepEqual(putOld, put);
  });

  it("extensions: list (every cursor page, the contract's query) and get", async () => {
    const { extensions } = fx.api.registrar;
    const all = await collect(extensions.list({}, { per_page: 3 }));
    const names = all.map((e) => e.metadata.name);
    assert.deepEqual(names, [...names].sort());
    assert.ok(names.includes("com") && !names.includes("uk"), names.join(","));
    const desc = await collect(
      extensions.list({ accountId: fx.em.accountId }, { direction: "desc", sort_by: "name" }),
    );
    assert.deepEqual(
      desc.map((e) => e.metadata.name),
      [...names].reverse(),
    );
    assert.deepEqual(
      (await collect(extensions.list({}, { name: "dev" }))).map((e) => e.metadata),
      [{ name: "dev", tld: "dev" }],
    );
    assert.deepEqual(
      await extensions.get({ extension: ".DEV" }),
      all.find((e) => e.metadata.name === "dev"),
    );
    await assert.rejects(() => extensions.get({ extension: "uk" }), NotFoundError);
    assert.throws(() => extensions.list({}, { direction: "up" as "asc" }), /direction/);
  });
});
