/**
 * Search service tokens: the API tokens (id and secret) the storage-backed sources of instances use,
 * registered once and named by `token_id`. The secret goes out on create and on every update (the
 * PUT is whole) and never comes back.
 */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import type { PagedGenerator } from "../paging";
import {
  SearchTokenBodySchema,
  SearchTokenListQuerySchema,
  SearchTokenSchema,
  type SearchToken,
  type SearchTokenBody,
  type SearchTokenListQuery,
} from "../schemas/search-tokens";
import * as G from "../generated/search";
import { validate } from "../validate";
import { SearchPaths } from "./paths";

/** The query of the token listing, and its page size. */
export interface TokenListParams {
  /** Page size, 1-100 (default 50). */
  perPage?: number;
  /** Only tokens whose name contains this (case-insensitive). */
  search?: SearchTokenListQuery["search"];
}

export interface TokenRef {
  accountId?: string;
  /** The token's id (the service's, a UUID). */
  id: string;
}

/** The contract's largest page of tokens. */
const TOKEN_PAGE_MAX = 100;
const ListOfTokens = G.AiSearchListTokensResult;
const TokenIdSchema = z.object({ id: z.string().min(1, "must not be empty") });
/** The DELETE answers an object with no declared field. */
const Ignored = z.unknown();

export class Tokens {
  readonly #paths: SearchPaths;

  constructor(readonly client: ApiClient) {
    this.#paths = new SearchPaths(client);
  }

  #collection(accountId?: string): string {
    return path`/accounts/${this.client.account(accountId)}/ai-search/tokens`;
  }

  #token(ids: TokenRef, context: string): string {
    const { id } = validate(TokenIdSchema, { id: ids.id }, context);
    return this.#collection(ids.accountId) + path`/${id}`;
  }

  /** The account's tokens, oldest first, page by page. */
  list(
    ids: { accountId?: string } = {},
    params: TokenListParams = {},
    options: CallOptions = {},
  ): PagedGenerator<SearchToken> {
    const perPage = this.#paths.perPage(params.perPage, TOKEN_PAGE_MAX, "search.tokens.list");
    const { search } = validate(SearchTokenListQuerySchema, { search: params.search }, "search.tokens.list");
    return this.#paths.pages(this.#collection(ids.accountId), ListOfTokens, perPage, options, { search });
  }

  /**
   * Registers a token. Not retried: the service takes a second token of the same name, so a repeated
   * POST could register two (the SearchToken resource looks the name up instead).
   */
  async create(
    ids: { accountId?: string },
    params: SearchTokenBody,
    options: CallOptions = {},
  ): Promise<SearchToken> {
    const body = validate(SearchTokenBodySchema, params, "search.tokens.create");
    return this.client.request({
      method: "POST",
      path: this.#collection(ids.accountId),
      body,
      schema: SearchTokenSchema,
      ...options,
    });
  }

  async get(ids: TokenRef, options: CallOptions = {}): Promise<SearchToken> {
    return this.client.request({
      method: "GET",
      path: this.#token(ids, "search.tokens.get"),
      schema: SearchTokenSchema,
      ...options,
    });
  }

  /** Replaces the token: name, `cf_api_id` and `cf_api_key` are all required again. */
  async update(ids: TokenRef, params: SearchTokenBody, options: CallOptions = {}): Promise<SearchToken> {
    const target = this.#token(ids, "search.tokens.update");
    const body = validate(SearchTokenBodySchema, params, "search.tokens.update");
    return this.client.request({ method: "PUT", path: target, body, schema: SearchTokenSchema, ...options });
  }

  /** Refused (409, ConflictError) while an instance names the token by `token_id`. */
  async delete(ids: TokenRef, options: CallOptions = {}): Promise<void> {
    await this.client.request({
      method: "DELETE",
      path: this.#token(ids, "search.tokens.delete"),
      schema: Ignored,
      ...options,
    });
  }
}
