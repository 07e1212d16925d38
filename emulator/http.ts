/**
 * The envelope every endpoint speaks, the one error class areas throw, and body validation with the
 * sdk's schemas (so the emulator and the client agree on every shape and limit).
 */
import type { FastifyReply } from "fastify";
import type { z } from "zod";
import { describeIssues } from "../sdk/validate";

export interface ErrorItem {
  code: number;
  message: string;
}

/** Thrown by area handlers; the server renders it as the API's error envelope. */
export class EmulatorError extends Error {
  readonly status: number;
  readonly errors: ErrorItem[];
  readonly headers: Record<string, string>;
  constructor(status: number, errors: ErrorItem[] | ErrorItem, headers: Record<string, string> = {}) {
    const list = Array.isArray(errors) ? errors : [errors];
    super(list.map((e) => e.message).join("; "));
    this.status = status;
    this.errors = list;
    this.headers = headers;
  }
}

/** Codes the emulator uses outside an area's own table (see docs/assumptions.md). */
export const GENERIC_CODES = {
  badRequest: 1001,
  notFound: 1002,
  conflict: 1003,
  unauthorized: 10000,
  forbidden: 9109,
  tooLarge: 1004,
  internal: 1000,
} as const;

export function notFound(what: string, code: number = GENERIC_CODES.notFound): EmulatorError {
  return new EmulatorError(404, { code, message: `${what} not found` });
}

export function conflict(message: string, code: number = GENERIC_CODES.conflict): EmulatorError {
  return new EmulatorError(409, { code, message });
}

export function badRequest(message: string, code: number = GENERIC_CODES.badRequest): EmulatorError {
  return new EmulatorError(400, { code, message });
}

/** Validates a body (or query) with a zod schema; each issue becomes one `errors[]` entry naming the field. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  code: number = GENERIC_CODES.badRequest,
): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new EmulatorError(
    400,
    describeIssues(result.error).map((i) => ({ code, message: `${i.field || "body"}: ${i.rule}` })),
  );
}

export interface EnvelopeOptions {
  status?: number;
  resultInfo?: Record<string, unknown>;
  messages?: unknown[];
}

export function envelope(result: unknown, o: EnvelopeOptions = {}): Record<string, unknown> {
  return {
    success: true,
    errors: [],
    messages: o.messages ?? [],
    result,
    ...(o.resultInfo ? { result_info: o.resultInfo } : {}),
  };
}

/** Sends the standard success envelope. */
export function ok(reply: FastifyReply, result: unknown, o: EnvelopeOptions = {}): FastifyReply {
  return reply.code(o.status ?? 200).send(envelope(result, o));
}

export function errorEnvelope(errors: ErrorItem[]): Record<string, unknown> {
  return { success: false, errors, messages: [], result: null };
}

/** Page-style slicing with the public API's `result_info`. */
export function paginate<T>(
  items: readonly T[],
  query: { page?: unknown; per_page?: unknown },
  defaults = { perPage: 20, maxPerPage: 100 },
): { items: T[]; resultInfo: Record<string, number> } {
  const page = Math.max(1, Number.parseInt(String(query.page ?? "1"), 10) || 1);
  const perPage = Math.min(
    defaults.maxPerPage,
    Math.max(1, Number.parseInt(String(query.per_page ?? defaults.perPage), 10) || defaults.perPage),
  );
  const slice = items.slice((page - 1) * perPage, page * perPage);
  return {
    items: slice,
    resultInfo: { page, per_page: perPage, count: slice.length, total_count: items.length },
  };
}
