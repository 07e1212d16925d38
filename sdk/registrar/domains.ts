/**
 * The legacy domain endpoints (`/registrar/domains`), which reach end of life on 2026-09-27: use
 * `registrations` instead. Kept so that accounts can still read what they hold there.
 */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import { pageStyle, type PagedGenerator } from "../paging";
import { DomainSchema, DomainUpdateSchema, type Domain, type DomainUpdate } from "../schemas/registrar";
import { validate } from "../validate";
import { domainNameOf, registrarBase, type AccountIds, type DomainIds } from "./paths";

export interface ListDomainsQuery {
  /** The service's default is 20. */
  perPage?: number;
}

export class Domains {
  constructor(readonly client: ApiClient) {}

  /** Domains of the account, page by page (end of life 2026-09-27: use `registrations.list`). */
  list(
    ids: AccountIds = {},
    params: ListDomainsQuery = {},
    options: CallOptions = {},
  ): PagedGenerator<Domain> {
    const base = registrarBase(this.client, ids.accountId);
    return pageStyle(async (page, perPage) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: `${base}/domains`,
        query: { page, per_page: perPage },
        // The contract lets a page's result be null: no domains on it.
        schema: z.array(DomainSchema).nullable(),
        ...options,
      });
      return { items: res.value ?? [], ...(res.resultInfo ? { info: res.resultInfo } : {}) };
    }, params.perPage ?? 20);
  }

  /** One domain (end of life 2026-09-27: use `registrations.get`). */
  async get(ids: DomainIds, options: CallOptions = {}): Promise<Domain | null> {
    const name = domainNameOf(ids.domainName, "registrar.getDomain: domain_name");
    return this.client.request({
      method: "GET",
      path: `${registrarBase(this.client, ids.accountId)}/domains${path`/${name}`}`,
      // The contract's result is an object or null.
      schema: DomainSchema.nullable(),
      ...options,
    });
  }

  /** Updates a domain's settings (end of life 2026-09-27: use `registrations.update`). */
  async update(ids: DomainIds, params: DomainUpdate, options: CallOptions = {}): Promise<Domain | null> {
    const name = domainNameOf(ids.domainName, "registrar.updateDomain: domain_name");
    const body = validate(DomainUpdateSchema, params, "registrar.updateDomain");
    return this.client.request({
      method: "PUT",
      path: `${registrarBase(this.client, ids.accountId)}/domains${path`/${name}`}`,
      body,
      schema: DomainSchema.nullable(),
      ...options,
    });
  }
}
