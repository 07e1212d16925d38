/**
 * Items of a search instance: what its sync jobs indexed and what was uploaded. The public contract
 * serves them under the namespaced paths only (`…/namespaces/{name}/instances/{id}/items…`).
 */
import { z } from "zod";
import { bool, oneOf, queryInt, requiredString, strict } from "./search-rules";

export const ITEM_STATUSES = ["queued", "running", "completed", "error", "skipped", "outdated"] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** Item ids come from the server; we only refuse what could not be one. */
export const SearchItemIdSchema = requiredString()
  .min(1, "must not be empty")
  .max(64, "must be at most 64 characters");

const text = (max: number) =>
  z.string({ error: "must be a string" }).max(max, `must be at most ${max} characters`).optional();

export const ItemListQuerySchema = z.looseObject({
  page: queryInt(1),
  per_page: queryInt(0, 50),
  search: text(256),
  sort_by: oneOf(["status", "modified_at"]).optional(),
  status: oneOf(ITEM_STATUSES).optional(),
  source: text(512),
  metadata_filter: text(2048),
  item_id: text(64),
});
export type ItemListQuery = z.infer<typeof ItemListQuerySchema>;

export const ItemChunksQuerySchema = z.looseObject({
  limit: queryInt(1, 100),
  offset: queryInt(0),
});

export const ItemLogsQuerySchema = z.looseObject({ limit: queryInt(1, 100), cursor: text(512) });

/** `PUT …/items`: (re)index the item with this key now. */
export const PutItemBodySchema = strict({
  key: requiredString().min(1, "must not be empty"),
  next_action: oneOf(["INDEX"]),
  wait_for_completion: bool().optional(),
});
export type PutItemBody = z.infer<typeof PutItemBodySchema>;

/** `PATCH …/items/{item_id}`: index this item again. */
export const SyncItemBodySchema = strict({
  next_action: oneOf(["INDEX"]),
  wait_for_completion: bool().optional(),
});
export type SyncItemBody = z.infer<typeof SyncItemBodySchema>;

/** Values of an item's metadata (the instance's `custom_metadata` fields). */
export const ItemMetadataSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean()], { error: "must be a string, number or boolean" }),
  { error: "must be an object" },
);

/**
 * The multipart upload's fields as the sdk takes them: `file` (its name is the item's key), the
 * item's metadata (sent as a JSON string), and whether to wait for indexing.
 */
export const UploadItemFieldsSchema = strict({
  file: strict({
    name: requiredString().min(1, "must not be empty").max(1024, "must be at most 1024 characters"),
    content: z.union([z.string(), z.instanceof(Uint8Array)], { error: "must be a string or bytes" }),
    type: z.string({ error: "must be a string" }).optional(),
  }),
  metadata: ItemMetadataSchema.optional(),
  wait_for_completion: bool().optional(),
});
export type UploadItemFields = z.infer<typeof UploadItemFieldsSchema>;

// ---- responses: tolerant ----

export const SearchItemSchema = z.looseObject({
  id: z.string(),
  key: z.string(),
  status: z.string(),
  checksum: z.string().optional(),
  chunks_count: z.number().nullable().optional(),
  created_at: z.string().optional(),
  last_seen_at: z.string().optional(),
  file_size: z.number().nullable().optional(),
  namespace: z.string().optional(),
  next_action: z.string().nullable().optional(),
  source_id: z.string().nullable().optional(),
  error: z.string().optional(),
});
export type SearchItem = z.infer<typeof SearchItemSchema>;

export const DeletedItemSchema = z.looseObject({ key: z.string() });

/** The item a chunk comes from, as search answers and chunk listings carry it. */
export const ChunkItemSchema = z.looseObject({
  key: z.string(),
  metadata: z.looseObject({}).optional(),
  timestamp: z.number().optional(),
});

export const ItemChunkSchema = z.looseObject({
  id: z.string(),
  text: z.string(),
  start_byte: z.number().optional(),
  end_byte: z.number().optional(),
  item: ChunkItemSchema,
});
export type ItemChunk = z.infer<typeof ItemChunkSchema>;

/** One processing record of an item (camelCase on the wire, as the contract writes it). */
export const ItemLogSchema = z.looseObject({
  action: z.string(),
  message: z.string().nullable().optional(),
  chunkCount: z.number().nullable(),
  errorType: z.string().nullable(),
  fileKey: z.string(),
  processingTimeMs: z.number().nullable(),
  timestamp: z.string(),
});
export type ItemLog = z.infer<typeof ItemLogSchema>;

/** Rules of the chunk listing's paging the emulator and the sdk share. */
export const CHUNK_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;
export const ITEM_LOG_PAGE = { defaultLimit: 50, maxLimit: 100 } as const;
/** Items: `result_info.per_page` is 5-50 in the contract, so smaller pages are served as 5. */
export const ITEM_PAGE = { defaultPerPage: 20, minPerPage: 5, maxPerPage: 50 } as const;
