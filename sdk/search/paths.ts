/**
 * Paths and paging shared by the search sub-resources. Every instance operation exists in the default
 * namespace (`/accounts/{a}/ai-search/instances/...`) and in a named one
 * (`/accounts/{a}/ai-search/namespaces/{ns}/instances/...`): `namespace` in the ids addresses the
 * latter. Items, moves and cache purges exist only under the namespaced paths: without a `namespace`
 * they address `namespaces/default`.
 */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import { pageStyle, type PagedGenerator } from "../paging";
import {
  SearchInstanceIdSchema,
  SearchItemIdSchema,
  SearchJobIdSchema,
  SearchNamespaceSchema,
} from "../schemas/search";
import { ValidationError } from "../errors";
import { validate } from "../validate";

/** Where an instance lives: the account (default: the client's) and the namespace (default: none). */
export interface SearchScope {
  accountId?: string;
  namespace?: string;
}

export interface InstanceRef extends SearchScope {
  id: string;
}

export interface JobRef extends InstanceRef {
  jobId: string;
}

export interface ItemRef extends InstanceRef {
  itemId: string;
}

/** The contract's page-size bounds per listing. */
export const PAGE_BOUNDS = {
  instances: 100,
  jobs: 50,
  logs: 500,
  items: 50,
  chunks: 100,
  itemLogs: 100,
} as const;

/** POSTs repeated after a lookup proved the previous attempt did not land. */
export const CREATE_RETRIES = 2;

/** The chat methods read one JSON answer: `stream: true` is refused before sending. */
export function refuseStream(body: { stream?: boolean | undefined }, context: string): void {
  if (body.stream === true)
    throw new ValidationError(context, [
      { field: "stream", rule: "must be false: this method reads one JSON answer, not a stream" },
    ]);
}

/** Builds (and validates) the paths of one client's search calls, and pages through listings. */
export class SearchPaths {
  constructor(readonly client: ApiClient) {}

  pages<T>(
    at: string,
    schema: z.ZodType<T[]>,
    perPage: number,
    options: CallOptions,
    query: Record<string, string | undefined> = {},
  ): PagedGenerator<T> {
    return pageStyle(async (page, per_page) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: at,
        query: { ...query, page, per_page },
        schema,
        ...options,
      });
      return { items: res.value, info: res.resultInfo };
    }, perPage);
  }

  perPage(perPage: number | undefined, max: number, context: string): number {
    const schema = z
      .number()
      .int("must be an integer")
      .min(1, `must be between 1 and ${max}`)
      .max(max, `must be between 1 and ${max}`);
    return perPage === undefined
      ? Math.min(50, max)
      : validate(z.object({ perPage: schema }), { perPage }, context).perPage;
  }

  collection(scope: SearchScope): string {
    const account = this.client.account(scope.accountId);
    if (scope.namespace === undefined) return path`/accounts/${account}/ai-search/instances`;
    return path`/accounts/${account}/ai-search/namespaces/${this.#ns(scope.namespace)}/instances`;
  }

  #ns(namespace: string): string {
    return validate(z.object({ namespace: SearchNamespaceSchema }), { namespace }, "search").namespace;
  }

  instance(ref: InstanceRef): string {
    const { id } = validate(z.object({ id: SearchInstanceIdSchema }), { id: ref.id }, "search");
    return this.collection(ref) + path`/${id}`;
  }

  /** The instance under the namespaced base, the default namespace named (items, move, purge). */
  namespaced(ref: InstanceRef): string {
    return this.instance({ ...ref, namespace: ref.namespace ?? "default" });
  }

  job(ref: JobRef): string {
    const { jobId } = validate(z.object({ jobId: SearchJobIdSchema }), { jobId: ref.jobId }, "search");
    return this.instance(ref) + path`/jobs/${jobId}`;
  }

  item(ref: ItemRef): string {
    const { itemId } = validate(z.object({ itemId: SearchItemIdSchema }), { itemId: ref.itemId }, "search");
    return this.namespaced(ref) + path`/items/${itemId}`;
  }
}
