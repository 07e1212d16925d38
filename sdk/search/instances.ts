/**
 * Search instances: their settings, moves, statistics and answer cache, and retrieval from them
 * (search, chat completions), as the public client has them on the instance.
 */
import { z } from "zod";
import type { ApiClient } from "../client";
import { createOnce, orGone, type CallOptions } from "../core";
import { pageStyle, type PagedGenerator } from "../paging";
import {
  ChatCompletionBodySchema,
  ChatCompletionSchema,
  CreateInstanceBodySchema,
  MoveInstanceBodySchema,
  SearchBodySchema,
  SearchInstanceSchema,
  SearchResultSchema,
  SearchStatsSchema,
  UpdateInstanceBodySchema,
  type ChatCompletion,
  type ChatCompletionBody,
  type CreateInstanceBody,
  type InstanceListQuery,
  type MoveInstanceBody,
  type SearchBody,
  type SearchInstance,
  type SearchResult,
  type SearchStats,
  type UpdateInstanceBody,
} from "../schemas/search";
import { validate } from "../validate";
import {
  CREATE_RETRIES,
  PAGE_BOUNDS,
  SearchPaths,
  refuseStream,
  type InstanceRef,
  type SearchScope,
} from "./paths";

/** The query of the instance listing, and its page size. */
export interface InstanceListParams {
  /** Page size, 1-100 (default 50). */
  perPage?: number;
  /** Only instances whose id contains this. */
  search?: InstanceListQuery["search"];
  /** By creation time: `desc` (the service's default, newest first) or `asc`. */
  order_by_direction?: InstanceListQuery["order_by_direction"];
}

const ListOfInstances = z.array(SearchInstanceSchema);
/** Purge answers `{success}` and nothing the caller needs. */
const Ignored = z.unknown();

export class Instances {
  readonly #paths: SearchPaths;

  constructor(readonly client: ApiClient) {
    this.#paths = new SearchPaths(client);
  }

  /**
   * Creates an instance. POST is never blindly repeated: after a connection failure or timeout the
   * instance is looked up by its id (unique per namespace), returned if the attempt landed, and only
   * otherwise posted again.
   */
  async create(
    ids: SearchScope = {},
    params: CreateInstanceBody,
    options: CallOptions = {},
  ): Promise<SearchInstance> {
    const { accountId, namespace } = ids;
    const body = validate(CreateInstanceBodySchema, params, "search.createInstance");
    const base = this.#paths.collection({ accountId, namespace });
    return createOnce(
      () =>
        this.client.request({ method: "POST", path: base, body, schema: SearchInstanceSchema, ...options }),
      () => orGone(this.get({ accountId, namespace, id: body.id }, options)),
      { retries: CREATE_RETRIES },
    );
  }

  /** Every instance of the namespace, page by page (newest first unless `order_by_direction: "asc"`). */
  list(
    ids: SearchScope = {},
    params: InstanceListParams = {},
    options: CallOptions = {},
  ): PagedGenerator<SearchInstance> {
    const base = this.#paths.collection(ids);
    const perPage = this.#paths.perPage(params.perPage, PAGE_BOUNDS.instances, "search.listInstances");
    const query = { search: params.search, order_by_direction: params.order_by_direction };
    return pageStyle(async (page, per_page) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: base,
        query: { ...query, page, per_page },
        schema: ListOfInstances,
        ...options,
      });
      return { items: res.value, info: res.resultInfo };
    }, perPage);
  }

  get(ids: InstanceRef, options: CallOptions = {}): Promise<SearchInstance> {
    return this.client.request({
      method: "GET",
      path: this.#paths.instance(ids),
      schema: SearchInstanceSchema,
      ...options,
    });
  }

  /** Replaces the instance's settings (omitted ones return to their defaults). */
  update(ids: InstanceRef, params: UpdateInstanceBody, options: CallOptions = {}): Promise<SearchInstance> {
    const target = this.#paths.instance(ids);
    const body = validate(UpdateInstanceBodySchema, params, "search.updateInstance");
    return this.client.request({
      method: "PUT",
      path: target,
      body,
      schema: SearchInstanceSchema,
      ...options,
    });
  }

  delete(ids: InstanceRef, options: CallOptions = {}): Promise<SearchInstance> {
    return this.client.request({
      method: "DELETE",
      path: this.#paths.instance(ids),
      schema: SearchInstanceSchema,
      ...options,
    });
  }

  /** Moves an instance, with its jobs and items, to another namespace (`PATCH` on the namespaced path). */
  move(ids: InstanceRef, params: MoveInstanceBody, options: CallOptions = {}): Promise<SearchInstance> {
    const body = validate(MoveInstanceBodySchema, params, "search.moveInstance");
    return this.client.request({
      method: "PATCH",
      path: this.#paths.namespaced(ids),
      body,
      schema: SearchInstanceSchema,
      ...options,
    });
  }

  /** Indexing statistics: how many items are queued, running, completed or in error. */
  stats(ids: InstanceRef, options: CallOptions = {}): Promise<SearchStats> {
    return this.client.request({
      method: "GET",
      path: `${this.#paths.instance(ids)}/stats`,
      schema: SearchStatsSchema,
      ...options,
    });
  }

  /** Empties the instance's answer cache (chat completions answered from it so far). */
  async purgeCache(ids: InstanceRef, options: CallOptions = {}): Promise<void> {
    await this.client.request({
      method: "POST",
      path: `${this.#paths.namespaced(ids)}/purge_cache`,
      body: {},
      schema: Ignored,
      idempotent: true,
      ...options,
    });
  }

  /** Ranked chunks for a query (or the last user message). A read: safe to repeat. */
  search(ids: InstanceRef, params: SearchBody, options: CallOptions = {}): Promise<SearchResult> {
    const body = validate(SearchBodySchema, params, "search.search");
    return this.client.request({
      method: "POST",
      path: `${this.#paths.instance(ids)}/search`,
      body,
      schema: SearchResultSchema,
      idempotent: true,
      ...options,
    });
  }

  /**
   * An answer to the conversation from the instance's retrieved chunks (OpenAI-style body, no
   * envelope). Streaming is not supported by this method: `stream: true` is refused before sending.
   */
  chatCompletions(
    ids: InstanceRef,
    params: ChatCompletionBody,
    options: CallOptions = {},
  ): Promise<ChatCompletion> {
    const body = validate(ChatCompletionBodySchema, params, "search.chatCompletions");
    refuseStream(body, "search.chatCompletions");
    return this.client.request({
      method: "POST",
      path: `${this.#paths.instance(ids)}/chat/completions`,
      body,
      schema: ChatCompletionSchema,
      unwrap: "body",
      idempotent: true,
      ...options,
    });
  }
}
