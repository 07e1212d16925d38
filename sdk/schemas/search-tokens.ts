/**
 * Search service tokens (`/ai-search/tokens`): the Cloudflare API token (its id `cf_api_id` and
 * secret `cf_api_key`) an instance's storage-backed source names by `token_id`. The schemas are the
 * contract's (sdk/generated/search.ts); the secret is write-only: no answer carries it.
 */
import type { z } from "zod";
import * as G from "../generated/search";

/** The create body, and the update's: a PUT sends the whole token again, its secret included. */
export const SearchTokenBodySchema = G.AiSearchCreateTokensBody;
/** What the service answers for a token: never its `cf_api_key`. */
export const SearchTokenSchema = G.AiSearchCreateTokensResult;
export const SearchTokenListQuerySchema = G.AiSearchListTokensQuery;
/** The service's value of a field the body leaves out (`legacy: true`). */
export const SEARCH_TOKEN_DEFAULTS = G.AiSearchCreateTokensBodyDefaults;

export type SearchTokenBody = z.input<typeof SearchTokenBodySchema>;
export type SearchToken = z.output<typeof SearchTokenSchema>;
export type SearchTokenListQuery = z.input<typeof SearchTokenListQuerySchema>;
