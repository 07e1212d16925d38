/**
 * Client for search instances, their sync jobs, items and retrieval (spec F and the public contract).
 * Every instance operation exists in the default namespace (`/accounts/{a}/ai-search/instances/...`)
 * and in a named one (`/accounts/{a}/ai-search/namespaces/{ns}/instances/...`): pass `namespace` to
 * address the latter. Items, moves and cache purges exist only under the namespaced paths: without a
 * `namespace` they address `namespaces/default`.
 */
import { z } from "zod";
import { path, type ApiClient } from "./client";
import { createOnce, orGone, pollUntil, type CallOptions, type WaitOptions } from "./core";
import { ValidationError } from "./errors";
import { cursorStyle, pageStyle, type PagedGenerator } from "./paging";
import {
  CancelJobBodySchema,
  ChatCompletionBodySchema,
  ChatCompletionSchema,
  CreateInstanceBodySchema,
  CreateJobBodySchema,
  DeletedItemSchema,
  ItemChunkSchema,
  ItemLogSchema,
  MoveInstanceBodySchema,
  PutItemBodySchema,
  SearchBodySchema,
  SearchInstanceIdSchema,
  SearchInstanceSchema,
  SearchNamespaceInfoSchema,
  SearchItemIdSchema,
  SearchItemSchema,
  SearchJobIdSchema,
  SearchJobLogSchema,
  SearchJobSchema,
  SearchNamespaceSchema,
  SearchResultSchema,
  SearchStatsSchema,
  SyncItemBodySchema,
  UpdateInstanceBodySchema,
  UploadItemFieldsSchema,
  type ChatCompletion,
  type ChatCompletionBody,
  type CreateInstanceBody,
  type ItemChunk,
  type ItemListQuery,
  type ItemLog,
  type PutItemBody,
  type SearchBody,
  type SearchInstance,
  type SearchItem,
  type SearchJob,
  type SearchJobLog,
  type SearchNamespace,
  type SearchResult,
  type SearchStats,
  type SyncItemBody,
  type UpdateInstanceBody,
  type UploadItemFields,
} from "./schemas/search";
import { validate } from "./validate";

export type {
  ChatCompletion,
  ChatCompletionBody,
  CreateInstanceBody,
  InstanceSettings,
  ItemChunk,
  ItemLog,
  SearchBody,
  SearchChunk,
  SearchInstance,
  SearchItem,
  SearchJob,
  SearchJobLog,
  SearchNamespace,
  SearchResult,
  SearchStats,
  UpdateInstanceBody,
} from "./schemas/search";
export { JOB_LOG_TYPES } from "./schemas/search";

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

export interface ListParams extends SearchScope {
  /** Page size, 1-100 (default 50). */
  perPage?: number;
  /** Only instances whose id contains this. */
  search?: string;
  /** By creation time: `desc` (the service's default, newest first) or `asc`. */
  order?: "asc" | "desc";
}

export interface ListItemsParams extends InstanceRef {
  /** Page size, 1-50 (default 50; the service answers at least 5 per page). */
  perPage?: number;
  search?: string;
  sortBy?: ItemListQuery["sort_by"];
  status?: ItemListQuery["status"];
  source?: string;
  metadataFilter?: string;
  itemId?: string;
}

export type CreateInstanceParams = SearchScope & CreateInstanceBody;
export type UpdateInstanceParams = SearchScope & { id: string } & UpdateInstanceBody;
export type MoveInstanceParams = InstanceRef & { new_namespace: string };
export type CreateJobParams = InstanceRef & { description?: string };
export type UploadItemParams = InstanceRef & UploadItemFields;
/** The item bodies without `next_action`, which the sdk sets (`INDEX`, the only one). */
export type CreateOrUpdateItemParams = InstanceRef & Omit<PutItemBody, "next_action">;
export type SyncItemParams = ItemRef & Omit<SyncItemBody, "next_action">;
export type SearchParams = InstanceRef & SearchBody;
export type ChatCompletionParams = InstanceRef & ChatCompletionBody;

export interface JobProgress {
  job: SearchJob;
  /** Time spent waiting so far, on the wait's clock. */
  elapsedMs: number;
  /** Polls made so far (1 after the first read). */
  polls: number;
}

/**
 * Defaults: `deadlineMs` 30 minutes, `pollIntervalMs` 1 s growing by half each poll up to
 * `maxPollIntervalMs` 15 s; `timeoutMs` applies to each poll.
 */
export interface WaitForJobOptions extends WaitOptions, SearchScope {
  onProgress?: (progress: JobProgress) => void;
}

const ListOfInstances = z.array(SearchInstanceSchema);
const ListOfJobs = z.array(SearchJobSchema);
const ListOfLogs = z.array(SearchJobLogSchema);
const ListOfItems = z.array(SearchItemSchema);
const ListOfChunks = z.array(ItemChunkSchema);
const ListOfItemLogs = z.array(ItemLogSchema);
/** Purge answers `{success}` and nothing the caller needs. */
const Ignored = z.unknown();

/** The contract's page-size bounds per listing. */
const PAGE_BOUNDS = { instances: 100, jobs: 50, logs: 500, items: 50, chunks: 100, itemLogs: 100 } as const;

/** POSTs repeated after a lookup proved the previous attempt did not land. */
const CREATE_RETRIES = 2;

export function isJobRunning(job: SearchJob): boolean {
  return job.ended_at === null || job.ended_at === undefined;
}

export class SearchApi {
  constructor(readonly client: ApiClient) {}

  // ---- instances ----

  /**
   * Creates an instance. POST is never blindly repeated: after a connection failure or timeout the
   * instance is looked up by its id (unique per namespace), returned if the attempt landed, and only
   * otherwise posted again.
   */
  async createInstance(params: CreateInstanceParams, options: CallOptions = {}): Promise<SearchInstance> {
    const { accountId, namespace, ...rest } = params;
    const body = validate(CreateInstanceBodySchema, rest, "search.createInstance");
    const base = this.#collection({ accountId, namespace });
    return createOnce(
      () =>
        this.client.request({ method: "POST", path: base, body, schema: SearchInstanceSchema, ...options }),
      () => orGone(this.getInstance({ accountId, namespace, id: body.id }, options)),
      { retries: CREATE_RETRIES },
    );
  }

  /** Every instance of the namespace, page by page (newest first unless `order: "asc"`). */
  listInstances(params: ListParams = {}, options: CallOptions = {}): PagedGenerator<SearchInstance> {
    const base = this.#collection(params);
    const perPage = this.#perPage(params.perPage, PAGE_BOUNDS.instances, "search.listInstances");
    const query = { search: params.search, order_by_direction: params.order };
    return pageStyle(async (page, per_page) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: base,
        query: { ...query, page, per_page },
        schema: ListOfInstances,
        ...options,
      });
      return { items: res.value, info: res.resultInfo };
    }, perPage);
  }

  /** The account's namespaces, page by page (`default` among them: it always exists). */
  listNamespaces(
    params: { accountId?: string; perPage?: number } = {},
    options: CallOptions = {},
  ): PagedGenerator<SearchNamespace> {
    const base = path`/accounts/${this.client.account(params.accountId)}/ai-search/namespaces`;
    const perPage = this.#perPage(params.perPage, PAGE_BOUNDS.instances, "search.listNamespaces");
    return pageStyle(async (page, per_page) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: base,
        query: { page, per_page },
        schema: z.array(SearchNamespaceInfoSchema),
        ...options,
      });
      return { items: res.value, info: res.resultInfo };
    }, perPage);
  }

  getInstance(params: InstanceRef, options: CallOptions = {}): Promise<SearchInstance> {
    return this.client.request({
      method: "GET",
      path: this.#instance(params),
      schema: SearchInstanceSchema,
      ...options,
    });
  }

  /** Replaces the instance's settings (omitted ones return to their defaults). */
  updateInstance(params: UpdateInstanceParams, options: CallOptions = {}): Promise<SearchInstance> {
    const { accountId, namespace, id, ...rest } = params;
    const target = this.#instance({ accountId, namespace, id });
    const body = validate(UpdateInstanceBodySchema, rest, "search.updateInstance");
    return this.client.request({
      method: "PUT",
      path: target,
      body,
      schema: SearchInstanceSchema,
      ...options,
    });
  }

  deleteInstance(params: InstanceRef, options: CallOptions = {}): Promise<SearchInstance> {
    return this.client.request({
      method: "DELETE",
      path: this.#instance(params),
      schema: SearchInstanceSchema,
      ...options,
    });
  }

  /** Moves an instance, with its jobs and items, to another namespace (`PATCH` on the namespaced path). */
  moveInstance(params: MoveInstanceParams, options: CallOptions = {}): Promise<SearchInstance> {
    const { accountId, namespace, id, ...rest } = params;
    const body = validate(MoveInstanceBodySchema, rest, "search.moveInstance");
    return this.client.request({
      method: "PATCH",
      path: this.#namespaced({ accountId, namespace, id }),
      body,
      schema: SearchInstanceSchema,
      ...options,
    });
  }

  /** Indexing statistics: how many items are queued, running, completed or in error. */
  instanceStats(params: InstanceRef, options: CallOptions = {}): Promise<SearchStats> {
    return this.client.request({
      method: "GET",
      path: `${this.#instance(params)}/stats`,
      schema: SearchStatsSchema,
      ...options,
    });
  }

  /** Empties the instance's answer cache (chat completions answered from it so far). */
  async purgeCache(params: InstanceRef, options: CallOptions = {}): Promise<void> {
    await this.client.request({
      method: "POST",
      path: `${this.#namespaced(params)}/purge_cache`,
      body: {},
      schema: Ignored,
      idempotent: true,
      ...options,
    });
  }

  // ---- jobs ----

  /**
   * Starts a sync job. A job already running is ended by the service (`end_reason:
   * "new_job_has_started"`), so after a connection failure the running job is looked for first: it
   * is the one the lost request started, or one that a repeat would only have replaced.
   */
  async createJob(params: CreateJobParams, options: CallOptions = {}): Promise<SearchJob> {
    const { description, ...ref } = params;
    const jobs = `${this.#instance(ref)}/jobs`;
    const body =
      description === undefined
        ? undefined
        : validate(CreateJobBodySchema, { description }, "search.createJob");
    return createOnce(
      () => this.client.request({ method: "POST", path: jobs, body, schema: SearchJobSchema, ...options }),
      () => this.runningJob(ref, options),
      { retries: CREATE_RETRIES },
    );
  }

  /** Jobs of an instance, newest first, page by page (1-50 per page). */
  listJobs(params: InstanceRef & { perPage?: number }, options: CallOptions = {}): PagedGenerator<SearchJob> {
    const jobs = `${this.#instance(params)}/jobs`;
    const perPage = this.#perPage(params.perPage, PAGE_BOUNDS.jobs, "search.listJobs");
    return this.#pages(jobs, ListOfJobs, perPage, options);
  }

  /** The instance's running job, if any (the newest job is listed first). */
  async runningJob(params: InstanceRef, options: CallOptions = {}): Promise<SearchJob | undefined> {
    for await (const job of this.listJobs({ ...params, perPage: 20 }, options)) {
      if (isJobRunning(job)) return job;
    }
    return undefined;
  }

  getJob(params: JobRef, options: CallOptions = {}): Promise<SearchJob> {
    return this.client.request({
      method: "GET",
      path: this.#job(params),
      schema: SearchJobSchema,
      ...options,
    });
  }

  /** Log lines of a job, oldest first, page by page (1-500 per page). */
  listJobLogs(
    params: JobRef & { perPage?: number },
    options: CallOptions = {},
  ): PagedGenerator<SearchJobLog> {
    const logs = `${this.#job(params)}/logs`;
    const perPage = this.#perPage(params.perPage, PAGE_BOUNDS.logs, "search.listJobLogs");
    return this.#pages(logs, ListOfLogs, perPage, options);
  }

  /** Cancels a running job (`PATCH …/jobs/{job_id}` with `{action: "cancel"}`); repeating it is harmless. */
  cancelJob(params: JobRef, options: CallOptions = {}): Promise<SearchJob> {
    const body = validate(CancelJobBodySchema, { action: "cancel" }, "search.cancelJob");
    return this.client.request({
      method: "PATCH",
      path: this.#job(params),
      body,
      schema: SearchJobSchema,
      ...options,
    });
  }

  /**
   * Polls a job until `ended_at` is set and returns it (whatever its `end_reason`). Pauses grow from
   * pollIntervalMs by half each poll up to maxPollIntervalMs; the deadline and the pauses use the
   * injectable `now` and `sleep`.
   */
  async waitForJob(instanceId: string, jobId: string, o: WaitForJobOptions = {}): Promise<SearchJob> {
    const ref: JobRef = { id: instanceId, jobId, accountId: o.accountId, namespace: o.namespace };
    this.#job(ref); // validate before the first request
    return pollUntil(
      `search job ${jobId} of instance ${instanceId}`,
      (call) => this.getJob(ref, call),
      (job) => (isJobRunning(job) ? undefined : job),
      {
        ...o,
        deadlineMs: o.deadlineMs ?? 30 * 60_000,
        pollIntervalMs: o.pollIntervalMs ?? 1_000,
        maxPollIntervalMs: o.maxPollIntervalMs ?? 15_000,
        factor: 1.5,
        onProgress: (job, progress) => o.onProgress?.({ job, ...progress }),
        describe: describeJob,
      },
    );
  }

  // ---- items (namespaced paths only) ----

  /** Items of the instance: what its sync jobs indexed and what was uploaded, page by page. */
  listItems(params: ListItemsParams, options: CallOptions = {}): PagedGenerator<SearchItem> {
    const items = `${this.#namespaced(params)}/items`;
    const perPage = this.#perPage(params.perPage, PAGE_BOUNDS.items, "search.listItems");
    const query = {
      search: params.search,
      sort_by: params.sortBy,
      status: params.status,
      source: params.source,
      metadata_filter: params.metadataFilter,
      item_id: params.itemId,
    };
    return this.#pages(items, ListOfItems, perPage, options, query);
  }

  /**
   * Uploads a file as an item (multipart): its name is the item's key, `metadata` its custom
   * metadata. Not repeated after a lost answer: an upload of the same key replaces the item anyway,
   * so the caller may simply send it again.
   */
  uploadItem(params: UploadItemParams, options: CallOptions = {}): Promise<SearchItem> {
    const { accountId, namespace, id, ...rest } = params;
    const target = `${this.#namespaced({ accountId, namespace, id })}/items`;
    const fields = validate(UploadItemFieldsSchema, rest, "search.uploadItem");
    const form = new FormData();
    const bytes =
      typeof fields.file.content === "string" ? fields.file.content : new Uint8Array(fields.file.content);
    form.append(
      "file",
      new Blob([bytes], { type: fields.file.type ?? "application/octet-stream" }),
      fields.file.name,
    );
    if (fields.metadata !== undefined) form.append("metadata", JSON.stringify(fields.metadata));
    if (fields.wait_for_completion !== undefined)
      form.append("wait_for_completion", String(fields.wait_for_completion));
    return this.client.request({
      method: "POST",
      path: target,
      body: form,
      schema: SearchItemSchema,
      ...options,
    });
  }

  /** Indexes (again) the item with this key, from the instance's source (`PUT …/items`). */
  createOrUpdateItem(params: CreateOrUpdateItemParams, options: CallOptions = {}): Promise<SearchItem> {
    const { accountId, namespace, id, ...rest } = params;
    const target = `${this.#namespaced({ accountId, namespace, id })}/items`;
    const body = validate(PutItemBodySchema, { ...rest, next_action: "INDEX" }, "search.createOrUpdateItem");
    return this.client.request({ method: "PUT", path: target, body, schema: SearchItemSchema, ...options });
  }

  getItem(params: ItemRef, options: CallOptions = {}): Promise<SearchItem> {
    return this.client.request({
      method: "GET",
      path: this.#item(params),
      schema: SearchItemSchema,
      ...options,
    });
  }

  /** Indexes one item again now (`PATCH …/items/{item_id}` with `next_action: "INDEX"`). */
  syncItem(params: SyncItemParams, options: CallOptions = {}): Promise<SearchItem> {
    const { wait_for_completion, ...ref } = params;
    const body = validate(
      SyncItemBodySchema,
      { next_action: "INDEX", ...(wait_for_completion !== undefined ? { wait_for_completion } : {}) },
      "search.syncItem",
    );
    return this.client.request({
      method: "PATCH",
      path: this.#item(ref),
      body,
      schema: SearchItemSchema,
      ...options,
    });
  }

  /** Removes an item from the index (its key is returned). */
  async deleteItem(params: ItemRef, options: CallOptions = {}): Promise<{ key: string }> {
    const res = await this.client.request({
      method: "DELETE",
      path: this.#item(params),
      schema: DeletedItemSchema,
      ...options,
    });
    return { key: res.key };
  }

  /** The chunks an item was split into, in order, page by page (`limit` 1-100 per page). */
  listItemChunks(params: ItemRef & { limit?: number }, options: CallOptions = {}): PagedGenerator<ItemChunk> {
    const chunks = `${this.#item(params)}/chunks`;
    const limit = this.#perPage(params.limit, PAGE_BOUNDS.chunks, "search.listItemChunks");
    // Offset paging is page paging with the offset derived from the page.
    return pageStyle(async (page, per) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: chunks,
        query: { limit: per, offset: (page - 1) * per },
        schema: ListOfChunks,
        ...options,
      });
      return { items: res.value };
    }, limit);
  }

  /** The item's content as the index holds it, as text. */
  async downloadItem(params: ItemRef, options: CallOptions = {}): Promise<string> {
    const res = await this.client.requestRaw({
      method: "GET",
      path: `${this.#item(params)}/download`,
      ...options,
    });
    return res.body;
  }

  /** Processing records of an item, newest first, by cursor (`limit` 1-100 per page). */
  listItemLogs(params: ItemRef & { limit?: number }, options: CallOptions = {}): PagedGenerator<ItemLog> {
    const logs = `${this.#item(params)}/logs`;
    const limit = this.#perPage(params.limit, PAGE_BOUNDS.itemLogs, "search.listItemLogs");
    return cursorStyle(async (cursor) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: logs,
        query: { limit, cursor },
        schema: ListOfItemLogs,
        ...options,
      });
      return { items: res.value, cursor: res.resultInfo?.cursor };
    });
  }

  // ---- retrieval ----

  /** Ranked chunks for a query (or the last user message). A read: safe to repeat. */
  search(params: SearchParams, options: CallOptions = {}): Promise<SearchResult> {
    const { accountId, namespace, id, ...rest } = params;
    const body = validate(SearchBodySchema, rest, "search.search");
    return this.client.request({
      method: "POST",
      path: `${this.#instance({ accountId, namespace, id })}/search`,
      body,
      schema: SearchResultSchema,
      idempotent: true,
      ...options,
    });
  }

  /**
   * An answer to the conversation from the instance's retrieved chunks (OpenAI-style body, no
   * envelope). Streaming is not supported by this method: `stream: true` is refused before sending.
   */
  chatCompletions(params: ChatCompletionParams, options: CallOptions = {}): Promise<ChatCompletion> {
    const { accountId, namespace, id, ...rest } = params;
    const body = validate(ChatCompletionBodySchema, rest, "search.chatCompletions");
    if (body.stream === true)
      throw new ValidationError("search.chatCompletions", [
        { field: "stream", rule: "must be false: this method reads one JSON answer, not a stream" },
      ]);
    return this.client.request({
      method: "POST",
      path: `${this.#instance({ accountId, namespace, id })}/chat/completions`,
      body,
      schema: ChatCompletionSchema,
      unwrap: "body",
      idempotent: true,
      ...options,
    });
  }

  // ---- paths and paging ----

  #pages<T>(
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

  #perPage(perPage: number | undefined, max: number, context: string): number {
    const schema = z
      .number()
      .int("must be an integer")
      .min(1, `must be between 1 and ${max}`)
      .max(max, `must be between 1 and ${max}`);
    return perPage === undefined
      ? Math.min(50, max)
      : validate(z.object({ perPage: schema }), { perPage }, context).perPage;
  }

  #collection(scope: SearchScope): string {
    const account = this.client.account(scope.accountId);
    if (scope.namespace === undefined) return path`/accounts/${account}/ai-search/instances`;
    return path`/accounts/${account}/ai-search/namespaces/${this.#ns(scope.namespace)}/instances`;
  }

  #ns(namespace: string): string {
    return validate(z.object({ namespace: SearchNamespaceSchema }), { namespace }, "search").namespace;
  }

  #instance(ref: InstanceRef): string {
    const { id } = validate(z.object({ id: SearchInstanceIdSchema }), { id: ref.id }, "search");
    return this.#collection(ref) + path`/${id}`;
  }

  /** The instance under the namespaced base, the default namespace named (items, move, purge). */
  #namespaced(ref: InstanceRef): string {
    return this.#instance({ ...ref, namespace: ref.namespace ?? "default" });
  }

  #job(ref: JobRef): string {
    const { jobId } = validate(z.object({ jobId: SearchJobIdSchema }), { jobId: ref.jobId }, "search");
    return this.#instance(ref) + path`/jobs/${jobId}`;
  }

  #item(ref: ItemRef): string {
    const { itemId } = validate(z.object({ itemId: SearchItemIdSchema }), { itemId: ref.itemId }, "search");
    return this.#namespaced(ref) + path`/items/${itemId}`;
  }
}

function describeJob(job: SearchJob): string {
  return `running since ${job.started_at ?? "?"}, last seen ${job.last_seen_at ?? "?"}`;
}
