/**
 * Retrieval on a search instance: `POST …/search` (ranked chunks) and `POST …/chat/completions` (an
 * answer from the retrieved chunks, OpenAI-style, outside the usual envelope).
 */
import { z } from "zod";
import { ChunkItemSchema } from "./search-items";
import {
  SEARCH_CHAT_MODELS,
  SEARCH_RERANKING_MODELS,
  bool,
  intIn,
  numberIn,
  oneOf,
  requiredString,
  strict,
} from "./search-rules";

export const MESSAGE_ROLES = ["system", "developer", "user", "assistant", "tool"] as const;
export const RETRIEVAL_TYPES = ["vector", "keyword", "hybrid"] as const;

export const ChatMessageSchema = strict({
  role: oneOf(MESSAGE_ROLES),
  content: z.string({ error: "must be a string or null" }).nullable(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

const Messages = z
  .array(ChatMessageSchema, { error: "must be an array of messages" })
  .min(1, "must have at least 1 message");

/** Metadata filters: a map of field → value, or `{type, key, value}` / `{type: "and"|"or", filters}`. */
export const RetrievalFiltersSchema = z.record(z.string(), z.unknown(), { error: "must be an object" });

export const AiSearchOptionsSchema = strict({
  cache: strict({
    cache_threshold: oneOf([
      "super_strict_match",
      "close_enough",
      "flexible_friend",
      "anything_goes",
    ]).optional(),
    enabled: bool().optional(),
  }).optional(),
  query_rewrite: strict({
    enabled: bool().optional(),
    model: oneOf(SEARCH_CHAT_MODELS).optional(),
    rewrite_prompt: z.string({ error: "must be a string" }).optional(),
  }).optional(),
  reranking: strict({
    enabled: bool().optional(),
    match_threshold: numberIn(0, 1).optional(),
    model: oneOf(SEARCH_RERANKING_MODELS).optional(),
  }).optional(),
  retrieval: strict({
    boost_by: z
      .array(
        strict({
          field: requiredString().min(1, "must not be empty").max(64, "must be at most 64 characters"),
          direction: oneOf(["asc", "desc", "exists", "not_exists"]).optional(),
        }),
        { error: "must be an array" },
      )
      .max(3, "must have at most 3 entries")
      .optional(),
    context_expansion: intIn(0, 3).optional(),
    filters: RetrievalFiltersSchema.optional(),
    fusion_method: oneOf(["max", "rrf"]).optional(),
    keyword_match_mode: oneOf(["and", "or"]).optional(),
    match_threshold: numberIn(0, 1).optional(),
    max_num_results: intIn(1, 50).optional(),
    retrieval_type: oneOf(RETRIEVAL_TYPES).optional(),
    return_on_failure: bool().optional(),
  }).optional(),
});
export type AiSearchOptions = z.infer<typeof AiSearchOptionsSchema>;

/** The query is `query`, or else the last user message of `messages`. */
export const SearchBodySchema = strict({
  query: z.string({ error: "must be a string" }).min(1, "must not be empty").optional(),
  messages: Messages.optional(),
  ai_search_options: AiSearchOptionsSchema.optional(),
}).superRefine((body, ctx) => {
  if (body.query === undefined && body.messages === undefined)
    ctx.addIssue({ code: "custom", path: ["query"], message: "is required unless messages is given" });
});
export type SearchBody = z.infer<typeof SearchBodySchema>;

export const ChatCompletionBodySchema = strict({
  messages: Messages,
  model: oneOf(SEARCH_CHAT_MODELS).optional(),
  stream: bool().optional(),
  ai_search_options: AiSearchOptionsSchema.optional(),
});
export type ChatCompletionBody = z.infer<typeof ChatCompletionBodySchema>;

// ---- responses: tolerant ----

export const SearchChunkSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  text: z.string(),
  score: z.number(),
  item: ChunkItemSchema.optional(),
  scoring_details: z.looseObject({}).optional(),
});
export type SearchChunk = z.infer<typeof SearchChunkSchema>;

export const SearchResultSchema = z.looseObject({
  chunks: z.array(SearchChunkSchema),
  search_query: z.string(),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;

export const ChatCompletionSchema = z.looseObject({
  id: z.string().optional(),
  object: z.string().optional(),
  model: z.string().optional(),
  choices: z.array(
    z.looseObject({
      index: z.number().optional(),
      message: z.looseObject({ role: z.string(), content: z.string().nullable() }),
    }),
  ),
  chunks: z.array(SearchChunkSchema),
});
export type ChatCompletion = z.infer<typeof ChatCompletionSchema>;
