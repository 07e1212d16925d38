/**
 * The email area's sub-resource surface, `(ids, params, options?)`: every method once against the
 * emulator, and every deprecated flat method of release 0.1.0 giving what its replacement gives.
 */
import { strict as assert } from "node:assert";
import { NotFoundError, ValidationError } from "../../sdk";
import { DEPRECATED_EMAIL_METHODS, EmailApi } from "../../sdk/email";
import { useEmulator } from "../helpers/emulator";

/** The flat methods of `EmailApi` in release 0.1.0. */
const FLAT_METHODS_0_1_0 = ["sendEmail", "sendRawEmail"];

const MESSAGE = {
  from: "news@example.com",
  to: ["ada@dest.test", "bounce@dest.test", "queue@dest.test"],
  subject: "Hello",
  text: "Hi there",
};
const RAW = {
  from: "news@example.com",
  recipients: ["ada@dest.test", "bounce@dest.test"],
  mime_message: ["From: News <news@example.com>", "To: ada@dest.test", "Subject: Raw", "", "Hello."].join(
    "\r\n",
  ),
};

/** A send's result without its message id, which differs from send to send. */
function withoutId<T extends { messageId?: string }>(result: T): Omit<T, "messageId"> {
  const { messageId: _id, ...rest } = result;
  return rest;
}

describe("sdk email surface (emulator)", () => {
  const fx = useEmulator();

  beforeEach(async () => {
    const res = await fx.http("PUT", `/__emulator/email/accounts/${fx.em.accountId}/domains/example.com`, {
      body: { sending_disabled: false },
    });
    assert.equal(res.status, 200, res.text);
  });

  it("is importable as pulumi-account-api/sdk/email (the package's explicit export of the folder)", () => {
    const published = require("pulumi-account-api/sdk/email") as { EmailApi: unknown };
    assert.equal(typeof published.EmailApi, "function");
  });

  it("names every flat method of 0.1.0 in the deprecated table, and nothing else", () => {
    assert.deepEqual(Object.keys(DEPRECATED_EMAIL_METHODS).sort(), [...FLAT_METHODS_0_1_0].sort());
    const own = Object.getOwnPropertyNames(EmailApi.prototype).filter((n) => n !== "constructor");
    assert.deepEqual(own.sort(), [...FLAT_METHODS_0_1_0].sort());
    assert.ok(Object.isFrozen(DEPRECATED_EMAIL_METHODS));
    const api = fx.api.email as unknown as Record<string, Record<string, unknown>>;
    for (const target of Object.values(DEPRECATED_EMAIL_METHODS)) {
      const [field, method] = target.split(".") as [string, string];
      assert.equal(typeof api[field]?.[method], "function", target);
    }
  });

  it("sending.send, and sendEmail giving the same", async () => {
    const sent = await fx.api.email.sending.send({}, MESSAGE);
    assert.deepEqual(
      [sent.delivered, sent.permanentBounces, sent.queued],
      [["ada@dest.test"], ["bounce@dest.test"], ["queue@dest.test"]],
    );
    assert.match(sent.messageId ?? "", /@example\.com>$/);
    const old = await fx.api.email.sendEmail({ accountId: fx.em.accountId, ...MESSAGE });
    assert.deepEqual(withoutId(old), withoutId(sent));
  });

  it("sending.sendRaw, and sendRawEmail giving the same", async () => {
    const sent = await fx.api.email.sending.sendRaw({ accountId: fx.em.accountId }, RAW);
    assert.deepEqual([sent.delivered, sent.permanentBounces], [["ada@dest.test"], ["bounce@dest.test"]]);
    const old = await fx.api.email.sendRawEmail(RAW);
    assert.deepEqual(withoutId(old), withoutId(sent));
  });

  it("refuses a bad message locally with the same error either way", async () => {
    const bad = { ...MESSAGE, to: "not an address" };
    const errors = await Promise.all([
      fx.api.email.sending.send({}, bad).catch((e: unknown) => e),
      fx.api.email.sendEmail(bad).catch((e: unknown) => e),
    ]);
    for (const e of errors) assert.ok(e instanceof ValidationError, String(e));
    assert.equal((errors[0] as Error).message, (errors[1] as Error).message);
    const rawErrors = await Promise.all([
      fx.api.email.sending.sendRaw({}, { ...RAW, recipients: [] }).catch((e: unknown) => e),
      fx.api.email.sendRawEmail({ ...RAW, recipients: [] }).catch((e: unknown) => e),
    ]);
    for (const e of rawErrors) assert.ok(e instanceof ValidationError, String(e));
    assert.equal((rawErrors[0] as Error).message, (rawErrors[1] as Error).message);
  });

  it("subdomains: create, preview, list, get, edit, dns, dnsStatus, fixDns, delete", async () => {
    const zone = await fx.api.content.zones.create({}, { name: "example.org" });
    const ids = { zoneId: zone.id };
    const preview = await fx.api.email.subdomains.preview(ids, { name: "mail.example.org" });
    assert.equal(preview.errors?.length, 4);
    const made = await fx.api.email.subdomains.create(ids, { name: "mail.example.org" });
    assert.equal(made.name, "mail.example.org");
    const one = { ...ids, subdomainId: made.tag };
    assert.deepEqual(
      (await fx.api.email.subdomains.list(ids)).map((s) => s.tag),
      [made.tag],
    );
    assert.deepEqual(await fx.api.email.subdomains.get(one), made);
    const edited = await fx.api.email.subdomains.edit(one, { preview_enabled: true });
    assert.equal(edited.preview_enabled, true);
    const dns = await fx.api.email.subdomains.dns(one);
    assert.deepEqual(
      dns.map((r) => r.type),
      ["TXT", "MX", "TXT", "TXT"],
    );
    assert.deepEqual(preview.records, dns);
    assert.equal((await fx.api.email.subdomains.dnsStatus(one)).status, "unconfigured");
    assert.equal((await fx.api.email.subdomains.fixDns(one)).status, "ready");
    await fx.api.email.subdomains.delete(one);
    await assert.rejects(fx.api.email.subdomains.get(one), NotFoundError);
    await assert.rejects(
      fx.api.email.subdomains.get({ zoneId: "", subdomainId: "x" }),
      (e: unknown) => e instanceof ValidationError && /zoneId/.test(e.message),
    );
  });

  it("suppressions: create, bulk, list (by cursor, filtered), get, edit, delete", async () => {
    const s = fx.api.email.suppressions;
    const one = await s.create({}, { email: "ada@dest.test", note: "asked" });
    assert.equal(one.email, "ada@dest.test");
    const many = await s.bulk(
      { accountId: fx.em.accountId },
      {
        items: [
          { email: "bob@dest.test" },
          { email: "cy@dest.test", scope: { type: "sending_domain", value: "example.com" } },
        ],
      },
    );
    assert.deepEqual([many.total, many.processed, many.skipped], [2, 2, 0]);
    assert.deepEqual(
      many.items.map((i) => i.status),
      ["processed", "processed"],
    );
    const all = await s.list({}, { perPage: 1 }).toArray();
    assert.deepEqual(all.map((x) => x.email).sort(), ["ada@dest.test", "bob@dest.test", "cy@dest.test"]);
    const scoped = await s.list({}, { scope_type: "sending_domain" }).toArray();
    assert.deepEqual(
      scoped.map((x) => x.email),
      ["cy@dest.test"],
    );
    assert.deepEqual(await s.get({ suppressionId: one.id }), one);
    const edited = await s.edit({ suppressionId: one.id }, { note: "changed" });
    assert.equal(edited.note, "changed");
    await s.delete({ suppressionId: one.id });
    await assert.rejects(s.get({ suppressionId: one.id }), NotFoundError);
    assert.throws(() => s.list({}, { perPage: 0 }), ValidationError);
  });
});
