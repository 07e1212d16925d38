/**
 * An account's suppression list (`/accounts/{account_id}/email/sending/suppressions`, issue 26): the
 * addresses it does not send to, for the whole account or one sending domain. Kept per account; sends
 * do not consult it yet (a later stage).
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import * as G from "../../sdk/generated/email";
import { conflict, notFound } from "../http";
import { EmailFailure, type EmailModel, type SuppressionRecord } from "./state";

export type SuppressionBody = z.output<typeof G.EmailSendingSuppressionsCreateBody>;
export type SuppressionEdit = z.output<typeof G.EmailSendingSuppressionsEditBody>;
export type SuppressionQuery = z.output<typeof G.EmailSendingSuppressionsListQuery>;

/** The edit body's `scope` is untyped in the contract; it is read as the create body's. */
const ScopeSchema = G.EmailSendingSuppressionsCreateBody.shape.scope;

const ADDRESS = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

function invalid(...details: string[]): EmailFailure {
  return new EmailFailure(10001, details);
}

/** The contract's answer to a bulk import: counts, and one entry per item sent. */
export interface BulkOutcome {
  total: number;
  processed: number;
  skipped: number;
  invalid: number;
  errors: number;
  deduplicated: number;
  items: {
    index: number;
    status: "processed" | "invalid" | "skipped";
    email: string;
    id?: string;
    error?: string;
    scope?: SuppressionRecord["scope"];
  }[];
}

function keyOf(email: string, scope: SuppressionRecord["scope"]): string {
  return `${email.toLowerCase()} ${scope.type === "account" ? "" : scope.value.toLowerCase()}`;
}

/** The account's suppressions, over the email state (a view: it keeps nothing of its own). */
export class Suppressions {
  constructor(
    private readonly model: EmailModel,
    private readonly accountId: string,
  ) {}

  get #records(): Record<string, SuppressionRecord> {
    return this.model.suppressionRecords(this.accountId);
  }

  /** Oldest first, then by id; every filter of the contract's query (`search`: part of the address). */
  list(query: SuppressionQuery): SuppressionRecord[] {
    const needle = query.search?.toLowerCase();
    return Object.values(this.#records)
      .filter(
        (s) =>
          (query.email === undefined || s.email.toLowerCase() === query.email.toLowerCase()) &&
          (query.reason === undefined || s.reason === query.reason) &&
          (query.scope_type === undefined || s.scope.type === query.scope_type) &&
          (query.scope_value === undefined ||
            (s.scope.type === "sending_domain" && s.scope.value === query.scope_value.toLowerCase())) &&
          (needle === undefined || s.email.toLowerCase().includes(needle)),
      )
      .sort((a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id));
  }

  get(id: string): SuppressionRecord {
    const found = Object.hasOwn(this.#records, id) ? this.#records[id] : undefined;
    if (!found) throw notFound(`suppression "${id}"`);
    return found;
  }

  /** One address for one scope at most: a second is 409. */
  create(body: SuppressionBody): SuppressionRecord {
    if (!ADDRESS.test(body.email)) throw invalid("email: must be an email address (local@domain.tld)");
    const scope = scopeOf(body.scope);
    if (this.#holder(keyOf(body.email, scope)))
      throw conflict(`email: ${body.email} is already suppressed in this scope`);
    return this.#keep(body, scope);
  }

  /**
   * Item by item, as the contract's answer counts them: a bad address is `invalid` (kept out), an
   * address already suppressed in that scope is `skipped` (its record named), a repeat within the
   * batch is counted as `deduplicated` and skipped; the others are kept (`processed`).
   */
  importEach(items: readonly SuppressionBody[]): BulkOutcome {
    const outcome: BulkOutcome = {
      total: items.length,
      processed: 0,
      skipped: 0,
      invalid: 0,
      errors: 0,
      deduplicated: 0,
      items: [],
    };
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (!ADDRESS.test(item.email)) {
        outcome.invalid++;
        outcome.items.push({ index, status: "invalid", email: item.email, error: "not an email address" });
        return;
      }
      const scope = scopeOf(item.scope);
      const key = keyOf(item.email, scope);
      const base = { index, email: item.email, scope };
      if (seen.has(key)) {
        outcome.deduplicated++;
        outcome.skipped++;
        outcome.items.push({ ...base, status: "skipped", error: "repeated in this batch" });
        return;
      }
      seen.add(key);
      const holder = this.#holder(key);
      if (holder) {
        outcome.skipped++;
        outcome.items.push({ ...base, status: "skipped", id: holder.id, error: "already suppressed" });
        return;
      }
      outcome.processed++;
      outcome.items.push({ ...base, status: "processed", id: this.#keep(item, scope).id });
    });
    return outcome;
  }

  #holder(key: string): SuppressionRecord | undefined {
    return Object.values(this.#records).find((s) => keyOf(s.email, s.scope) === key);
  }

  #keep(item: SuppressionBody, scope: SuppressionRecord["scope"]): SuppressionRecord {
    const now = this.model.nowIso();
    const record: SuppressionRecord = {
      id: randomUUID().replaceAll("-", ""),
      email: item.email,
      reason: "manual",
      scope,
      note: item.note ?? null,
      expires_at: item.expires_at ?? null,
      created: now,
      modified: now,
    };
    this.#records[record.id] = record;
    return record;
  }

  edit(id: string, body: SuppressionEdit): SuppressionRecord {
    const record = this.get(id);
    if (body.scope !== undefined) {
      const parsed = ScopeSchema.safeParse(body.scope);
      if (!parsed.success) throw invalid("scope: must be {type: account} or {type: sending_domain, value}");
      const scope = scopeOf(parsed.data);
      const clash = Object.values(this.#records).some(
        (s) => s.id !== id && keyOf(s.email, s.scope) === keyOf(record.email, scope),
      );
      if (clash) throw conflict(`scope: ${record.email} is already suppressed in that scope`);
      record.scope = scope;
    }
    if (body.note !== undefined) record.note = body.note;
    if (body.expires_at !== undefined) record.expires_at = body.expires_at;
    record.modified = this.model.nowIso();
    return record;
  }

  delete(id: string): SuppressionRecord {
    const record = this.get(id);
    delete this.#records[id];
    return record;
  }
}

const PER_PAGE_DEFAULT = 20;

/** One page of `all` after the cursor (opaque: base64url of the last id served), and the next cursor. */
export function pageOf(
  all: readonly SuppressionRecord[],
  query: Pick<SuppressionQuery, "per_page" | "cursor">,
): { items: SuppressionRecord[]; resultInfo: { count: number; cursor: string; per_page: number } } {
  const perPage = query.per_page ?? PER_PAGE_DEFAULT;
  if (!Number.isInteger(perPage) || perPage < 1)
    throw invalid("per_page: must be a whole number of at least 1");
  let start = 0;
  if (query.cursor) {
    const after = Buffer.from(query.cursor, "base64url").toString("utf8");
    const at = all.findIndex((s) => s.id === after);
    if (at < 0) throw invalid("cursor: must be a cursor returned by a previous page");
    start = at + 1;
  }
  const items = all.slice(start, start + perPage);
  const more = all.length > start + perPage;
  const cursor = more ? Buffer.from(items.at(-1)!.id).toString("base64url") : "";
  return { items, resultInfo: { count: items.length, cursor, per_page: perPage } };
}

/** No scope is the whole account; a sending domain is kept lower-case. */
function scopeOf(scope: SuppressionBody["scope"]): SuppressionRecord["scope"] {
  if (!scope || scope.type === "account") return { type: "account" };
  return { type: "sending_domain", value: scope.value.toLowerCase() };
}
