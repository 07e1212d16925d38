/**
 * An account's suppression list (`/accounts/{account_id}/email/sending/suppressions`): addresses not
 * sent to, for the whole account or one sending domain. The listing pages by cursor.
 */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import * as G from "../generated/email";
import { cursorStyle, type PagedGenerator } from "../paging";
import { validate } from "../validate";
import type { EmailIds } from "./sending";

/** The ids of one suppression. */
export interface SuppressionIds extends EmailIds {
  suppressionId: string;
}

/** A suppression as the service answers it (the 7.3.0 client's declarations, generated). */
export const SuppressionSchema = G.EmailSendingSuppressionsGetResult;
/** What a create or a delete answers: the suppression's id and scope. */
export const SuppressionRefSchema = G.EmailSendingSuppressionsCreateResult;
export type SuppressionRef = z.infer<typeof SuppressionRefSchema>;
/** A bulk import's summary, one entry per address sent (processed, skipped, invalid or error). */
export type SuppressionImport = z.infer<typeof G.EmailSendingSuppressionsImportResult>;
export type Suppression = z.infer<typeof SuppressionSchema>;
export type CreateSuppressionBody = z.input<typeof G.EmailSendingSuppressionsCreateBody>;
export type EditSuppressionBody = z.input<typeof G.EmailSendingSuppressionsEditBody>;
export type ImportSuppressionsBody = z.input<typeof G.EmailSendingSuppressionsImportBody>;
/** The listing's filters (`cursor` and `per_page` are the paging's own). */
export type ListSuppressionsParams = Omit<
  z.input<typeof G.EmailSendingSuppressionsListQuery>,
  "cursor" | "per_page"
> & { perPage?: number };

const ListQuery = G.EmailSendingSuppressionsListQuery.omit({ cursor: true, per_page: true });
const PerPage = z.object({
  perPage: z.number().int("must be an integer").min(1, "must be at least 1").optional(),
});
const ListOfSuppressions = G.EmailSendingSuppressionsListResult;

export class Suppressions {
  constructor(readonly client: ApiClient) {}

  #base(ids: EmailIds): string {
    return path`/accounts/${this.client.account(ids.accountId)}/email/sending/suppressions`;
  }

  #one(ids: SuppressionIds, what: string): string {
    const { suppression_id } = validate(
      G.EmailSendingSuppressionsGetPath.pick({ suppression_id: true }),
      { suppression_id: ids.suppressionId },
      what,
    );
    return this.#base(ids) + path`/${suppression_id}`;
  }

  /** The suppressions matching the filters, page after page (by the service's cursor). */
  list(
    ids: EmailIds = {},
    params: ListSuppressionsParams = {},
    options: CallOptions = {},
  ): PagedGenerator<Suppression> {
    const { perPage, ...filters } = params;
    const query = validate(ListQuery, filters, "email.suppressions.list");
    const per = validate(PerPage, { perPage }, "email.suppressions.list").perPage;
    const at = this.#base(ids);
    return cursorStyle(async (cursor) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: at,
        query: { ...query, per_page: per, cursor },
        schema: ListOfSuppressions,
        ...options,
      });
      return { items: res.value, cursor: res.resultInfo?.cursor };
    });
  }

  /** Suppresses one address (for the account, or one sending domain); a 409 if it already is. */
  async create(
    ids: EmailIds,
    params: CreateSuppressionBody,
    options: CallOptions = {},
  ): Promise<SuppressionRef> {
    const body = validate(G.EmailSendingSuppressionsCreateBody, params, "email.suppressions.create");
    return this.client.request({
      method: "POST",
      path: this.#base(ids),
      body,
      schema: SuppressionRefSchema,
      idempotent: false,
      ...options,
    });
  }

  /** Suppresses many at once, address by address: the summary says what became of each. */
  async bulk(
    ids: EmailIds,
    params: ImportSuppressionsBody,
    options: CallOptions = {},
  ): Promise<SuppressionImport> {
    const body = validate(G.EmailSendingSuppressionsImportBody, params, "email.suppressions.bulk");
    return this.client.request({
      method: "POST",
      path: this.#base(ids) + "/bulk",
      body,
      schema: G.EmailSendingSuppressionsImportResult,
      idempotent: false,
      ...options,
    });
  }

  async get(ids: SuppressionIds, _params: object = {}, options: CallOptions = {}): Promise<Suppression> {
    return this.client.request({
      method: "GET",
      path: this.#one(ids, "email.suppressions.get"),
      schema: SuppressionSchema,
      ...options,
    });
  }

  /** Changes its note, expiry or scope. */
  async edit(
    ids: SuppressionIds,
    params: EditSuppressionBody,
    options: CallOptions = {},
  ): Promise<Suppression> {
    const body = validate(G.EmailSendingSuppressionsEditBody, params, "email.suppressions.edit");
    return this.client.request({
      method: "PATCH",
      path: this.#one(ids, "email.suppressions.edit"),
      body,
      schema: SuppressionSchema,
      ...options,
    });
  }

  async delete(
    ids: SuppressionIds,
    _params: object = {},
    options: CallOptions = {},
  ): Promise<SuppressionRef> {
    return this.client.request({
      method: "DELETE",
      path: this.#one(ids, "email.suppressions.delete"),
      schema: SuppressionRefSchema,
      ...options,
    });
  }
}
