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
import { ConfigurationError } from "../sdk/errors";
import type { RawConfigReader } from "./config";
import { isRecord } from "./core/values";
import { PartialCreateError } from "./errors";
import { handlerFor } from "./registry";
import { describeFailure, openSession, type Session, type SessionHolder } from "./session";

// 0.1.x provider objects stored in state call `runtime.openSession`; the error class is public.
export { openSession, ProviderOperationError, type Session, type SessionHolder } from "./session";

export const PROVIDER_KEY = "__provider";

export type Method = "check" | "diff" | "create" | "read" | "update" | "delete";

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
