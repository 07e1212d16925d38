/**
 * One error family for everything the client can throw. Every class carries a stable `code` string
 * (as undici's errors do) so callers can branch without parsing messages; API errors add the HTTP
 * status, the API's `errors[]`, the method, the path (never the query's secrets, never the token) and
 * the request id.
 */
import { z } from "zod";

export interface ApiErrorItem {
  code: number;
  message: string;
  /** What the service adds to a fixed message (email's `detail`: which field, and why). */
  detail?: string;
  /** The request field at fault: `source.pointer`, or the `path` the search service names. */
  field?: string;
  documentationUrl?: string;
  /** The causes the service chains below this error (`error_chain`), outermost first. */
  chain?: readonly ApiErrorItem[];
}

/** A field the service may send in any shape: a wrong shape is dropped, never a failure. */
const loose = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/** One `errors[]` entry as the services send it (the contract's several envelopes together). */
interface WireErrorItem {
  code?: number | string | undefined;
  message?: string | undefined;
  detail?: string | undefined;
  documentation_url?: string | undefined;
  source?: { pointer?: string | undefined } | undefined;
  path?: (string | number)[] | undefined;
  error_chain?: unknown[] | undefined;
}

const WireErrorItemSchema: z.ZodType<WireErrorItem> = z.looseObject({
  code: loose(z.union([z.number(), z.string()])),
  message: loose(z.string()),
  detail: loose(z.string()),
  documentation_url: loose(z.string()),
  source: loose(z.looseObject({ pointer: loose(z.string()) })),
  path: loose(z.array(z.union([z.string(), z.number()]))),
  error_chain: loose(z.array(z.unknown())),
});

/** Where the envelopes keep their errors: `errors[]`, or one `error` (meetings), and `messages[]`. */
const WireEnvelopeSchema = z.looseObject({
  errors: loose(z.array(z.unknown())),
  error: loose(z.unknown()),
  messages: loose(z.array(z.unknown())),
});

/** How deep an `error_chain` is followed: a server that nests without end is cut short. */
const MAX_CHAIN_DEPTH = 4;

function itemOf(value: unknown, depth: number): ApiErrorItem | undefined {
  if (typeof value === "string") return { code: 0, message: value };
  const parsed = WireErrorItemSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const w = parsed.data;
  const code = Number(w.code ?? 0);
  const field = w.source?.pointer ?? (w.path?.length ? w.path.join(".") : undefined);
  const chain =
    depth < MAX_CHAIN_DEPTH ? (w.error_chain ?? []).flatMap((c) => itemOf(c, depth + 1) ?? []) : [];
  return {
    code: Number.isFinite(code) ? code : 0,
    message: w.message ?? "",
    ...(w.detail ? { detail: w.detail } : {}),
    ...(field ? { field } : {}),
    ...(w.documentation_url ? { documentationUrl: w.documentation_url } : {}),
    ...(chain.length ? { chain } : {}),
  };
}

/** The errors of an API answer's body, whichever envelope it uses; none when it is not one. */
export function apiErrorItems(body: unknown): ApiErrorItem[] {
  const env = WireEnvelopeSchema.safeParse(body);
  if (!env.success) return [];
  const list = env.data.errors ?? (env.data.error === undefined ? [] : [env.data.error]);
  return list.flatMap((e) => itemOf(e, 0) ?? []);
}

/** The `messages[]` of an answer's body (strings, or objects with a message), as text. */
export function apiMessages(body: unknown): string[] {
  const env = WireEnvelopeSchema.safeParse(body);
  if (!env.success) return [];
  return (env.data.messages ?? []).flatMap((m) => {
    const item = itemOf(m, MAX_CHAIN_DEPTH);
    return item ? [describeItem(item)] : [];
  });
}

/** One error as a person reads it: the message and code, then what the service said besides. */
export function describeItem(e: ApiErrorItem): string {
  const head = e.message || e.detail || "no message";
  const code = e.code ? ` (code ${e.code})` : "";
  const detail = e.detail && e.detail !== head ? `: ${e.detail}` : "";
  const field = e.field && !detail.includes(e.field) ? ` [field ${e.field}]` : "";
  const chain = e.chain?.length ? ` (caused by: ${e.chain.map(describeItem).join("; ")})` : "";
  const docs = e.documentationUrl ? ` (see ${e.documentationUrl})` : "";
  return `${head}${code}${detail}${field}${chain}${docs}`;
}

/** Base of every error thrown by this package's sdk. */
export class AccountApiError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** A client option (or its environment fallback) is missing or malformed: thrown by the constructor. */
export class ConfigurationError extends AccountApiError {
  /**
   * The client option at fault (`baseUrl`, `token`, `accountId`, …), so that a caller can name it as
   * its user knows it: a Pulumi config key, a command-line flag, an environment variable.
   */
  readonly setting: string | undefined;
  constructor(message: string, setting?: string) {
    super("ERR_CONFIG", message);
    this.setting = setting;
  }
}

/** A request path, or a value given to the `path` template, that would not make a safe URL path. */
export class InvalidPathError extends AccountApiError {
  constructor(message: string) {
    super("ERR_PATH_SEGMENT", message);
  }
}

/** A listing did not end within its page budget (a server that keeps answering past the end). */
export class PagingError extends AccountApiError {
  constructor(message: string) {
    super("ERR_PAGING", message);
  }
}

/** Input rejected locally, before any request: names the field and the rule it broke. */
export class ValidationError extends AccountApiError {
  readonly issues: readonly { field: string; rule: string }[];
  constructor(context: string, issues: readonly { field: string; rule: string }[]) {
    super(
      "ERR_VALIDATION",
      `${context}: ${issues.map((i) => (i.field ? `${i.field}: ${i.rule}` : i.rule)).join("; ")}`,
    );
    this.issues = issues;
  }
}

/** A response whose body does not have the shape the spec promises. */
export class ResponseShapeError extends AccountApiError {
  readonly method: string;
  readonly path: string;
  constructor(method: string, path: string, detail: string) {
    super("ERR_RESPONSE_SHAPE", `${method} ${path}: unexpected response shape: ${detail}`);
    this.method = method;
    this.path = path;
  }
}

/** The connection failed (refused, reset, DNS) before a whole response arrived. */
export class ConnectionError extends AccountApiError {
  readonly method: string;
  readonly path: string;
  constructor(method: string, path: string, cause: unknown) {
    super("ERR_CONNECTION", `${method} ${path}: connection failed: ${describeCause(cause)}`, { cause });
    this.method = method;
    this.path = path;
  }
}

/** No response within the request's timeout. */
export class TimeoutError extends AccountApiError {
  readonly method: string;
  readonly path: string;
  readonly timeoutMs: number;
  constructor(method: string, path: string, timeoutMs: number) {
    super("ERR_TIMEOUT", `${method} ${path}: no response within ${timeoutMs} ms`);
    this.method = method;
    this.path = path;
    this.timeoutMs = timeoutMs;
  }
}

/** The caller's AbortSignal fired. */
export class AbortedError extends AccountApiError {
  constructor(what: string, options?: { cause?: unknown }) {
    super("ERR_ABORTED", `${what}: aborted`, options);
  }
}

/** A wait (build, workflow, job) passed its deadline. */
export class DeadlineExceededError extends AccountApiError {
  constructor(what: string, deadlineMs: number, lastState: string) {
    super("ERR_DEADLINE", `${what}: not finished within ${deadlineMs} ms (last state: ${lastState})`);
  }
}

export interface ApiErrorDetails {
  status: number;
  errors: readonly ApiErrorItem[];
  method: string;
  path: string;
  requestId?: string;
  body?: unknown;
  hint?: string;
}

/** A non-2xx answer from the API (or a 2xx whose envelope says `success: false`). */
export class ApiError extends AccountApiError {
  readonly status: number;
  readonly errors: readonly ApiErrorItem[];
  /** The first `errors[].code`, when the API gave one. */
  readonly apiCode: number | undefined;
  readonly method: string;
  readonly path: string;
  readonly requestId: string | undefined;
  readonly body: unknown;

  constructor(d: ApiErrorDetails) {
    const first = d.errors[0];
    const messages = apiMessages(d.body);
    const said = messages.length ? `; the service also said: ${messages.join("; ")}` : "";
    const text = first
      ? `${d.errors.map(describeItem).join("; ")}${said}`
      : messages.length
        ? `HTTP ${d.status}: ${messages.join("; ")}`
        : `HTTP ${d.status}`;
    super(
      `ERR_API_${d.status}`,
      `${d.method} ${d.path} failed with ${d.status}: ${text}${d.hint ? `. ${d.hint}` : ""}${d.requestId ? ` [request ${d.requestId}]` : ""}`,
    );
    this.status = d.status;
    this.errors = d.errors;
    this.apiCode = first?.code;
    this.method = d.method;
    this.path = d.path;
    this.requestId = d.requestId;
    this.body = d.body;
  }
}

export class BadRequestError extends ApiError {}
export class AuthenticationError extends ApiError {}
export class PermissionDeniedError extends ApiError {}
export class NotFoundError extends ApiError {}
export class ConflictError extends ApiError {}
export class UnprocessableEntityError extends ApiError {}
export class RateLimitError extends ApiError {}
export class InternalServerError extends ApiError {}
/** 503: still an InternalServerError, told apart because it is the usual "try later" answer. */
export class ServiceUnavailableError extends InternalServerError {}

/** The one place that maps an HTTP status to an error class, so callers can test `instanceof`. */
export function errorFromResponse(d: ApiErrorDetails): ApiError {
  switch (d.status) {
    case 400:
      return new BadRequestError(d);
    case 401:
      return new AuthenticationError(d);
    case 403:
      return new PermissionDeniedError(d);
    case 404:
      return new NotFoundError(d);
    case 409:
      return new ConflictError(d);
    case 422:
      return new UnprocessableEntityError(d);
    case 429:
      return new RateLimitError(d);
    case 503:
      return new ServiceUnavailableError(d);
    default:
      return d.status >= 500 ? new InternalServerError(d) : new ApiError(d);
  }
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const code = "code" in cause ? cause.code : undefined;
    return typeof code === "string" ? `${code} ${cause.message}` : cause.message;
  }
  return String(cause);
}
