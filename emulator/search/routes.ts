/** HTTP layer of the search area: one thin handler per operation over ./state. */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AreaContext, AreaModule } from "../area";
import type { Permission } from "../auth";
import { AccountParams, NoParams, answer, defineArea, defineControl, orEmpty } from "../define";
import { paginate } from "../http";
import {
  CancelJobBodySchema,
  CreateInstanceBodySchema,
  SearchInstanceSchema,
  SearchJobLogSchema,
  SearchJobSchema,
  SearchListQuerySchema,
  SearchStatsSchema,
  UpdateInstanceBodySchema,
} from "../../sdk/schemas/search";
import { initialState, SearchModel, type NamespaceRecord, type SearchState } from "./state";

/** The same operations under the default and under a named namespace (spec F). */
const BASES = [
  "/accounts/:account_id/ai-search/instances",
  "/accounts/:account_id/ai-search/namespaces/:namespace/instances",
] as const;

/** Spec F, Authentication: a token with both search Edit and Run, for every operation. */
const REQUIRED: readonly Permission[] = ["search:edit", "search:run"];

/** Instance routes live in a namespace (the default one when the path names none). */
type Scope = "instances" | "namespaces";

interface Caller {
  model: SearchModel;
  /** The namespace holding the path's instances; looked up before the body is read. */
  ns: NamespaceRecord;
  actor: string;
}

const Instances = AccountParams.extend({ namespace: z.string().optional() });
const Instance = Instances.extend({ id: z.string() });
const Job = Instance.extend({ job_id: z.string() });
const Namespace = AccountParams.extend({ namespace: z.string() });

function modelOf(ctx: AreaContext): SearchModel {
  return new SearchModel(ctx.store.area<SearchState>("search", initialState), ctx.clock.now());
}

function instanceRoutes(area: SearchArea, base: string): void {
  const list = { querystring: SearchListQuerySchema, permissions: "instances" } as const;
  area.post(
    base,
    {
      params: Instances,
      body: orEmpty(CreateInstanceBodySchema),
      response: SearchInstanceSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns, actor }, body }) => model.instanceView(ns, model.createInstance(ns, body, actor)),
  );

  area.get(
    base,
    { ...list, params: Instances, response: z.array(SearchInstanceSchema) },
    ({ auth: { model, ns }, query }) => {
      const page = paginate(model.listInstances(ns), query);
      return answer(
        page.items.map((i) => model.instanceView(ns, i)),
        { resultInfo: page.resultInfo },
      );
    },
  );

  area.get(
    `${base}/:id`,
    { params: Instance, response: SearchInstanceSchema, permissions: "instances" },
    ({ auth: { model, ns }, params }) => model.instanceView(ns, model.instance(ns, params.id)),
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
      model.instanceView(ns, model.updateInstance(ns, params.id, body, actor)),
  );

  area.delete(
    `${base}/:id`,
    { params: Instance, response: SearchInstanceSchema, permissions: "instances" },
    ({ auth: { model, ns }, params }) => {
      const inst = model.instance(ns, params.id);
      const view = model.instanceView(ns, inst);
      model.deleteInstance(ns, inst.id);
      return view;
    },
  );

  area.get(
    `${base}/:id/stats`,
    { params: Instance, response: SearchStatsSchema, permissions: "instances" },
    ({ auth: { model, ns }, params }) => model.statsView(model.instance(ns, params.id)),
  );

  area.post(
    `${base}/:id/jobs`,
    {
      params: Instance,
      body: orEmpty(CreateJobBodySchema),
      response: SearchJobSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns }, params, body }) => {
      const inst = model.instance(ns, params.id);
      return model.jobView(inst, model.createJob(inst, body.description));
    },
  );

  area.get(
    `${base}/:id/jobs`,
    { ...list, params: Instance, response: z.array(SearchJobSchema) },
    ({ auth: { model, ns }, params, query }) => {
      const page = paginate(model.jobViews(model.instance(ns, params.id)), query);
      return answer(page.items, { resultInfo: page.resultInfo });
    },
  );

  area.get(
    `${base}/:id/jobs/:job_id`,
    { params: Job, response: SearchJobSchema, permissions: "instances" },
    ({ auth: { model, ns }, params }) => {
      const inst = model.instance(ns, params.id);
      return model.jobView(inst, model.job(inst, params.job_id));
    },
  );

  area.patch(
    `${base}/:id/jobs/:job_id`,
    { params: Job, body: orEmpty(CancelJobBodySchema), response: SearchJobSchema, permissions: "instances" },
    ({ auth: { model, ns }, params }) => {
      const inst = model.instance(ns, params.id);
      return model.jobView(inst, model.cancelJob(inst, params.job_id));
    },
  );

  area.get(
    `${base}/:id/jobs/:job_id/logs`,
    { ...list, params: Job, response: z.array(SearchJobLogSchema) },
    ({ auth: { model, ns }, params, query }) => {
      const inst = model.instance(ns, params.id);
      const page = paginate(model.logViews(inst, model.job(inst, params.job_id)), query);
      return answer(page.items, { resultInfo: page.resultInfo });
    },
  );
}

/** Spec F says "no body"; the public API also takes an optional description, so an empty body is fine. */
const CreateJobBodySchema = z.strictObject({
  description: z
    .string({ error: "must be a string" })
    .max(1024, "must be at most 1024 characters")
    .optional(),
});

const NamespaceSettingsShape = {
  description: z
    .string({ error: "must be a string or null" })
    .max(1024, "must be at most 1024 characters")
    .nullable()
    .optional(),
  public_endpoint_params: z
    .record(z.string(), z.unknown(), { error: "must be an object" })
    .nullable()
    .optional(),
};
const CreateNamespaceBodySchema = z.strictObject({
  name: z.string({ error: "is required and must be a string" }),
  ...NamespaceSettingsShape,
});
const UpdateNamespaceBodySchema = z.strictObject(NamespaceSettingsShape);

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
      querystring: SearchListQuerySchema.extend({ search: z.string().optional() }),
      response: z.array(NamespaceSchema),
      permissions: "namespaces",
    },
    ({ auth: { model }, params, query }) => {
      const search = query.search?.toLowerCase();
      const all = model
        .listNamespaces(params.account_id)
        .filter((ns) => search === undefined || ns.name.includes(search));
      const page = paginate(all, query);
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

type SearchArea = ReturnType<typeof searchApi>;

function searchApi(app: FastifyInstance, ctx: AreaContext) {
  return defineArea(app, {
    envelope: "result",
    auth: (req, scope: Scope, params: { account_id: string; namespace?: string | undefined }): Caller => {
      const token = ctx.auth.require(req, { accountId: params.account_id, all: REQUIRED });
      const model = modelOf(ctx);
      // Namespace routes name the namespace they act on; instance routes live in one, looked up now.
      const ns = model.namespace(params.account_id, scope === "instances" ? params.namespace : undefined);
      return { model, ns, actor: token.name ?? "api-token" };
    },
  });
}

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
    const area = searchApi(app, ctx);
    for (const base of BASES) instanceRoutes(area, base);
    namespaceRoutes(area);
  },
  control,
};
