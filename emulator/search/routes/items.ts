/** An instance's items (the namespaced base only): list, upload, index, read, sync, delete, chunks, logs, download. */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AreaContext } from "../../area";
import { boundaryOf, MultipartError, parseMultipart, type Part } from "../../builds/multipart";
import { answer, orEmpty } from "../../define";
import { parseWith } from "../../http";
import { pageFields, pageOf, queryInteger, type PageRule } from "../../paging";
import {
  CHUNK_PAGE,
  DeletedItemSchema,
  ITEM_LOG_PAGE,
  ITEM_PAGE,
  ItemChunkSchema,
  ItemChunksQuerySchema,
  ItemListQuerySchema,
  ItemLogSchema,
  ItemLogsQuerySchema,
  ItemMetadataSchema,
  PutItemBodySchema,
  SearchItemSchema,
  SyncItemBodySchema,
  type ItemListQuery,
} from "../../../sdk/schemas/search";
import { invalid } from "../state";
import { chunkViews, itemLogViews, itemView } from "../views";
import * as G from "../../../sdk/generated/search";
import { INVALID, NAMED_BASE, bareRoute, type SearchArea } from "./context";

/** `per_page` of the item listing as the contract gives it (0 is the default size). */
const ITEM_PAGES: PageRule = { min: 0, max: ITEM_PAGE.maxPerPage, default: ITEM_PAGE.defaultPerPage };

const ITEMS = `${NAMED_BASE}/:id/items`;

export function itemRoutes(area: SearchArea): void {
  area.get(
    ITEMS,
    {
      querystring: ItemListQuerySchema.extend(pageFields(ITEM_PAGES)),
      params: G.AiSearchNamespaceInstanceListItemsPath,
      response: z.array(SearchItemSchema),
      permissions: "instances",
    },
    ({ auth: { model, ns }, params, query }) => {
      const inst = model.instance(ns, params.id);
      const views = sortItems(
        model.items(inst).map(({ item }) => itemView(ns, inst, item)),
        query,
      );
      const perPage = Math.max(ITEM_PAGE.minPerPage, query.per_page || ITEM_PAGE.defaultPerPage);
      const page = pageOf(views, { page: query.page, per_page: perPage }, ITEM_PAGES);
      return answer(page.items, { resultInfo: page.resultInfo });
    },
  );

  area.post(
    ITEMS,
    {
      params: G.AiSearchNamespaceInstanceUploadItemPath,
      response: SearchItemSchema,
      permissions: "instances",
      accepts: ["multipart/form-data"],
    },
    ({ auth: { model, ns }, params, req }) => {
      const inst = model.instance(ns, params.id);
      const upload = uploadOf(req);
      return itemView(ns, inst, model.uploadItem(inst, upload.key, upload.text, upload.metadata));
    },
  );

  area.put(
    ITEMS,
    {
      params: G.AiSearchNamespaceInstanceCreateOrUpdateItemPath,
      body: orEmpty(PutItemBodySchema),
      response: SearchItemSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns }, params, body }) => {
      const inst = model.instance(ns, params.id);
      return itemView(ns, inst, model.indexKey(inst, body.key));
    },
  );

  const item = `${ITEMS}/:item_id`;
  area.get(
    item,
    { params: G.AiSearchNamespaceInstanceGetItemPath, response: SearchItemSchema, permissions: "instances" },
    ({ auth: { model, ns }, params }) => {
      const inst = model.instance(ns, params.id);
      return itemView(ns, inst, model.item(inst, params.item_id));
    },
  );

  area.patch(
    item,
    {
      params: G.AiSearchNamespaceInstanceSyncItemPath,
      body: orEmpty(SyncItemBodySchema),
      response: SearchItemSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns }, params }) => {
      const inst = model.instance(ns, params.id);
      return itemView(ns, inst, model.syncItem(inst, params.item_id));
    },
  );

  area.delete(
    item,
    {
      params: G.AiSearchNamespaceInstanceDeleteItemPath,
      response: DeletedItemSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns }, params }) => {
      const inst = model.instance(ns, params.id);
      return { key: model.deleteItem(inst, params.item_id).key };
    },
  );

  area.get(
    `${item}/chunks`,
    {
      querystring: ItemChunksQuerySchema.extend({
        limit: queryInteger(1, CHUNK_PAGE.maxLimit),
        offset: queryInteger(0),
      }),
      params: G.AiSearchNamespaceInstanceListItemChunksPath,
      response: z.array(ItemChunkSchema),
      permissions: "instances",
    },
    ({ auth: { model, ns }, params, query }) => {
      const inst = model.instance(ns, params.id);
      const all = chunkViews(inst, model.item(inst, params.item_id));
      const limit = query.limit ?? CHUNK_PAGE.defaultLimit;
      const offset = query.offset ?? 0;
      const slice = all.slice(offset, offset + limit);
      return answer(slice, { resultInfo: { count: slice.length, limit, offset, total: all.length } });
    },
  );

  area.get(
    `${item}/logs`,
    {
      querystring: ItemLogsQuerySchema.extend({ limit: queryInteger(1, ITEM_LOG_PAGE.maxLimit) }),
      params: G.AiSearchNamespaceInstanceLogsItemPath,
      response: z.array(ItemLogSchema),
      permissions: "instances",
    },
    ({ auth: { model, ns }, params, query }) => {
      const inst = model.instance(ns, params.id);
      const all = itemLogViews(inst, model.item(inst, params.item_id));
      const limit = query.limit ?? ITEM_LOG_PAGE.defaultLimit;
      const offset = query.cursor === undefined ? 0 : cursorOffset(query.cursor);
      const slice = all.slice(offset, offset + limit);
      const more = offset + limit < all.length;
      return answer(slice, {
        resultInfo: {
          count: slice.length,
          cursor: more ? Buffer.from(`offset:${offset + limit}`).toString("base64url") : null,
          per_page: limit,
          truncated: more,
        },
      });
    },
  );
}

/** An item's download: its text as it was uploaded, outside the envelope. */
export function itemDownloadRoute(app: FastifyInstance, ctx: AreaContext): void {
  bareRoute(
    app,
    ctx,
    "GET",
    `${ITEMS}/:item_id/download`,
    G.AiSearchNamespaceInstanceGetItemContentPath,
    ({ caller: { model, ns }, params, reply }) => {
      const inst = model.instance(ns, params.id);
      const item = model.item(inst, params.item_id);
      return reply.code(200).type("application/octet-stream").send(Buffer.from(item.text));
    },
  );
}

function cursorOffset(cursor: string): number {
  const m = /^offset:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!m) throw invalid("cursor", "is not a cursor this listing gave");
  return Number(m[1]);
}

const STATUS_ORDER = ["running", "queued", "error", "completed", "skipped", "outdated"];

/** The listing's filters and order: by status (then key), or newest `last_seen_at` first. */
function sortItems<
  T extends { id: string; key: string; status: string; source_id?: string | null; last_seen_at?: string },
>(views: T[], q: ItemListQuery): T[] {
  const kept = views.filter(
    (v) =>
      (q.search === undefined || v.key.includes(q.search)) &&
      (q.status === undefined || v.status === q.status) &&
      (q.source === undefined || v.source_id === q.source) &&
      (q.item_id === undefined || v.id === q.item_id),
  );
  const byKey = (a: T, b: T): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  return kept.sort((a, b) =>
    q.sort_by === "modified_at"
      ? (b.last_seen_at ?? "").localeCompare(a.last_seen_at ?? "") || byKey(a, b)
      : STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status) || byKey(a, b),
  );
}

/** The multipart upload: a `file` part with a filename (the key), optional `metadata` (JSON). */
function uploadOf(req: FastifyRequest): {
  key: string;
  text: string;
  metadata?: Record<string, string | number | boolean>;
} {
  const type = req.headers["content-type"] ?? "";
  if (!/^multipart\/form-data/i.test(type) || !Buffer.isBuffer(req.body))
    throw invalid("body", "must be multipart/form-data with a file part");
  let parts: Part[];
  try {
    parts = parseMultipart(req.body, boundaryOf(type));
  } catch (e) {
    if (e instanceof MultipartError) throw invalid("body", e.message.replace(/^[a-z-]+: /, ""));
    throw e;
  }
  const file = parts.find((p) => p.name === "file");
  if (!file?.filename) throw invalid("file", "is required: a file part with a filename");
  const meta = parts.find((p) => p.name === "metadata");
  let metadata: Record<string, string | number | boolean> | undefined;
  if (meta) {
    let json: unknown;
    try {
      json = JSON.parse(meta.body.toString("utf8"));
    } catch {
      throw invalid("metadata", "must be a JSON object");
    }
    metadata = parseWith(ItemMetadataSchema, json, (lines) =>
      INVALID(lines.map((l) => (l.startsWith("body") ? l.replace(/^body/, "metadata") : `metadata.${l}`))),
    );
  }
  const wait = parts.find((p) => p.name === "wait_for_completion")?.body.toString("utf8");
  if (wait !== undefined && wait !== "true" && wait !== "false")
    throw invalid("wait_for_completion", "must be true or false");
  return { key: file.filename, text: file.body.toString("utf8"), ...(metadata ? { metadata } : {}) };
}
