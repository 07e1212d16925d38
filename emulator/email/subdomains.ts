/**
 * Sending subdomains of a zone (`/zones/{zone_id}/email/sending/subdomains`, issue 26): the names mail
 * may be sent from, and the DNS records each needs. The records are derived from the name alone, so a
 * test (or a user) can predict them; they read as missing ("unconfigured") until `dns` POST (fix)
 * makes them ("ready").
 */
import { createHash } from "node:crypto";
import type { z } from "zod";
import type * as G from "../../sdk/generated/email";
import { conflict, notFound } from "../http";
import { EmailFailure, type EmailModel, type SubdomainRecord } from "./state";

export type DnsRecord = z.input<typeof G.EmailSendingSubdomainsGetSendingSubdomainDnsResult>[number];
export type DnsStatus = z.input<typeof G.EmailSendingSubdomainsGetSendingSubdomainDnsStatusResult>;
export type SubdomainEdit = z.output<typeof G.EmailSendingSubdomainsEditBody>;

/** The zone a subdomain lives in: its id and name (the content area owns zones). */
export interface ZoneRef {
  id: string;
  name: string;
}

/** A subdomain's tag (its id in paths) is at most this long. */
const TAG_MAX = 32;

/** Cloudflare's "automatic" TTL. */
const AUTO_TTL = 1;

function digest(name: string): string {
  return createHash("sha256").update(name).digest("hex");
}

/** What a subdomain named `name` is made with: its selector and return-path domain. */
function derived(name: string): Pick<SubdomainRecord, "dkim_selector" | "return_path_domain"> {
  return { dkim_selector: `cf${digest(name).slice(0, 8)}`, return_path_domain: `cf-bounce.${name}` };
}

/** What each record is for: the contract's DNS error codes are `<kind>.missing` and the like. */
type RecordKind = "spf" | "mx" | "dkim" | "dmarc";

/** The records a subdomain needs: SPF and MX on its return-path domain, its DKIM key, its DMARC policy. */
function neededRecords(name: string): { kind: RecordKind; record: DnsRecord }[] {
  const { dkim_selector, return_path_domain } = derived(name);
  const key = createHash("sha512").update(`dkim:${name}`).digest("base64");
  const ttl = AUTO_TTL;
  return [
    {
      kind: "spf",
      record: {
        type: "TXT",
        name: return_path_domain,
        content: "v=spf1 include:_spf.mx.cloudflare.net ~all",
        ttl,
      },
    },
    {
      kind: "mx",
      record: {
        type: "MX",
        name: return_path_domain,
        content: "route1.mx.cloudflare.net",
        priority: 10,
        ttl,
      },
    },
    {
      kind: "dkim",
      record: {
        type: "TXT",
        name: `${dkim_selector}._domainkey.${name}`,
        content: `v=DKIM1; k=rsa; p=${key}`,
        ttl,
      },
    },
    { kind: "dmarc", record: { type: "TXT", name: `_dmarc.${name}`, content: "v=DMARC1; p=none;", ttl } },
  ];
}

export function dnsRecordsOf(name: string): DnsRecord[] {
  return neededRecords(name).map((n) => n.record);
}

/** Each needed record as missing (`spf.missing`, ...): what a zone without them reports. */
function missingOf(name: string): NonNullable<DnsStatus["errors"]> {
  return neededRecords(name).map(({ kind, record }) => ({ code: `${kind}.missing`, missing: record }));
}

/** A zone's sending subdomains, over the email state (a view: it keeps nothing of its own). */
export class SendingSubdomains {
  constructor(
    private readonly model: EmailModel,
    private readonly zone: ZoneRef,
  ) {}

  get #records(): Record<string, SubdomainRecord> {
    return this.model.subdomainRecords(this.zone.id);
  }

  /** The name, lower-cased, if it is the zone's name or under it; a 400 (10001, the email table's) otherwise. */
  nameOf(raw: string): string {
    const name = raw.trim().toLowerCase().replace(/\.$/, "");
    const zone = this.zone.name.toLowerCase();
    if (name !== zone && !name.endsWith(`.${zone}`))
      throw new EmailFailure(10001, [
        `name: ${raw} is neither the zone's name ${zone} nor a subdomain of it`,
      ]);
    return name;
  }

  /** Oldest first, then by name (a manual clock makes equal times). */
  list(): SubdomainRecord[] {
    return Object.values(this.#records).sort(
      (a, b) => a.created.localeCompare(b.created) || a.name.localeCompare(b.name),
    );
  }

  /** A tag is at most 32 characters (the contract's id): a longer one cannot name a subdomain (400). */
  get(tag: string): SubdomainRecord {
    if (tag.length > TAG_MAX)
      throw new EmailFailure(10001, [`subdomain_id: at most ${TAG_MAX} characters, got ${tag.length}`]);
    const found = Object.hasOwn(this.#records, tag) ? this.#records[tag] : undefined;
    if (!found) throw notFound(`sending subdomain "${tag}"`);
    return found;
  }

  create(raw: string): SubdomainRecord {
    const name = this.nameOf(raw);
    if (this.list().some((s) => s.name === name))
      throw conflict(`sending subdomain ${name} already exists in this zone`);
    const now = this.model.nowIso();
    const record: SubdomainRecord = {
      tag: digest(`${this.zone.id}/${name}`).slice(0, 32),
      name,
      enabled: true,
      ...derived(name),
      preview_enabled: false,
      drop_suppressed_recipients: false,
      dns_verified: false,
      created: now,
      modified: now,
    };
    this.#records[record.tag] = record;
    return record;
  }

  edit(tag: string, body: SubdomainEdit): SubdomainRecord {
    const record = this.get(tag);
    if (body.preview_enabled !== undefined) record.preview_enabled = body.preview_enabled;
    if (body.drop_suppressed_recipients !== undefined)
      record.drop_suppressed_recipients = body.drop_suppressed_recipients;
    record.modified = this.model.nowIso();
    return record;
  }

  delete(tag: string): void {
    this.get(tag);
    delete this.#records[tag];
  }

  dns(tag: string): DnsRecord[] {
    return dnsRecordsOf(this.get(tag).name);
  }

  /** "unconfigured" (every record missing) until fixed, then "ready" (the contract's status values). */
  dnsStatus(tag: string): DnsStatus {
    const record = this.get(tag);
    const records = dnsRecordsOf(record.name);
    if (record.dns_verified) return { status: "ready", records, errors: [] };
    return { status: "unconfigured", records, errors: missingOf(record.name) };
  }

  /** Makes the missing records; with every record in place there is nothing to fix (409). */
  fixDns(tag: string): DnsStatus {
    const record = this.get(tag);
    if (record.dns_verified)
      throw conflict(`sending subdomain ${record.name}: its DNS records are in place, nothing to fix`);
    record.dns_verified = true;
    return this.dnsStatus(tag);
  }

  /** What create would make for `raw`: its records, each missing; nothing is stored. */
  preview(raw: string): DnsStatus {
    const name = this.nameOf(raw);
    return { records: dnsRecordsOf(name), errors: missingOf(name) };
  }
}
