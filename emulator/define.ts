/**
 * The one way an area declares its routes: `defineArea(app, options)` then
 * `area.get/post/put/patch/delete(path, {params, querystring, body, response, permissions}, handler)`.
 *
 * Per request, in this order: fault injection (server) → the path's params → the area's auth →
 * `beforeBody` (all before the body is read, so a caller without a valid token hears 401/403 whatever
 * it sent) → the body is read and parsed → body and query are validated with the sdk's zod schemas by
 * the server's compiler → the handler's value is wrapped in the area's envelope and checked against
 * the response schema. Every error goes to the server's one renderer, in the area's own words.
 *
 * The compiler pair is local (about thirty lines): fastify-type-provider-zod v7 would make
 * @fastify/swagger and openapi-types peers that land in users' installs.
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaCompiler,
  FastifySerializerCompiler,
  HTTPMethods,
} from "fastify";
import { z } from "zod";
import { IdentifierSchema, envelopeOf } from "../sdk/schemas/common";
import {
  DomainError,
  GENERIC_CODES,
  envelope,
  invalidWith,
  issueLines,
  parseWith,
  RequestValidationError,
  type EnvelopeOptions,
  type InvalidRenderer,
} from "./http";

declare module "fastify" {
  interface FastifyContextConfig {
    /** How the route's area words a 400; unknown routes and the core control API use the generic one. */
    invalid?: InvalidRenderer;
    /** How the route's area words a failure injected with this status (fault injection, 429 and 5xx). */
    fault?: (status: number) => DomainError;
    /** The body of the route's error answers, where its area's contract shows another envelope. */
    errorBody?: (error: DomainError) => unknown;
  }
}

/** A response that does not fit the sdk's schema for it: an emulator bug, so a 500 that says where. */
export class ResponseContractError extends Error {
  constructor(issues: z.ZodError) {
    super(`response does not match its schema: ${issueLines(issues, "result").join("; ")}`);
    this.name = "ResponseContractError";
  }
}

/** Fastify hands an absent body to the validator as null; to the schemas it is simply absent. */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema }) => {
  if (!(schema instanceof z.ZodType)) throw new TypeError("route schemas must be zod schemas");
  return (data: unknown) => {
    const result = schema.safeParse(data === null ? undefined : data);
    return result.success ? { value: result.data } : { error: new RequestValidationError(result.error) };
  };
};

/**
 * Responses are checked, then sent as the handler made them: the sdk's response schemas are loose and
 * may fill defaults, and a client must see what the service would send, not what the sdk reads.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  if (!(schema instanceof z.ZodType)) throw new TypeError("response schemas must be zod schemas");
  return (data: unknown) => {
    const result = schema.safeParse(data);
    if (!result.success) throw new ResponseContractError(result.error);
    return JSON.stringify(data);
  };
};

type Schema = z.ZodType | undefined;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;
type In<S extends Schema> = S extends z.ZodType ? z.input<S> : unknown;

/** A handler's value with more than the result: a status, paging, messages, top-level extras. */
export class Answer<T> {
  constructor(
    readonly value: T,
    readonly options: EnvelopeOptions & { extra?: Record<string, unknown> } = {},
  ) {}
}

export function answer<T>(value: T, options: Answer<T>["options"] = {}): Answer<T> {
  return new Answer(value, options);
}

export interface RouteSpec<P, PS extends z.ZodType, QS extends Schema, BS extends Schema, RS extends Schema> {
  params: PS;
  querystring?: QS;
  body?: BS;
  response?: RS;
  /** What the area's auth checks; control routes have none. */
  permissions: P;
  /** Checks of the area that must also run before the body is read (after auth). */
  beforeBody?: (req: FastifyRequest, params: z.output<PS>) => void;
  /** Media types of the bodies the route takes (JSON only unless it says otherwise). */
  accepts?: readonly MediaType[];
}

export interface Call<A, PS extends z.ZodType, QS extends Schema, BS extends Schema> {
  params: z.output<PS>;
  query: Out<QS>;
  body: Out<BS>;
  auth: A;
  req: FastifyRequest;
  reply: FastifyReply;
}

export type Handler<A, PS extends z.ZodType, QS extends Schema, BS extends Schema, RS extends Schema> = (
  call: Call<A, PS, QS, BS>,
) => In<RS> | Answer<In<RS>> | Promise<In<RS> | Answer<In<RS>>>;

export interface AreaOptions<P, A, AP> {
  /** Success bodies: `{success, errors, messages, result}` or (meetings) `{success, data}`. */
  envelope: "result" | "data";
  /** Code of a 400 for a request that does not fit (one entry per `field: rule`). */
  invalidCode?: number;
  /** Or the area's own wording of a 400 (email keeps its table's message and puts the rule in `detail`). */
  invalid?: InvalidRenderer;
  /** How the area words an injected 429/5xx (the generic code 10004/10002 "injected fault" otherwise). */
  fault?: (status: number) => DomainError;
  /**
   * How the area refuses a body of a type a route does not take, given the `content-type: …` line (a 415
   * otherwise); an area whose contract documents a 400 for it and no 415 says so here.
   */
  unsupported?: (line: string) => DomainError;
  /** The body of an error answer (the standard `{success: false, errors, messages, result: null}` otherwise). */
  errorBody?: (error: DomainError) => unknown;
  /** Who the caller is and whether it may do this; throws the area's 401/403. Runs before the body is read. */
  auth: (req: FastifyRequest, permissions: P, params: AP) => A;
}

function envelopeSchema(kind: "result" | "data", result: z.ZodType): z.ZodType {
  if (kind === "result") return envelopeOf(result);
  return z.looseObject({ success: z.literal(true), data: result });
}

export interface Area<P, A, AP> {
  route<PS extends z.ZodType<AP>, QS extends Schema, BS extends Schema, RS extends Schema>(
    method: HTTPMethods | HTTPMethods[],
    url: string,
    spec: RouteSpec<P, PS, QS, BS, RS>,
    handler: Handler<A, PS, QS, BS, RS>,
  ): void;
  get: Shorthand<P, A, AP>;
  post: Shorthand<P, A, AP>;
  put: Shorthand<P, A, AP>;
  patch: Shorthand<P, A, AP>;
  delete: Shorthand<P, A, AP>;
  /** The area's 400 for checks a handler makes itself. */
  invalid: InvalidRenderer;
}

type Shorthand<P, A, AP> = <
  PS extends z.ZodType<AP>,
  QS extends Schema,
  BS extends Schema,
  RS extends Schema,
>(
  url: string,
  spec: RouteSpec<P, PS, QS, BS, RS>,
  handler: Handler<A, PS, QS, BS, RS>,
) => void;

export function defineArea<P, A, AP>(app: FastifyInstance, options: AreaOptions<P, A, AP>): Area<P, A, AP> {
  const invalid = options.invalid ?? invalidWith(options.invalidCode ?? GENERIC_CODES.badRequest);
  const route: Area<P, A, AP>["route"] = <
    PS extends z.ZodType<AP>,
    QS extends Schema,
    BS extends Schema,
    RS extends Schema,
  >(
    method: HTTPMethods | HTTPMethods[],
    url: string,
    spec: RouteSpec<P, PS, QS, BS, RS>,
    handler: Handler<A, PS, QS, BS, RS>,
  ): void => {
    const beforeBody = spec.beforeBody;
    const accepts = spec.accepts ?? JSON_ONLY;
    // What ran before the body was read: the caller and the path's parameters, typed for this route.
    const early = new WeakMap<FastifyRequest, { auth: A; params: z.output<PS> }>();
    app.route({
      method,
      url,
      config: {
        invalid,
        ...(options.fault ? { fault: options.fault } : {}),
        ...(options.errorBody ? { errorBody: options.errorBody } : {}),
      },
      schema: {
        params: spec.params,
        ...(spec.querystring ? { querystring: spec.querystring } : {}),
        ...(spec.body ? { body: spec.body } : {}),
        ...(spec.response ? { response: { "2xx": envelopeSchema(options.envelope, spec.response) } } : {}),
      },
      onRequest: async (req) => {
        const params: z.output<PS> = parseWith(spec.params, req.params, invalid);
        early.set(req, { auth: options.auth(req, spec.permissions, params), params });
      },
      // After auth and the area's own early checks, before a byte of the body is read.
      preParsing: async (req: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
        const seen = early.get(req);
        if (seen && beforeBody) beforeBody(req, seen.params);
        requireMediaType(req, accepts, options.unsupported);
        return payload;
      },
      handler: async (req, reply) => {
        const seen = early.get(req);
        if (!seen) throw new Error(`${req.method} ${url}: auth did not run`);
        // The one cast of the emulator's routes: fastify's validation phase has run this route's schemas
        // through `validatorCompiler` and left their outputs on the request.
        const parsed = { query: req.query, body: req.body } as Pick<Call<A, PS, QS, BS>, "query" | "body">;
        const out = await handler({ ...parsed, ...seen, req, reply });
        const { value, options: o } = out instanceof Answer ? out : new Answer(out);
        const body =
          options.envelope === "result"
            ? envelope(value, o)
            : { success: true, data: value, ...(o.resultInfo ? { result_info: o.resultInfo } : {}) };
        return reply.code(o.status ?? 200).send({ ...body, ...o.extra });
      },
    });
  };
  const shorthand =
    (method: HTTPMethods): Shorthand<P, A, AP> =>
    (url, spec, handler) =>
      route(method, url, spec, handler);
  return {
    route,
    get: shorthand("GET"),
    post: shorthand("POST"),
    put: shorthand("PUT"),
    patch: shorthand("PATCH"),
    delete: shorthand("DELETE"),
    invalid,
  };
}

/** A body's media type as a route declares it: parsers exist for these (server.ts and the areas). */
export type MediaType = "application/json" | "multipart/form-data";
export const JSON_ONLY: readonly MediaType[] = ["application/json"];

/** Whether a request carries a body at all (an empty one is none). */
function hasBody(req: FastifyRequest): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/**
 * Refuses a body of a type the route does not take, with a 415 naming it, before any parser runs: an
 * area's parser (multipart's raw bytes) must not reach a route that expects JSON, nor fastify's plain
 * text one a route that expects an object. A declared type must be one the route takes, even over an
 * empty body (the parser would still run); a body must declare its type.
 */
export function requireMediaType(
  req: FastifyRequest,
  accepts: readonly MediaType[],
  refuse: (line: string) => DomainError = unsupportedMediaType,
): void {
  if (req.method === "GET" || req.method === "HEAD") return;
  const header = req.headers["content-type"];
  if (header === undefined && !hasBody(req)) return;
  const given = (header ?? "").split(";")[0]!.trim().toLowerCase();
  if ((accepts as readonly string[]).includes(given)) return;
  const what = given === "" ? "a body without a content-type" : JSON.stringify(given.slice(0, 100));
  throw refuse(`content-type: ${what} is not accepted; this operation takes ${accepts.join(" or ")}`);
}

function unsupportedMediaType(line: string): DomainError {
  return new DomainError(415, { code: GENERIC_CODES.unsupportedMediaType, message: line });
}

/** Routes without auth (the control API): the caller is the test or the user at the keyboard. */
export function defineControl(
  app: FastifyInstance,
  invalidCode?: number,
): Area<undefined, undefined, object> {
  return defineArea(app, {
    envelope: "result",
    ...(invalidCode !== undefined ? { invalidCode } : {}),
    auth: () => undefined,
  });
}

/** Paths without parameters. */
export const NoParams = z.object({});

/** Every `/accounts/{account_id}/…` path: the tag is at most 32 characters (spec, Limits). */
export const AccountParams = z.object({ account_id: IdentifierSchema });

/**
 * A query as the contract lists it, other parameters passed over: the service ignores a query
 * parameter it does not know (paging a caller adds, a newer client's), where a body's unknown field is refused.
 */
export function openQuery<T extends z.ZodRawShape>(schema: z.ZodObject<T>) {
  return z.looseObject(schema.shape);
}

/** A body that may be left out: absent means `{}`. */
export function orEmpty<S extends z.ZodType>(schema: S): z.ZodType<z.output<S>, unknown> {
  return z.preprocess((v) => v ?? {}, schema);
}
