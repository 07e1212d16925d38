/**
 * SearchInstance: a search instance (spec F) in the default namespace or a named one, with its
 * settings, its write-only storage credentials, and its indexing stats among the outputs. The id is
 * `<namespace>/<instanceId>`.
 *
 * Identity (account, namespace, instance id) and the data source (`type`, `source`, fixed by the API
 * after create) replace; a replacement deletes first only while the identity stays (ids are unique
 * per namespace). Every other setting updates in place with a PUT of all of them. The server's
 * defaults are the table's, so the stored inputs are complete and refresh shows drift on any setting.
 * Nested settings are camelCase here and snake_case on the wire.
 */
import { z } from "zod";
import {
  SEARCH_INSTANCE_DEFAULTS as D,
  SearchInstanceSchema,
  SearchNamespaceSchema,
  SearchStatsSchema,
  SearchInstanceFields as W,
  SourceParamsSchema,
  StorageCredentialsSchema,
} from "../../../sdk/schemas/search";
import { CAMEL_CODEC, camelCased, defineResource, local, output, wire } from "../../core/define";

const R = SearchInstanceSchema.shape;
const S = SearchStatsSchema.shape;

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
    type: wire("type", W.type, { replaceOnChange: true }),
    source: wire("source", W.source, { replaceOnChange: true }),
    /** The credentials are not among them: they are `storageCredentials`, the one secret input. */
    sourceParams: wire(
      "source_params",
      camelCased(SourceParamsSchema.omit({ storage_credentials: true })).optional(),
      {},
      CAMEL_CODEC,
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
    aiSearchModel: wire("ai_search_model", W.ai_search_model),
    embeddingModel: wire("embedding_model", W.embedding_model),
    rewriteModel: wire("rewrite_model", W.rewrite_model),
    rerankingModel: wire("reranking_model", W.reranking_model),
    chunk: wire("chunk", W.chunk.unwrap().default(D.chunk)),
    chunkSize: wire("chunk_size", W.chunk_size.unwrap().default(D.chunk_size)),
    chunkOverlap: wire("chunk_overlap", W.chunk_overlap.unwrap().default(D.chunk_overlap)),
    cache: wire("cache", W.cache.unwrap().default(D.cache)),
    cacheThreshold: wire("cache_threshold", W.cache_threshold.unwrap().default(D.cache_threshold)),
    cacheTtl: wire("cache_ttl", W.cache_ttl),
    indexMethod: wire(
      "index_method",
      camelCased(W.index_method.unwrap()).default(() => ({ ...D.index_method })),
      {},
      CAMEL_CODEC,
    ),
    customMetadata: wire(
      "custom_metadata",
      camelCased(W.custom_metadata.unwrap()).optional(),
      {},
      CAMEL_CODEC,
    ),
    syncInterval: wire("sync_interval", W.sync_interval.unwrap().default(D.sync_interval)),
    paused: wire("paused", W.paused.unwrap().default(D.paused)),
    tokenId: wire("token_id", W.token_id),

    createdAt: output("created_at", R.created_at.unwrap()),
    modifiedAt: output("modified_at", R.modified_at.unwrap()),
    createdBy: output("created_by", R.created_by.unwrap()),
    modifiedBy: output("modified_by", R.modified_by.unwrap()),
    status: output("status", R.status.unwrap()),
    enable: output("enable", R.enable.unwrap()),
    lastActivity: output("last_activity", R.last_activity.unwrap()),
    /** Indexing counts, from the instance's stats. */
    stats: output(
      undefined,
      z.object({ queued: S.queued, running: S.running, completed: S.completed, error: S.error }),
    ),
  },
});
