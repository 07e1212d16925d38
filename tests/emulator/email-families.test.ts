/** Email families (issue 26) over real HTTP: a zone's sending subdomains (with DNS) and suppressions. */
import { strict as assert } from "node:assert";
import type { SubdomainRecord } from "../../emulator/email/state";
import type { BulkOutcome } from "../../emulator/email/suppressions";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

type Envelope<T> = {
  success: boolean;
  errors: { code: number; message: string; detail?: string }[];
  result: T;
};
/** A subdomain as the emulator answers it: its record, without the emulator-only DNS flag. */
type Subdomain = Omit<SubdomainRecord, "dns_verified">;
type DnsRecord = { type: string; name: string; content: string; ttl: number; priority?: number };
/** A suppression as the contract's results show it. */
type Suppression = {
  id: string;
  email: string;
  reason: string;
  scope: { type: "account" } | { type: "sending_domain"; value: string };
  note: string | null;
  expires_at: string | null;
  created_at: string;
  read_only: boolean;
};
type DnsStatus = {
  status?: string;
  records: DnsRecord[];
  errors: { code: string; missing: DnsRecord }[];
};

async function createZone(fx: EmulatorFixture, name: string, account = fx.em.accountId): Promise<string> {
  const res = await fx.http("POST", "/zones", { body: { name, account: { id: account } } });
  assert.equal(res.status, 200, res.text);
  return (res.json as Envelope<{ id: string }>).result.id;
}

function subdomains(zoneId: string, suffix = ""): string {
  return `/zones/${zoneId}/email/sending/subdomains${suffix}`;
}

async function createSubdomain(fx: EmulatorFixture, zoneId: string, name: string): Promise<Subdomain> {
  const res = await fx.http("POST", subdomains(zoneId), { body: { name } });
  assert.equal(res.status, 200, res.text);
  return (res.json as Envelope<Subdomain>).result;
}

describe("email emulator: sending subdomains", () => {
  const fx = useEmulator();
  let zone: string;
  beforeEach(async () => {
    zone = await createZone(fx, "example.com");
  });

  it("creates one under the zone, lists, reads, edits and deletes it", async () => {
    const made = await createSubdomain(fx, zone, "Mail.Example.com");
    const at = new Date(fx.clock.now()).toISOString();
    assert.match(made.tag, /^[0-9a-f]{32}$/);
    assert.deepEqual(made, {
      tag: made.tag,
      name: "mail.example.com",
      enabled: true,
      dkim_selector: made.dkim_selector,
      return_path_domain: "cf-bounce.mail.example.com",
      preview_enabled: false,
      drop_suppressed_recipients: false,
      created: at,
      modified: at,
    });
    const apex = await createSubdomain(fx, zone, "example.com");

    const list = await fx.http("GET", subdomains(zone));
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      (list.json as Envelope<Subdomain[]>).result.map((s) => s.name),
      ["example.com", "mail.example.com"],
    );

    const got = await fx.http("GET", subdomains(zone, `/${made.tag}`));
    assert.deepEqual((got.json as Envelope<Subdomain>).result, made);

    fx.clock.advance(1000);
    const edited = await fx.http("PATCH", subdomains(zone, `/${made.tag}`), {
      body: { preview_enabled: true, drop_suppressed_recipients: true },
    });
    assert.equal(edited.status, 200, edited.text);
    const after = (edited.json as Envelope<Subdomain>).result;
    assert.equal(after.preview_enabled, true);
    assert.equal(after.drop_suppressed_recipients, true);
    assert.equal(after.modified, new Date(fx.clock.now()).toISOString());

    const del = await fx.http("DELETE", subdomains(zone, `/${made.tag}`));
    assert.equal(del.status, 200, del.text);
    assert.equal((del.json as Envelope<null>).success, true);
    assert.equal((await fx.http("GET", subdomains(zone, `/${made.tag}`))).status, 404);
    const rest = (await fx.http("GET", subdomains(zone))).json as Envelope<Subdomain[]>;
    assert.deepEqual(rest.result, [apex]);
  });

  it("refuses a name outside the zone (400), an existing one (409) and a body that does not fit (400)", async () => {
    for (const name of ["other.com", "notexample.com", "example.com.evil.test"]) {
      const res = await fx.http("POST", subdomains(zone), { body: { name } });
      assert.equal(res.status, 400, `${name}: ${res.text}`);
    }
    await createSubdomain(fx, zone, "mail.example.com");
    const again = await fx.http("POST", subdomains(zone), { body: { name: "MAIL.example.com" } });
    assert.equal(again.status, 409, again.text);
    const bad = await fx.http("POST", subdomains(zone), { body: { name: 5 } });
    assert.equal(bad.status, 400, bad.text);
    assert.equal((bad.json as Envelope<null>).errors[0]!.code, 10001);
  });

  it("answers 404 for an unknown zone or subdomain, 401 without a token and 403 without email:send", async () => {
    assert.equal((await fx.http("GET", subdomains("nozone"))).status, 404);
    assert.equal((await fx.http("GET", subdomains(zone, "/0123456789abcdef"))).status, 404);
    const tooLong = await fx.http("GET", subdomains(zone, `/${"a".repeat(33)}/dns/status`));
    assert.equal(tooLong.status, 400, tooLong.text);
    assert.equal((tooLong.json as Envelope<null>).errors[0]!.code, 10001);
    const other = fx.token("account", ["email:send"]);
    const res = await fx.http("GET", subdomains(zone), { token: other });
    assert.equal(res.status, 200, res.text);
    const noPermission = fx.token("account", ["zone:read"]);
    assert.equal((await fx.http("GET", subdomains(zone), { token: noPermission })).status, 403);
    assert.equal((await fx.http("GET", subdomains(zone), { token: null })).status, 401);
  });

  it("derives the DNS records from the name; unconfigured until fixed, then ready", async () => {
    const made = await createSubdomain(fx, zone, "mail.example.com");
    const dns = await fx.http("GET", subdomains(zone, `/${made.tag}/dns`));
    assert.equal(dns.status, 200, dns.text);
    const records = (dns.json as Envelope<DnsRecord[]>).result;
    assert.deepEqual(
      records.map((r) => [r.type, r.name]),
      [
        ["TXT", "cf-bounce.mail.example.com"],
        ["MX", "cf-bounce.mail.example.com"],
        ["TXT", `${made.dkim_selector}._domainkey.mail.example.com`],
        ["TXT", "_dmarc.mail.example.com"],
      ],
    );
    assert.match(records[0]!.content, /^v=spf1 /);
    assert.match(records[2]!.content, /^v=DKIM1; k=rsa; p=/);

    const status = await fx.http("GET", subdomains(zone, `/${made.tag}/dns/status`));
    const pending = (status.json as Envelope<DnsStatus>).result;
    assert.equal(pending.status, "unconfigured");
    assert.deepEqual(pending.records, records);
    assert.deepEqual(
      pending.errors,
      ["spf", "mx", "dkim", "dmarc"].map((kind, i) => ({ code: `${kind}.missing`, missing: records[i] })),
    );

    const fixed = await fx.http("POST", subdomains(zone, `/${made.tag}/dns`));
    assert.equal(fixed.status, 200, fixed.text);
    assert.deepEqual((fixed.json as Envelope<DnsStatus>).result, { status: "ready", records, errors: [] });
    const refix = await fx.http("POST", subdomains(zone, `/${made.tag}/dns`));
    assert.equal(refix.status, 409, `nothing left to fix: ${refix.text}`);
    const later = await fx.http("GET", subdomains(zone, `/${made.tag}/dns/status`));
    assert.equal((later.json as Envelope<DnsStatus>).result.status, "ready");

    // Deleted and made again: the same records (they depend on the name only).
    await fx.http("DELETE", subdomains(zone, `/${made.tag}`));
    const again = await createSubdomain(fx, zone, "mail.example.com");
    const redo = await fx.http("GET", subdomains(zone, `/${again.tag}/dns`));
    assert.deepEqual((redo.json as Envelope<DnsRecord[]>).result, records);
  });

  it("accepts a send from a sending subdomain of the account's zone (and under it), no other", async () => {
    const send = (from: string) =>
      fx.http("POST", `/accounts/${fx.em.accountId}/email/sending/send`, {
        body: { from, to: "ada@dest.test", subject: "Hi", text: "Hello" },
      });
    assert.equal((await send("news@mail.example.com")).status, 404);
    await createSubdomain(fx, zone, "mail.example.com");
    assert.equal((await send("news@mail.example.com")).status, 200);
    assert.equal((await send("news@eu.mail.example.com")).status, 200);
    const other = await send("news@example.com");
    assert.equal(other.status, 404, other.text);
  });

  it("previews what create would make and stores nothing", async () => {
    const res = await fx.http("POST", subdomains(zone, "/preview"), { body: { name: "news.example.com" } });
    assert.equal(res.status, 200, res.text);
    const preview = (res.json as Envelope<DnsStatus>).result;
    assert.equal(preview.records.length, 4);
    assert.deepEqual(
      preview.errors.map((e) => e.code),
      ["spf.missing", "mx.missing", "dkim.missing", "dmarc.missing"],
    );
    const list = (await fx.http("GET", subdomains(zone))).json as Envelope<Subdomain[]>;
    assert.deepEqual(list.result, []);
    const made = await createSubdomain(fx, zone, "news.example.com");
    const dns = (await fx.http("GET", subdomains(zone, `/${made.tag}/dns`))).json as Envelope<DnsRecord[]>;
    assert.deepEqual(dns.result, preview.records);
    const outside = await fx.http("POST", subdomains(zone, "/preview"), { body: { name: "x.other.com" } });
    assert.equal(outside.status, 400, outside.text);
  });
});

describe("email emulator: suppressions", () => {
  const fx = useEmulator();
  const base = (suffix = ""): string => `/accounts/${fx.em.accountId}/email/sending/suppressions${suffix}`;

  async function suppress(body: Record<string, unknown>): Promise<Suppression> {
    const res = await fx.http("POST", base(), { body });
    assert.equal(res.status, 200, res.text);
    return (res.json as Envelope<Suppression>).result;
  }

  async function listed(query = ""): Promise<Envelope<Suppression[]> & { result_info: { cursor: string } }> {
    const res = await fx.http("GET", base(query));
    assert.equal(res.status, 200, res.text);
    return res.json as Envelope<Suppression[]> & { result_info: { cursor: string } };
  }

  it("creates, reads, edits and deletes one, kept per account", async () => {
    const made = await suppress({ email: "Ada@dest.test", note: "asked" });
    const at = new Date(fx.clock.now()).toISOString();
    assert.deepEqual(made, {
      id: made.id,
      email: "Ada@dest.test",
      reason: "manual",
      scope: { type: "account" },
      note: "asked",
      expires_at: null,
      created_at: at,
      read_only: false,
    });
    const got = await fx.http("GET", base(`/${made.id}`));
    assert.deepEqual((got.json as Envelope<Suppression>).result, made);

    fx.clock.advance(1000);
    const edited = await fx.http("PATCH", base(`/${made.id}`), {
      body: { note: "changed", scope: { type: "sending_domain", value: "Example.com" }, expires_at: null },
    });
    assert.equal(edited.status, 200, edited.text);
    const after = (edited.json as Envelope<Suppression>).result;
    assert.equal(after.note, "changed");
    assert.deepEqual(after.scope, { type: "sending_domain", value: "example.com" });
    assert.equal(after.created_at, at);
    const badScope = await fx.http("PATCH", base(`/${made.id}`), { body: { scope: { type: "zone" } } });
    assert.equal(badScope.status, 400, badScope.text);

    const del = await fx.http("DELETE", base(`/${made.id}`));
    assert.equal(del.status, 200, del.text);
    assert.deepEqual((del.json as Envelope<{ id: string }>).result, { id: made.id });
    assert.equal((await fx.http("GET", base(`/${made.id}`))).status, 404);
    assert.deepEqual((await listed()).result, []);
  });

  it("refuses a second one for the same address and scope (409) and a bad address (400 10001)", async () => {
    await suppress({ email: "ada@dest.test" });
    assert.equal((await fx.http("POST", base(), { body: { email: "ADA@dest.test" } })).status, 409);
    await suppress({ email: "ada@dest.test", scope: { type: "sending_domain", value: "example.com" } });
    const bad = await fx.http("POST", base(), { body: { email: "not-an-address" } });
    assert.equal(bad.status, 400, bad.text);
    assert.equal((bad.json as Envelope<null>).errors[0]!.code, 10001);
    const noScopeValue = await fx.http("POST", base(), {
      body: { email: "x@dest.test", scope: { type: "sending_domain" } },
    });
    assert.equal(noScopeValue.status, 400, noScopeValue.text);
  });

  it("lists with the contract's filters and pages by cursor", async () => {
    const ada = await suppress({ email: "ada@dest.test" });
    fx.clock.advance(1);
    const bob = await suppress({
      email: "bob@dest.test",
      scope: { type: "sending_domain", value: "example.com" },
    });
    fx.clock.advance(1);
    const cy = await suppress({ email: "cy@other.test" });
    const ids = async (q: string): Promise<string[]> => (await listed(q)).result.map((s) => s.id);
    assert.deepEqual(await ids(""), [ada.id, bob.id, cy.id]);
    assert.deepEqual(await ids("?email=BOB@dest.test"), [bob.id]);
    assert.deepEqual(await ids("?scope_type=account"), [ada.id, cy.id]);
    assert.deepEqual(await ids("?scope_value=example.com"), [bob.id]);
    assert.deepEqual(await ids("?search=dest"), [ada.id, bob.id]);
    assert.deepEqual(await ids("?reason=manual"), [ada.id, bob.id, cy.id]);
    assert.deepEqual(await ids("?reason=hard_bounce"), []);

    const first = await listed("?per_page=2");
    assert.deepEqual(
      first.result.map((s) => s.id),
      [ada.id, bob.id],
    );
    const second = await listed(`?per_page=2&cursor=${first.result_info.cursor}`);
    assert.deepEqual(
      second.result.map((s) => s.id),
      [cy.id],
    );
    assert.equal(second.result_info.cursor, "");
    assert.equal((await fx.http("GET", base("?cursor=bm9wZQ"))).status, 400);
  });

  it("imports in bulk item by item, answering the contract's counts and one entry per item", async () => {
    const ada = await suppress({ email: "ada@dest.test" });
    fx.clock.advance(1);
    const res = await fx.http("POST", base("/bulk"), {
      body: {
        items: [
          { email: "new@dest.test", note: "bulk" },
          { email: "ada@dest.test" },
          { email: "NEW@dest.test" },
          { email: "not-an-address" },
          { email: "ada@dest.test", scope: { type: "sending_domain", value: "example.com" } },
        ],
      },
    });
    assert.equal(res.status, 200, res.text);
    const outcome = (res.json as Envelope<BulkOutcome>).result;
    assert.deepEqual(
      { ...outcome, items: outcome.items.map((i) => [i.index, i.status, i.error]) },
      {
        total: 5,
        processed: 2,
        skipped: 2,
        invalid: 1,
        errors: 0,
        deduplicated: 1,
        items: [
          [0, "processed", undefined],
          [1, "skipped", "already suppressed"],
          [2, "skipped", "repeated in this batch"],
          [3, "invalid", "not an email address"],
          [4, "processed", undefined],
        ],
      },
    );
    assert.equal(outcome.items[1]!.id, ada.id, "a skipped item names the suppression already there");
    // The two made by the batch share its time: the listing orders them by id.
    const kept = (await listed()).result.map((s) => s.id);
    assert.equal(kept[0], ada.id);
    assert.deepEqual(kept.slice(1), [outcome.items[0]!.id!, outcome.items[4]!.id!].sort());
    const badShape = await fx.http("POST", base("/bulk"), { body: { items: [{ note: "no email" }] } });
    assert.equal(badShape.status, 400, badShape.text);
  });

  it("needs email:send on the account (401, 403)", async () => {
    assert.equal((await fx.http("GET", base(), { token: null })).status, 401);
    assert.equal((await fx.http("GET", base(), { token: fx.token("account", ["zone:read"]) })).status, 403);
  });

  it("fails a send to a suppressed recipient, naming it, unless the sending subdomain drops them", async () => {
    const zone = await createZone(fx, "example.com");
    const sub = await createSubdomain(fx, zone, "mail.example.com");
    await suppress({ email: "Ada@dest.test" });
    // Another domain's suppression, and one that has expired, do not apply to this send.
    await suppress({ email: "bob@dest.test", scope: { type: "sending_domain", value: "other.com" } });
    await suppress({ email: "cy@dest.test", expires_at: new Date(fx.clock.now() + 1000).toISOString() });
    fx.clock.advance(2000);
    const send = (to: string[]) =>
      fx.http("POST", `/accounts/${fx.em.accountId}/email/sending/send`, {
        body: { from: "news@mail.example.com", to, subject: "Hi", text: "Hello" },
      });

    const refused = await send(["carol@dest.test", "ada@dest.test"]);
    assert.equal(refused.status, 400, refused.text);
    // The email area's errors carry the API's message, and what went wrong in `detail`.
    const errors = (refused.json as Envelope<null>).errors as { code: number; detail?: string }[];
    assert.equal(errors[0]!.code, 10202);
    assert.match(
      errors[0]!.detail ?? "",
      /to\.1: ada@dest\.test is on a suppression list \(suppression \w+\)/,
    );
    const outbox = async (): Promise<{ result: Record<string, string[]> }[]> =>
      (
        (await fx.http("GET", `/__emulator/email/accounts/${fx.em.accountId}/outbox`)).json as Envelope<
          { result: Record<string, string[]> }[]
        >
      ).result;
    assert.equal((await outbox()).length, 0, "nothing was sent");

    const edited = await fx.http("PATCH", subdomains(zone, `/${sub.tag}`), {
      body: { drop_suppressed_recipients: true },
    });
    assert.equal(edited.status, 200, edited.text);
    const sent = await send(["carol@dest.test", "ADA@dest.test", "bob@dest.test", "cy@dest.test"]);
    assert.equal(sent.status, 200, sent.text);
    const result = (sent.json as Envelope<{ delivered: string[]; suppressed_recipients: string[] }>).result;
    assert.deepEqual(result.delivered, ["carol@dest.test", "bob@dest.test", "cy@dest.test"]);
    assert.deepEqual(result.suppressed_recipients, ["ADA@dest.test"]);
    assert.deepEqual((await outbox())[0]!.result.suppressed_recipients, ["ADA@dest.test"]);
  });
});
