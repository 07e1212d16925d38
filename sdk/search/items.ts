/**
 * Items of a search instance: what its sync jobs indexed and what was uploaded, with their chunks,
 * content and processing logs. Items exist only under the namespaced paths (`namespaces/default`
 * without a `namespace`).
 */
import { z } from "zod";
import type { ApiClient } from "../client";
import type { CallOptions } from "../core";
import { cursorStyle, pageStyle, type PagedGenerator } from "../paging";
import {
  DeletedItemSchema,
  ItemChunkSchema,
  ItemLogSchema,
  PutItemBodySchema,
  SearchItemSchema,
  SyncItemBodySchema,
  UploadItemFieldsSchema,
  type ItemChunk,
  type ItemListQuery,
  type ItemLog,
  type PutItemBody,
  type SearchItem,
  type SyncItemBody,
  type UploadItemFields,
} from "../schemas/search";
import { validate } from "../validate";
import { PAGE_BOUNDS, SearchPaths, type InstanceRef, type ItemRef } from "./paths";

/** The query of the item listing (its wire names), and its page size. */
export type ItemListParams = Partial<
  Pick<ItemListQuery, "search" | "sort_by" | "status" | "source" | "metadata_filter" | "item_id">
> & {
  /** Page size, 1-50 (default 50; the service answers at least 5 per page). */
  perPage?: number;
};

/** The item bodies without `next_action`, which the sdk sets (`INDEX`, the only one). */
export type ItemCreateOrUpdateParams = Omit<PutItemBody, "next_action">;
export type ItemSyncParams = Omit<SyncItemBody, "next_action">;

const ListOfItems = z.array(SearchItemSchema);
const ListOfChunks = z.array(ItemChunkSchema);
const ListOfItemLogs = z.array(ItemLogSchema);

export class Items {
  readonly #paths: SearchPaths;

  constructor(readonly client: ApiClient) {
    this.#paths = new SearchPaths(client);
  }

  /** Items of the instance: what its sync jobs indexed and what was uploaded, page by page. */
  list(ids: InstanceRef, params: ItemListParams = {}, options: CallOptions = {}): PagedGenerator<SearchItem> {
    const items = `${this.#paths.namespaced(ids)}/items`;
    const perPage = this.#paths.perPage(params.perPage, PAGE_BOUNDS.items, "search.listItems");
    const query = {
      search: params.search,
      sort_by: params.sort_by,
      status: params.status,
      source: params.source,
      metadata_filter: params.metadata_filter,
      item_id: params.item_id,
    };
    return this.#paths.pages(items, ListOfItems, perPage, options, query);
  }

  /**
   * Uploads a file as an item (multipart): its name is the item's key, `metadata` its custom
   * metadata. Not repeated after a lost answer: an upload of the same key replaces the item anyway,
   * so the caller may simply send it again.
   */
  upload(ids: InstanceRef, params: UploadItemFields, options: CallOptions = {}): Promise<SearchItem> {
    const target = `${this.#paths.namespaced(ids)}/items`;
    const fields = validate(UploadItemFieldsSchema, params, "search.uploadItem");
    const form = new FormData();
    const bytes =
      typeof fields.file.content === "string" ? fields.file.content : new Uint8Array(fields.file.content);
    form.append(
      "file",
      new Blob([bytes], { type: fields.file.type ?? "application/octet-stream" }),
      fields.file.name,
    );
    if (fields.metadata !== undefined) form.append("metadata", JSON.stringify(fields.metadata));
    if (fields.wait_for_completion !== undefined)
      form.append("wait_for_completion", String(fields.wait_for_completion));
    return this.client.request({
      method: "POST",
      path: target,
      body: form,
      schema: SearchItemSchema,
      ...options,
    });
  }

  /** Indexes (again) the item with this key, from the instance's source (`PUT …/items`). */
  createOrUpdate(
    ids: InstanceRef,
    params: ItemCreateOrUpdateParams,
    options: CallOptions = {},
  ): Promise<SearchItem> {
    const target = `${this.#paths.namespaced(ids)}/items`;
    const body = validate(
      PutItemBodySchema,
      { ...params, next_action: "INDEX" },
      "search.createOrUpdateItem",
    );
    return this.client.request({ method: "PUT", path: target, body, schema: SearchItemSchema, ...options });
  }

  get(ids: ItemRef, options: CallOptions = {}): Promise<SearchItem> {
    return this.client.request({
      method: "GET",
      path: this.#paths.item(ids),
      schema: SearchItemSchema,
      ...options,
    });
  }

  /** Indexes one item again now (`PATCH …/items/{item_id}` with `next_action: "INDEX"`). */
  sync(ids: ItemRef, params: ItemSyncParams = {}, options: CallOptions = {}): Promise<SearchItem> {
    const { wait_for_completion } = params;
    const body = validate(
      SyncItemBodySchema,
      { next_action: "INDEX", ...(wait_for_completion !== undefined ? { wait_for_completion } : {}) },
      "search.syncItem",
    );
    return this.client.request({
      method: "PATCH",
      path: this.#paths.item(ids),
      body,
      schema: SearchItemSchema,
      ...options,
    });
  }

  /** Removes an item from the index (its key is returned). */
  async delete(ids: ItemRef, options: CallOptions = {}): Promise<{ key: string }> {
    const res = await this.client.request({
      method: "DELETE",
      path: this.#paths.item(ids),
      schema: DeletedItemSchema,
      ...options,
    });
    return { key: res.key };
  }

  /** The chunks an item was split into, in order, page by page (`limit` 1-100 per page). */
  chunks(
    ids: ItemRef,
    params: { limit?: number } = {},
    options: CallOptions = {},
  ): PagedGenerator<ItemChunk> {
    const chunks = `${this.#paths.item(ids)}/chunks`;
    const limit = this.#paths.perPage(params.limit, PAGE_BOUNDS.chunks, "search.listItemChunks");
    // Offset paging is page paging with the offset derived from the page.
    return pageStyle(async (page, per) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: chunks,
        query: { limit: per, offset: (page - 1) * per },
        schema: ListOfChunks,
        ...options,
      });
      return { items: res.value };
    }, limit);
  }

  /** The item's content as the index holds it, as text. */
  async download(ids: ItemRef, options: CallOptions = {}): Promise<string> {
    const res = await this.client.requestRaw({
      method: "GET",
      path: `${this.#paths.item(ids)}/download`,
      ...options,
    });
    return res.body;
  }

  /** Processing records of an item, newest first, by cursor (`limit` 1-100 per page). */
  logs(ids: ItemRef, params: { limit?: number } = {}, options: CallOptions = {}): PagedGenerator<ItemLog> {
    const logs = `${this.#paths.item(ids)}/logs`;
    const limit = this.#paths.perPage(params.limit, PAGE_BOUNDS.itemLogs, "search.listItemLogs");
    return cursorStyle(async (cursor) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: logs,
        query: { limit, cursor },
        schema: ListOfItemLogs,
        ...options,
      });
      return { items: res.value, cursor: res.resultInfo?.cursor };
    });
  }
}
