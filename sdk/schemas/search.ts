/**
 * zod schemas of the search area (spec F): instances, sync jobs and their logs. The spec shows only
 * `{ id }` for create; every other field, enum and limit is the public contract's
 * (contract/openapi/public-subset.json, area "search"). Our own choices are listed in
 * docs/assumptions.md, "Search instances and sync jobs". Items live in ./search-items, retrieval
 * (search and chat) in ./search-retrieval; both are re-exported here.
 */
import { z } from "zod";
import * as G from "../generated/search";
import { lengthIn, str, strict } from "../wire/rules";

export * from "./search-items";
export * from "./search-retrieval";

/** The model catalogues, as the contract lists them (the sdk refuses a model it does not list, as the service would). */
const models = (t: typeof G.AiSearchCreateInstanceBody.shape.ai_search_model) =>
  t
    .unwrap()
    .unwrap()
    .options.filter((m) => m !== "");
export const SEARCH_CHAT_MODELS = models(G.AiSearchCreateInstanceBody.shape.ai_search_model);
export const SEARCH_EMBEDDING_MODELS = G.AiSearchCreateInstanceBody.shape.embedding_model
  .unwrap()
  .unwrap()
  .options.filter((m) => m !== "");
export const SEARCH_RERANKING_MODELS = G.AiSearchCreateInstanceBody.shape.reranking_model
  .unwrap()
  .unwrap()
  .options.filter((m) => m !== "");

/** Instance ids and namespace names: lowercase letters, digits, `-`, `_` (contract/rules/search.json). */
export const SEARCH_NAME_PATTERN = /^[a-z0-9_-]+$/;

/** 1-64 characters (the contract's `id`), of SEARCH_NAME_PATTERN. */
export const SearchInstanceIdSchema = G.AiSearchCreateInstanceBody.shape.id;

/** Namespace names: 1-32 characters (ours; the contract shows none). */
export const SearchNamespaceSchema = G.AiSearchMoveInstanceBody.shape.new_namespace;

/** Job ids come from the server; we only refuse what could not be one. */
export const SearchJobIdSchema = lengthIn(str(), 1, 64);

export const SEARCH_SOURCE_TYPES = ["r2", "web-crawler"] as const;
/** `message_type` numbers as the emulator writes them (the contract gives the type only). */
export const JOB_LOG_TYPES = { info: 0, warning: 1, error: 2 } as const;

// ---- requests: the contract's (sdk/generated/search.ts), with the rules of contract/rules/search.json ----

const Create = G.AiSearchCreateInstanceBody;
const Update = G.AiSearchUpdateInstanceBody;

export const SourceParamsSchema = Create.shape.source_params.unwrap().unwrap();
/** Storage credentials for the source: write-only, never returned (docs/assumptions.md). */
export const StorageCredentialsSchema = SourceParamsSchema.shape.storage_credentials.unwrap();
export const WebCrawlerParamsSchema = SourceParamsSchema.shape.web_crawler.unwrap();
export const IndexingOptionsSchema = Create.shape.indexing_options.unwrap().unwrap();
export const RetrievalOptionsSchema = Create.shape.retrieval_options.unwrap().unwrap();
export const InstanceMetadataSchema = Create.shape.metadata.unwrap();
export const PublicEndpointParamsSchema = Create.shape.public_endpoint_params.unwrap();

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
  ...G.AiSearchUpdateInstanceBodyDefaults,
  ...G.AiSearchCreateInstanceBodyDefaults,
  chunk_size: 256,
} as const;

/** The fields each body takes: a create's `id`, `type`, `source` and `hybrid_search_enabled`, an update's `paused` and prompts. */
export const INSTANCE_CREATE_FIELDS = Object.keys(Create.shape);
export const INSTANCE_UPDATE_FIELDS = Object.keys(Update.shape);

/**
 * A search instance's wire fields a program sets: every field of the create and the update body. None
 * carries a zod default: the server applies SEARCH_INSTANCE_DEFAULTS on create and on every PUT (which
 * replaces), so leaving a field out is already the way to ask for its default. The id comes first (the
 * order of inputs is the order of check's messages and of the native schema).
 */
export const SearchInstanceFields = {
  id: Create.shape.id,
  ...Update.shape,
  ...Create.omit({ id: true }).shape,
};

/** Every setting of an instance (its fields but the id), as the emulator stores and merges them. */
export const InstanceSettingsSchema = strict(Create.omit({ id: true }).extend(Update.shape).shape);
export type InstanceSettings = z.infer<typeof InstanceSettingsSchema>;

export const CreateInstanceBodySchema = Create.superRefine((body, ctx) => {
  for (const issue of settingsIssues(body)) ctx.addIssue({ code: "custom", ...issue });
});
export type CreateInstanceBody = z.infer<typeof CreateInstanceBodySchema>;

/**
 * PUT replaces the settings it takes. `source` may be repeated (a read-modify-write works; the public
 * client sends it) but the server refuses a different value: the data source is fixed at create.
 */
export const UpdateInstanceBodySchema = Update.superRefine((body, ctx) => {
  // An update may repeat `source` alone; the server checks the rules again on the merged settings.
  for (const issue of settingsIssues(body, { requireType: false }))
    ctx.addIssue({ code: "custom", ...issue });
});
export type UpdateInstanceBody = z.infer<typeof UpdateInstanceBodySchema>;

/** `PATCH …/namespaces/{name}/instances/{id}`: moves the instance to another namespace. */
export const MoveInstanceBodySchema = G.AiSearchMoveInstanceBody;
export type MoveInstanceBody = z.infer<typeof MoveInstanceBodySchema>;

export const CreateJobBodySchema = G.AiSearchInstanceCreateJobBody;
export type CreateJobBody = z.infer<typeof CreateJobBodySchema>;

export const CancelJobBodySchema = G.AiSearchInstanceChangeJobStatusBody;
export type CancelJobBody = z.infer<typeof CancelJobBodySchema>;

/** Instances: `per_page` 1-100, `search` in the id, newest first unless told otherwise. */
export const InstanceListQuerySchema = G.AiSearchListInstancesQuery;
export type InstanceListQuery = z.infer<typeof InstanceListQuerySchema>;
/** Jobs: `per_page` 0-50. */
export const JobListQuerySchema = G.AiSearchInstanceListJobsQuery;
/** Job logs: `per_page` 0-500. */
export const JobLogListQuerySchema = G.AiSearchInstanceListJobLogsQuery;
/** The pre-contract name of the instance listing's query. */
export const SearchListQuerySchema = InstanceListQuerySchema;

// ---- responses: the contract's, read openly (unknown fields kept, enums as strings) ----

/** A namespace as the listing answers it (`GET …/ai-search/namespaces`, not in the contract's subset). */
export const SearchNamespaceInfoSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullable().optional(),
  created_at: z.string().nullable().optional(),
});
export type SearchNamespace = z.infer<typeof SearchNamespaceInfoSchema>;

/** A namespace's create body: its `name` (the path's `{name}` from then on) and a `description`. */
export const CreateNamespaceBodySchema = G.AiSearchCreateNamespaceBody;
export type CreateNamespaceBody = z.infer<typeof CreateNamespaceBodySchema>;

/** A namespace's update body: the `description` (`null` clears it). */
export const UpdateNamespaceBodySchema = G.AiSearchUpdateNamespaceBody;
export type UpdateNamespaceBody = z.infer<typeof UpdateNamespaceBodySchema>;

export const SearchInstanceSchema = G.AiSearchFetchInstanceResult;
export type SearchInstance = z.infer<typeof SearchInstanceSchema>;

/** A job: running until `ended_at` is set; `end_reason` then says why (there is no status enum). */
export const SearchJobSchema = G.AiSearchInstanceGetJobResult;
export type SearchJob = z.infer<typeof SearchJobSchema>;

export const SearchJobLogSchema = G.AiSearchInstanceListJobLogsResult.element;
export type SearchJobLog = z.infer<typeof SearchJobLogSchema>;

/** The counts read with a default of 0 (an instance that never synced answers none of them). */
export const SearchStatsSchema = z.looseObject({
  queued: z.number().default(0),
  running: z.number().default(0),
  completed: z.number().default(0),
  error: z.number().default(0),
  last_activity: z.string().nullable().optional(),
});
export type SearchStats = z.infer<typeof SearchStatsSchema>;
