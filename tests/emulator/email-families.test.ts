/** Email families (issue 26) over real HTTP: a zone's sending subdomains and their DNS records. */
import { strict as assert } from "node:assert";
import type { SubdomainRecord } from "../../emulator/email/state";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

type Envelope<T> = {
  success: boolean;
  errors: { code: number; message: string; detail?: string }[];
  result: T;
};
/** A subdomain as the emulator answers it: its record, without the emulator-only DNS flag. */
type Subdomain = Omit<SubdomainRecord, "dns_verified">;
type DnsRecord = { type: string; name: string; content: string; ttl: number; priority?: number };
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
    const later = await fx.http("GET", subdomains(zone, `/${made.tag}/dns/status`));
    assert.equal((later.json as Envelope<DnsStatus>).result.status, "ready");

    // Deleted and made again: the same records (they depend on the name only).
    await fx.http("DELETE", subdomains(zone, `/${made.tag}`));
    const again = await createSubdomain(fx, zone, "mail.example.com");
    const redo = await fx.http("GET", subdomains(zone, `/${again.tag}/dns`));
    assert.deepEqual((redo.json as Envelope<DnsRecord[]>).result, records);
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
