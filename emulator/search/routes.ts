/** HTTP layer of the search area: one thin handler per operation over ./state. */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AreaContext, AreaModule } from "../area";
import { ok, paginate, parseWith } from "../http";
import {
  CancelJobBodySchema,
  CreateInstanceBodySchema,
  SearchListQuerySchema,
  UpdateInstanceBodySchema,
} from "../../sdk/schemas/search";
import {
  initialState,
  SearchModel,
  type InstanceRecord,
  type NamespaceRecord,
  type SearchState,
} from "./state";

interface SearchParams {
  account_id: string;
  namespace?: string;
  id?: string;
  job_id?: string;
}

type RouteTypes = { Params: SearchParams; Querystring: Record<string, string> };
type Req = FastifyRequest<RouteTypes>;

/** The same operations under the default and under a named namespace (spec F). */
const BASES = [
  "/accounts/:account_id/ai-search/instances",
  "/accounts/:account_id/ai-search/namespaces/:namespace/instances",
] as const;

/** Spec F, Authentication: a token with both search Edit and Run, for every operation. */
const REQUIRED = ["search:edit", "search:run"] as const;

function open(ctx: AreaContext, req: Req): { model: SearchModel; ns: NamespaceRecord; actor: string } {
  const token = ctx.auth.require(req, { accountId: req.params.account_id, all: REQUIRED });
  const model = new SearchModel(ctx.store.area<SearchState>("search", initialState), ctx.clock.now());
  return {
    model,
    ns: model.namespace(req.params.account_id, req.params.namespace),
    actor: token.name ?? "api-token",
  };
}

function instanceOf(
  ctx: AreaContext,
  req: Req,
): { model: SearchModel; ns: NamespaceRecord; inst: InstanceRecord; actor: string } {
  const c = open(ctx, req);
  return { ...c, inst: c.model.instance(c.ns, req.params.id ?? "") };
}

function routes(app: FastifyInstance, ctx: AreaContext, base: string): void {
  app.post<RouteTypes>(base, async (req, reply) => {
    const { model, ns, actor } = open(ctx, req);
    const body = parseWith(CreateInstanceBodySchema, req.body ?? {});
    return ok(reply, model.instanceView(ns, model.createInstance(ns, body, actor)));
  });

  app.get<RouteTypes>(base, async (req, reply) => {
    const { model, ns } = open(ctx, req);
    const query = parseWith(SearchListQuerySchema, req.query);
    const page = paginate(model.listInstances(ns), query);
    return ok(
      reply,
      page.items.map((i) => model.instanceView(ns, i)),
      { resultInfo: page.resultInfo },
    );
  });

  app.get<RouteTypes>(`${base}/:id`, async (req, reply) => {
    const { model, ns, inst } = instanceOf(ctx, req);
    return ok(reply, model.instanceView(ns, inst));
  });

  app.put<RouteTypes>(`${base}/:id`, async (req, reply) => {
    const { model, ns, actor } = open(ctx, req);
    const body = parseWith(UpdateInstanceBodySchema, req.body ?? {});
    return ok(reply, model.instanceView(ns, model.updateInstance(ns, req.params.id ?? "", body, actor)));
  });

  app.delete<RouteTypes>(`${base}/:id`, async (req, reply) => {
    const { model, ns } = open(ctx, req);
    const inst = model.instance(ns, req.params.id ?? "");
    const view = model.instanceView(ns, inst);
    model.deleteInstance(ns, inst.id);
    return ok(reply, view);
  });

  app.get<RouteTypes>(`${base}/:id/stats`, async (req, reply) => {
    const { model, inst } = instanceOf(ctx, req);
    return ok(reply, model.statsView(inst));
  });

  app.post<RouteTypes>(`${base}/:id/jobs`, async (req, reply) => {
    const { model, inst } = instanceOf(ctx, req);
    const body = parseWith(CreateJobBodySchema, req.body ?? {});
    return ok(reply, model.jobView(inst, model.createJob(inst, body.description)));
  });

  app.get<RouteTypes>(`${base}/:id/jobs`, async (req, reply) => {
    const { model, inst } = instanceOf(ctx, req);
    const page = paginate(model.jobViews(inst), parseWith(SearchListQuerySchema, req.query));
    return ok(reply, page.items, { resultInfo: page.resultInfo });
  });

  app.get<RouteTypes>(`${base}/:id/jobs/:job_id`, async (req, reply) => {
    const { model, inst } = instanceOf(ctx, req);
    return ok(reply, model.jobView(inst, model.job(inst, req.params.job_id ?? "")));
  });

  app.patch<RouteTypes>(`${base}/:id/jobs/:job_id`, async (req, reply) => {
    const { model, inst } = instanceOf(ctx, req);
    parseWith(CancelJobBodySchema, req.body ?? {});
    return ok(reply, model.jobView(inst, model.cancelJob(inst, req.params.job_id ?? "")));
  });

  app.get<RouteTypes>(`${base}/:id/jobs/:job_id/logs`, async (req, reply) => {
    const { model, inst } = instanceOf(ctx, req);
    const job = model.job(inst, req.params.job_id ?? "");
    const page = paginate(model.logViews(inst, job), parseWith(SearchListQuerySchema, req.query));
    return ok(reply, page.items, { resultInfo: page.resultInfo });
  });
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

/** A namespace as the public API returns it. */
function namespaceView(ns: NamespaceRecord): Record<string, unknown> {
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
function namespaceRoutes(app: FastifyInstance, ctx: AreaContext): void {
  const NS = "/accounts/:account_id/ai-search/namespaces";
  const authorize = (req: Req): SearchModel => {
    ctx.auth.require(req, { accountId: req.params.account_id, all: REQUIRED });
    return new SearchModel(ctx.store.area<SearchState>("search", initialState), ctx.clock.now());
  };

  app.post<RouteTypes>(NS, async (req, reply) => {
    const model = authorize(req);
    const { name, ...settings } = parseWith(CreateNamespaceBodySchema, req.body ?? {});
    return ok(reply, namespaceView(model.createNamespace(req.params.account_id, name, settings)));
  });

  app.get<RouteTypes>(NS, async (req, reply) => {
    const model = authorize(req);
    const query = parseWith(SearchListQuerySchema, req.query);
    const search = req.query.search?.toLowerCase();
    const all = model
      .listNamespaces(req.params.account_id)
      .filter((ns) => search === undefined || ns.name.includes(search));
    const page = paginate(all, query);
    return ok(reply, page.items.map(namespaceView), { resultInfo: page.resultInfo });
  });

  app.get<RouteTypes>(`${NS}/:namespace`, async (req, reply) => {
    const model = authorize(req);
    return ok(reply, namespaceView(model.namespace(req.params.account_id, req.params.namespace)));
  });

  app.put<RouteTypes>(`${NS}/:namespace`, async (req, reply) => {
    const model = authorize(req);
    const settings = parseWith(UpdateNamespaceBodySchema, req.body ?? {});
    const ns = model.updateNamespace(req.params.account_id, req.params.namespace ?? "", settings);
    return ok(reply, namespaceView(ns));
  });

  app.delete<RouteTypes>(`${NS}/:namespace`, async (req, reply) => {
    const model = authorize(req);
    return ok(reply, namespaceView(model.deleteNamespace(req.params.account_id, req.params.namespace ?? "")));
  });
}

const NamespaceBodySchema = z.strictObject({
  name: z.string({ error: "is required and must be a string" }),
  account_id: z.string({ error: "must be a string" }).optional(),
});

/**
 * Control routes (no auth, under /__emulator/search): seed namespaces without a token (the public
 * namespace operations above need one). The "default" namespace always exists.
 */
function control(app: FastifyInstance, ctx: AreaContext): void {
  const model = (): SearchModel =>
    new SearchModel(ctx.store.area<SearchState>("search", initialState), ctx.clock.now());
  const view = (ns: NamespaceRecord) => ({
    name: ns.name,
    created_at: new Date(ns.created_at).toISOString(),
    instances: Object.keys(ns.instances).length,
  });
  app.get<{ Querystring: { account_id?: string } }>("/namespaces", async (req, reply) =>
    ok(
      reply,
      model()
        .listNamespaces(req.query.account_id ?? ctx.store.accountId)
        .map(view),
    ),
  );
  app.post("/namespaces", async (req, reply) => {
    const body = parseWith(NamespaceBodySchema, req.body ?? {});
    return ok(reply, view(model().createNamespace(body.account_id ?? ctx.store.accountId, body.name)));
  });
  app.delete<{ Params: { name: string }; Querystring: { account_id?: string } }>(
    "/namespaces/:name",
    async (req, reply) =>
      ok(reply, view(model().deleteNamespace(req.query.account_id ?? ctx.store.accountId, req.params.name))),
  );
}

export const searchArea: AreaModule = {
  name: "search",
  api: (app, ctx) => {
    for (const base of BASES) routes(app, ctx, base);
    namespaceRoutes(app, ctx);
  },
  control,
};
