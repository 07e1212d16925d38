/**
 * What the serialized shim calls at run time: it opens one session (config + sdk client) per
 * provider object, strips the engine's bookkeeping keys, dispatches to the resource's handler, and
 * turns errors into messages that name the resource kind without ever including the token.
 */
import { AccountApi } from "../sdk";
import { AccountApiError } from "../sdk/errors";
import { readProviderConfig, type RawConfigReader } from "./config";
import { PartialCreateError } from "./errors";
import { KeyedQueue } from "./keyed-queue";
import { handlerFor } from "./registry";
import type { HandlerContext, ProviderConfig } from "./types";

export const PROVIDER_KEY = "__provider";

export interface Session {
  config: ProviderConfig;
  context: HandlerContext;
  /** Closes the sdk client if one was opened. */
  close(): Promise<void>;
}

/** Called from the shim's `configure`: everything secret stays in this process's memory. */
export function openSession(
  reader: RawConfigReader | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Session {
  const config = readProviderConfig(reader, env);
  let api: AccountApi | undefined;
  const queue = new KeyedQueue();
  const context: HandlerContext = {
    get api(): AccountApi {
      api ??= new AccountApi({
        ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
        ...(config.apiToken ? { token: config.apiToken } : {}),
        ...(config.accountId ? { accountId: config.accountId } : {}),
        userAgentSuffix: "pulumi-dynamic-provider",
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
  };
  return { config, context, close: async () => api?.close() };
}

type Method = "check" | "diff" | "create" | "read" | "update" | "delete";

function withoutProviderKey<T>(value: T): T {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const copy = { ...(value as Record<string, unknown>) };
  delete copy[PROVIDER_KEY];
  return copy as T;
}

/** The shim's single entry: `holder` is the deserialized provider object carrying the session. */
export async function dispatch(
  kind: string,
  method: Method,
  holder: { session?: unknown },
  args: unknown[],
): Promise<unknown> {
  const session = (holder.session as Session | undefined) ?? (holder.session = openSession(undefined));
  const handler = handlerFor(kind);
  const ctx = session.context;
  const clean = args.map(withoutProviderKey);
  try {
    switch (method) {
      case "check": {
        const [olds, news] = clean as [object | undefined, Record<string, unknown>];
        const result = await handler.check(olds, news, ctx);
        // The engine needs __provider back in the checked inputs.
        const inputs = result.inputs
          ? { ...result.inputs, [PROVIDER_KEY]: (args[1] as Record<string, unknown>)[PROVIDER_KEY] }
          : args[1];
        return { inputs, failures: result.failures ?? [] };
      }
      case "diff": {
        const [id, olds, news] = clean as [string, object, object];
        return await handler.diff(id, olds, news, ctx);
      }
      case "create": {
        const [inputs] = clean as [object];
        return await handler.create(inputs, ctx);
      }
      case "read": {
        const [id, props] = clean as [string, object];
        const result = await handler.read(id, props, ctx);
        // An empty id tells the engine the object is gone.
        return result ?? { id: "", props: {} };
      }
      case "update": {
        const [id, olds, news] = clean as [string, object, object];
        return await handler.update(id, olds, news, ctx);
      }
      case "delete": {
        const [id, props] = clean as [string, object];
        await handler.delete(id, props, ctx);
        return undefined;
      }
    }
  } catch (err) {
    if (err instanceof PartialCreateError && (method === "create" || method === "update")) {
      // Recorded resources need the serialized provider too, or nothing can touch them later.
      const source = (method === "create" ? args[0] : args[2]) as Record<string, unknown>;
      (err.properties as Record<string, unknown>)[PROVIDER_KEY] = source[PROVIDER_KEY];
    }
    throw describeFailure(kind, method, err, session.config.apiToken);
  }
}

/** Prefixes the resource kind and operation; scrubs the token from anything that might echo it. */
function describeFailure(kind: string, method: Method, err: unknown, token: string | undefined): Error {
  if (err instanceof PartialCreateError) return err; // the engine reads its id/properties/reasons
  const scrub = (s: string): string => (token ? s.split(token).join("[redacted]") : s);
  const message = err instanceof Error ? err.message : String(err);
  const out = new Error(scrub(`${kind} ${method}: ${message}`));
  if (err instanceof AccountApiError) (out as Error & { code?: string }).code = err.code;
  return out;
}
