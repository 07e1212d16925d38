/**
 * The registrar's supported extensions (`/registrar/extensions`): which extensions (TLDs) it
 * registers, each with JSON Schema documents of a registration and a transfer on it. No prices: a
 * name's price comes from `discovery.check` or `registrations.quote`.
 */
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import { cursorStyle, type PagedGenerator } from "../paging";
import {
  ExtensionListQuerySchema,
  SupportedExtensionSchema,
  type ExtensionSortField,
  type SortDirection,
  type SupportedExtension,
} from "../schemas/registrar";
import { validate } from "../validate";
import { registrarBase, type AccountIds } from "./paths";

/** The ids of one extension's path (`.../extensions/{extension}`). */
export interface ExtensionIds extends AccountIds {
  /** Its full name without a leading dot: "com", "co.uk". */
  extension: string;
}

export interface ListExtensionsQuery {
  /** Page size; the service's default applies when left out. Every page is followed. */
  per_page?: number;
  /** The service's default is `name`. */
  sort_by?: ExtensionSortField;
  /** The service's default is `asc`. */
  direction?: SortDirection;
  /** Only the extension of exactly this name. */
  name?: string;
}

export class Extensions {
  constructor(readonly client: ApiClient) {}

  /** Every supported extension, following `result_info.cursor` until it is empty. */
  list(
    ids: AccountIds = {},
    params: ListExtensionsQuery = {},
    options: CallOptions = {},
  ): PagedGenerator<SupportedExtension> {
    const query = validate(ExtensionListQuerySchema, params, "registrar.extensions.list");
    const base = registrarBase(this.client, ids.accountId);
    return cursorStyle(async (cursor) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: `${base}/extensions`,
        query: { ...query, cursor },
        schema: SupportedExtensionSchema.array(),
        ...options,
      });
      return { items: res.value, cursor: res.resultInfo?.cursor ?? null };
    });
  }

  /** One supported extension; an extension the registrar does not support is a `NotFoundError`. */
  async get(ids: ExtensionIds, options: CallOptions = {}): Promise<SupportedExtension> {
    const extension = ids.extension.replace(/^\./, "").toLowerCase();
    return this.client.request({
      method: "GET",
      path: `${registrarBase(this.client, ids.accountId)}/extensions${path`/${extension}`}`,
      schema: SupportedExtensionSchema,
      ...options,
    });
  }
}
