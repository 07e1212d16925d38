/**
 * The registrar's eleven operations against the contract: each success (201 and 202 of a create,
 * 200 and 202 of a PATCH), a documented 4xx of each (400 of a bad body or query, 404, 409, 422, 403
 * of a foreign account), and every request field set once per operation that takes a body.
 */
import { strict as assert } from "node:assert";
import { collect } from "../../../sdk";
import type { Contact } from "../../../sdk/schemas/registrar";
import { REGISTRANT_WIRE } from "../../helpers/registrar";
import type { AreaScenario, ConformanceKit } from "../kit";

/** Every field of a contact, the optional ones too. */
const CONTACT: Contact = {
  ...REGISTRANT_WIRE,
  fax: "+1.5555550199",
  postal_info: { ...REGISTRANT_WIRE.postal_info, organization: "Acme" },
};

/** An account the kit's token does not hold: the emulator answers 403 before anything else. */
const FOREIGN = "/accounts/someone-else/registrar";

async function expectRaw(
  kit: ConformanceKit,
  status: number,
  method: string,
  path: string,
  body?: unknown,
): Promise<void> {
  const res = await kit.raw(method, path, body);
  assert.equal(res.status, status, `${method} ${path}: ${JSON.stringify(res.body)}`);
}

async function discovery(kit: ConformanceKit, base: string): Promise<void> {
  const { api } = kit;
  const found = await api.registrar.discovery.search({}, { q: "acme", extensions: ["com", "dev"], limit: 5 });
  assert.ok(found.domains.length > 0);
  await expectRaw(kit, 400, "GET", `${base}/domain-search?q=acme&limit=51`);

  const checked = await api.registrar.discovery.check({}, { domains: ["acme.com", "cars.com", "acme.uk"] });
  assert.equal(checked.domains.length, 3);
  await expectRaw(kit, 400, "POST", `${base}/domain-check`, { domains: [] });
}

async function registrations(kit: ConformanceKit, base: string): Promise<void> {
  const { api, expectStatus } = kit;
  const full = await api.registrar.registrations.create(
    {},
    {
      domain_name: "conformance.com",
      years: 2,
      auto_renew: false,
      privacy_mode: "redaction",
      contacts: { registrant: CONTACT, administrator: CONTACT, technical: CONTACT, billing: CONTACT },
    },
  );
  assert.equal(full.status, 201);
  const slow = await api.registrar.registrations.create(
    {},
    { domain_name: "conformance.dev", respondAsync: true },
  );
  assert.equal(slow.status, 202);
  await expectStatus(api.registrar.registrations.create({}, { domain_name: "conformance.com" }), 409);
  await expectStatus(api.registrar.registrations.create({}, { domain_name: "cars.com" }), 422);
  await expectRaw(kit, 400, "POST", `${base}/registrations`, { domain_name: "a.com", years: 11 });

  const listed = await collect(
    api.registrar.registrations.list({}, { perPage: 1, sort_by: "name", direction: "desc" }),
  );
  assert.deepEqual(
    listed.map((r) => r.domain_name),
    ["conformance.dev", "conformance.com"],
  );
  await expectRaw(kit, 400, "GET", `${base}/registrations?per_page=51`);

  assert.equal((await api.registrar.registrations.get({ domainName: "conformance.com" })).status, "active");
  await expectStatus(api.registrar.registrations.get({ domainName: "absent.com" }), 404);

  const now = await api.registrar.registrations.update(
    { domainName: "conformance.com" },
    { auto_renew: true },
  );
  assert.equal(now.state, "succeeded");
  const later = await api.registrar.registrations.update(
    { domainName: "conformance.com" },
    { auto_renew: false, respondAsync: true },
  );
  assert.equal(later.state, "pending");
  // The .dev registration is still pending: an update must wait for it.
  await expectStatus(
    api.registrar.registrations.update({ domainName: "conformance.dev" }, { auto_renew: true }),
    409,
  );

  assert.equal(
    (await api.registrar.registrationWorkflow.status({ domainName: "conformance.com" })).completed,
    true,
  );
  await expectStatus(api.registrar.registrationWorkflow.status({ domainName: "absent.com" }), 404);
  assert.equal(
    (await api.registrar.updateWorkflow.status({ domainName: "conformance.com" })).state,
    "pending",
  );
  await expectStatus(api.registrar.updateWorkflow.status({ domainName: "conformance.dev" }), 404);
}

async function deprecatedDomains(kit: ConformanceKit, base: string): Promise<void> {
  const { api, expectStatus } = kit;
  assert.equal((await collect(api.registrar.domains.list())).length, 2);
  await expectRaw(kit, 403, "GET", `${FOREIGN}/domains`);

  const domain = await api.registrar.domains.get({ domainName: "conformance.com" });
  assert.equal(domain?.registrant_contact?.first_name, "Ada");
  await expectStatus(api.registrar.domains.get({ domainName: "absent.com" }), 404);

  const put = await api.registrar.domains.update(
    { domainName: "conformance.com" },
    { auto_renew: true, locked: false, privacy: false },
  );
  assert.equal(put?.locked, false);
  await expectStatus(api.registrar.domains.update({ domainName: "absent.com" }, { locked: true }), 404);
  await expectRaw(kit, 400, "PUT", `${base}/domains/conformance.com`, { locked: "no" });
}

export const scenario: AreaScenario = {
  area: "registrar",
  async run(kit) {
    const base = `/accounts/${kit.accountId}/registrar`;
    await discovery(kit, base);
    await registrations(kit, base);
    await deprecatedDomains(kit, base);
  },
};
