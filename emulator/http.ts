/**
 * The envelope every endpoint speaks, the one error class state models throw, and the one renderer
 * that turns any error (a model's, a zod validation's, fastify's own) into the API's error envelope.
 */
import type { FastifyError } from "fastify";
import { z } from "zod";
import { describeIssues, MAX_BODY_DEPTH, TOO_DEEP_RULE } from "../sdk/validate";

export interface ErrorItem {
  code: number;
  message: string;
  /** Email's table keeps its fixed message and says what is wrong here. */
  detail?: string;
  /** The field at fault, key by key (the search contract's 400s carry it). */
  path?: readonly string[];
}

/** Thrown by state models and guards: renders as itself (status, `errors[]`, headers). */
export class DomainError extends Error {
  readonly status: number;
  readonly errors: readonly ErrorItem[];
  readonly headers: Readonly<Record<string, string>>;
  constructor(
    status: number,
    errors: readonly ErrorItem[] | ErrorItem,
    headers: Record<string, string> = {},
  ) {
    const list = Array.isArray(errors) ? errors : [errors];
    super(list.map((e) => e.message).join("; "));
    this.name = "DomainError";
    this.status = status;
    this.errors = list;
    this.headers = headers;
  }

  get code(): number {
    return this.errors[0]?.code ?? GENERIC_CODES.internal;
  }
}

/** Codes the emulator uses outside an area's own table (see docs/assumptions.md). */
export const GENERIC_CODES = {
  badRequest: 1001,
  notFound: 1002,
  conflict: 1003,
  unauthorized: 10000,
  forbidden: 9109,
  unsupportedMediaType: 1005,
  internal: 1000,
} as const;

export function notFound(what: string, code: number = GENERIC_CODES.notFound): DomainError {
  return new DomainError(404, { code, message: `${what} not found` });
}

export function conflict(message: string, code: number = GENERIC_CODES.conflict): DomainError {
  return new DomainError(409, { code, message });
}

export function badRequest(message: string, code: number = GENERIC_CODES.badRequest): DomainError {
  return new DomainError(400, { code, message });
}

/** How an area words a request it cannot accept: one line per problem, each `field: rule`. */
export type InvalidRenderer = (lines: readonly string[]) => DomainError;

/** One `errors[]` entry per line, all with the same code. */
export function invalidWith(code: number): InvalidRenderer {
  return (lines) =>
    new DomainError(
      400,
      capLines(lines).map((message) => ({ code, message })),
    );
}

/** Most `errors[]` entries one refusal lists: a body of thousands of unknown keys gets these and a count. */
export const MAX_ISSUE_LINES = 20;

function moreLine(more: number, whole: string): string {
  return `${whole}: ${more} more problem${more === 1 ? "" : "s"} not listed`;
}

/**
 * The first MAX_ISSUE_LINES lines, and one saying how many more were left out. A list of one line more
 * is kept whole: it may be one capped already (issueLines), and a count of one saves no room.
 */
export function capLines(lines: readonly string[], whole = "body"): string[] {
  if (lines.length <= MAX_ISSUE_LINES + 1) return [...lines];
  return [...lines.slice(0, MAX_ISSUE_LINES), moreLine(lines.length - MAX_ISSUE_LINES, whole)];
}

/**
 * `field: rule` per issue, capped as capLines caps; an unknown key is named as the field itself, the
 * whole value as `body`.
 */
export function issueLines(error: z.ZodError, whole = "body"): string[] {
  const issues = describeIssues(error);
  const shown = issues.slice(0, MAX_ISSUE_LINES).map((i) => `${i.field || whole}: ${i.rule}`);
  const more = issues.length - shown.length;
  return more > 0 ? [...shown, moreLine(more, whole)] : shown;
}

/** Validates a value with a zod schema, or throws the area's 400 naming each field. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  invalid: InvalidRenderer | number = GENERIC_CODES.badRequest,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw (typeof invalid === "number" ? invalidWith(invalid) : invalid)(issueLines(result.error));
}

/** A request that does not fit its schema (fastify's validation phase); renders as the area's 400. */
export class RequestValidationError extends Error {
  constructor(readonly issues: z.ZodError) {
    super(issueLines(issues).join("; "));
    this.name = "RequestValidationError";
  }
}

/** A request body that is not JSON, or JSON that is not an object: said in the area's own words. */
export class MalformedBodyError extends Error {
  constructor(field: string, rule: string) {
    super(`${field}: ${rule}`);
    this.name = "MalformedBodyError";
  }
}

export interface EnvelopeOptions {
  status?: number;
  resultInfo?: Record<string, unknown>;
  messages?: unknown[];
}

export interface SuccessEnvelope<T> {
  success: true;
  errors: [];
  messages: unknown[];
  result: T;
  result_info?: Record<string, unknown>;
}

export function envelope<T>(result: T, o: EnvelopeOptions = {}): SuccessEnvelope<T> {
  return {
    success: true,
    errors: [],
    messages: o.messages ?? [],
    result,
    ...(o.resultInfo ? { result_info: o.resultInfo } : {}),
  };
}

export interface ErrorEnvelope {
  success: false;
  errors: readonly ErrorItem[];
  messages: [];
  result: null;
}

export function errorEnvelope(errors: readonly ErrorItem[]): ErrorEnvelope {
  return { success: false, errors, messages: [], result: null };
}

/** What fastify's own errors carry besides a message. */
function fastifyCode(error: unknown): { code?: string; statusCode?: number } {
  if (typeof error !== "object" || error === null) return {};
  const e: Partial<FastifyError> = error;
  return {
    ...(typeof e.code === "string" ? { code: e.code } : {}),
    ...(typeof e.statusCode === "number" ? { statusCode: e.statusCode } : {}),
  };
}

/**
 * The one error renderer. A model's DomainError renders as itself; zod issues (a request that does
 * not fit the sdk's schema), malformed, too deep and too large bodies become a 400 in the area's words;
 * fastify's media-type refusal keeps its 415; anything else is a 500. A 500's cause goes to the
 * emulator's stderr, never into the answer: a request must not learn internal names from it.
 */
export function renderError(error: unknown, invalid: InvalidRenderer, bodyLimit?: number): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof z.ZodError) return invalid(issueLines(error));
  if (error instanceof RequestValidationError) return invalid(issueLines(error.issues));
  if (error instanceof MalformedBodyError) return invalid([error.message]);
  const { code, statusCode } = fastifyCode(error);
  const message = error instanceof Error ? error.message : String(error);
  // A 400 in the area's words: the public contract documents no 413 on any operation.
  if (code === "FST_ERR_CTP_BODY_TOO_LARGE")
    return invalid([`body: too large${bodyLimit ? `: must be at most ${bodyLimit} bytes` : ""}`]);
  if (code === "FST_ERR_CTP_INVALID_MEDIA_TYPE")
    return new DomainError(415, {
      code: GENERIC_CODES.unsupportedMediaType,
      message: `content-type: not accepted here (${message})`,
    });
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500)
    return new DomainError(statusCode, invalid([`body: ${message}`]).errors);
  process.stderr.write(
    `[emulator] internal error: ${error instanceof Error ? (error.stack ?? message) : message}\n`,
  );
  return new DomainError(500, {
    code: GENERIC_CODES.internal,
    message: "internal error (the emulator's output has the cause)",
  });
}

/** Whether JSON text nests objects and arrays deeper than `limit`: one pass, no recursion, strings skipped. */
export function jsonTooDeep(text: string, limit = MAX_BODY_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * A JSON request body: empty is absent; deeper than MAX_BODY_DEPTH is refused before parsing; anything
 * but an object is refused, and so is a `__proto__` key anywhere (no field of the API has that name,
 * and zod's records would drop it without a word).
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  if (jsonTooDeep(text)) throw new MalformedBodyError("body", TOO_DEEP_RULE);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MalformedBodyError("body", "malformed JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new MalformedBodyError("body", "must be a JSON object");
  const reserved = reservedKeyPath(value, []);
  if (reserved) throw new MalformedBodyError(reserved, "is not accepted as a key (a reserved name)");
  return value;
}

function reservedKeyPath(value: unknown, path: readonly string[]): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, child] of Object.entries(value)) {
    if (key === "__proto__") return [...path, key].join(".");
    const found = reservedKeyPath(child, [...path, key]);
    if (found) return found;
  }
  return undefined;
}
