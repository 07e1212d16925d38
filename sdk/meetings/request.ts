/**
 * How the meetings area talks to the service: answers are `{ success, data }` (no `result`
 * envelope), so a call unwraps `data`; listings page with `page_no`/`per_page` and a `paging`
 * beside `data`.
 */
import type { z } from "zod";
import type { ApiClient, HttpMethod } from "../client";
import type { CallOptions } from "../core";
import { pageStyle, type PagedGenerator } from "../paging";

/** One call of the area: method, path below the app, body schema and the `data` it answers. */
export interface Call<T> {
  method: HttpMethod;
  path: string;
  schema: z.ZodType<T>;
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Whether a repeat leaves the same outcome (a POST that sets a state, not one that makes one). */
  idempotent?: boolean;
}

export function call<T>(client: ApiClient, app: string, c: Call<T>, options: CallOptions): Promise<T> {
  return client.request({
    method: c.method,
    path: app + c.path,
    schema: c.schema,
    unwrap: "data",
    ...(c.body !== undefined ? { body: c.body } : {}),
    ...(c.query ? { query: c.query } : {}),
    ...(c.idempotent !== undefined ? { idempotent: c.idempotent } : {}),
    ...options,
  });
}

/** A listing walked with `page_no`; `paging.total_count` (or a short page) ends it. */
export function pagedListing<T>(
  client: ApiClient,
  app: string,
  listPath: string,
  listing: z.ZodType<{ data: T[]; paging: { total_count: number } }>,
  filters: Record<string, string | undefined>,
  per: number | undefined,
  options: CallOptions,
): PagedGenerator<T> {
  return pageStyle(async (page, per_page) => {
    const body = await client.request({
      method: "GET",
      path: app + listPath,
      query: { ...filters, page_no: page, per_page },
      schema: listing,
      unwrap: "body",
      ...options,
    });
    return { items: body.data, info: { total_count: body.paging.total_count, per_page } };
  }, per ?? 50);
}
