/**
 * zod schemas of the search area (spec F): instances, sync jobs and their logs. The spec shows only
 * `{ id }` for create; every other field, enum and limit is the public contract's
 * (contract/openapi/public-subset.json, area "search"). Our own choices are listed in
 * docs/assumptions.md, "Search instances and sync jobs". Items live in ./search-items, retrieval
 * (search and chat) in ./search-retrieval; both are re-exported here.
 */
import { z } from "zod";
import { noDefaults } from "./common";
import { bool, intIn, numberIn, oneOf, oneOfNumbers, queryInt, requiredString, strict } from "./search-rules";

export * from "./search-items";
export * from "./search-retrieval";
export { SEARCH_CHAT_MODELS, SEARCH_EMBEDDING_MODELS, SEARCH_RERANKING_MODELS } from "./search-rules";
import { SEARCH_CHAT_MODELS, SEARCH_EMBEDDING_MODELS, SEARCH_RERANKING_MODELS } from "./search-rules";

/** Instance ids and namespace names: lowercase letters, digits, `-`, `_` (public-api-notes). */
export const SEARCH_NAME_PATTERN = /^[a-z0-9_-]+$/;
export const SEARCH_NAME_RULE = "must contain only lowercase letters, digits, - and _";

/** 1-64 characters (the contract's `id`). */
export const SearchInstanceIdSchema = requiredString()
  .min(1, "must not be empty")
  .max(64, "must be at most 64 characters")
  .regex(SEARCH_NAME_PATTERN, SEARCH_NAME_RULE);

/** Namespace names: 1-32 characters (ours; the contract shows none). */
export const SearchNamespaceSchema = requiredString()
  .min(1, "must not be empty")
  .max(32, "must be at most 32 characters")
  .regex(SEARCH_NAME_PATTERN, SEARCH_NAME_RULE);

/** Job ids come from the server; we only refuse what could not be one. */
export const SearchJobIdSchema = requiredString()
  .min(1, "must not be empty")
  .max(64, "must be at most 64 characters");

export const SEARCH_SOURCE_TYPES = ["r2", "web-crawler"] as const;
export const CACHE_THRESHOLDS = [
  "super_strict_match",
  "close_enough",
  "flexible_friend",
  "anything_goes",
] as const;
export const METADATA_DATA_TYPES = ["text", "number", "boolean", "datetime"] as const;
export const SYNC_INTERVALS = [900, 1800, 3600, 7200, 14400, 21600, 43200, 86400] as const;
/** Not in the contract's snapshot; the public client's enum (public-api-notes lists `cache_ttl`). */
export const CACHE_TTLS = [600, 1800, 3600, 7200, 21600, 43200, 86400, 172800, 259200, 518400] as const;
export const FUSION_METHODS = ["max", "rrf"] as const;
export const KEYWORD_TOKENIZERS = ["porter", "trigram"] as const;
export const KEYWORD_MATCH_MODES = ["and", "or"] as const;
export const BOOST_DIRECTIONS = ["asc", "desc", "exists", "not_exists"] as const;
export const WEB_PARSE_TYPES = ["sitemap", "feed-rss", "crawl"] as const;
export const CRAWL_SOURCES = ["all", "sitemaps", "links"] as const;
export const RATE_LIMIT_TECHNIQUES = ["fixed", "sliding"] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const str = () => z.string({ error: "must be a string" });
const nullableStr = () => z.string({ error: "must be a string or null" }).nullable();
const list = <T extends z.ZodType>(item: T, max: number) =>
  z.array(item, { error: "must be an array" }).max(max, `must have at most ${max} entries`);

/** A model setting: one of the contract's models, `""` for the service's default, or null. */
function model<const T extends readonly [string, ...string[]]>(models: T) {
  return z
    .enum([...models, ""], {
      error: `must be one of the supported models (${models.join(", ")}) or "" for the default`,
    })
    .nullable();
}

/** Storage credentials for the source: write-only, never returned (docs/assumptions.md). */
export const StorageCredentialsSchema = strict({
  access_key_id: requiredString().min(1, "must not be empty").max(128, "must be at most 128 characters"),
  secret_access_key: requiredString().min(1, "must not be empty").max(256, "must be at most 256 characters"),
});

const HttpUrl = str().refine((v) => URL.canParse(v), "must be an absolute URI");

export const WebCrawlerParamsSchema = strict({
  parse_type: oneOf(WEB_PARSE_TYPES).optional(),
  crawl_options: strict({
    depth: numberIn(1, 100_000).optional(),
    include_external_links: bool().optional(),
    include_subdomains: bool().optional(),
    max_age: numberIn(0, 604_800, " seconds").optional(),
    source: oneOf(CRAWL_SOURCES).optional(),
  }).optional(),
  parse_options: strict({
    content_selector: list(
      strict({
        path: requiredString().max(200, "must be at most 200 characters"),
        selector: requiredString().max(200, "must be at most 200 characters"),
      }),
      10,
    ).optional(),
    /** Header name → value, sent with each crawl request (names kept as given). */
    include_headers: z
      .record(z.string(), str(), { error: "must be an object of header names to strings" })
      .optional(),
    include_images: bool().optional(),
    specific_sitemaps: list(HttpUrl, 10).optional(),
    use_browser_rendering: bool().optional(),
  }).optional(),
  store_options: strict({
    storage_id: requiredString(),
    storage_type: oneOf(["r2"]).optional(),
    r2_jurisdiction: str().optional(),
  }).optional(),
});

export const SourceParamsSchema = strict({
  prefix: str().optional(),
  include_items: list(str(), 10).optional(),
  exclude_items: list(str(), 10).optional(),
  r2_jurisdiction: str().optional(),
  web_crawler: WebCrawlerParamsSchema.optional(),
  storage_credentials: StorageCredentialsSchema.optional(),
});

export const CustomMetadataFieldSchema = strict({
  field_name: requiredString().min(1, "must not be empty").max(64, "must be at most 64 characters"),
  data_type: oneOf(METADATA_DATA_TYPES),
});

export const IndexMethodSchema = strict({ keyword: bool(), vector: bool() });

export const IndexingOptionsSchema = strict({ keyword_tokenizer: oneOf(KEYWORD_TOKENIZERS).optional() });

export const BoostBySchema = strict({
  field: requiredString().min(1, "must not be empty").max(64, "must be at most 64 characters"),
  direction: oneOf(BOOST_DIRECTIONS).optional(),
});

export const RetrievalOptionsSchema = strict({
  boost_by: list(BoostBySchema, 3).optional(),
  keyword_match_mode: oneOf(KEYWORD_MATCH_MODES).optional(),
});

export const InstanceMetadataSchema = strict({
  created_from_aisearch_wizard: bool().optional(),
  search_for_agents: strict({
    hostname: requiredString(),
    zone_id: requiredString(),
    zone_name: requiredString(),
  }).optional(),
  worker_domain: str().optional(),
});

const Toggle = strict({ disabled: bool().optional() });
export const PublicEndpointParamsSchema = strict({
  authorized_hosts: z.array(str(), { error: "must be an array" }).optional(),
  chat_completions_endpoint: Toggle.optional(),
  enabled: bool().optional(),
  mcp: strict({ description: str().optional(), disabled: bool().optional() }).optional(),
  rate_limit: strict({
    period_ms: intIn(60_000, 3_600_000, " ms").optional(),
    requests: intIn(1, Number.MAX_SAFE_INTEGER).optional(),
    technique: oneOf(RATE_LIMIT_TECHNIQUES).optional(),
  }).optional(),
  search_endpoint: Toggle.optional(),
});

/**
 * Settings both the create and the update body take (the contract's two request schemas agree on
 * these). None carries a zod default: the server applies SEARCH_INSTANCE_DEFAULTS.
 */
export const sharedSettingsShape = {
  source_params: SourceParamsSchema.nullable().optional(),
  ai_gateway_id: nullableStr().optional(),
  ai_search_model: model(SEARCH_CHAT_MODELS).optional(),
  embedding_model: model(SEARCH_EMBEDDING_MODELS).optional(),
  rewrite_model: model(SEARCH_CHAT_MODELS).optional(),
  reranking_model: model(SEARCH_RERANKING_MODELS).optional(),
  chunk: bool().optional(),
  chunk_size: intIn(64, Number.MAX_SAFE_INTEGER).optional(),
  chunk_overlap: intIn(0, 30).optional(),
  cache: bool().optional(),
  cache_threshold: oneOf(CACHE_THRESHOLDS).optional(),
  cache_ttl: oneOfNumbers(CACHE_TTLS, " seconds").optional(),
  custom_metadata: list(CustomMetadataFieldSchema, 5).optional(),
  fusion_method: oneOf(FUSION_METHODS).optional(),
  index_method: IndexMethodSchema.optional(),
  indexing_options: IndexingOptionsSchema.nullable().optional(),
  max_num_results: intIn(1, 50).optional(),
  metadata: InstanceMetadataSchema.optional(),
  public_endpoint_params: PublicEndpointParamsSchema.optional(),
  reranking: bool().optional(),
  retrieval_options: RetrievalOptionsSchema.nullable().optional(),
  rewrite_query: bool().optional(),
  score_threshold: numberIn(0, 1).optional(),
  sync_interval: oneOfNumbers(SYNC_INTERVALS, " seconds").optional(),
  token_id: str().regex(UUID, "must be a UUID").optional(),
};

/** Settings only a create takes: the data source and the keyword backend are fixed from then on. */
export const createOnlyShape = {
  type: oneOf(SEARCH_SOURCE_TYPES).nullable().optional(),
  source: nullableStr().optional(),
  hybrid_search_enabled: bool().optional(),
};

/** Settings only an update (PUT) takes. */
export const updateOnlyShape = {
  paused: bool().optional(),
  summarization: bool().optional(),
  summarization_model: model(SEARCH_CHAT_MODELS).optional(),
  system_prompt_ai_search: nullableStr().optional(),
  system_prompt_index_summarization: nullableStr().optional(),
  system_prompt_rewrite_query: nullableStr().optional(),
};

const R2_BUCKET = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
const WEB_SOURCE =
  /^(https?:\/\/)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(:\d{1,5})?(\/\S*)?$/i;

export interface SettingsForRules {
  type?: string | null | undefined;
  source?: string | null | undefined;
}

/**
 * Rules between fields, shared by the sdk (on the body) and the emulator (on the merged settings):
 * a source needs its type, and each type has its own source syntax. (Which source params apply to
 * which type the contract does not say, so none is refused for its type.)
 */
export function settingsIssues(
  s: SettingsForRules,
  o: { requireType: boolean } = { requireType: true },
): { path: string[]; message: string }[] {
  const issues: { path: string[]; message: string }[] = [];
  const type = s.type ?? undefined;
  const source = s.source ?? undefined;
  if (o.requireType && source !== undefined && type === undefined) {
    issues.push({ path: ["type"], message: "is required when source is set" });
  }
  if (type === "r2" && source !== undefined && !R2_BUCKET.test(source)) {
    issues.push({
      path: ["source"],
      message: "must be an R2 bucket name (3-63 lowercase letters, digits and -) when type is r2",
    });
  }
  if (type === "web-crawler" && source !== undefined && !WEB_SOURCE.test(source)) {
    issues.push({ path: ["source"], message: "must be a hostname or http(s) URL when type is web-crawler" });
  }
  return issues;
}

/**
 * What the server fills in for settings a create or a PUT leaves out (the contract's defaults, and
 * ours for `chunk_size`). Shared so the provider can make its stored inputs complete and drift-free.
 */
export const SEARCH_INSTANCE_DEFAULTS = {
  chunk: true,
  chunk_size: 256,
  chunk_overlap: 10,
  cache: true,
  cache_threshold: "close_enough",
  fusion_method: "rrf",
  hybrid_search_enabled: false,
  index_method: { keyword: false, vector: true },
  max_num_results: 10,
  paused: false,
  reranking: false,
  rewrite_query: false,
  score_threshold: 0.4,
  summarization: false,
  sync_interval: 21_600,
} as const;

/** Every setting of an instance, whichever body takes it. */
const settingsFields = { ...createOnlyShape, ...sharedSettingsShape, ...updateOnlyShape };

/**
 * A search instance's wire fields a program sets. None carries a zod default: the server applies
 * SEARCH_INSTANCE_DEFAULTS on create and on every PUT (which replaces), so leaving a field out is
 * already the way to ask for its default.
 */
export const SearchInstanceFields = { id: SearchInstanceIdSchema, ...settingsFields };

export const InstanceSettingsSchema = strict(noDefaults(settingsFields));
export type InstanceSettings = z.infer<typeof InstanceSettingsSchema>;

export const CreateInstanceBodySchema = strict({
  id: SearchInstanceIdSchema,
  ...createOnlyShape,
  ...sharedSettingsShape,
}).superRefine((body, ctx) => {
  for (const issue of settingsIssues(body)) ctx.addIssue({ code: "custom", ...issue });
});
export type CreateInstanceBody = z.infer<typeof CreateInstanceBodySchema>;

/**
 * PUT replaces the settings it takes. `source` may be repeated (a read-modify-write works; the public
 * client sends it) but the server refuses a different value: the data source is fixed at create.
 */
export const UpdateInstanceBodySchema = strict({
  source: nullableStr().optional(),
  ...sharedSettingsShape,
  ...updateOnlyShape,
}).superRefine((body, ctx) => {
  // An update may repeat `source` alone; the server checks the rules again on the merged settings.
  for (const issue of settingsIssues(body, { requireType: false }))
    ctx.addIssue({ code: "custom", ...issue });
});
export type UpdateInstanceBody = z.infer<typeof UpdateInstanceBodySchema>;

/** `PATCH …/namespaces/{name}/instances/{id}`: moves the instance to another namespace. */
export const MoveInstanceBodySchema = strict({ new_namespace: SearchNamespaceSchema });
export type MoveInstanceBody = z.infer<typeof MoveInstanceBodySchema>;

export const CreateJobBodySchema = strict({
  description: str().max(255, "must be at most 255 characters").optional(),
});
export type CreateJobBody = z.infer<typeof CreateJobBodySchema>;

export const CancelJobBodySchema = strict({ action: oneOf(["cancel"]) });
export type CancelJobBody = z.infer<typeof CancelJobBodySchema>;

/** Page-style listing query with the contract's `per_page` bounds for that listing. */
export function searchPageQuery(min: number, max: number) {
  return z.looseObject({ page: queryInt(1), per_page: queryInt(min, max) });
}

/** Instances: `per_page` 1-100, `search` in the id, newest first unless told otherwise. */
export const InstanceListQuerySchema = searchPageQuery(1, 100).extend({
  search: str().optional(),
  namespace: str().optional(),
  order_by: oneOf(["created_at"]).optional(),
  order_by_direction: oneOf(["asc", "desc"]).optional(),
});
export type InstanceListQuery = z.infer<typeof InstanceListQuerySchema>;
/** Jobs: `per_page` 0-50. */
export const JobListQuerySchema = searchPageQuery(0, 50);
/** Job logs: `per_page` 0-500. */
export const JobLogListQuerySchema = searchPageQuery(0, 500);
/** The pre-contract name of the instance listing's query. */
export const SearchListQuerySchema = InstanceListQuerySchema;

// ---- responses: tolerant, unknown fields pass through ----
// Written out rather than derived from the request fields: enums stay strings and nested objects
// stay open, so a value or key the service adds later is read rather than refused. Fields the
// contract marks nullable are nullable here.

const s = () => z.string();
const ns = () => z.string().nullable().optional();
const obj = () => z.looseObject({});

/** A namespace as the listing answers it (`GET …/ai-search/namespaces`). */
export const SearchNamespaceInfoSchema = z.looseObject({
  name: z.string(),
  description: ns(),
  created_at: ns(),
});
export type SearchNamespace = z.infer<typeof SearchNamespaceInfoSchema>;

export const SearchInstanceSchema = z.looseObject({
  id: z.string(),
  namespace: ns(),
  type: ns(),
  source: ns(),
  source_params: obj().nullable().optional(),
  ai_gateway_id: ns(),
  ai_search_model: ns(),
  embedding_model: ns(),
  rewrite_model: ns(),
  reranking_model: ns(),
  summarization_model: ns(),
  chunk: z.boolean().optional(),
  chunk_size: z.number().nullable().optional(),
  chunk_overlap: z.number().nullable().optional(),
  cache: z.boolean().optional(),
  cache_threshold: ns(),
  cache_ttl: z.number().nullable().optional(),
  custom_metadata: z
    .array(z.looseObject({ field_name: s(), data_type: s() }))
    .nullable()
    .optional(),
  fusion_method: ns(),
  hybrid_search_enabled: z.boolean().optional(),
  index_method: z
    .looseObject({ keyword: z.boolean().optional(), vector: z.boolean().optional() })
    .nullable()
    .optional(),
  indexing_options: obj().nullable().optional(),
  max_num_results: z.number().nullable().optional(),
  metadata: obj().nullable().optional(),
  public_endpoint_id: ns(),
  public_endpoint_params: obj().nullable().optional(),
  reranking: z.boolean().optional(),
  retrieval_options: obj().nullable().optional(),
  rewrite_query: z.boolean().optional(),
  score_threshold: z.number().nullable().optional(),
  summarization: z.boolean().optional(),
  system_prompt_ai_search: ns(),
  system_prompt_index_summarization: ns(),
  system_prompt_rewrite_query: ns(),
  sync_interval: z.number().optional(),
  paused: z.boolean().optional(),
  token_id: ns(),
  engine_version: z.number().optional(),
  created_at: s().optional(),
  modified_at: s().optional(),
  created_by: ns(),
  modified_by: ns(),
  status: s().optional(),
  enable: z.boolean().optional(),
  last_activity: ns(),
});
export type SearchInstance = z.infer<typeof SearchInstanceSchema>;

/** A job: running until `ended_at` is set; `end_reason` then says why (there is no status enum). */
export const SearchJobSchema = z.looseObject({
  id: z.string(),
  /** `user` or `schedule`. */
  source: s().optional(),
  description: ns(),
  started_at: ns(),
  last_seen_at: ns(),
  /** Absent (older answers: null) while the job runs. */
  ended_at: ns(),
  end_reason: ns(),
});
export type SearchJob = z.infer<typeof SearchJobSchema>;

/** `message_type` numbers as the emulator writes them (the contract gives the type only). */
export const JOB_LOG_TYPES = { info: 0, warning: 1, error: 2 } as const;

export const SearchJobLogSchema = z.looseObject({
  id: z.number(),
  /** Unix time in seconds (fractional). */
  created_at: z.number(),
  message: z.string(),
  /** 0 info, 1 warning, 2 error (JOB_LOG_TYPES). */
  message_type: z.number(),
});
export type SearchJobLog = z.infer<typeof SearchJobLogSchema>;

export const SearchStatsSchema = z.looseObject({
  queued: z.number().default(0),
  running: z.number().default(0),
  completed: z.number().default(0),
  error: z.number().default(0),
  last_activity: z.string().nullable().optional(),
});
export type SearchStats = z.infer<typeof SearchStatsSchema>;
