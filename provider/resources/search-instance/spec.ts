/**
 * SearchInstance: a search instance (spec F, the public contract's instance) in the default namespace
 * or a named one, with every setting of the service's create and update bodies, its write-only
 * storage credentials, and its indexing stats among the outputs when `readStats` asks for them. The id
 * is `<namespace>/<instanceId>`.
 *
 * Identity (account, namespace, instance id) and what the service fixes at create (`type`, `source`,
 * `hybridSearchEnabled`) replace; a replacement deletes first only while the identity stays (ids are
 * unique per namespace). Every other setting updates in place with a PUT of all of them. The
 * server's defaults are the table's, so the stored inputs are complete and refresh shows drift on any
 * setting. Nested settings are camelCase here and snake_case on the wire.
 */
import { z } from "zod";
import {
  SEARCH_INSTANCE_DEFAULTS as D,
  InstanceMetadataSchema,
  IndexingOptionsSchema,
  PublicEndpointParamsSchema,
  RetrievalOptionsSchema,
  SearchInstanceSchema,
  SearchNamespaceSchema,
  SearchStatsSchema,
  SearchInstanceFields as W,
  SourceParamsSchema,
  StorageCredentialsSchema,
} from "../../../sdk/schemas/search";
import { CAMEL_CODEC, camelCased, defineResource, local, output, wire, type Codec } from "../../core/define";
import { fromApi, toApi } from "../../core/values";

const R = SearchInstanceSchema.shape;
const S = SearchStatsSchema.shape;

/** Crawl header names are the user's (`X-Api-Key`): they travel as given, never re-cased. */
const SOURCE_PARAMS_CODEC: Codec = {
  toWire: (v) => toApi(v, ["includeHeaders"]),
  fromWire: (v) => fromApi(v, ["include_headers"]),
};

/** A program leaves a setting out rather than setting null: the wire's null, without it. */
const set = <T extends z.ZodType>(t: z.ZodOptional<z.ZodNullable<T>>) => t.unwrap().unwrap().optional();

export const SearchInstanceSpec = defineResource({
  kind: "SearchInstance",
  deleteBeforeReplace: "sameIdentity",
  fields: {
    /** Must equal instanceId: an instance's id never changes. */
    importId: local(W.id.optional()),
    /** A named namespace; absent (or "default") means the default one. */
    namespace: local(SearchNamespaceSchema.optional(), { identity: true }),
    /** The instance's `id` (lowercase letters, digits, `-`, `_`), unique per namespace. */
    instanceId: wire("id", W.id, { identity: true }),
    type: wire("type", set(W.type), { replaceOnChange: true }),
    source: wire("source", set(W.source), { replaceOnChange: true }),
    /** Only the create body takes it (the service's update does not): a change replaces. */
    hybridSearchEnabled: wire(
      "hybrid_search_enabled",
      W.hybrid_search_enabled.unwrap().default(D.hybrid_search_enabled),
      { replaceOnChange: true },
    ),
    /** The credentials are not among them: they are `storageCredentials`, the one secret input. */
    sourceParams: wire(
      "source_params",
      camelCased(SourceParamsSchema.omit({ storage_credentials: true })).optional(),
      {},
      SOURCE_PARAMS_CODEC,
    ),
    /**
     * The source's storage credentials: `source_params.storage_credentials` on the wire, never
     * returned. A top-level input so that only they are secret (a secret `sourceParams` would hide
     * every change to the prefix or patterns in previews).
     */
    storageCredentials: local(camelCased(StorageCredentialsSchema).optional(), {
      secret: true,
      writeOnly: true,
    }),
    aiGatewayId: wire("ai_gateway_id", set(W.ai_gateway_id)),
    aiSearchModel: wire("ai_search_model", set(W.ai_search_model)),
    embeddingModel: wire("embedding_model", set(W.embedding_model)),
    rewriteModel: wire("rewrite_model", set(W.rewrite_model)),
    rerankingModel: wire("reranking_model", set(W.reranking_model)),
    summarizationModel: wire("summarization_model", set(W.summarization_model)),
    chunk: wire("chunk", W.chunk.unwrap().default(D.chunk)),
    chunkSize: wire("chunk_size", W.chunk_size.unwrap().default(D.chunk_size)),
    chunkOverlap: wire("chunk_overlap", W.chunk_overlap.unwrap().default(D.chunk_overlap)),
    cache: wire("cache", W.cache.unwrap().default(D.cache)),
    cacheThreshold: wire("cache_threshold", W.cache_threshold.unwrap().default(D.cache_threshold)),
    cacheTtl: wire("cache_ttl", W.cache_ttl),
    customMetadata: wire(
      "custom_metadata",
      camelCased(W.custom_metadata.unwrap()).optional(),
      {},
      CAMEL_CODEC,
    ),
    fusionMethod: wire("fusion_method", W.fusion_method.unwrap().default(D.fusion_method)),
    indexMethod: wire(
      "index_method",
      camelCased(W.index_method.unwrap()).default(() => ({ ...D.index_method })),
      {},
      CAMEL_CODEC,
    ),
    indexingOptions: wire("indexing_options", camelCased(IndexingOptionsSchema).optional(), {}, CAMEL_CODEC),
    maxNumResults: wire("max_num_results", W.max_num_results.unwrap().default(D.max_num_results)),
    metadata: wire("metadata", camelCased(InstanceMetadataSchema).optional(), {}, CAMEL_CODEC),
    publicEndpointParams: wire(
      "public_endpoint_params",
      camelCased(PublicEndpointParamsSchema).optional(),
      {},
      CAMEL_CODEC,
    ),
    reranking: wire("reranking", W.reranking.unwrap().default(D.reranking)),
    retrievalOptions: wire(
      "retrieval_options",
      camelCased(RetrievalOptionsSchema).optional(),
      {},
      CAMEL_CODEC,
    ),
    rewriteQuery: wire("rewrite_query", W.rewrite_query.unwrap().default(D.rewrite_query)),
    scoreThreshold: wire("score_threshold", W.score_threshold.unwrap().default(D.score_threshold)),
    summarization: wire("summarization", W.summarization.unwrap().default(D.summarization)),
    systemPromptAiSearch: wire("system_prompt_ai_search", set(W.system_prompt_ai_search)),
    systemPromptIndexSummarization: wire(
      "system_prompt_index_summarization",
      set(W.system_prompt_index_summarization),
    ),
    systemPromptRewriteQuery: wire("system_prompt_rewrite_query", set(W.system_prompt_rewrite_query)),
    syncInterval: wire("sync_interval", W.sync_interval.unwrap().default(D.sync_interval)),
    paused: wire("paused", W.paused.unwrap().default(D.paused)),
    tokenId: wire("token_id", W.token_id),
    /**
     * Also read the indexing counts into `stats` on create, refresh and update: a request of its own
     * each time (default false; `getSearchInstanceStats` reads them once, where a program needs them).
     */
    readStats: local(z.boolean().default(false)),

    createdAt: output("created_at", R.created_at),
    modifiedAt: output("modified_at", R.modified_at),
    createdBy: output("created_by", R.created_by.unwrap()),
    modifiedBy: output("modified_by", R.modified_by.unwrap()),
    status: output("status", R.status.unwrap()),
    enable: output("enable", R.enable.unwrap()),
    lastActivity: output("last_activity", R.last_activity.unwrap()),
    engineVersion: output("engine_version", R.engine_version.unwrap()),
    /** Set while `publicEndpointParams.enabled` is true. */
    publicEndpointId: output("public_endpoint_id", R.public_endpoint_id.unwrap()),
    /** Indexing counts, from the instance's stats: only while `readStats` is true. */
    stats: output(
      undefined,
      z.object({ queued: S.queued, running: S.running, completed: S.completed, error: S.error }),
    ),
  },
});
