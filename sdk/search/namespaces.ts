/**
 * Search namespaces: the named groups instances live in (`default` always exists and cannot be
 * deleted), and retrieval across the instances of one (search, chat completions).
 */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import { createOnce, orGone, type CallOptions } from "../core";
import { pageStyle, type PagedGenerator } from "../paging";
import {
  CreateNamespaceBodySchema,
  NamespaceChatCompletionBodySchema,
  NamespaceChatCompletionSchema,
  NamespaceSearchBodySchema,
  NamespaceSearchResultSchema,
  SearchNamespaceInfoSchema,
  SearchNamespaceSchema,
  UpdateNamespaceBodySchema,
  type CreateNamespaceBody,
  type NamespaceChatCompletion,
  type NamespaceChatCompletionBody,
  type NamespaceSearchBody,
  type NamespaceSearchResult,
  type SearchNamespace,
  type UpdateNamespaceBody,
} from "../schemas/search";
import { validate } from "../validate";
import { CREATE_RETRIES, PAGE_BOUNDS, SearchPaths, refuseStream } from "./paths";

const ListOfNamespaces = z.array(SearchNamespaceInfoSchema);
/** The delete answers `{}`. */
const Ignored = z.unknown();

/** A namespace of the account (default: the client's), by its `name`. */
export interface NamespaceRef {
  accountId?: string;
  name: string;
}

export class Namespaces {
  readonly #paths: SearchPaths;

  constructor(readonly client: ApiClient) {
    this.#paths = new SearchPaths(client);
  }

  #base(accountId: string | undefined): string {
    return path`/accounts/${this.client.account(accountId)}/ai-search/namespaces`;
  }

  #one(ids: NamespaceRef, context: string): string {
    const { name } = validate(z.object({ name: SearchNamespaceSchema }), { name: ids.name }, context);
    return this.#base(ids.accountId) + path`/${name}`;
  }

  /** The account's namespaces, page by page (`default` among them: it always exists). */
  list(
    ids: { accountId?: string } = {},
    params: { perPage?: number } = {},
    options: CallOptions = {},
  ): PagedGenerator<SearchNamespace> {
    const base = this.#base(ids.accountId);
    const perPage = this.#paths.perPage(params.perPage, PAGE_BOUNDS.instances, "search.listNamespaces");
    return pageStyle(async (page, per_page) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: base,
        query: { page, per_page },
        schema: ListOfNamespaces,
        ...options,
      });
      return { items: res.value, info: res.resultInfo };
    }, perPage);
  }

  /**
   * Creates a namespace (a name in use is a ConflictError). POST is never blindly repeated: after a
   * connection failure or timeout the name is looked up, and only posted again if it is not there.
   */
  async create(
    ids: { accountId?: string } = {},
    params: CreateNamespaceBody,
    options: CallOptions = {},
  ): Promise<SearchNamespace> {
    const body = validate(CreateNamespaceBodySchema, params, "search.createNamespace");
    const base = this.#base(ids.accountId);
    return createOnce(
      () =>
        this.client.request({
          method: "POST",
          path: base,
          body,
          schema: SearchNamespaceInfoSchema,
          ...options,
        }),
      () => orGone(this.get({ accountId: ids.accountId, name: body.name }, options)),
      { retries: CREATE_RETRIES },
    );
  }

  get(ids: NamespaceRef, options: CallOptions = {}): Promise<SearchNamespace> {
    return this.client.request({
      method: "GET",
      path: this.#one(ids, "search.getNamespace"),
      schema: SearchNamespaceInfoSchema,
      ...options,
    });
  }

  /** Sets the namespace's description (`null` clears it); the name never changes. */
  update(
    ids: NamespaceRef,
    params: UpdateNamespaceBody,
    options: CallOptions = {},
  ): Promise<SearchNamespace> {
    const body = validate(UpdateNamespaceBodySchema, params, "search.updateNamespace");
    return this.client.request({
      method: "PUT",
      path: this.#one(ids, "search.updateNamespace"),
      body,
      schema: SearchNamespaceInfoSchema,
      idempotent: true,
      ...options,
    });
  }

  /** Deletes the namespace and every instance in it (`default` cannot be deleted: a 400). */
  async delete(ids: NamespaceRef, options: CallOptions = {}): Promise<void> {
    await this.client.request({
      method: "DELETE",
      path: this.#one(ids, "search.deleteNamespace"),
      schema: Ignored,
      ...options,
    });
  }

  /**
   * Searches the instances named in `ai_search_options.instance_ids` at once: chunks ranked together,
   * each naming its `instance_id`; an instance that could not be asked is in `errors`.
   */
  search(
    ids: NamespaceRef,
    params: NamespaceSearchBody,
    options: CallOptions = {},
  ): Promise<NamespaceSearchResult> {
    const body = validate(NamespaceSearchBodySchema, params, "search.searchNamespace");
    return this.client.request({
      method: "POST",
      path: `${this.#one(ids, "search.searchNamespace")}/search`,
      body,
      schema: NamespaceSearchResultSchema,
      idempotent: true,
      ...options,
    });
  }

  /**
   * An answer from the chunks of the instances named in `ai_search_options.instance_ids` (OpenAI-style
   * body, no envelope). `stream: true` is refused before sending, as on an instance.
   */
  chatCompletions(
    ids: NamespaceRef,
    params: NamespaceChatCompletionBody,
    options: CallOptions = {},
  ): Promise<NamespaceChatCompletion> {
    const body = validate(NamespaceChatCompletionBodySchema, params, "search.namespaceChatCompletions");
    refuseStream(body, "search.namespaceChatCompletions");
    return this.client.request({
      method: "POST",
      path: `${this.#one(ids, "search.namespaceChatCompletions")}/chat/completions`,
      body,
      schema: NamespaceChatCompletionSchema,
      unwrap: "body",
      idempotent: true,
      ...options,
    });
  }
}
