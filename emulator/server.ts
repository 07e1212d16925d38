/**
 * The emulator's HTTP server: Fastify with the API's envelope, bearer-token auth, fault injection, the
 * service's global rate limit (off by default), a request log, persistence, a control API under
 * /__emulator, and the six areas under /client/v4.
 */
import { randomBytes } from "node:crypto";
import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import { z } from "zod";
import type { AreaContext, AreaModule } from "./area";
import { AREAS } from "./areas";
import { AuthGuard, PERMISSIONS, givenToken, newTokenValue, tokenMatches } from "./auth";
import { OffsetClock, isAdvanceable, type Clock } from "./clock";
import { FaultRuleSchema, Faults } from "./faults";
import { NoParams, defineControl, serializerCompiler, validatorCompiler } from "./define";
import { DomainError, GENERIC_CODES, errorEnvelope, invalidWith, parseJsonBody, renderError } from "./http";
import { RATE_LIMITED, RateLimitSchema, RateLimiter, type RateLimit } from "./rate-limit";
import { Store, type StoredToken } from "./store";
import { controlRefusal, isWildcardAddress } from "./trust";
import { registerConsole } from "./console/routes";
import { API_PREFIX, CONTROL_PREFIX } from "./prefixes";

export { isWildcardAddress } from "./trust";

export { API_PREFIX, CONTROL_PREFIX };

export interface EmulatorOptions {
  /** Account id; default ACCOUNT_API_ACCOUNT_ID when ACCOUNT_API_TOKEN is also set, else generated. */
  accountId?: string;
  /**
   * Token with every permission, user-scoped; default ACCOUNT_API_TOKEN (see accountId), else the one
   * the state file keeps, else generated. A given token is accepted but never stored: the state file
   * keeps a salted digest of it.
   */
  token?: string;
  /** JSON file the state is loaded from and saved to (mode 0600, never written through a link). */
  stateFile?: string;
  /**
   * More `Host` names the control API answers to, besides loopback names and addresses (and the bound
   * address when started with `startEmulator`): a name other machines or containers use to reach it.
   */
  allowHosts?: readonly string[];
  clock?: Clock;
  faultSeed?: number;
  env?: NodeJS.ProcessEnv;
  /** Largest request body accepted at all (areas enforce their own, smaller limits). */
  bodyLimit?: number;
  /** The service's global rate limit per caller, counted on the emulator's clock; off when absent. */
  rateLimit?: RateLimit;
  /** More areas mounted after the six (tests of the server's own behaviour mount a small one). */
  extraAreas?: readonly AreaModule[];
  /** Sees every API exchange as answered (the conformance suite records them here, whoever the caller). */
  onExchange?: (exchange: Exchange) => void;
}

/** One API request and the answer sent to it, as the emulator saw them. */
export interface Exchange {
  method: string;
  /** Path and query as requested, with the API prefix. */
  url: string;
  /** Request headers, without authorization. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed body (JSON), the raw bytes (multipart and other parsers), or undefined. */
  body: unknown;
  status: number;
  responseHeaders: Readonly<Record<string, unknown>>;
  /** The serialized answer (a string for JSON), as it leaves the server. */
  payload: unknown;
  /** An injected fault that kept the answer from the client. */
  fault?: "drop";
}

export interface RequestLogEntry {
  at: number;
  method: string;
  url: string;
  /** 0 when the connection was reset before any response. */
  status: number;
  durationMs: number;
  /** An injected fault that kept the answer from the client. */
  fault?: "reset" | "drop";
}

export interface Emulator {
  app: FastifyInstance;
  store: Store;
  clock: Clock;
  faults: Faults;
  auth: AuthGuard;
  accountId: string;
  token: string;
  /**
   * Where `token` came from: `given` (option or ACCOUNT_API_TOKEN; never printed or stored),
   * `generated` at this start, or `kept` from the state file (generated, and printed, at an earlier one).
   */
  tokenOrigin: "given" | "generated" | "kept";
  requestLog: RequestLogEntry[];
  rateLimit: RateLimitSwitch;
  /** Every route served (API, control and edge), as fastify registered them. */
  routes: readonly RouteEntry[];
}

export interface RouteEntry {
  method: string;
  /** With its prefix and `:param` placeholders, e.g. `/client/v4/accounts/:account_id/...`. */
  url: string;
}

/** The rate limit in force, changed at run time (the control API's `/__emulator/rate-limit`). */
export interface RateLimitSwitch {
  /** The limit, or null when off. */
  get(): RateLimit | null;
  /** Turns it on or changes it, every caller's count starting afresh; a bad limit is refused naming the field. */
  set(limit: RateLimit): RateLimit;
  clear(): void;
}

const REQUEST_LOG_LIMIT = 5_000;

function ownToken(accountId: string): StoredToken & { value: string } {
  return { value: newTokenValue(), scope: "user", permissions: ["*"], accountId, name: "default" };
}

/**
 * The first account and its token. A token from the environment (or the option) is accepted for this
 * run and stored only as a digest; otherwise the state file's own token stays, or one is generated.
 */
function openStore(o: EmulatorOptions): {
  store: Store;
  token: string;
  tokenOrigin: Emulator["tokenOrigin"];
} {
  const env = o.env ?? process.env;
  const fromEnv = env.ACCOUNT_API_TOKEN && env.ACCOUNT_API_ACCOUNT_ID;
  const accountId = o.accountId ?? (fromEnv ? env.ACCOUNT_API_ACCOUNT_ID! : randomBytes(16).toString("hex"));
  if (accountId.length > 32) throw new Error("accountId: must be at most 32 characters");
  const given = o.token ?? (fromEnv ? env.ACCOUNT_API_TOKEN : undefined);
  const own = ownToken(accountId);
  const store = new Store({
    accountId,
    tokens: [given === undefined ? own : givenToken(given, accountId)],
    ...(o.stateFile ? { file: o.stateFile } : {}),
  });
  if (given !== undefined) {
    const known = store.tokens.find((t) => tokenMatches(t, given));
    // Earlier emulators stored a given token in clear: it becomes a digest at the first save.
    if (!known || known.value !== undefined) store.addInitial(givenToken(given, store.accountId), known);
    return { store, token: given, tokenOrigin: "given" };
  }
  const kept = store.loaded
    ? store.initialTokens.find((t) => t.value !== undefined && t.accountId === store.accountId)
    : undefined;
  if (kept?.value !== undefined) return { store, token: kept.value, tokenOrigin: "kept" };
  if (store.loaded) {
    // A state made with a given token only: this run's own token joins the first account's.
    const fresh = ownToken(store.accountId);
    store.addInitial(fresh);
    return { store, token: fresh.value, tokenOrigin: "generated" };
  }
  return { store, token: own.value, tokenOrigin: "generated" };
}

/** Builds the server without listening (tests may use `app.inject`). */
export async function buildEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const { store, token, tokenOrigin } = openStore(options);
  store.save(); // at once: the file is 0600 from the start, a digest replaces a token kept in clear
  const clock = options.clock ?? new OffsetClock();
  const faults = new Faults(options.faultSeed);
  const auth = new AuthGuard(store);
  const requestLog: RequestLogEntry[] = [];
  let limiter = options.rateLimit ? new RateLimiter(options.rateLimit, () => clock.now()) : undefined;
  const rateLimit: RateLimitSwitch = {
    get: () => limiter?.limit ?? null,
    set: (limit) => (limiter = new RateLimiter(limit, () => clock.now())).limit,
    clear: () => {
      limiter = undefined;
    },
  };
  // forceCloseConnections: stop() must not wait on a client still uploading a body the emulator
  // already refused (the email size check answers before reading it).
  const app = Fastify({
    bodyLimit: options.bodyLimit ?? 16 * 1024 * 1024,
    logger: false,
    forceCloseConnections: true,
  });
  let origin = "";
  app.addHook("onListen", async () => {
    const addr = app.server.address();
    if (addr && typeof addr === "object") origin = originOf(addr);
  });

  const routes: RouteEntry[] = [];
  app.addHook("onRoute", (r) => {
    for (const method of [r.method].flat()) if (method !== "HEAD") routes.push({ method, url: r.url });
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // An empty JSON body is no body (POSTs such as create-job carry none).
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(String(body)));
    } catch (e) {
      done(e instanceof Error ? e : new Error(String(e)), undefined);
    }
  });

  const started = new WeakMap<FastifyRequest, number>();
  const dropped = new WeakSet<FastifyRequest>();
  const logged = new WeakSet<FastifyRequest>();
  const log = (req: FastifyRequest, status: number, fault?: RequestLogEntry["fault"]): void => {
    if (logged.has(req)) return;
    logged.add(req);
    requestLog.push({
      at: Date.now(),
      method: req.method,
      url: req.url,
      status,
      durationMs: Math.round(performance.now() - (started.get(req) ?? performance.now())),
      ...(fault ? { fault } : {}),
    });
    if (requestLog.length > REQUEST_LOG_LIMIT) requestLog.splice(0, requestLog.length - REQUEST_LOG_LIMIT);
  };

  const allowedHosts = new Set(
    (options.allowHosts ?? []).map((h) => h.toLowerCase().replace(/^\[|\]$/g, "")),
  );
  app.addHook("onRequest", async (req, reply) => {
    started.set(req, performance.now());
    if (req.url.startsWith(CONTROL_PREFIX)) {
      const refused = controlRefusal(req.headers, allowedHosts);
      if (refused)
        return reply.code(refused.status).send(
          errorEnvelope([
            {
              code: refused.status === 415 ? GENERIC_CODES.unsupportedMediaType : GENERIC_CODES.forbidden,
              message: refused.message,
            },
          ]),
        );
      return;
    }
    const action = faults.decide(req.method, req.url.split("?")[0] ?? req.url);
    if (action.latencyMs > 0) await new Promise((r) => setTimeout(r, action.latencyMs));
    // The limit sits in front of the service: a refused request reaches no injected failure either.
    // Logged by onResponse with its 429 (`fault` is kept for answers that never reached the client).
    const limited = req.url.startsWith(`${API_PREFIX}/`)
      ? limiter?.decide(req.headers.authorization ?? "")
      : undefined;
    if (limited && !limited.allowed)
      return reply
        .code(429)
        .header("retry-after", String(limited.retryAfterSeconds))
        .send(errorEnvelope([RATE_LIMITED]));
    if (action.kind === "reset") {
      log(req, 0, "reset");
      req.raw.socket.resetAndDestroy();
      return reply.hijack();
    }
    if (action.kind === "drop") dropped.add(req);
    if (action.kind === "status") {
      // Thrown, not sent: it renders through the one error handler, in the route's area's words.
      const worded = req.routeOptions.config.fault?.(action.status);
      const item = { code: action.status === 429 ? 10004 : 10002, message: "injected fault" };
      const fault = worded ?? new DomainError(action.status, item);
      const headers: Record<string, string> = { ...fault.headers };
      if (action.retryAfter !== undefined) headers["retry-after"] = action.retryAfter;
      throw new DomainError(fault.status, fault.errors, headers);
    }
  });

  app.addHook("onSend", async (req, reply, payload) => {
    // Pages the edge serves come from anyone's origin, and share the control API's: sandboxed, their
    // scripts run in an opaque origin, and the control API refuses them as cross-site.
    if (req.url.startsWith("/__edge/")) reply.header("content-security-policy", "sandbox");
    if (options.onExchange && req.url.startsWith(`${API_PREFIX}/`)) {
      const { authorization: _token, ...headers } = req.headers;
      options.onExchange({
        method: req.method,
        url: req.url,
        headers,
        body: req.body,
        status: reply.statusCode,
        responseHeaders: reply.getHeaders(),
        payload,
        ...(dropped.has(req) ? { fault: "drop" as const } : {}),
      });
    }
    if (dropped.has(req)) {
      // The handler ran and its change is kept; the client never hears back.
      log(req, reply.statusCode, "drop");
      store.save();
      req.raw.socket.resetAndDestroy();
    }
    return payload;
  });

  app.addHook("onResponse", async (req, reply) => {
    log(req, reply.statusCode);
    if (req.method !== "GET") store.save();
  });

  app.setErrorHandler((error, req, reply) => {
    const invalid = req.routeOptions.config.invalid ?? invalidWith(GENERIC_CODES.badRequest);
    const e = renderError(error, invalid, req.routeOptions.bodyLimit);
    for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
    const body = req.routeOptions.config.errorBody?.(e) ?? errorEnvelope(e.errors);
    return reply.code(e.status).send(body);
  });

  app.setNotFoundHandler((req, reply) =>
    reply
      .code(404)
      .send(
        errorEnvelope([
          { code: GENERIC_CODES.notFound, message: `no route for ${req.method} ${req.url.split("?")[0]}` },
        ]),
      ),
  );

  const ctx: AreaContext = { store, clock, auth, origin: () => origin };
  const emulator: Emulator = {
    app,
    store,
    clock,
    faults,
    auth,
    accountId: store.accountId,
    token,
    tokenOrigin,
    requestLog,
    rateLimit,
    routes,
  };
  await app.register(async (control) => registerControl(control, emulator), { prefix: CONTROL_PREFIX });
  registerConsole(app, emulator);
  for (const area of [...AREAS, ...(options.extraAreas ?? [])]) await mountArea(app, area, ctx);
  await app.ready();
  return emulator;
}

async function mountArea(app: FastifyInstance, area: AreaModule, ctx: AreaContext): Promise<void> {
  await app.register(async (scope) => area.api(scope, ctx), { prefix: API_PREFIX });
  const control = area.control;
  if (control)
    await app.register(async (scope) => control(scope, ctx), { prefix: `${CONTROL_PREFIX}/${area.name}` });
  const edge = area.edge;
  if (edge) await app.register(async (scope) => edge(scope, ctx));
}

const NewTokenSchema = z.strictObject({
  scope: z.enum(["user", "account"]),
  permissions: z.array(z.union([z.enum(PERMISSIONS), z.literal("*")])),
  name: z.string().optional(),
});

const FaultIdParams = z.object({ id: z.coerce.number().int() });
const AdvanceBody = z.strictObject({ ms: z.number().int().min(0) });

function registerControl(app: FastifyInstance, em: Emulator): void {
  const control = defineControl(app);
  const none = { params: NoParams, permissions: undefined };
  control.get("/health", none, () => ({ accountId: em.accountId, now: em.clock.now() }));
  control.get("/faults", none, () => em.faults.list());
  control.post("/faults", { ...none, body: FaultRuleSchema }, ({ body }) => em.faults.add(body));
  control.delete("/faults", none, () => {
    em.faults.clear();
    return null;
  });
  control.delete("/faults/:id", { params: FaultIdParams, permissions: undefined }, ({ params }) => ({
    removed: em.faults.remove(params.id),
  }));
  control.get("/rate-limit", none, () => em.rateLimit.get());
  control.put("/rate-limit", { ...none, body: RateLimitSchema }, ({ body }) => em.rateLimit.set(body));
  control.delete("/rate-limit", none, () => {
    em.rateLimit.clear();
    return null;
  });
  control.get("/requests", none, () => em.requestLog);
  control.delete("/requests", none, () => {
    em.requestLog.length = 0;
    return null;
  });
  control.post("/tokens", { ...none, body: NewTokenSchema }, ({ body }) => {
    const t = em.auth.add({
      scope: body.scope,
      permissions: body.permissions,
      ...(body.name ? { name: body.name } : {}),
    });
    return { value: t.value, scope: t.scope, permissions: t.permissions };
  });
  control.post("/clock/advance", { ...none, body: AdvanceBody }, ({ body }) => {
    if (!isAdvanceable(em.clock))
      throw new DomainError(400, { code: GENERIC_CODES.badRequest, message: "clock: cannot be advanced" });
    em.clock.advance(body.ms);
    return { now: em.clock.now() };
  });
  control.post("/reset", none, () => {
    em.store.reset();
    em.faults.clear();
    return null;
  });
  // Without any token's value or digest: a page that got around the checks still learns no token.
  control.get("/state", none, () => em.store.publicSnapshot());
}

export interface RunningEmulator extends Emulator {
  /** API root, ending in /client/v4. */
  url: string;
  /** Server origin, for the control API and the markdown edge. */
  origin: string;
  stop(): Promise<void>;
}

/** Starts the emulator on loopback (port 0 picks a free one). */
/**
 * The origin clients use: the bound address, or loopback when bound to every address (0.0.0.0 or
 * ::), since a client's base URL must name a host, and plain http is taken only to loopback.
 */
function originOf(addr: { address: string; family: string; port: number }): string {
  const address = isWildcardAddress(addr.address)
    ? addr.family === "IPv6"
      ? "::1"
      : "127.0.0.1"
    : addr.address;
  return `http://${addr.family === "IPv6" ? `[${address}]` : address}:${addr.port}`;
}

export async function startEmulator(
  options: EmulatorOptions & { port?: number; host?: string } = {},
): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  const bound = isWildcardAddress(host) ? [] : [host];
  const em = await buildEmulator({ ...options, allowHosts: [...(options.allowHosts ?? []), ...bound] });
  await em.app.listen({ port: options.port ?? 0, host });
  const addr = em.app.server.address();
  if (!addr || typeof addr !== "object") throw new Error("emulator: no address after listen");
  const origin = originOf(addr);
  return {
    ...em,
    url: `${origin}${API_PREFIX}`,
    origin,
    stop: async () => {
      em.store.save();
      await em.app.close();
    },
  };
}
