/** HTTP layer of the registrar area: one thin handler per operation over ./state. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AreaContext, AreaModule } from "../area";
import type { Permission } from "../auth";
import * as G from "../../sdk/generated/registrar";
import { answer, defineArea } from "../define";
import { pageOf, pageQuery } from "../paging";
import {
  DEPRECATED_DOMAINS_SUNSET,
  DomainCheckRequestSchema,
  DomainCheckResultSchema,
  DomainSchema,
  DomainSearchQuerySchema,
  DomainSearchResultSchema,
  DomainUpdateSchema,
  REGISTRATIONS_PER_PAGE_DEFAULT,
  RegistrationCreateSchema,
  RegistrationListQuerySchema,
  RegistrationListSchema,
  RegistrationSchema,
  RegistrationUpdateSchema,
  SEARCH_LIMIT_DEFAULT,
  WORKFLOW_KINDS,
  WorkflowStatusSchema,
  type RegistrationSortField,
} from "../../sdk/schemas/registrar";
import { registrarControl } from "./control";
import { extensionRoutes } from "./extensions";
import { REGISTRAR_CODES, Registrar, invalid, type RegistrationView } from "./state";
import { renderDomain, renderRegistration, renderWorkflow, workflowLinks } from "./views";
import type { WorkflowRecord } from "./workflow";

type Need = { any: readonly Permission[] } | { all: readonly Permission[] };
const READ: Need = { any: ["registrar:read", "registrar:edit"] };
const EDIT: Need = { all: ["registrar:edit"] };

/** `Prefer: respond-async` (RFC 7240), possibly among other preferences. */
function prefersAsync(req: FastifyRequest): boolean {
  const prefer = req.headers.prefer;
  const value = Array.isArray(prefer) ? prefer.join(",") : (prefer ?? "");
  return /(^|[,\s])respond-async\b/i.test(value);
}

/**
 * A list in the query, given either way the service's clients send one: the contract's form style
 * without explode (`extensions=com,dev`) or the key repeated (`extensions=com&extensions=dev`).
 */
function list(value: unknown): unknown {
  if (value === undefined) return undefined;
  const given: unknown[] = Array.isArray(value) ? value : [value];
  return given.flatMap((v) => (typeof v === "string" ? v.split(",").filter((x) => x !== "") : [v]));
}

function encodeCursor(seq: number): string {
  return Buffer.from(`after:${seq}`).toString("base64url");
}

function decodeCursor(cursor: string): number {
  const m = /^after:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!m) throw invalid("cursor: must be a cursor returned by a previous page");
  return Number(m[1]);
}

/** Creation order by default; `sort_by` / `direction` of the public API otherwise (ties by creation). */
function sortRegistrations(
  list: RegistrationView[],
  sortBy: RegistrationSortField | undefined,
  direction: "asc" | "desc" | undefined,
): RegistrationView[] {
  const key = (v: RegistrationView): string | number => {
    if (sortBy === "name") return v.record.domain_name;
    if (sortBy === "registry_expires_at") return v.expires_at ?? Number.MAX_SAFE_INTEGER;
    return v.record.created_at;
  };
  const sign = direction === "desc" ? -1 : 1;
  return [...list].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    const c = ka < kb ? -1 : ka > kb ? 1 : a.record.seq - b.record.seq;
    return sign * c;
  });
}

const DEPRECATION = {
  messages: [
    {
      code: REGISTRAR_CODES.deprecated,
      message: `Deprecated: the registrar/domains endpoints reach end of life on ${DEPRECATED_DOMAINS_SUNSET}; use registrar/registrations instead.`,
    },
  ],
};

/** Deprecation (RFC 9745), Sunset (RFC 8594) and the successor, besides the envelope's message. */
function deprecated(reply: FastifyReply, accountId: string): FastifyReply {
  return reply
    .header("deprecation", "true")
    .header("sunset", new Date(`${DEPRECATED_DOMAINS_SUNSET}T00:00:00Z`).toUTCString())
    .header(
      "link",
      `</client/v4/accounts/${encodeURIComponent(accountId)}/registrar/registrations>; rel="successor-version"`,
    );
}

/** Lists in the query become arrays first (the generated query numbers read their text themselves). */
function queryOf<S extends z.ZodType>(schema: S, lists: readonly string[] = []) {
  return z.preprocess((q) => {
    if (typeof q !== "object" || q === null) return q;
    const out: Record<string, unknown> = { ...q };
    for (const k of lists) out[k] = list(out[k]);
    return out;
  }, schema);
}

export function registerRegistrarApi(app: FastifyInstance, ctx: AreaContext): void {
  const base = "/accounts/:account_id/registrar";
  const area = defineArea(app, {
    envelope: "result",
    invalidCode: REGISTRAR_CODES.invalidRequest,
    auth: (req, need: Need, params: { account_id: string }): Registrar => {
      ctx.auth.require(req, { accountId: params.account_id, ...need });
      return new Registrar(ctx.store, ctx.clock, params.account_id);
    },
  });
  const workflowBody = (model: Registrar, accountId: string, w: WorkflowRecord) =>
    renderWorkflow(w, model.now(), workflowLinks(ctx.origin(), accountId, w), () =>
      model.isRegistered(w.domain_name) ? model.get(w.domain_name) : undefined,
    );

  area.get(
    `${base}/domain-search`,
    {
      params: G.RegistrarDomainDiscoverySearchPath,
      querystring: queryOf(DomainSearchQuerySchema, ["extensions"]),
      response: DomainSearchResultSchema,
      permissions: READ,
    },
    ({ auth: model, query }) => ({
      domains: model.search(query.q, query.extensions, query.limit ?? SEARCH_LIMIT_DEFAULT),
    }),
  );

  area.post(
    `${base}/domain-check`,
    {
      params: G.RegistrarDomainDiscoveryCheckPath,
      body: DomainCheckRequestSchema,
      response: DomainCheckResultSchema,
      permissions: READ,
    },
    ({ auth: model, body }) => ({ domains: model.check(body.domains) }),
  );

  area.post(
    `${base}/registrations`,
    {
      params: G.RegistrarDomainRegistrationCreatePath,
      body: RegistrationCreateSchema,
      response: WorkflowStatusSchema,
      permissions: EDIT,
    },
    ({ auth: model, params, body, req }) => {
      const { workflow, synchronous } = model.create(body, { respondAsync: prefersAsync(req) });
      return answer(workflowBody(model, params.account_id, workflow), { status: synchronous ? 201 : 202 });
    },
  );

  area.get(
    `${base}/registrations`,
    {
      params: G.RegistrarDomainRegistrationListPath,
      querystring: queryOf(RegistrationListQuerySchema),
      response: RegistrationListSchema,
      permissions: READ,
    },
    ({ auth: model, query }) => {
      const perPage = query.per_page ?? REGISTRATIONS_PER_PAGE_DEFAULT;
      const sorted = sortRegistrations(model.list(), query.sort_by, query.direction);
      // The cursor names the last registration served; the next page starts after it in this order.
      // In creation order that is "a later seq", which survives the named registration going away.
      const after = query.cursor ? decodeCursor(query.cursor) : undefined;
      let rest = sorted;
      if (after !== undefined && query.sort_by === undefined && query.direction !== "desc") {
        rest = sorted.filter((v) => v.record.seq > after);
      } else if (after !== undefined) {
        const from = sorted.findIndex((v) => v.record.seq === after) + 1;
        if (from === 0)
          throw invalid("cursor: the registration it points after no longer exists; start again without one");
        rest = sorted.slice(from);
      }
      const page = rest.slice(0, perPage);
      const last = page.at(-1);
      const cursor = rest.length > perPage && last ? encodeCursor(last.record.seq) : "";
      return answer(page.map(renderRegistration), {
        resultInfo: { cursor, per_page: perPage, count: page.length },
      });
    },
  );

  area.get(
    `${base}/registrations/:domain_name`,
    { params: G.RegistrarDomainRegistrationGetPath, response: RegistrationSchema, permissions: READ },
    ({ auth: model, params }) => renderRegistration(model.get(params.domain_name)),
  );

  area.patch(
    `${base}/registrations/:domain_name`,
    {
      params: G.RegistrarDomainRegistrationUpdatePath,
      body: RegistrationUpdateSchema,
      response: WorkflowStatusSchema,
      permissions: EDIT,
    },
    ({ auth: model, params, body, req }) => {
      const { workflow, synchronous } = model.update(params.domain_name, body, {
        respondAsync: prefersAsync(req),
      });
      return answer(workflowBody(model, params.account_id, workflow), { status: synchronous ? 200 : 202 });
    },
  );

  const STATUS_ROUTES = {
    registration: ["registration-status", G.RegistrarDomainRegistrationGetStatusPath],
    update: ["update-status", G.RegistrarDomainRegistrationGetUpdateStatusPath],
  } as const;
  for (const kind of WORKFLOW_KINDS) {
    const [segment, params] = STATUS_ROUTES[kind];
    area.get(
      `${base}/registrations/:domain_name/${segment}`,
      { params, response: WorkflowStatusSchema, permissions: READ },
      ({ auth: model, params }) =>
        workflowBody(model, params.account_id, model.workflow(kind, params.domain_name)),
    );
  }

  area.get(
    `${base}/domains`,
    {
      params: G.RegistrarDomainsListDomainsPath,
      querystring: pageQuery(),
      response: z.array(DomainSchema),
      permissions: READ,
    },
    ({ auth: model, params, query, reply }) => {
      const { items, resultInfo } = pageOf(model.list(), query);
      deprecated(reply, params.account_id);
      return answer(items.map(renderDomain), { resultInfo, ...DEPRECATION });
    },
  );

  area.get(
    `${base}/domains/:domain_name`,
    { params: G.RegistrarDomainsGetDomainPath, response: DomainSchema, permissions: READ },
    ({ auth: model, params, reply }) => {
      deprecated(reply, params.account_id);
      return answer(renderDomain(model.get(params.domain_name)), DEPRECATION);
    },
  );

  area.put(
    `${base}/domains/:domain_name`,
    {
      params: G.RegistrarDomainsUpdateDomainPath,
      body: DomainUpdateSchema,
      response: DomainSchema,
      permissions: EDIT,
    },
    ({ auth: model, params, body, reply }) => {
      deprecated(reply, params.account_id);
      return answer(renderDomain(model.updateDomain(params.domain_name, body)), DEPRECATION);
    },
  );

  extensionRoutes(area, base, READ);
}

export const registrarArea: AreaModule = {
  name: "registrar",
  api: registerRegistrarApi,
  control: registrarControl,
};
