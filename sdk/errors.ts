/**
 * One error family for everything the client can throw. Every class carries a stable `code` string
 * (as undici's errors do) so callers can branch without parsing messages; API errors add the HTTP
 * status, the API's `errors[]`, the method, the path (never the query's secrets, never the token) and
 * the request id.
 */

export interface ApiErrorItem {
  code: number;
  message: string;
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
    const text = first ? d.errors.map((e) => `${e.message} (code ${e.code})`).join("; ") : `HTTP ${d.status}`;
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
