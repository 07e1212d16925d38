/**
 * Reading an answer as the API's envelope: the payload unwrapped and checked against its schema, the
 * paging hints, and the typed error (redacted) for a failure or an answer of the wrong shape.
 */
import { z } from "zod";
import { ResponseShapeError, apiErrorItems, errorFromResponse } from "../errors";
import { isRecord, type Redactor } from "./redaction";
import type { ApiResponse, HttpMethod, RawResponse, RequestSpec, ResultInfo } from "./types";

/** Paging hints are advisory: a malformed `result_info` is dropped rather than failing the call. */
const ResultInfoWire = z.looseObject({
  page: z.number().optional(),
  per_page: z.number().optional(),
  count: z.number().optional(),
  total_count: z.number().optional(),
  // The API ends a cursor listing with `cursor: null`; callers see that as no cursor.
  cursor: z
    .string()
    .nullish()
    .transform((c) => c ?? undefined),
});

function resultInfoOf(value: unknown): ResultInfo | undefined {
  const parsed = ResultInfoWire.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The answer to `spec` as its schema's value; `displayPath` is how errors name the request. */
export function unwrapEnvelope<T>(
  spec: Pick<RequestSpec<T>, "method" | "schema" | "unwrap">,
  displayPath: string,
  res: RawResponse,
  redactor: Redactor,
): ApiResponse<T> {
  let json: unknown;
  try {
    json = res.body.trim().length ? JSON.parse(res.body) : null;
  } catch {
    if (res.status >= 400) throw apiError(spec.method, displayPath, res, undefined, redactor);
    throw shapeError(
      spec.method,
      displayPath,
      `body is not JSON (content-type ${res.headers["content-type"] ?? "none"})`,
      redactor,
    );
  }
  // An empty body (204) is an empty envelope: the schema decides whether nothing is acceptable.
  const envelope = isRecord(json) ? json : json === null ? {} : undefined;
  // A 2xx whose envelope says it failed is still a failure.
  if (res.status >= 400 || envelope?.success === false)
    throw apiError(spec.method, displayPath, res, json, redactor);
  const unwrap = spec.unwrap ?? "result";
  if (unwrap !== "body" && !envelope) {
    throw shapeError(spec.method, displayPath, `expected an envelope object with "${unwrap}"`, redactor);
  }
  const payload = unwrap === "body" ? json : envelope![unwrap];
  const parsed = spec.schema.safeParse(payload);
  if (!parsed.success) {
    const prefix = unwrap === "body" ? "" : unwrap;
    const detail = parsed.error.issues
      .map((i) => `${[prefix, ...i.path.map(String)].filter(Boolean).join(".") || "(root)"}: ${i.message}`)
      .join("; ");
    throw shapeError(spec.method, displayPath, detail, redactor);
  }
  return {
    value: parsed.data,
    status: res.status,
    headers: res.headers,
    resultInfo: resultInfoOf(envelope?.result_info),
    messages: Array.isArray(envelope?.messages) ? envelope.messages : [],
  };
}

/** The typed error of a failed answer (status 400 and up) whose body need not be JSON. */
export function rawApiError(
  method: HttpMethod,
  displayPath: string,
  res: RawResponse,
  redactor: Redactor,
): Error {
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    json = undefined;
  }
  return apiError(method, displayPath, res, json, redactor);
}

function apiError(method: string, path: string, res: RawResponse, json: unknown, redactor: Redactor): Error {
  const snippet = json === undefined ? res.body.trim().slice(0, 200) : "";
  const shown = json === undefined ? undefined : redactor.deep(json);
  return errorFromResponse({
    status: res.status,
    errors: apiErrorItems(shown),
    method,
    path: redactor.text(path),
    requestId: res.headers["x-request-id"] ?? res.headers["cf-ray"],
    body: json === undefined ? redactor.text(res.body) : shown,
    hint: snippet ? `body: ${redactor.text(snippet)}` : undefined,
  });
}

function shapeError(method: string, path: string, detail: string, redactor: Redactor): ResponseShapeError {
  return new ResponseShapeError(method, redactor.text(path), redactor.text(detail));
}
