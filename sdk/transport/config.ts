/**
 * A client's settings: the options as given, else the environment, checked before any request so
 * that a bad base URL, token or number is a ConfigurationError at construction, never mid-call.
 */
import type { Dispatcher } from "undici";
import { systemClock } from "../core";
import { ConfigurationError } from "../errors";
import { PACKAGE_NAME, PACKAGE_VERSION } from "../version";
import { retryOptions, type RetryOptions } from "./retry";
import type { TransportEvent } from "./types";

export interface ClientOptions {
  /** API root ending in `/client/v4`. Fallback: ACCOUNT_API_BASE_URL, then the public service's (DEFAULT_BASE_URL). */
  baseUrl?: string;
  /** Bearer token. Fallback: ACCOUNT_API_TOKEN. */
  token?: string;
  /** Default account id (at most 32 characters). Fallback: ACCOUNT_API_ACCOUNT_ID. */
  accountId?: string;
  /**
   * Let a plain `http://` base URL name a host other than loopback (127.0.0.0/8, ::1, localhost),
   * where the token would travel in clear. Fallback: ACCOUNT_API_INSECURE_HTTP (`true`/`1` or
   * `false`/`0`). Default false: such a base URL is a ConfigurationError before any request.
   */
  insecureHttp?: boolean;
  /** Per-attempt timeout in ms (default 60 000). */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  /** Observer hook for logging and tests. An exception it throws is ignored. */
  onEvent?: (event: TransportEvent) => void;
  /** Bring your own dispatcher (otherwise one keep-alive Agent per client). */
  dispatcher?: Dispatcher;
  /** Max sockets per origin of the built-in pool (default 16). */
  connections?: number;
  /** Extra text appended to the user agent. */
  userAgentSuffix?: string;
  /**
   * Let identical GETs made at once share one request (default false). Each still gets an answer
   * that began after it asked (sdk/fresh-reads.ts), so this never returns older data than a request
   * of its own would; it only saves requests, e.g. many resources each listing the same collection.
   * A call with its own signal, timeout or headers always goes alone.
   */
  shareReads?: boolean;
  /** Injectable for tests: sleep and randomness used by the backoff. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Injectable clock (ms since the epoch) for `Retry-After` dates. Default Date.now. */
  now?: () => number;
  /** Environment to read fallbacks from (default process.env). */
  env?: NodeJS.ProcessEnv;
}

export interface ResolvedConfig {
  baseUrl: string;
  token: string;
  accountId: string | undefined;
}

/** Every setting of a client, checked and with its default: what `ApiClient` is made of. */
export interface ClientSettings extends ResolvedConfig {
  timeoutMs: number;
  retry: RetryOptions;
  onEvent: ((e: TransportEvent) => void) | undefined;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  now: () => number;
  /** The caller's dispatcher; undefined: the client makes (and closes) its own. */
  dispatcher: Dispatcher | undefined;
  connections: number;
  /** `pulumi-account-api/<version> node/<version>[ suffix]`. */
  userAgent: string;
  shareReads: boolean;
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** Longest delay a Node timer supports; a larger timeout would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The word the error about plain http uses for the setting that allows it: each caller (the command
 * line, the provider) puts its own name for it in its place (`--insecure-http`, `account-api:insecureHttp`).
 */
export const INSECURE_HTTP_SETTING = "insecureHttp";

/** Whether a URL's host is this machine: 127.0.0.0/8, ::1 or localhost (as the URL parser spells them). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host === "[::1]") return true;
  // The parser has already turned 127.1, 0x7f.0.0.1 and the like into dotted quads.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A boolean setting: the option as given, else its environment variable (`true`/`1`, `false`/`0`). */
function pickFlag(option: unknown, envValue: string | undefined, name: string): boolean {
  if (option !== undefined) {
    if (typeof option !== "boolean") throw new ConfigurationError(`${name}: must be a boolean`, name);
    return option;
  }
  const v = envValue?.trim().toLowerCase();
  if (!v || v === "false" || v === "0") return false;
  if (v === "true" || v === "1") return true;
  throw new ConfigurationError(`${name}: must be true or false (1 or 0)`, name);
}

/** The public service's API root: the base URL when neither the option nor the environment sets one. */
export const DEFAULT_BASE_URL = "https://api.cloudflare.com/client/v4";

/** An option, else its environment variable; an empty environment variable counts as unset. */
function pick(option: unknown, envValue: string | undefined, name: string): string | undefined {
  if (option !== undefined) {
    if (typeof option !== "string") throw new ConfigurationError(`${name}: must be a string`, name);
    return option.trim();
  }
  const v = envValue?.trim();
  return v ? v : undefined;
}

/** Options win over the environment; fails fast on a missing or malformed value. */
export function resolveConfig(options: ClientOptions): ResolvedConfig {
  const env = options.env ?? process.env;
  const baseUrl = (pick(options.baseUrl, env.ACCOUNT_API_BASE_URL, "baseUrl") || DEFAULT_BASE_URL).replace(
    /\/+$/,
    "",
  );
  const token = pick(options.token, env.ACCOUNT_API_TOKEN, "token") ?? "";
  const accountId = pick(options.accountId, env.ACCOUNT_API_ACCOUNT_ID, "accountId");
  const bad = (setting: string, rule: string) => new ConfigurationError(`${setting}: ${rule}`, setting);
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw bad("baseUrl", `not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw bad("baseUrl", "must be http or https");
  if (parsed.username || parsed.password) throw bad("baseUrl", "must not carry credentials (use token)");
  if (parsed.search || parsed.hash || baseUrl.includes("?") || baseUrl.includes("#"))
    throw bad("baseUrl", "must not have a query or fragment");
  const insecureHttp = pickFlag(options.insecureHttp, env.ACCOUNT_API_INSECURE_HTTP, INSECURE_HTTP_SETTING);
  if (parsed.protocol === "http:" && !insecureHttp && !isLoopbackHost(parsed.hostname))
    throw bad(
      "baseUrl",
      `plain http only to a loopback host (127.0.0.0/8, ::1, localhost), or the token travels in clear to ${parsed.host}: use https, or allow it with ${INSECURE_HTTP_SETTING}`,
    );
  if (!token) throw bad("token", "required (option token or ACCOUNT_API_TOKEN)");
  // The value itself is never quoted: it is the secret.
  if (!/^[\x21-\x7e]+$/.test(token)) throw bad("token", "must be printable ASCII without spaces");
  if (accountId !== undefined && (accountId.length < 1 || accountId.length > 32))
    throw bad("accountId", "must be 1 to 32 characters");
  return { baseUrl, token, accountId };
}

/** A timeout in whole ms that a Node timer can hold. */
export function checkTimeout(value: unknown, name: string): number {
  if (typeof value !== "number" || !(value > 0) || value > MAX_TIMER_MS) {
    throw new ConfigurationError(`${name}: must be a number of ms between 1 and ${MAX_TIMER_MS}`);
  }
  return Math.ceil(value);
}

function checkFunction(value: unknown, name: string): void {
  if (value !== undefined && typeof value !== "function")
    throw new ConfigurationError(`${name}: must be a function`);
}

/** Every option checked (in a fixed order, so the first bad one is the one reported) and defaulted. */
export function clientSettings(options: ClientOptions): ClientSettings {
  if (options === null || typeof options !== "object")
    throw new ConfigurationError("options: must be an object");
  const cfg = resolveConfig(options);
  const timeoutMs = checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, "timeoutMs");
  const retry = retryOptions(options.retry);
  for (const name of ["onEvent", "sleep", "random", "now"] as const) checkFunction(options[name], name);
  const connections = options.connections ?? 16;
  if (!Number.isInteger(connections) || connections < 1) {
    throw new ConfigurationError("connections: must be an integer >= 1");
  }
  if (options.dispatcher !== undefined && typeof options.dispatcher?.request !== "function") {
    throw new ConfigurationError("dispatcher: must be an undici Dispatcher");
  }
  const suffix = options.userAgentSuffix;
  if (suffix !== undefined && (typeof suffix !== "string" || /[\r\n]/.test(suffix))) {
    throw new ConfigurationError("userAgentSuffix: must be a string on one line");
  }
  if (options.shareReads !== undefined && typeof options.shareReads !== "boolean") {
    throw new ConfigurationError("shareReads: must be a boolean");
  }
  return {
    ...cfg,
    timeoutMs,
    retry,
    onEvent: options.onEvent,
    sleep: options.sleep ?? systemClock.sleep,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
    dispatcher: options.dispatcher,
    connections,
    userAgent:
      `${PACKAGE_NAME}/${PACKAGE_VERSION} node/${process.versions.node}` + (suffix ? ` ${suffix}` : ""),
    shareReads: options.shareReads ?? false,
  };
}
