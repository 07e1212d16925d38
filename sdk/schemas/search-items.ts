/**
 * Items of a search instance: what its sync jobs indexed and what was uploaded. The public contract
 * serves them under the namespaced paths only (`…/namespaces/{name}/instances/{id}/items…`), and its
 * shapes are the generated ones (sdk/generated/search.ts, rules in contract/rules/search.json). Only
 * the multipart upload, which has no JSON body in the contract, is written here.
 */
import { z } from "zod";
import * as G from "../generated/search";
import { anyOf, bool, lengthIn, map, num, str, strict } from "../wire/rules";

export const ItemListQuerySchema = G.AiSearchNamespaceInstanceListItemsQuery;
export type ItemListQuery = z.infer<typeof ItemListQuerySchema>;

export const ITEM_STATUSES = ItemListQuerySchema.shape.status.unwrap().options;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** Item ids come from the server; we only refuse what could not be one (docs/assumptions.md). */
export const SearchItemIdSchema = lengthIn(str(), 1, 64);

export const ItemChunksQuerySchema = G.AiSearchNamespaceInstanceListItemChunksQuery;
export const ItemLogsQuerySchema = G.AiSearchNamespaceInstanceLogsItemQuery;

/** `PUT …/items`: (re)index the item with this key now. */
export const PutItemBodySchema = G.AiSearchNamespaceInstanceCreateOrUpdateItemBody;
export type PutItemBody = z.infer<typeof PutItemBodySchema>;

/** `PATCH …/items/{item_id}`: index this item again. */
export const SyncItemBodySchema = G.AiSearchNamespaceInstanceSyncItemBody;
export type SyncItemBody = z.infer<typeof SyncItemBodySchema>;

/** Values of an item's metadata (the instance's `custom_metadata` fields). */
export const ItemMetadataSchema = map(anyOf([str(), num(), bool()], "a string, number or boolean"));

/**
 * The multipart upload's fields as the sdk takes them: `file` (its name is the item's key), the
 * item's metadata (sent as a JSON string), and whether to wait for indexing.
 */
export const UploadItemFieldsSchema = strict({
  file: strict({
    name: lengthIn(str(), 1, 1024),
    content: anyOf([z.string(), z.instanceof(Uint8Array)], "a string or bytes"),
    type: str().optional(),
  }),
  metadata: ItemMetadataSchema.optional(),
  wait_for_completion: bool().optional(),
});
export type UploadItemFields = z.infer<typeof UploadItemFieldsSchema>;

// ---- responses: the contract's, read openly ----

/** Every item answer (list, upload, PUT, read, PATCH) has this one shape. */
export const SearchItemSchema = G.AiSearchNamespaceInstanceGetItemResult;
export type SearchItem = z.infer<typeof SearchItemSchema>;

export const DeletedItemSchema = G.AiSearchNamespaceInstanceDeleteItemResult;

export const ItemChunkSchema = G.AiSearchNamespaceInstanceListItemChunksResult.element;
export type ItemChunk = z.infer<typeof ItemChunkSchema>;

/** The item a chunk comes from, as search answers and chunk listings carry it. */
export const ChunkItemSchema = ItemChunkSchema.shape.item;

/** One processing record of an item (camelCase on the wire, as the contract writes it). */
export const ItemLogSchema = G.AiSearchNamespaceInstanceLogsItemResult.element;
export type ItemLog = z.infer<typeof ItemLogSchema>;

/** Rules of the chunk listing's paging the emulator and the sdk share. */
export const CHUNK_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;
export const ITEM_LOG_PAGE = { defaultLimit: 50, maxLimit: 100 } as const;
/** Items: `result_info.per_page` is 5-50 in the contract, so smaller pages are served as 5. */
export const ITEM_PAGE = { defaultPerPage: 20, minPerPage: 5, maxPerPage: 50 } as const;
