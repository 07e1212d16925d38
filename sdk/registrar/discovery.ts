/** Domain discovery (`/registrar/domain-search`, `/registrar/domain-check`): availability and pricing. */
import type { ApiClient } from "../client";
import type { CallOptions } from "../core";
import {
  DomainCheckRequestSchema,
  DomainCheckResultSchema,
  DomainSearchQuerySchema,
  DomainSearchResultSchema,
  type DomainCheckRequest,
  type DomainCheckResult,
  type DomainSearchQuery,
  type DomainSearchResult,
} from "../schemas/registrar";
import { validate } from "../validate";
import { registrarBase, type AccountIds } from "./paths";

/** The search's query: `q`, and `extensions` such as "com" (a leading dot is dropped), `limit`. */
export type DomainSearchParams = DomainSearchQuery;
/** The check's body: `domains`, 1 to 20 names. */
export type DomainCheckParams = DomainCheckRequest;

export class Discovery {
  constructor(readonly client: ApiClient) {}

  /** Advisory availability: possibly stale (spec E, rule 2); use `check` before registering. */
  async search(
    ids: AccountIds,
    params: DomainSearchParams,
    options: CallOptions = {},
  ): Promise<DomainSearchResult> {
    const q = validate(DomainSearchQuerySchema, params, "registrar.search");
    return this.client.request({
      method: "GET",
      path: `${registrarBase(this.client, ids.accountId)}/domain-search`,
      query: { q: q.q, extensions: q.extensions, limit: q.limit },
      schema: DomainSearchResultSchema,
      ...options,
    });
  }

  /** Authoritative, real-time availability with pricing. A POST that only reads, so it may be retried. */
  async check(
    ids: AccountIds,
    params: DomainCheckParams,
    options: CallOptions = {},
  ): Promise<DomainCheckResult> {
    validate(DomainCheckRequestSchema, params, "registrar.check");
    return this.client.request({
      method: "POST",
      path: `${registrarBase(this.client, ids.accountId)}/domain-check`,
      body: params,
      idempotent: true,
      schema: DomainCheckResultSchema,
      ...options,
    });
  }
}
