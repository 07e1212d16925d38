/**
 * One provider session: the configuration read once (stack config, then the environment), the sdk
 * client made on first use, and the handler context every kind's handler gets. Shared by the
 * dynamic provider's runtime (runtime.ts) and the native provider plugin (native/provider.ts), with
 * the one way either renders a failure for the engine: the kind and operation first, the API's code
 * kept, and never the token.
 */
// The client without its areas: each loads when a handler first asks for it (sdk/account-api.ts).
import { terminalText } from "../sdk/terminal-text";
import { AccountApi } from "../sdk/account-api";
import { AccountApiError, ConfigurationError } from "../sdk/errors";
import { configProblem, readProviderConfig, type RawConfigReader } from "./config";
import { PartialCreateError, ResourceInputError } from "./errors";
import { KeyedQueue } from "./keyed-queue";
import { retryPolicyFor } from "./retry-policy";
import { SlotClaims } from "./slot-claims";
import { DEFAULT_WAITS, type HandlerContext, type ProviderConfig } from "./types";

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

/**
 * Everything secret stays in this process's memory. `userAgentSuffix` tells the API which host sent
 * a request (the dynamic provider or the native plugin).
 */
export function openSession(
  reader: RawConfigReader | undefined,
  env: NodeJS.ProcessEnv = process.env,
  userAgentSuffix = "pulumi-dynamic-provider",
  // The Node host shows a dynamic provider's stderr in the engine's output; the native plugin passes
  // the engine's own log.
  log: (message: string) => void = (message) => console.error(message),
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
        ...(config.insecureHttp !== undefined ? { insecureHttp: config.insecureHttp } : {}),
        userAgentSuffix,
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
    // Messages carry names read from the account (an app's, an instance's): escaped for a terminal
    // here, once, whichever sink shows them.
    log: (message: string) => log(terminalText(message)),
    serialize: (key, fn) => queue.run(key, fn),
    waits: DEFAULT_WAITS,
    claims: new SlotClaims(),
  };
  return { config, ...(problem ? { problem } : {}), context, close: async () => api?.close() };
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

/** Every occurrence of the token in a text, replaced. */
export function scrubToken(text: string, token: string | undefined): string {
  return token ? text.split(token).join("[redacted]") : text;
}

/**
 * Prefixes the resource kind (or function) and the operation; scrubs the token from anything that
 * might echo it. A PartialCreateError passes through with its message scrubbed: each host reports
 * its id and properties to the engine in its own form.
 */
export function describeFailure(
  kind: string,
  operation: string,
  err: unknown,
  token: string | undefined,
): Error {
  if (err instanceof PartialCreateError) {
    const reasons = err.reasons.map((r) => scrubToken(r, token));
    return reasons.join("; ") === err.message ? err : new PartialCreateError(err.id, err.properties, reasons);
  }
  const message = err instanceof Error ? err.message : String(err);
  const failure = new ProviderOperationError(
    scrubToken(`${kind} ${operation}: ${message}`, token),
    err instanceof AccountApiError ? err.code : undefined,
  );
  // The host prints a failure's stack before the engine prints its message: for what the user must
  // fix (the API's answer, the configuration, an input) our frames say nothing, so there are none.
  if (
    err instanceof AccountApiError ||
    err instanceof ResourceInputError ||
    err instanceof ConfigurationError
  )
    failure.stack = `${failure.name}: ${failure.message}`;
  return failure;
}
