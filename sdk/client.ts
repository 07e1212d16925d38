/**
 * `ApiClient`, the transport every area builds on: it composes the parts in `transport/` (settings,
 * paths, redaction, sending with its retry policy, the envelope) and is the one object areas call.
 * Area modules build on `ApiClient.request` and never touch undici themselves.
 */
import type { CallOptions } from "./core";
import { FreshReads } from "./fresh-reads";
import { clientSettings, type ClientOptions } from "./transport/config";
import { rawApiError, unwrapEnvelope } from "./transport/envelope";
import { accountOf, requestTarget } from "./transport/paths";
import { Redactor } from "./transport/redaction";
import { IDEMPOTENT_METHODS } from "./transport/retry";
import { Sender } from "./transport/send";
import type { ApiResponse, RawResponse, RequestSpec } from "./transport/types";

// The transport's public names, where they have always been importable from.
export {
  DEFAULT_BASE_URL,
  INSECURE_HTTP_SETTING,
  isLoopbackHost,
  resolveConfig,
  type ClientOptions,
  type ResolvedConfig,
} from "./transport/config";
export { path } from "./transport/paths";
export { parseRetryAfter, retryDelay, type RetryOptions } from "./transport/retry";
export type {
  ApiResponse,
  HttpMethod,
  RawResponse,
  RequestSpec,
  ResultInfo,
  TransportEvent,
  Unwrap,
} from "./transport/types";

export class ApiClient {
  readonly baseUrl: string;
  readonly defaultAccountId: string | undefined;
  /** `pulumi-account-api/<version> node/<version>[ suffix]`. */
  readonly userAgent: string;
  readonly #redactor: Redactor;
  readonly #sender: Sender;
  /** Requests in flight that identical GETs may join; undefined unless `shareReads`. */
  readonly #sharedReads: FreshReads<RawResponse> | undefined;

  constructor(options: ClientOptions = {}) {
    const settings = clientSettings(options);
    this.baseUrl = settings.baseUrl;
    this.defaultAccountId = settings.accountId;
    this.userAgent = settings.userAgent;
    this.#redactor = new Redactor(settings.token);
    this.#sender = new Sender(settings, this.#redactor);
    this.#sharedReads = settings.shareReads ? new FreshReads<RawResponse>() : undefined;
  }

  /** The account to act on: an explicit one, else the client's default. */
  account(accountId?: string): string {
    return accountOf(accountId, this.defaultAccountId);
  }

  /** Replaces every occurrence of the token (raw or URL-encoded) with `[redacted]`. */
  redact(text: string): string {
    return this.#redactor.text(text);
  }

  async request<T>(spec: RequestSpec<T>): Promise<T> {
    return (await this.requestWithInfo(spec)).value;
  }

  /** The URL and the authorized send of an API request (its path checked first). */
  #prepare(spec: Omit<RequestSpec<unknown>, "schema" | "unwrap">): {
    url: string;
    displayPath: string;
    send: () => Promise<RawResponse>;
  } {
    const { url, displayPath } = requestTarget(this.baseUrl, spec);
    const send = (): Promise<RawResponse> =>
      this.#sender.send(spec.method, url, {
        body: spec.body,
        headers: spec.headers,
        idempotent: spec.idempotent ?? IDEMPOTENT_METHODS.has(spec.method),
        signal: spec.signal,
        timeoutMs: spec.timeoutMs,
        authorized: true,
        displayPath,
      });
    return { url, displayPath, send };
  }

  async requestWithInfo<T>(spec: RequestSpec<T>): Promise<ApiResponse<T>> {
    const { url, displayPath, send } = this.#prepare(spec);
    const shareable =
      spec.method === "GET" &&
      spec.body === undefined &&
      spec.headers === undefined &&
      spec.signal === undefined &&
      spec.timeoutMs === undefined;
    const res = this.#sharedReads && shareable ? await this.#sharedReads.read(url, send) : await send();
    return unwrapEnvelope(spec, displayPath, res, this.#redactor);
  }

  /**
   * An API request whose answer is not a JSON envelope (a file download): the token, the retries and
   * the typed errors of `request`, and the body as text.
   */
  async requestRaw(spec: Omit<RequestSpec<unknown>, "schema" | "unwrap">): Promise<RawResponse> {
    const { displayPath, send } = this.#prepare(spec);
    const res = await send();
    if (res.status < 400) return res;
    throw rawApiError(spec.method, displayPath, res, this.#redactor);
  }

  /**
   * A request to any absolute URL with the client's pool, timeouts and retries but without the
   * token (pages served to the public, such as markdown conversion, need no credentials).
   */
  async fetchRaw(
    url: string,
    init: CallOptions & { method?: "GET"; headers?: Record<string, string> } = {},
  ): Promise<RawResponse> {
    return this.#sender.send(init.method ?? "GET", url, {
      headers: init.headers,
      idempotent: true,
      signal: init.signal,
      timeoutMs: init.timeoutMs,
      authorized: false,
    });
  }

  async close(): Promise<void> {
    await this.#sender.close();
  }

  /** The client's clock (ms), on which `deadlineMs` and `Retry-After` dates are measured. */
  now(): number {
    return this.#sender.now();
  }

  /**
   * The same policy for what only a caller can repeat: a create whose outcome was unknown, which a
   * lookup then proved had not landed. The pause before send number `sent + 1`, or undefined to give
   * up (retries used up, or the pause would end past the deadline counted from `startedAt`, a `now()`).
   */
  retryAfterUnlanded(sent: number, startedAt: number): number | undefined {
    return this.#sender.retryAfterUnlanded(sent, startedAt);
  }

  /** Pauses on the client's sleeper (injected in tests); an abort is the caller's AbortedError. */
  pause(ms: number, what: string, signal?: AbortSignal): Promise<void> {
    return this.#sender.wait(ms, signal, what);
  }
}
