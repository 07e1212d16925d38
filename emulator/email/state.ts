/**
 * State of the email area, per account: entitlement, sending switches, sender domains, a throttle on
 * the emulator clock, forced failures and the outbox. Plain JSON (persisted with the store); never
 * sees HTTP. Failures are `EmailFailure`s carrying a table code; the server's renderer shows them.
 */
import {
  EMAIL_ERRORS,
  addressesOf,
  addressOf,
  domainOf,
  type EmailErrorCode,
  type SendEmailBody,
  type SendRawEmailBody,
} from "../../sdk/schemas/email";
import { DomainError } from "../http";
import { dict, type Store } from "../store";

export type ForcedFailureKind = "internal" | "not_implemented" | "upstream_auth";

export const FORCED_CODES: Readonly<Record<ForcedFailureKind, EmailErrorCode>> = {
  internal: 10002,
  not_implemented: 10003,
  upstream_auth: 10100,
};

export interface SenderDomain {
  domain: string;
  sending_disabled: boolean;
  created_at: string;
}

export interface OutboxEntry {
  message_id: string;
  accepted_at: string;
  bytes: number;
  /** Which operation sent it: fields (`send`) or a whole MIME message (`send_raw`). */
  kind: "send" | "raw";
  from: string;
  /** For a raw send, its envelope `recipients`. */
  to: string[];
  cc: string[];
  bcc: string[];
  reply_to: string[];
  /** A raw send's MIME message, clipped at 64 Ki characters. */
  mime_message?: string;
  /** A send's body as received: html and text clipped at 64 Ki characters, attachments summarised. */
  message?: Omit<SendEmailBody, "attachments"> & {
    attachments?: {
      filename: string;
      type: string;
      disposition: string;
      content_id?: string;
      size: number;
      /** The content (base64) when the message's attachments are small enough to keep (the console's download). */
      content?: string;
    }[];
  };
  result: {
    delivered: string[];
    permanent_bounces: string[];
    queued: string[];
    /** Dropped for being on a suppression list (the sending subdomain drops them); absent in older state. */
    suppressed_recipients?: string[];
  };
}

export interface EmailAccountState {
  entitled: boolean;
  sending_disabled: boolean;
  /** At most `limit` accepted sends in any `window_ms` of emulator time; null is unlimited. */
  throttle: { limit: number; window_ms: number } | null;
  /** The next sends fail with this; `remaining` null means until cleared. */
  forced_failure: { kind: ForcedFailureKind; remaining: number | null } | null;
  domains: Record<string, SenderDomain>;
  /** Emulator-clock times (ms) of accepted sends still inside the throttle window. */
  recent_sends: number[];
  outbox: OutboxEntry[];
}

/** A zone's sending subdomain (issue 26). `tag` is its id in paths. */
export interface SubdomainRecord {
  tag: string;
  name: string;
  enabled: boolean;
  dkim_selector: string;
  return_path_domain: string;
  preview_enabled: boolean;
  drop_suppressed_recipients: boolean;
  /** Whether `dns` POST (fix) has run since it was made: its records read "ready" from then on. */
  dns_verified: boolean;
  created: string;
  modified: string;
}

/** An address the account does not send to (issue 26). */
export interface SuppressionRecord {
  id: string;
  email: string;
  reason: "manual";
  scope: { type: "account" } | { type: "sending_domain"; value: string };
  note: string | null;
  expires_at: string | null;
  created: string;
  modified: string;
}

interface EmailState {
  accounts: Record<string, EmailAccountState>;
  /** Sending subdomains per zone id, by tag (absent in state saved before issue 26). */
  subdomains?: Record<string, Record<string, SubdomainRecord>>;
  /** Suppressions per account id, by id (absent in state saved before issue 26). */
  suppressions?: Record<string, Record<string, SuppressionRecord>>;
}

/** The outbox is persisted with the store after every send, so it is kept small. */
const OUTBOX_LIMIT = 200;
const OUTBOX_BODY_CHARS = 64 * 1024;
/** Attachments are kept for download when together at most this many bytes (decoded). */
export const OUTBOX_ATTACHMENT_BYTES = 256 * 1024;

function clip(body: string | undefined): string | undefined {
  if (body === undefined || body.length <= OUTBOX_BODY_CHARS) return body;
  return `${body.slice(0, OUTBOX_BODY_CHARS)}…[${body.length - OUTBOX_BODY_CHARS} more characters not kept]`;
}

/**
 * A failure from the table: one `errors[]` entry per detail, each with the table's exact message and
 * the rule in `detail`; `retryAfterS` becomes a Retry-After header.
 */
export class EmailFailure extends DomainError {
  constructor(code: EmailErrorCode, details: readonly string[] = [], retryAfterS?: number) {
    const row = EMAIL_ERRORS[code];
    super(
      row.status,
      details.length
        ? details.map((detail) => ({ code, message: row.message, detail }))
        : { code, message: row.message },
      retryAfterS ? { "retry-after": String(retryAfterS) } : {},
    );
    this.name = "EmailFailure";
  }
}

export function freshAccount(): EmailAccountState {
  return {
    entitled: true,
    sending_disabled: false,
    throttle: null,
    forced_failure: null,
    domains: dict(),
    recent_sends: [],
    outbox: [],
  };
}

/** The most specific sending subdomain `address` falls under (its domain or a parent). */
function subdomainOf(address: string, subdomains: readonly SubdomainRecord[]): SubdomainRecord | undefined {
  const labels = domainOf(address).split(".");
  for (let i = 0; i < labels.length - 1; i++) {
    const name = labels.slice(i).join(".");
    const found = subdomains.find((s) => s.name.toLowerCase() === name);
    if (found) return found;
  }
  return undefined;
}

/**
 * Which recipient ends where, by the local part (case-insensitive): `bounce…` bounces permanently,
 * `queue…` is queued, anything else is delivered.
 */
export function fateOf(address: string): "delivered" | "permanent_bounces" | "queued" {
  const local = address.slice(0, address.lastIndexOf("@")).toLowerCase();
  if (local.startsWith("bounce")) return "permanent_bounces";
  if (local.startsWith("queue")) return "queued";
  return "delivered";
}

export class EmailModel {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  private get state(): EmailState {
    return this.store.area<EmailState>("email", () => ({ accounts: dict() }));
  }

  account(accountId: string): EmailAccountState {
    const accounts = this.state.accounts;
    accounts[accountId] ??= freshAccount();
    return accounts[accountId];
  }

  /** The zone's sending subdomains, by tag (live: changes are kept). */
  subdomainRecords(zoneId: string): Record<string, SubdomainRecord> {
    const zones = (this.state.subdomains ??= dict());
    return (zones[zoneId] ??= dict());
  }

  /** The account's suppressions, by id (live: changes are kept). */
  suppressionRecords(accountId: string): Record<string, SuppressionRecord> {
    const accounts = (this.state.suppressions ??= dict());
    return (accounts[accountId] ??= dict());
  }

  /** The emulator clock's time, as the API shows it. */
  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Consumes one use of a forced failure of one of `kinds`, throwing it. */
  takeForced(accountId: string, kinds: readonly ForcedFailureKind[]): void {
    const acct = this.account(accountId);
    const forced = acct.forced_failure;
    if (!forced || !kinds.includes(forced.kind)) return;
    if (forced.remaining !== null) {
      forced.remaining -= 1;
      if (forced.remaining <= 0) acct.forced_failure = null;
    }
    throw new EmailFailure(FORCED_CODES[forced.kind]);
  }

  /** Account-level gates checked before the body is read: entitlement, the switch, the throttle. */
  admit(accountId: string): void {
    const acct = this.account(accountId);
    if (!acct.entitled) throw new EmailFailure(10105, ["account: not entitled to email sending"]);
    if (acct.sending_disabled)
      throw new EmailFailure(10203, ["account: sending is disabled for this account"]);
    const t = acct.throttle;
    if (!t) return;
    const now = this.now();
    acct.recent_sends = acct.recent_sends.filter((at) => at > now - t.window_ms);
    if (acct.recent_sends.length >= t.limit) {
      const oldest = acct.recent_sends[0]!;
      const waitMs = oldest + t.window_ms - now;
      throw new EmailFailure(
        10004,
        [`rate: at most ${t.limit} sends per ${t.window_ms} ms`],
        Math.max(1, Math.ceil(waitMs / 1000)),
      );
    }
  }

  /** The names of these zones' sending subdomains (read only: no zone entry is made). */
  subdomainsOf(zoneIds: readonly string[]): SubdomainRecord[] {
    const zones = this.state.subdomains ?? {};
    return zoneIds.flatMap((id) => (Object.hasOwn(zones, id) ? Object.values(zones[id]!) : []));
  }

  /**
   * The registered domain `from` falls under (itself or a parent), most specific first; failing that,
   * a sending subdomain of the account's zones (`subdomains`, issue 26), enabled by being there.
   */
  senderDomain(
    accountId: string,
    address: string,
    subdomains: readonly SubdomainRecord[] = [],
  ): SenderDomain | undefined {
    const domains = this.account(accountId).domains;
    const labels = domainOf(address).split(".");
    for (let i = 0; i < labels.length - 1; i++) {
      const found = domains[labels.slice(i).join(".")];
      if (found) return found;
    }
    const sub = subdomainOf(address, subdomains);
    return sub && { domain: sub.name, sending_disabled: false, created_at: this.nowIso() };
  }

  /**
   * The recipients on a suppression list that applies to this send: the account's, or the sender's
   * domain's (the registered domain or the sending subdomain `from` falls under). Expired ones do not.
   */
  #suppressed(
    accountId: string,
    senderDomains: readonly string[],
    recipients: readonly string[],
  ): Map<string, string> {
    const now = this.now();
    const found = new Map<string, string>();
    const records = Object.values(this.suppressionRecords(accountId)).filter(
      (r) =>
        (r.expires_at === null || Date.parse(r.expires_at) > now) &&
        (r.scope.type === "account" || senderDomains.includes(r.scope.value.toLowerCase())),
    );
    for (const address of recipients) {
      const hit = records.find((r) => r.email.toLowerCase() === address.toLowerCase());
      if (hit) found.set(address.toLowerCase(), hit.id);
    }
    return found;
  }

  /** Delivers a valid body: checks the sender domain, applies the recipient rule, records the outbox. */
  send(
    accountId: string,
    body: SendEmailBody,
    bytes: number,
    subdomains: readonly SubdomainRecord[] = [],
  ): OutboxEntry {
    const { attachments, ...message } = body;
    const sizes = (attachments ?? []).map((a) => Buffer.from(a.content, "base64").length);
    const keep = sizes.reduce((a, b) => a + b, 0) <= OUTBOX_ATTACHMENT_BYTES;
    return this.#deliver(accountId, addressOf(body.from), bytes, subdomains, {
      kind: "send",
      to: addressesOf(body.to),
      cc: addressesOf(body.cc),
      bcc: addressesOf(body.bcc),
      reply_to: body.reply_to === undefined ? [] : [addressOf(body.reply_to)],
      message: {
        ...message,
        ...(message.html !== undefined ? { html: clip(message.html) } : {}),
        ...(message.text !== undefined ? { text: clip(message.text) } : {}),
        ...(attachments
          ? {
              attachments: attachments.map((a, i) => ({
                filename: a.filename,
                type: a.type,
                disposition: a.disposition,
                ...(a.content_id !== undefined ? { content_id: a.content_id } : {}),
                size: sizes[i]!,
                ...(keep ? { content: a.content } : {}),
              })),
            }
          : {}),
      },
    });
  }

  /** Delivers a valid raw message to its envelope recipients, under the same rules as `send`. */
  sendRaw(
    accountId: string,
    body: SendRawEmailBody,
    bytes: number,
    subdomains: readonly SubdomainRecord[] = [],
  ): OutboxEntry {
    return this.#deliver(accountId, body.from, bytes, subdomains, {
      kind: "raw",
      to: [...body.recipients],
      cc: [],
      bcc: [],
      reply_to: [],
      mime_message: clip(body.mime_message),
    });
  }

  #deliver(
    accountId: string,
    from: string,
    bytes: number,
    subdomains: readonly SubdomainRecord[],
    parts: Omit<OutboxEntry, "message_id" | "accepted_at" | "bytes" | "from" | "result">,
  ): OutboxEntry {
    const acct = this.account(accountId);
    const domain = this.senderDomain(accountId, from, subdomains);
    if (!domain)
      throw new EmailFailure(10000, [`from: ${domainOf(from)} is not a sending domain of this account`]);
    if (domain.sending_disabled) {
      throw new EmailFailure(10203, [`from: sending is disabled for the domain ${domain.domain}`]);
    }
    // A suppressed recipient is dropped when the sending subdomain says so, and otherwise fails the
    // send (the public client's `suppressed_recipients`; docs/assumptions.md, "Suppressed recipients").
    const sub = subdomainOf(from, subdomains);
    const suppressed = this.#suppressed(
      accountId,
      [domain.domain, ...(sub ? [sub.name] : [])],
      [...parts.to, ...parts.cc, ...parts.bcc],
    );
    if (suppressed.size && !sub?.drop_suppressed_recipients) {
      const fields = (["to", "cc", "bcc"] as const).flatMap((field) =>
        parts[field].flatMap((address, i) => {
          const id = suppressed.get(address.toLowerCase());
          return id === undefined
            ? []
            : [
                `${field}.${i}: ${address} is on a suppression list (suppression ${id}); nothing is sent to it unless the sending subdomain drops suppressed recipients`,
              ];
        }),
      );
      throw new EmailFailure(10202, fields);
    }
    const result: OutboxEntry["result"] = { delivered: [], permanent_bounces: [], queued: [] };
    const seen = new Set<string>();
    for (const address of [...parts.to, ...parts.cc, ...parts.bcc]) {
      const key = address.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      if (suppressed.has(key)) (result.suppressed_recipients ??= []).push(address);
      else result[fateOf(address)].push(address);
    }
    const n = this.store.next("email.message");
    const now = this.now();
    const entry: OutboxEntry = {
      message_id: `<${n}.emulator@${domainOf(from)}>`,
      accepted_at: new Date(now).toISOString(),
      bytes,
      from,
      ...parts,
      result,
    };
    if (acct.throttle) acct.recent_sends.push(now);
    acct.outbox.push(entry);
    if (acct.outbox.length > OUTBOX_LIMIT) acct.outbox.splice(0, acct.outbox.length - OUTBOX_LIMIT);
    return entry;
  }

  putDomain(accountId: string, domain: string, sendingDisabled: boolean): SenderDomain {
    const domains = this.account(accountId).domains;
    const key = domain.toLowerCase();
    const existing = domains[key];
    const entry: SenderDomain = {
      domain: key,
      sending_disabled: sendingDisabled,
      created_at: existing?.created_at ?? new Date(this.now()).toISOString(),
    };
    domains[key] = entry;
    return entry;
  }

  deleteDomain(accountId: string, domain: string): boolean {
    const domains = this.account(accountId).domains;
    const key = domain.toLowerCase();
    if (!domains[key]) return false;
    delete domains[key];
    return true;
  }
}
