/**
 * Retrieval on a search instance: `POST …/search` (ranked chunks) and `POST …/chat/completions` (an
 * answer from the retrieved chunks, OpenAI-style, outside the usual envelope). The shapes are the
 * contract's (sdk/generated/search.ts); the namespaced operations take and answer the same ones.
 */
import type { z } from "zod";
import * as G from "../generated/search";

const Search = G.AiSearchInstanceSearchBody;
const Chat = G.AiSearchInstanceChatCompletionBody;

export const ChatMessageSchema = Chat.shape.messages.element;
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const MESSAGE_ROLES = ChatMessageSchema.shape.role.options;

export const AiSearchOptionsSchema = Search.shape.ai_search_options.unwrap();
export type AiSearchOptions = z.infer<typeof AiSearchOptionsSchema>;

const Retrieval = AiSearchOptionsSchema.shape.retrieval.unwrap();
export const RETRIEVAL_TYPES = Retrieval.shape.retrieval_type.unwrap().options;

/** Metadata filters: a map of field → value, or `{type, key, value}` / `{type: "and"|"or", filters}`. */
export const RetrievalFiltersSchema = Retrieval.shape.filters.unwrap();

/** The query is `query`, or else the last user message of `messages` (docs/assumptions.md). */
export const SearchBodySchema = Search.superRefine((body, ctx) => {
  if (body.query === undefined && body.messages === undefined)
    ctx.addIssue({ code: "custom", path: ["query"], message: "is required unless messages is given" });
});
export type SearchBody = z.infer<typeof SearchBodySchema>;

export const ChatCompletionBodySchema = Chat;
export type ChatCompletionBody = z.infer<typeof ChatCompletionBodySchema>;

// ---- responses: the contract's, read openly ----

export const SearchResultSchema = G.AiSearchInstanceSearchResult;
export type SearchResult = z.infer<typeof SearchResultSchema>;

export const SearchChunkSchema = SearchResultSchema.shape.chunks.element;
export type SearchChunk = z.infer<typeof SearchChunkSchema>;

export const ChatCompletionSchema = G.AiSearchInstanceChatCompletionResult;
export type ChatCompletion = z.infer<typeof ChatCompletionSchema>;

// ---- across a namespace's instances: `POST /namespaces/{name}/search` and `/chat/completions` ----

const NamespaceSearch = G.AiSearchNamespaceMultiInstanceSearchBody;

/** `ai_search_options.instance_ids` names the instances asked (1 or more); the query as for one instance. */
export const NamespaceSearchBodySchema = NamespaceSearch.superRefine((body, ctx) => {
  if (body.query === undefined && body.messages === undefined)
    ctx.addIssue({ code: "custom", path: ["query"], message: "is required unless messages is given" });
});
export type NamespaceSearchBody = z.infer<typeof NamespaceSearchBodySchema>;
export type NamespaceSearchOptions = NamespaceSearchBody["ai_search_options"];

export const NamespaceChatCompletionBodySchema = G.AiSearchNamespaceMultiInstanceChatCompletionBody;
export type NamespaceChatCompletionBody = z.infer<typeof NamespaceChatCompletionBodySchema>;

/** Each chunk names the instance it came from; `errors` the instances that could not be asked. */
export const NamespaceSearchResultSchema = G.AiSearchNamespaceMultiInstanceSearchResult;
export type NamespaceSearchResult = z.infer<typeof NamespaceSearchResultSchema>;

export const NamespaceChatCompletionSchema = G.AiSearchNamespaceMultiInstanceChatCompletionResult;
export type NamespaceChatCompletion = z.infer<typeof NamespaceChatCompletionSchema>;
