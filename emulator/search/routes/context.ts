/**
 * What every route module of the search area shares: the bases and the paths' parameters, the caller
 * and the namespace a route acts in (found before the body is read), the contract's 400, the area
 * itself and the routes outside its envelope.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from "fastify";
import { z } from "zod";
import type { AreaContext } from "../../area";
import type { Permission } from "../../auth";
import { JSON_ONLY, defineArea, requireMediaType } from "../../define";
import { DomainError, parseWith, type InvalidRenderer } from "../../http";
import type { PageRule } from "../../paging";
import {
  initialState,
  invalid,
  invalidItem,
  SearchModel,
  type NamespaceRecord,
  type SearchState,
} from "../state";

/** `per_page` of the instance and namespace listings as the contract gives it. */
export const INSTANCE_PAGES: PageRule = { min: 1, max: 100, default: 20 };

/** The same operations under the default and under a named namespace (spec F). */
const DEFAULT_BASE = "/accounts/:account_id/ai-search/instances";
export const NAMED_BASE = "/accounts/:account_id/ai-search/namespaces/:name/instances";
export const BASES = [DEFAULT_BASE, NAMED_BASE] as const;

/** Spec F, Authentication: a token with both search Edit and Run, for every operation. */
const REQUIRED: readonly Permission[] = ["search:edit", "search:run"];

/**
 * Which namespace a route acts in: an instance route's path namespace must exist (404); a collection
 * route (list, create) documents no 404, so an unknown namespace there is a 400; namespace routes
 * name the namespace they act on themselves.
 */
type Scope = "instances" | "collection" | "namespaces";

export interface Caller {
  model: SearchModel;
  /** The namespace holding the path's instances; looked up before the body is read. */
  ns: NamespaceRecord;
  actor: string;
}

/** What every path of the area holds: the account, and under the namespaced base the namespace's `name`. */
export type PathIds = { account_id: string; name?: string | undefined };

/**
 * The contract's schema of a route's path under the base it is served at: the same operation has one
 * under the default base and one under the namespaced base (with `{name}`), both in sdk/generated/search.ts.
 */
export function under<D extends z.ZodType<PathIds>, N extends z.ZodType<PathIds>>(
  base: string,
  byDefault: D,
  named: N,
): D | N {
  return base === NAMED_BASE ? named : byDefault;
}

/** The contract's 400s carry `path`: each `field: rule` line names its field, key by key. */
export const INVALID: InvalidRenderer = (lines) =>
  new DomainError(
    400,
    lines.map((line) => {
      const at = line.indexOf(": ");
      return at < 0 ? invalidItem("body", line) : invalidItem(line.slice(0, at), line.slice(at + 2));
    }),
  );

export function modelOf(ctx: AreaContext): SearchModel {
  return new SearchModel(ctx.store.area<SearchState>("search", initialState), ctx.clock.now());
}

/** The caller, and the namespace the path names, before the body is read (any route of the area). */
function authenticate(ctx: AreaContext, req: FastifyRequest, scope: Scope, params: PathIds): Caller {
  const token = ctx.auth.require(req, { accountId: params.account_id, all: REQUIRED });
  const model = modelOf(ctx);
  const name = scope === "namespaces" ? undefined : params.name;
  return { model, ns: namespaceFor(model, params.account_id, name, scope), actor: token.name ?? "api-token" };
}

export function namespaceFor(
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

export type SearchArea = ReturnType<typeof searchApi>;

export function searchApi(app: FastifyInstance, ctx: AreaContext) {
  return defineArea(app, {
    envelope: "result",
    invalid: INVALID,
    // The contract documents a 400 (with `path`) on the search operations, and no 415.
    unsupported: (line) => INVALID([line]),
    auth: (req, scope: Scope, params: PathIds): Caller => authenticate(ctx, req, scope, params),
  });
}

/**
 * A route whose answer is not the usual envelope (chat completions, a download): the same auth
 * before the body, the same 400s, and the handler writes the reply itself.
 */
export function bareRoute<P extends z.ZodType<PathIds>>(
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
