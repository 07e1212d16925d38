/**
 * zod schemas of the search area (spec F). The spec shows only `{ id }` for create and nothing else;
 * the settings, their enums and limits follow public-api-notes "Search instances", and the remaining
 * bounds are our documented choices (docs/areas/search.md, Assumptions).
 */
import { z } from "zod";
import { noDefaults } from "./common";

/** Instance ids and namespace names: lowercase letters, digits, `-`, `_` (public-api-notes); 1-32 chars (ours). */
export const SEARCH_NAME_PATTERN = /^[a-z0-9_-]+$/;
export const SEARCH_NAME_RULE = "must contain only lowercase letters, digits, - and _";

const requiredString = (what = "a string") =>
  z.string({ error: (iss) => (iss.input === undefined ? "is required" : `must be ${what}`) });

export const SearchInstanceIdSchema = requiredString()
  .min(1, "must not be empty")
  .max(32, "must be at most 32 characters")
  .regex(SEARCH_NAME_PATTERN, SEARCH_NAME_RULE);

export const SearchNamespaceSchema = SearchInstanceIdSchema;

/** Job ids come from the server; we only refuse what could not be one. */
export const SearchJobIdSchema = requiredString()
  .min(1, "must not be empty")
  .max(64, "must be at most 64 characters");

/**
 * Refuses unknown fields (typos never pass silently). The issue sits on the object; readers name each
 * key as the field (sdk/validate.ts, emulator/search/routes.ts), so the rule text stays generic.
 */
function strict<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape, {
    error: (iss) => (iss.code === "unrecognized_keys" ? "is not an allowed field" : "must be an object"),
  });
}

const bool = () => z.boolean({ error: "must be a boolean" });
const int = (min: number, max: number, unit = "") =>
  z
    .number({ error: "must be a number" })
    .int("must be an integer")
    .min(min, `must be between ${min} and ${max}${unit}`)
    .max(max, `must be between ${min} and ${max}${unit}`);
const text = (max: number) =>
  requiredString().min(1, "must not be empty").max(max, `must be at most ${max} characters`);
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(", ")}` });

export const SEARCH_SOURCE_TYPES = ["r2", "web-crawler"] as const;
export const CACHE_THRESHOLDS = [
  "super_strict_match",
  "close_enough",
  "flexible_friend",
  "anything_goes",
] as const;
export const METADATA_DATA_TYPES = ["text", "number", "boolean"] as const;
export const R2_JURISDICTIONS = ["default", "eu", "fedramp"] as const;

/** Storage credentials for the source: write-only, never returned (see docs, "what is secret"). */
export const StorageCredentialsSchema = strict({
  access_key_id: text(128),
  secret_access_key: text(256),
});

const PathPatternsSchema = z
  .array(text(1024), { error: "must be an array of strings" })
  .max(10, "must have at most 10 entries");

export const WebCrawlerParamsSchema = strict({
  parse_type: oneOf(["sitemap", "feed-rss"]).optional(),
  parse_options: strict({
    include_images: bool().optional(),
    use_browser_rendering: bool().optional(),
    specific_sitemaps: z
      .array(text(2048), { error: "must be an array of strings" })
      .max(10, "must have at most 10 entries")
      .optional(),
  }).optional(),
  store_options: strict({
    storage_id: text(256),
    storage_type: oneOf(["r2"]).optional(),
    r2_jurisdiction: oneOf(R2_JURISDICTIONS).optional(),
  }).optional(),
});

export const SourceParamsSchema = strict({
  prefix: text(1024).optional(),
  include_items: PathPatternsSchema.optional(),
  exclude_items: PathPatternsSchema.optional(),
  r2_jurisdiction: oneOf(R2_JURISDICTIONS).optional(),
  web_crawler: WebCrawlerParamsSchema.optional(),
  storage_credentials: StorageCredentialsSchema.optional(),
});

export const CustomMetadataFieldSchema = strict({
  field_name: text(64).regex(
    /^[A-Za-z_][A-Za-z0-9_]*$/,
    "must start with a letter or _ and contain only letters, digits and _",
  ),
  data_type: oneOf(METADATA_DATA_TYPES),
});

export const IndexMethodSchema = strict({ keyword: bool(), vector: bool() }).refine(
  (v) => v.keyword || v.vector,
  {
    message: "at least one of keyword and vector must be true",
  },
);

/** Settings that can change after create (PUT replaces all of them). */
export const mutableSettingsShape = {
  source_params: SourceParamsSchema.optional(),
  ai_search_model: text(128).optional(),
  embedding_model: text(128).optional(),
  rewrite_model: text(128).optional(),
  reranking_model: text(128).optional(),
  chunk: bool().optional(),
  chunk_size: int(64, 4096).optional(),
  chunk_overlap: int(0, 30).optional(),
  cache: bool().optional(),
  cache_threshold: oneOf(CACHE_THRESHOLDS).optional(),
  cache_ttl: int(60, 2_592_000, " seconds").optional(),
  index_method: IndexMethodSchema.optional(),
  custom_metadata: z
    .array(CustomMetadataFieldSchema, { error: "must be an array" })
    .max(5, "must have at most 5 entries")
    .superRefine((fields, ctx) => {
      const seen = new Set<string>();
      fields.forEach((f, i) => {
        if (seen.has(f.field_name)) {
          ctx.addIssue({ code: "custom", message: "must be unique", path: [i, "field_name"] });
        }
        seen.add(f.field_name);
      });
    })
    .optional(),
  sync_interval: int(900, 86_400, " seconds").optional(),
  paused: bool().optional(),
  token_id: text(64).optional(),
};

/** Settings fixed at create: changing where the data comes from means a new instance. */
export const immutableSettingsShape = {
  type: oneOf(SEARCH_SOURCE_TYPES).optional(),
  source: text(512).optional(),
};

const R2_BUCKET = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
const WEB_SOURCE =
  /^(https?:\/\/)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(:\d{1,5})?(\/\S*)?$/i;

export interface SettingsForRules {
  type?: string | undefined;
  source?: string | undefined;
  source_params?: { web_crawler?: unknown; prefix?: unknown } | undefined;
}

/**
 * Rules between fields, shared by the sdk (on the body) and the emulator (on the merged settings):
 * a source needs its type, and each type has its own source syntax and source params.
 */
export function settingsIssues(
  s: SettingsForRules,
  o: { requireType: boolean } = { requireType: true },
): { path: string[]; message: string }[] {
  const issues: { path: string[]; message: string }[] = [];
  if (o.requireType && s.source !== undefined && s.type === undefined) {
    issues.push({ path: ["type"], message: "is required when source is set" });
  }
  if (s.type === "r2" && s.source !== undefined && !R2_BUCKET.test(s.source)) {
    issues.push({
      path: ["source"],
      message: "must be an R2 bucket name (3-63 lowercase letters, digits and -) when type is r2",
    });
  }
  if (s.type === "web-crawler" && s.source !== undefined && !WEB_SOURCE.test(s.source)) {
    issues.push({ path: ["source"], message: "must be a hostname or http(s) URL when type is web-crawler" });
  }
  if (s.type === "r2" && s.source_params?.web_crawler !== undefined) {
    issues.push({
      path: ["source_params", "web_crawler"],
      message: "is only allowed when type is web-crawler",
    });
  }
  if (s.type === "web-crawler" && s.source_params?.prefix !== undefined) {
    issues.push({ path: ["source_params", "prefix"], message: "is only allowed when type is r2" });
  }
  return issues;
}

/**
 * What the server fills in for settings a create or a PUT leaves out (public defaults of the
 * service). Shared so the provider can make its stored inputs complete and drift-free.
 */
export const SEARCH_INSTANCE_DEFAULTS = {
  chunk: true,
  chunk_size: 256,
  chunk_overlap: 10,
  cache: true,
  cache_threshold: "close_enough",
  index_method: { keyword: false, vector: true },
  sync_interval: 21_600,
  paused: false,
} as const;

/** Every setting of an instance, fixed or not. */
const settingsFields = { ...immutableSettingsShape, ...mutableSettingsShape };

/**
 * A search instance's wire fields a program sets. None carries a zod default: the server applies
 * SEARCH_INSTANCE_DEFAULTS on create and on every PUT (which replaces), so leaving a field out is
 * already the way to ask for its default.
 */
export const SearchInstanceFields = { id: SearchInstanceIdSchema, ...settingsFields };

export const InstanceSettingsSchema = strict(noDefaults(settingsFields));
export type InstanceSettings = z.infer<typeof InstanceSettingsSchema>;

export const CreateInstanceBodySchema = strict(SearchInstanceFields).superRefine((body, ctx) => {
  for (const issue of settingsIssues(body)) ctx.addIssue({ code: "custom", ...issue });
});
export type CreateInstanceBody = z.infer<typeof CreateInstanceBodySchema>;

/**
 * PUT replaces the mutable settings. `type` and `source` may be repeated (so a read-modify-write
 * works) but the server refuses a different value: they are fixed at create.
 */
export const UpdateInstanceBodySchema = strict(noDefaults(settingsFields)).superRefine((body, ctx) => {
  // An update may repeat `source` alone; the server checks the rules again on the merged settings.
  for (const issue of settingsIssues(body, { requireType: false }))
    ctx.addIssue({ code: "custom", ...issue });
});
export type UpdateInstanceBody = z.infer<typeof UpdateInstanceBodySchema>;

export const CancelJobBodySchema = strict({ action: oneOf(["cancel"]) });
export type CancelJobBody = z.infer<typeof CancelJobBodySchema>;

/** Page-style listing query (`page` 1.., `per_page` 1-100). */
export const SearchListQuerySchema = z.looseObject({
  page: z.coerce
    .number({ error: "must be a number" })
    .int("must be an integer")
    .min(1, "must be at least 1")
    .optional(),
  per_page: z.coerce
    .number({ error: "must be a number" })
    .int("must be an integer")
    .min(1, "must be between 1 and 100")
    .max(100, "must be between 1 and 100")
    .optional(),
});

// ---- responses: tolerant, unknown fields pass through ----
// Written out rather than derived from SearchInstanceFields: enums stay strings and nested objects
// stay open, so a value or key the service adds later is reported rather than refused.

export const SearchInstanceSchema = z.looseObject({
  id: z.string(),
  namespace: z.string().optional(),
  type: z.string().optional(),
  source: z.string().optional(),
  source_params: z.looseObject({}).optional(),
  ai_search_model: z.string().optional(),
  embedding_model: z.string().optional(),
  rewrite_model: z.string().optional(),
  reranking_model: z.string().optional(),
  chunk: z.boolean().optional(),
  chunk_size: z.number().optional(),
  chunk_overlap: z.number().optional(),
  cache: z.boolean().optional(),
  cache_threshold: z.string().optional(),
  cache_ttl: z.number().optional(),
  index_method: z.looseObject({ keyword: z.boolean().optional(), vector: z.boolean().optional() }).optional(),
  custom_metadata: z.array(z.looseObject({ field_name: z.string(), data_type: z.string() })).optional(),
  sync_interval: z.number().optional(),
  paused: z.boolean().optional(),
  token_id: z.string().optional(),
  created_at: z.string().optional(),
  modified_at: z.string().optional(),
  created_by: z.string().nullable().optional(),
  modified_by: z.string().nullable().optional(),
  status: z.string().optional(),
  enable: z.boolean().optional(),
  last_activity: z.string().nullable().optional(),
});
export type SearchInstance = z.infer<typeof SearchInstanceSchema>;

export const SearchJobSchema = z.looseObject({
  id: z.string(),
  /** `user` or `schedule`. */
  source: z.string().optional(),
  description: z.string().nullable().optional(),
  started_at: z.string().nullable().optional(),
  last_seen_at: z.string().nullable().optional(),
  /** A job is running until this is set (there is no status enum). */
  ended_at: z.string().nullable().optional(),
  end_reason: z.string().nullable().optional(),
});
export type SearchJob = z.infer<typeof SearchJobSchema>;

export const SearchJobLogSchema = z.looseObject({
  id: z.union([z.number(), z.string()]),
  created_at: z.string(),
  message: z.string(),
  message_type: z.string(),
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
