/** HTTP layer of the registrar area: one thin handler per operation over ./state. */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AreaContext, AreaModule } from "../area";
import type { Permission } from "../auth";
import { ok, paginate, parseWith } from "../http";
import {
  DEPRECATED_DOMAINS_SUNSET,
  DomainCheckRequestSchema,
  DomainSearchQuerySchema,
  DomainUpdateSchema,
  REGISTRATIONS_PER_PAGE_DEFAULT,
  RegistrationCreateSchema,
  RegistrationListQuerySchema,
  RegistrationUpdateSchema,
  SEARCH_LIMIT_DEFAULT,
  type RegistrationSortField,
  type WorkflowKind,
} from "../../sdk/schemas/registrar";
import { registrarControl } from "./control";
import { REGISTRAR_CODES, invalid } from "./errors";
import { Registrar, type RegistrationView } from "./state";
import { renderDomain, renderRegistration, renderWorkflow } from "./views";
import type { WorkflowRecord } from "./workflow";

type Params = { account_id: string; domain_name: string };
type Req = FastifyRequest<{ Params: Params; Querystring: Record<string, unknown> }>;

const READ: { any: readonly Permission[] } = { any: ["registrar:read", "registrar:edit"] };
const EDIT: { all: readonly Permission[] } = { all: ["registrar:edit"] };

/** `Prefer: respond-async` (RFC 7240), possibly among other preferences. */
function prefersAsync(req: FastifyRequest): boolean {
  const prefer = req.headers.prefer;
  const value = Array.isArray(prefer) ? prefer.join(",") : (prefer ?? "");
  return /(^|[,\s])respond-async\b/i.test(value);
}

/** A number-looking query value becomes a number, so the shared schema can judge it. */
function numeric(value: unknown): unknown {
  if (value === undefined) return undefined;
  const n = Number(value);
  return typeof value === "string" && value.trim() !== "" && !Number.isNaN(n) ? n : value;
}

function list(value: unknown): unknown {
  return value === undefined || Array.isArray(value) ? value : [value];
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

export function registerRegistrarApi(app: Parameters<AreaModule["api"]>[0], ctx: AreaContext): void {
  const model = new Registrar(ctx.store, ctx.clock);
  const base = "/accounts/:account_id/registrar";
  const guard = (req: Req, need: typeof READ | typeof EDIT): void => {
    ctx.auth.require(req, { accountId: req.params.account_id, ...need });
  };
  const selfLink = (req: Req, w: WorkflowRecord): string =>
    `${ctx.origin()}/client/v4/accounts/${encodeURIComponent(req.params.account_id)}/registrar/registrations/` +
    `${encodeURIComponent(w.domain_name)}/${w.kind === "registration" ? "registration-status" : "update-status"}`;
  const workflowBody = (req: Req, w: WorkflowRecord) =>
    renderWorkflow(w, model.now(), selfLink(req, w), () =>
      model.isRegistered(w.domain_name) ? model.get(w.domain_name) : undefined,
    );

  app.get(`${base}/domain-search`, async (req: Req, reply) => {
    guard(req, READ);
    const query = parseWith(
      DomainSearchQuerySchema,
      { ...req.query, extensions: list(req.query.extensions), limit: numeric(req.query.limit) },
      REGISTRAR_CODES.invalidRequest,
    );
    const domains = model.search(query.q, query.extensions, query.limit ?? SEARCH_LIMIT_DEFAULT);
    return ok(reply, { domains });
  });

  app.post(`${base}/domain-check`, async (req: Req, reply) => {
    guard(req, READ);
    const body = parseWith(DomainCheckRequestSchema, req.body, REGISTRAR_CODES.invalidRequest);
    return ok(reply, { domains: model.check(body.domains) });
  });

  app.post(`${base}/registrations`, async (req: Req, reply) => {
    guard(req, EDIT);
    const body = parseWith(RegistrationCreateSchema, req.body, REGISTRAR_CODES.invalidRequest);
    const { workflow, synchronous } = model.create(body, { respondAsync: prefersAsync(req) });
    return ok(reply, workflowBody(req, workflow), { status: synchronous ? 201 : 202 });
  });

  app.get(`${base}/registrations`, async (req: Req, reply) => {
    guard(req, READ);
    const query = parseWith(
      RegistrationListQuerySchema,
      { ...req.query, per_page: numeric(req.query.per_page) },
      REGISTRAR_CODES.invalidRequest,
    );
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
    return ok(reply, page.map(renderRegistration), {
      resultInfo: { cursor, per_page: perPage, count: page.length },
    });
  });

  app.get(`${base}/registrations/:domain_name`, async (req: Req, reply) => {
    guard(req, READ);
    return ok(reply, renderRegistration(model.get(req.params.domain_name)));
  });

  app.patch(`${base}/registrations/:domain_name`, async (req: Req, reply) => {
    guard(req, EDIT);
    const body = parseWith(RegistrationUpdateSchema, req.body, REGISTRAR_CODES.invalidRequest);
    const { workflow, synchronous } = model.update(req.params.domain_name, body, {
      respondAsync: prefersAsync(req),
    });
    return ok(reply, workflowBody(req, workflow), { status: synchronous ? 200 : 202 });
  });

  const status = (kind: WorkflowKind) => async (req: Req, reply: FastifyReply) => {
    guard(req, READ);
    return ok(reply, workflowBody(req, model.workflow(kind, req.params.domain_name)));
  };
  app.get(`${base}/registrations/:domain_name/registration-status`, status("registration"));
  app.get(`${base}/registrations/:domain_name/update-status`, status("update"));

  app.get(`${base}/domains`, async (req: Req, reply) => {
    guard(req, READ);
    const { items, resultInfo } = paginate(model.list(), req.query);
    return ok(deprecated(reply, req.params.account_id), items.map(renderDomain), {
      resultInfo,
      ...DEPRECATION,
    });
  });

  app.get(`${base}/domains/:domain_name`, async (req: Req, reply) => {
    guard(req, READ);
    return ok(
      deprecated(reply, req.params.account_id),
      renderDomain(model.get(req.params.domain_name)),
      DEPRECATION,
    );
  });

  app.put(`${base}/domains/:domain_name`, async (req: Req, reply) => {
    guard(req, EDIT);
    const body = parseWith(DomainUpdateSchema, req.body, REGISTRAR_CODES.invalidRequest);
    return ok(
      deprecated(reply, req.params.account_id),
      renderDomain(model.updateDomain(req.params.domain_name, body)),
      DEPRECATION,
    );
  });
}

export const registrarArea: AreaModule = {
  name: "registrar",
  api: registerRegistrarApi,
  control: registrarControl,
};
