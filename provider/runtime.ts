/**
 * What the provider objects call at run time, in the provider host: one session (configuration and
 * sdk client) per provider object, the engine's bookkeeping key stripped, the kind's handler called,
 * and errors turned into messages that name the kind and the operation without ever the token.
 *
 * `configure` and `call` serve today's per-kind objects (core/shim.ts); `openSession` and `dispatch`
 * serve the provider objects that 0.1.x stored in state, which call them by these names.
 */
// First: the compile cache covers only what loads after it; then the guard for Node older than 22.
import { flushCompileCache } from "../sdk/compile-cache";
import "../sdk/require-node";
// The client without its areas: each loads when a handler first asks for it (sdk/account-api.ts).
import { AccountApi } from "../sdk/account-api";
import { AccountApiError, ConfigurationError } from "../sdk/errors";
import { configProblem, readProviderConfig, type RawConfigReader } from "./config";
import { isRecord } from "./core/values";
import { PartialCreateError, ResourceInputError } from "./errors";
import { KeyedQueue } from "./keyed-queue";
import { SlotClaims } from "./slot-claims";
import { handlerFor } from "./registry";
import { retryPolicyFor } from "./retry-policy";
import { DEFAULT_WAITS, type HandlerContext, type ProviderConfig } from "./types";

export const PROVIDER_KEY = "__provider";

export type Method = "check" | "diff" | "create" | "read" | "update" | "delete";

export interface Session {
  config: ProviderConfig;
  /**
   * What is wrong with the configuration, in a Pulumi user's words: check reports it as a failure
   * of each resource (once, without a stack trace) and every other method refuses to start.
   */
  problem?: string;
  context: HandlerContext;
  /** Closes the sdk client if one was opened. */
  close(): Promise<void>;
}

/** The provider object as the host holds it: the session lives on it, one per object. */
export interface SessionHolder {
  session?: unknown;
}

/** Everything secret stays in this process's memory. */
export function openSession(
  reader: RawConfigReader | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Session {
  let config: ProviderConfig = {};
  let problem: string | undefined;
  try {
    config = readProviderConfig(reader, env);
    problem = configProblem(config, env);
  } catch (err) {
    // configure must not fail: the engine would show a stack trace, not the setting at fault.
    if (!(err instanceof ConfigurationError)) throw err;
    problem = err.message;
  }
  let api: AccountApi | undefined;
  const queue = new KeyedQueue();
  const context: HandlerContext = {
    get api(): AccountApi {
      api ??= new AccountApi({
        ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
        ...(config.apiToken ? { token: config.apiToken } : {}),
        ...(config.accountId ? { accountId: config.accountId } : {}),
        userAgentSuffix: "pulumi-dynamic-provider",
        // The one retry policy: every call, and every create sent again after a look-up, within it.
        retry: retryPolicyFor(config),
        // Many resources read the same collection at once (a refresh of many connections each lists
        // them all); they share requests, each still answered by one begun after it asked.
        shareReads: true,
        // Each retry is a line in the engine's output: the user sees why a step takes longer.
        onEvent: (e) => {
          if (e.type === "retry")
            console.error(
              `account-api: retrying ${e.method} ${new URL(e.url).pathname} after ${e.reason} in ${e.delayMs} ms`,
            );
        },
        env,
      });
      return api;
    },
    accountId(override?: string): string {
      const id = override ?? config.accountId;
      if (!id)
        throw new Error(
          "accountId: required (set account-api:accountId, ACCOUNT_API_ACCOUNT_ID, or the resource's accountId input)",
        );
      return id;
    },
    log(message: string): void {
      // console.error from a dynamic provider reaches the user's output (since 3.146).
      console.error(message);
    },
    serialize: (key, fn) => queue.run(key, fn),
    waits: DEFAULT_WAITS,
    claims: new SlotClaims(),
  };
  return { config, ...(problem ? { problem } : {}), context, close: async () => api?.close() };
}

/** The shim's `configure`: the engine hands the decrypted stack configuration. */
export function configure(holder: SessionHolder, reader: RawConfigReader | undefined): void {
  holder.session = openSession(reader);
}

/** Today's provider objects carry their kind. */
export async function call(
  holder: SessionHolder & { kind: string },
  method: Method,
  args: unknown[],
): Promise<unknown> {
  return dispatch(holder.kind, method, holder, args);
}

const isSession = (v: unknown): v is Session => isRecord(v) && "context" in v && "config" in v;

function withoutProviderKey(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) return {};
  const { [PROVIDER_KEY]: _provider, ...rest } = value;
  return rest;
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");

/** diff's and update's arguments: the id, the old state and the new inputs. */
const idOldsNews = (args: unknown[]) =>
  [text(args[0]), withoutProviderKey(args[1]), withoutProviderKey(args[2])] as const;

/** The single entry of every provider object, today's and 0.1.x's. */
export async function dispatch(
  kind: string,
  method: Method,
  holder: SessionHolder,
  args: unknown[],
): Promise<unknown> {
  const session = isSession(holder.session) ? holder.session : (holder.session = openSession(undefined));
  const handler = handlerFor(kind);
  const ctx = session.context;
  const providerOf = (i: number): unknown => (isRecord(args[i]) ? args[i][PROVIDER_KEY] : undefined);
  if (session.problem !== undefined) {
    if (method === "check") return { inputs: args[1], failures: [{ property: "", reason: session.problem }] };
    throw describeFailure(kind, method, new ConfigurationError(session.problem), undefined);
  }
  try {
    switch (method) {
      case "check": {
        const olds = args[0] === undefined ? undefined : withoutProviderKey(args[0]);
        const result = await handler.check(olds, withoutProviderKey(args[1]), ctx);
        // The engine needs __provider back in the checked inputs.
        const inputs = result.inputs ? { ...result.inputs, [PROVIDER_KEY]: providerOf(1) } : args[1];
        return { inputs, failures: result.failures ?? [] };
      }
      case "diff":
        return await handler.diff(...idOldsNews(args), ctx);
      case "create":
        return await handler.create(withoutProviderKey(args[0]), ctx);
      case "read": {
        const result = await handler.read(text(args[0]), withoutProviderKey(args[1]), ctx);
        // An empty id tells the engine the object is gone.
        return result ?? { id: "", props: {} };
      }
      case "update":
        return await handler.update(...idOldsNews(args), ctx);
      case "delete":
        await handler.delete(text(args[0]), withoutProviderKey(args[1]), ctx);
        return undefined;
    }
  } catch (err) {
    if (err instanceof PartialCreateError && (method === "create" || method === "update")) {
      // Recorded resources need the serialized provider too, or nothing can touch them later.
      const properties: unknown = err.properties;
      if (isRecord(properties)) properties[PROVIDER_KEY] = providerOf(method === "create" ? 0 : 2);
    }
    throw describeFailure(kind, method, err, session.config.apiToken);
  } finally {
    // The engine may kill the host rather than let it exit, when Node would write the cache: write
    // what this call loaded (the kind's handler, its area, undici) once it has answered.
    setImmediate(flushCompileCache).unref();
  }
}

/** An error the engine shows: the kind and the operation first, the API's code kept, no token. */
export class ProviderOperationError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = "ProviderOperationError";
  }
}

/** Prefixes the resource kind and operation; scrubs the token from anything that might echo it. */
function describeFailure(kind: string, method: Method, err: unknown, token: string | undefined): Error {
  if (err instanceof PartialCreateError) return err; // the engine reads its id/properties/reasons
  const scrub = (s: string): string => (token ? s.split(token).join("[redacted]") : s);
  const message = err instanceof Error ? err.message : String(err);
  const failure = new ProviderOperationError(
    scrub(`${kind} ${method}: ${message}`),
    err instanceof AccountApiError ? err.code : undefined,
  );
  // The host prints a failure's stack before the engine prints its message: for what the user must
  // fix (the API's answer, the configuration, an input) our frames say nothing, so there are none.
  if (err instanceof AccountApiError || err instanceof ResourceInputError)
    failure.stack = `${failure.name}: ${failure.message}`;
  return failure;
}
