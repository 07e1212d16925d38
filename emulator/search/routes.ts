/** HTTP layer of the search area: one thin handler per operation over ./state, rendered by ./views. */
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from "fastify";
import { z } from "zod";
import type { AreaContext, AreaModule } from "../area";
import type { Permission } from "../auth";
import { boundaryOf, MultipartError, parseMultipart, type Part } from "../builds/multipart";
import {
  AccountParams,
  JSON_ONLY,
  NoParams,
  answer,
  defineArea,
  defineControl,
  orEmpty,
  requireMediaType,
} from "../define";
import { DomainError, parseWith, type InvalidRenderer } from "../http";
import { pageFields, pageOf, queryInteger, type PageRule } from "../paging";
import {
  CancelJobBodySchema,
  ChatCompletionBodySchema,
  ChatCompletionSchema,
  CreateInstanceBodySchema,
  CreateJobBodySchema,
  DeletedItemSchema,
  InstanceListQuerySchema,
  ItemChunkSchema,
  ItemChunksQuerySchema,
  ItemListQuerySchema,
  ItemLogSchema,
  ItemLogsQuerySchema,
  ItemMetadataSchema,
  ITEM_PAGE,
  CHUNK_PAGE,
  ITEM_LOG_PAGE,
  JobListQuerySchema,
  JobLogListQuerySchema,
  MoveInstanceBodySchema,
  PutItemBodySchema,
  SearchBodySchema,
  SearchInstanceSchema,
  SearchItemSchema,
  SearchJobLogSchema,
  SearchJobSchema,
  SearchListQuerySchema,
  SearchResultSchema,
  SearchStatsSchema,
  SyncItemBodySchema,
  UpdateInstanceBodySchema,
  type ItemListQuery,
} from "../../sdk/schemas/search";
import { chat, search } from "./ask";
import {
  initialState,
  invalid,
  invalidItem,
  SearchModel,
  type NamespaceRecord,
  type SearchState,
} from "./state";
import {
  chunkViews,
  instanceView,
  itemLogViews,
  itemView,
  jobView,
  jobViews,
  logViews,
  statsView,
} from "./views";

/** `per_page` of each listing as the contract gives it (0, where allowed, is the default size). */
const INSTANCE_PAGES: PageRule = { min: 1, max: 100, default: 20 };
const JOB_PAGES: PageRule = { min: 0, max: 50, default: 20 };
const JOB_LOG_PAGES: PageRule = { min: 0, max: 500, default: 20 };
const ITEM_PAGES: PageRule = { min: 0, max: ITEM_PAGE.maxPerPage, default: ITEM_PAGE.defaultPerPage };

/** The same operations under the default and under a named namespace (spec F). */
const DEFAULT_BASE = "/accounts/:account_id/ai-search/instances";
const NAMED_BASE = "/accounts/:account_id/ai-search/namespaces/:namespace/instances";
const BASES = [DEFAULT_BASE, NAMED_BASE] as const;

/** Spec F, Authentication: a token with both search Edit and Run, for every operation. */
const REQUIRED: readonly Permission[] = ["search:edit", "search:run"];

/**
 * Which namespace a route acts in: an instance route's path namespace must exist (404); a collection
 * route (list, create) documents no 404, so an unknown namespace there is a 400; namespace routes
 * name the namespace they act on themselves.
 */
type Scope = "instances" | "collection" | "namespaces";

interface Caller {
  model: SearchModel;
  /** The namespace holding the path's instances; looked up before the body is read. */
  ns: NamespaceRecord;
  actor: string;
}

const Instances = AccountParams.extend({ namespace: z.string().optional() });
const Instance = Instances.extend({ id: z.string() });
const Job = Instance.extend({ job_id: z.string() });
const Item = Instance.extend({ item_id: z.string().max(64, "must be at most 64 characters") });
const Namespace = AccountParams.extend({ namespace: z.string() });

/** The contract's 400s carry `path`: each `field: rule` line names its field, key by key. */
const INVALID: InvalidRenderer = (lines) =>
  new DomainError(
    400,
    lines.map((line) => {
      const at = line.indexOf(": ");
      return at < 0 ? invalidItem("body", line) : invalidItem(line.slice(0, at), line.slice(at + 2));
    }),
  );

function modelOf(ctx: AreaContext): SearchModel {
  return new SearchModel(ctx.store.area<SearchState>("search", initialState), ctx.clock.now());
}

/** The caller, and the namespace the path names, before the body is read (any route of the area). */
function authenticate(
  ctx: AreaContext,
  req: FastifyRequest,
  scope: Scope,
  params: { account_id: string; namespace?: string | undefined },
): Caller {
  const token = ctx.auth.require(req, { accountId: params.account_id, all: REQUIRED });
  const model = modelOf(ctx);
  const name = scope === "namespaces" ? undefined : params.namespace;
  return { model, ns: namespaceFor(model, params.account_id, name, scope), actor: token.name ?? "api-token" };
}

function namespaceFor(
  model: SearchModel,
  account: string,
  name: string | undefined,
  scope: Scope,
): NamespaceRecord {
  try {
    return model.namespace(account, name);
  } catch (err) {
    if (scope === "collection" && err instanceof DomainError && err.status === 404)
      throw invalid("namespace", `namespace "${name}" does not exist`);
    throw err;
  }
}

type SearchArea = ReturnType<typeof searchApi>;

function searchApi(app: FastifyInstance, ctx: AreaContext) {
  return defineArea(app, {
    envelope: "result",
    invalid: INVALID,
    // The contract documents a 400 (with `path`) on the search operations, and no 415.
    unsupported: (line) => INVALID([line]),
    auth: (req, scope: Scope, params: { account_id: string; namespace?: string | undefined }): Caller =>
      authenticate(ctx, req, scope, params),
  });
}

/**
 * A route whose answer is not the usual envelope (chat completions, a download): the same auth
 * before the body, the same 400s, and the handler writes the reply itself.
 */
function bareRoute<P extends z.ZodType<{ account_id: string; namespace?: string | undefined }>>(
  app: FastifyInstance,
  ctx: AreaContext,
  method: HTTPMethods,
  url: string,
  params: P,
  handler: (call: { caller: Caller; params: z.output<P>; body: unknown; reply: FastifyReply }) => unknown,
): void {
  const early = new WeakMap<FastifyRequest, { caller: Caller; params: z.output<P> }>();
  app.route({
    method,
    url,
    config: { invalid: INVALID },
    onRequest: async (req) => {
      const parsed: z.output<P> = parseWith(params, req.params, INVALID);
      early.set(req, { caller: authenticate(ctx, req, "instances", parsed), params: parsed });
    },
    preParsing: async (req, _reply, payload) => {
      requireMediaType(req, JSON_ONLY, (line) => INVALID([line]));
      return payload;
    },
    handler: async (req, reply) => {
      const seen = early.get(req);
      if (!seen) throw new Error(`${method} ${url}: auth did not run`);
      return handler({ ...seen, body: req.body ?? undefined, reply });
    },
  });
}

function instanceRoutes(area: SearchArea, base: string): void {
  area.post(
    base,
    {
      params: Instances,
      body: orEmpty(CreateInstanceBodySchema),
      response: SearchInstanceSchema,
      permissions: "collection",
    },
    ({ auth: { model, ns, actor }, body }) =>
      answer(instanceView(model, ns, model.createInstance(ns, body, actor)), { status: 201 }),
  );

  area.get(
    base,
    {
      querystring: InstanceListQuerySchema.extend(pageFields(INSTANCE_PAGES)),
      params: Instances,
      response: z.array(SearchInstanceSchema),
      permissions: "collection",
    },
    ({ auth: { model, ns }, params, query }) => {
      // The default base's `namespace` query names another namespace to list.
      const where =
        params.namespace === undefined && query.namespace !== undefined
          ? namespaceFor(model, params.account_id, query.namespace, "collection")
          : ns;
      const all = model.listInstances(where, query.search);
      if ((query.order_by_direction ?? "desc") === "desc") all.reverse();
      const page = pageOf(all, query, INSTANCE_PAGES);
      return answer(
        page.items.map((i) => instanceView(model, where, i)),
        { resultInfo: page.resultInfo },
      );
    },
  );

  area.get(
    `${base}/:id`,
    { params: Instance, response: SearchInstanceSchema, permissions: "instances" },
    ({ auth: { model, ns }, params }) => instanceView(model, ns, model.instance(ns, params.id)),
  );

  area.put(
    `${base}/:id`,
    {
      params: Instance,
      body: orEmpty(UpdateInstanceBodySchema),
      response: SearchInstanceSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns, actor }, params, body }) =>
      instanceView(model, ns, model.updateInstance(ns, params.id, body, actor)),
  );

  area.delete(
    `${base}/:id`,
    { params: Instance, response: SearchInstanceSchema, permissions: "instances" },
    ({ auth: { model, ns }, params }) => {
      const inst = model.instance(ns, params.id);
      const view = instanceView(model, ns, inst);
      model.deleteInstance(ns, inst.id);
      return view;
    },
  );

  area.get(
    `${base}/:id/stats`,
    { params: Instance, response: SearchStatsSchema, permissions: "instances" },
    ({ auth: { model, ns }, params }) => statsView(model, model.instance(ns, params.id)),
  );

  area.post(
    `${base}/:id/jobs`,
    {
      params: Instance,
      // Spec F: "no body". Left absent (not `{}`), so what was received is what is recorded.
      body: CreateJobBodySchema.optional(),
      response: SearchJobSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns }, params, body }) => {
      const inst = model.instance(ns, params.id);
      return jobView(model, inst, model.createJob(inst, body?.description));
    },
  );

  area.get(
    `${base}/:id/jobs`,
    {
      querystring: JobListQuerySchema.extend(pageFields(JOB_PAGES)),
      params: Instance,
      response: z.array(SearchJobSchema),
      permissions: "instances",
    },
    ({ auth: { model, ns }, params, query }) => {
      const page = pageOf(jobViews(model, model.instance(ns, params.id)), query, JOB_PAGES);
      return answer(page.items, { resultInfo: page.resultInfo });
    },
  );

  area.get(
    `${base}/:id/jobs/:job_id`,
    { params: Job, response: SearchJobSchema, permissions: "instances" },
    ({ auth: { model, ns }, params }) => {
      const inst = model.instance(ns, params.id);
      return jobView(model, inst, model.job(inst, params.job_id));
    },
  );

  area.patch(
    `${base}/:id/jobs/:job_id`,
    { params: Job, body: orEmpty(CancelJobBodySchema), response: SearchJobSchema, permissions: "instances" },
    ({ auth: { model, ns }, params }) => {
      const inst = model.instance(ns, params.id);
      return jobView(model, inst, model.cancelJob(inst, params.job_id));
    },
  );

  area.get(
    `${base}/:id/jobs/:job_id/logs`,
    {
      querystring: JobLogListQuerySchema.extend(pageFields(JOB_LOG_PAGES)),
      params: Job,
      response: z.array(SearchJobLogSchema),
      permissions: "instances",
    },
    ({ auth: { model, ns }, params, query }) => {
      const inst = model.instance(ns, params.id);
      const page = pageOf(logViews(model, inst, model.job(inst, params.job_id)), query, JOB_LOG_PAGES);
      return answer(page.items, { resultInfo: page.resultInfo });
    },
  );

  area.post(
    `${base}/:id/search`,
    {
      params: Instance,
      body: orEmpty(SearchBodySchema),
      response: SearchResultSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns }, params, body }) => search(model, model.instance(ns, params.id), body),
  );
}

/** Operations the contract serves under the namespaced base only. */
function namespacedRoutes(area: SearchArea): void {
  const at = `${NAMED_BASE}/:id`;
  area.patch(
    at,
    {
      params: Instance,
      body: orEmpty(MoveInstanceBodySchema),
      response: SearchInstanceSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns, actor }, params, body }) => {
      const moved = model.moveInstance(params.account_id, ns, params.id, body.new_namespace, actor);
      return instanceView(model, model.namespace(params.account_id, body.new_namespace), moved);
    },
  );

  area.post(
    `${at}/purge_cache`,
    { params: Instance, response: z.null(), permissions: "instances" },
    ({ auth: { model, ns }, params }) => {
      model.purgeCache(model.instance(ns, params.id));
      return null;
    },
  );

  area.get(
    `${at}/items`,
    {
      querystring: ItemListQuerySchema.extend(pageFields(ITEM_PAGES)),
      params: Instance,
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
    `${at}/items`,
    {
      params: Instance,
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
    `${at}/items`,
    {
      params: Instance,
      body: orEmpty(PutItemBodySchema),
      response: SearchItemSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns }, params, body }) => {
      const inst = model.instance(ns, params.id);
      return itemView(ns, inst, model.indexKey(inst, body.key));
    },
  );

  const item = `${at}/items/:item_id`;
  area.get(
    item,
    { params: Item, response: SearchItemSchema, permissions: "instances" },
    ({ auth: { model, ns }, params }) => {
      const inst = model.instance(ns, params.id);
      return itemView(ns, inst, model.item(inst, params.item_id));
    },
  );

  area.patch(
    item,
    { params: Item, body: orEmpty(SyncItemBodySchema), response: SearchItemSchema, permissions: "instances" },
    ({ auth: { model, ns }, params }) => {
      const inst = model.instance(ns, params.id);
      return itemView(ns, inst, model.syncItem(inst, params.item_id));
    },
  );

  area.delete(
    item,
    { params: Item, response: DeletedItemSchema, permissions: "instances" },
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
      params: Item,
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
      params: Item,
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

/** Routes outside the envelope: chat completions (both bases) and an item's download. */
function bareRoutes(app: FastifyInstance, ctx: AreaContext): void {
  for (const base of BASES) {
    bareRoute(
      app,
      ctx,
      "POST",
      `${base}/:id/chat/completions`,
      Instance,
      ({ caller: { model, ns }, params, body, reply }) => {
        const parsed = parseWith(ChatCompletionBodySchema, body, INVALID);
        const completion = chat(model, model.instance(ns, params.id), parsed);
        ChatCompletionSchema.parse(completion); // an emulator bug, not the caller's, if it does not fit
        return reply.code(200).send(completion);
      },
    );
  }
  bareRoute(
    app,
    ctx,
    "GET",
    `${NAMED_BASE}/:id/items/:item_id/download`,
    Item,
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

/** The public namespace operations' bodies (not in the contract subset; the public client's shape). */
const CreateNamespaceBodySchema = z.strictObject({
  name: z.string({ error: "is required and must be a string" }),
  description: z
    .string({ error: "must be a string or null" })
    .max(1024, "must be at most 1024 characters")
    .nullable()
    .optional(),
  public_endpoint_params: z
    .record(z.string(), z.unknown(), { error: "must be an object" })
    .nullable()
    .optional(),
});
const UpdateNamespaceBodySchema = CreateNamespaceBodySchema.omit({ name: true });

const NamespaceSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullable(),
  created_at: z.string(),
  public_endpoint_id: z.null(),
  public_endpoint_params: z.record(z.string(), z.unknown()).nullable(),
});

/** A namespace as the public API returns it. */
function namespaceView(ns: NamespaceRecord): z.input<typeof NamespaceSchema> {
  return {
    name: ns.name,
    description: ns.description ?? null,
    created_at: new Date(ns.created_at).toISOString(),
    public_endpoint_id: null,
    public_endpoint_params: ns.public_endpoint_params ?? null,
  };
}

/**
 * The public namespace operations (create, list, read, update, delete). The "default" namespace always
 * exists and cannot be deleted; deleting a namespace deletes its instances.
 */
function namespaceRoutes(area: SearchArea): void {
  const NS = "/accounts/:account_id/ai-search/namespaces";
  const scope = { permissions: "namespaces", response: NamespaceSchema } as const;

  area.post(
    NS,
    { ...scope, params: AccountParams, body: orEmpty(CreateNamespaceBodySchema) },
    ({ auth: { model }, params, body }) => {
      const { name, ...settings } = body;
      return namespaceView(model.createNamespace(params.account_id, name, settings));
    },
  );

  area.get(
    NS,
    {
      params: AccountParams,
      querystring: SearchListQuerySchema.extend(pageFields(INSTANCE_PAGES)),
      response: z.array(NamespaceSchema),
      permissions: "namespaces",
    },
    ({ auth: { model }, params, query }) => {
      const search = query.search?.toLowerCase();
      const all = model
        .listNamespaces(params.account_id)
        .filter((ns) => search === undefined || ns.name.includes(search));
      const page = pageOf(all, query, INSTANCE_PAGES);
      return answer(page.items.map(namespaceView), { resultInfo: page.resultInfo });
    },
  );

  area.get(`${NS}/:namespace`, { ...scope, params: Namespace }, ({ auth: { model }, params }) =>
    namespaceView(model.namespace(params.account_id, params.namespace)),
  );

  area.put(
    `${NS}/:namespace`,
    { ...scope, params: Namespace, body: orEmpty(UpdateNamespaceBodySchema) },
    ({ auth: { model }, params, body }) =>
      namespaceView(model.updateNamespace(params.account_id, params.namespace, body)),
  );

  area.delete(`${NS}/:namespace`, { ...scope, params: Namespace }, ({ auth: { model }, params }) =>
    namespaceView(model.deleteNamespace(params.account_id, params.namespace)),
  );
}

const NamespaceBodySchema = z.strictObject({
  name: z.string({ error: "is required and must be a string" }),
  account_id: z.string({ error: "must be a string" }).optional(),
});

const AccountQuery = z.looseObject({ account_id: z.string().optional() });

/**
 * Control routes (no auth, under /__emulator/search): seed namespaces without a token (the public
 * namespace operations above need one). The "default" namespace always exists.
 */
function control(app: FastifyInstance, ctx: AreaContext): void {
  const area = defineControl(app);
  const view = (ns: NamespaceRecord) => ({
    name: ns.name,
    created_at: new Date(ns.created_at).toISOString(),
    instances: Object.keys(ns.instances).length,
  });
  area.get(
    "/namespaces",
    { params: NoParams, querystring: AccountQuery, permissions: undefined },
    ({ query }) =>
      modelOf(ctx)
        .listNamespaces(query.account_id ?? ctx.store.accountId)
        .map(view),
  );
  area.post(
    "/namespaces",
    { params: NoParams, body: orEmpty(NamespaceBodySchema), permissions: undefined },
    ({ body }) => view(modelOf(ctx).createNamespace(body.account_id ?? ctx.store.accountId, body.name)),
  );
  area.delete(
    "/namespaces/:name",
    { params: z.object({ name: z.string() }), querystring: AccountQuery, permissions: undefined },
    ({ params, query }) =>
      view(modelOf(ctx).deleteNamespace(query.account_id ?? ctx.store.accountId, params.name)),
  );
}

export const searchArea: AreaModule = {
  name: "search",
  api: (app, ctx) => {
    // Item uploads are multipart; the whole body is read (uploads are small) and parsed by the route.
    app.addContentTypeParser("multipart/form-data", { parseAs: "buffer" }, (_req, body, done) =>
      done(null, body),
    );
    const area = searchApi(app, ctx);
    for (const base of BASES) instanceRoutes(area, base);
    namespacedRoutes(area);
    bareRoutes(app, ctx);
    namespaceRoutes(area);
  },
  control,
};
