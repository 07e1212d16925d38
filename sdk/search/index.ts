/**
 * Client for search instances, their sync jobs, items and retrieval (spec F and the public contract),
 * one sub-resource per field: `instances` (with search and chat completions on them, as the public
 * client has it), `namespaces`, `jobs`, `items`, `tokens`. Every method takes `(ids, params,
 * options?)`: ids are the path's identifiers (`{ accountId?, namespace?, id, jobId?, itemId? }`),
 * params the body or the query by their wire names. The flat methods of release 0.1.0 remain, deprecated, at the end.
 */
import type { ApiClient } from "../client";
import type { CallOptions } from "../core";
import type { PagedGenerator } from "../paging";
import type {
  ChatCompletion,
  ChatCompletionBody,
  CreateInstanceBody,
  ItemChunk,
  ItemListQuery,
  ItemLog,
  PutItemBody,
  SearchBody,
  SearchInstance,
  SearchItem,
  SearchJob,
  SearchJobLog,
  SearchNamespace,
  SearchResult,
  SearchStats,
  SyncItemBody,
  UpdateInstanceBody,
  UploadItemFields,
} from "../schemas/search";
import { Instances } from "./instances";
import { Items } from "./items";
import { Jobs, type JobWaitOptions } from "./jobs";
import { Namespaces } from "./namespaces";
import { Tokens } from "./tokens";
import type { InstanceRef, ItemRef, JobRef, SearchScope } from "./paths";

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
} from "../schemas/search";
export { JOB_LOG_TYPES } from "../schemas/search";
export type { InstanceRef, ItemRef, JobRef, SearchScope } from "./paths";
export { Instances, type InstanceListParams } from "./instances";
export { Items, type ItemCreateOrUpdateParams, type ItemListParams, type ItemSyncParams } from "./items";
export { Jobs, isJobRunning, type JobProgress, type JobWaitOptions } from "./jobs";
export { Namespaces, type NamespaceRef } from "./namespaces";
export { Tokens, type TokenListParams, type TokenRef } from "./tokens";
export type { SearchToken, SearchTokenBody } from "../schemas/search-tokens";

// ---- parameter types of the deprecated flat methods (release 0.1.0) ----

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

/** The deprecated wait's options: the new ones, plus where the instance lives. */
export interface WaitForJobOptions extends JobWaitOptions, SearchScope {}

/** Each deprecated flat method of {@link SearchApi} and the sub-resource method it delegates to. */
export const DEPRECATED_SEARCH_METHODS: Readonly<Record<string, string>> = Object.freeze({
  createInstance: "instances.create",
  listInstances: "instances.list",
  getInstance: "instances.get",
  updateInstance: "instances.update",
  deleteInstance: "instances.delete",
  moveInstance: "instances.move",
  instanceStats: "instances.stats",
  purgeCache: "instances.purgeCache",
  search: "instances.search",
  chatCompletions: "instances.chatCompletions",
  listNamespaces: "namespaces.list",
  createJob: "jobs.create",
  listJobs: "jobs.list",
  runningJob: "jobs.running",
  getJob: "jobs.get",
  listJobLogs: "jobs.logs",
  cancelJob: "jobs.cancel",
  waitForJob: "jobs.wait",
  listItems: "items.list",
  uploadItem: "items.upload",
  createOrUpdateItem: "items.createOrUpdate",
  getItem: "items.get",
  syncItem: "items.sync",
  deleteItem: "items.delete",
  listItemChunks: "items.chunks",
  downloadItem: "items.download",
  listItemLogs: "items.logs",
});

export class SearchApi {
  readonly instances: Instances;
  readonly namespaces: Namespaces;
  readonly jobs: Jobs;
  readonly items: Items;
  /** Service tokens: the API tokens storage-backed sources use (`token_id`). */
  readonly tokens: Tokens;

  constructor(readonly client: ApiClient) {
    this.instances = new Instances(client);
    this.namespaces = new Namespaces(client);
    this.jobs = new Jobs(client);
    this.items = new Items(client);
    this.tokens = new Tokens(client);
  }

  // ---- deprecated flat methods (release 0.1.0): one-line delegations ----

  /** @deprecated Since 0.2.0: use `api.search.instances.create(ids, params)`; removed in 0.3.0. */
  createInstance(
    { accountId, namespace, ...body }: CreateInstanceParams,
    options?: CallOptions,
  ): Promise<SearchInstance> {
    return this.instances.create({ accountId, namespace }, body, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.instances.list(ids, params)`; removed in 0.3.0. */
  listInstances(params: ListParams = {}, options?: CallOptions): PagedGenerator<SearchInstance> {
    return this.instances.list(
      params,
      { perPage: params.perPage, search: params.search, order_by_direction: params.order },
      options,
    );
  }

  /** @deprecated Since 0.2.0: use `api.search.namespaces.list(ids, params)`; removed in 0.3.0. */
  listNamespaces(
    params: { accountId?: string; perPage?: number } = {},
    options?: CallOptions,
  ): PagedGenerator<SearchNamespace> {
    return this.namespaces.list(params, params, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.instances.get(ids)`; removed in 0.3.0. */
  getInstance(params: InstanceRef, options?: CallOptions): Promise<SearchInstance> {
    return this.instances.get(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.instances.update(ids, params)`; removed in 0.3.0. */
  updateInstance(
    { accountId, namespace, id, ...body }: UpdateInstanceParams,
    options?: CallOptions,
  ): Promise<SearchInstance> {
    return this.instances.update({ accountId, namespace, id }, body, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.instances.delete(ids)`; removed in 0.3.0. */
  deleteInstance(params: InstanceRef, options?: CallOptions): Promise<SearchInstance> {
    return this.instances.delete(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.instances.move(ids, params)`; removed in 0.3.0. */
  moveInstance(
    { accountId, namespace, id, ...body }: MoveInstanceParams,
    options?: CallOptions,
  ): Promise<SearchInstance> {
    return this.instances.move({ accountId, namespace, id }, body, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.instances.stats(ids)`; removed in 0.3.0. */
  instanceStats(params: InstanceRef, options?: CallOptions): Promise<SearchStats> {
    return this.instances.stats(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.instances.purgeCache(ids)`; removed in 0.3.0. */
  purgeCache(params: InstanceRef, options?: CallOptions): Promise<void> {
    return this.instances.purgeCache(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.instances.search(ids, params)`; removed in 0.3.0. */
  search({ accountId, namespace, id, ...body }: SearchParams, options?: CallOptions): Promise<SearchResult> {
    return this.instances.search({ accountId, namespace, id }, body, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.instances.chatCompletions(ids, params)`; removed in 0.3.0. */
  chatCompletions(
    { accountId, namespace, id, ...body }: ChatCompletionParams,
    options?: CallOptions,
  ): Promise<ChatCompletion> {
    return this.instances.chatCompletions({ accountId, namespace, id }, body, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.jobs.create(ids, params)`; removed in 0.3.0. */
  createJob({ description, ...ids }: CreateJobParams, options?: CallOptions): Promise<SearchJob> {
    return this.jobs.create(ids, { description }, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.jobs.list(ids, params)`; removed in 0.3.0. */
  listJobs(params: InstanceRef & { perPage?: number }, options?: CallOptions): PagedGenerator<SearchJob> {
    return this.jobs.list(params, params, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.jobs.running(ids)`; removed in 0.3.0. */
  runningJob(params: InstanceRef, options?: CallOptions): Promise<SearchJob | undefined> {
    return this.jobs.running(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.jobs.get(ids)`; removed in 0.3.0. */
  getJob(params: JobRef, options?: CallOptions): Promise<SearchJob> {
    return this.jobs.get(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.jobs.logs(ids, params)`; removed in 0.3.0. */
  listJobLogs(params: JobRef & { perPage?: number }, options?: CallOptions): PagedGenerator<SearchJobLog> {
    return this.jobs.logs(params, params, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.jobs.cancel(ids)`; removed in 0.3.0. */
  cancelJob(params: JobRef, options?: CallOptions): Promise<SearchJob> {
    return this.jobs.cancel(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.jobs.wait(ids, options)`; removed in 0.3.0. */
  waitForJob(instanceId: string, jobId: string, o: WaitForJobOptions = {}): Promise<SearchJob> {
    return this.jobs.wait({ id: instanceId, jobId, accountId: o.accountId, namespace: o.namespace }, o);
  }

  /** @deprecated Since 0.2.0: use `api.search.items.list(ids, params)`; removed in 0.3.0. */
  listItems(p: ListItemsParams, options?: CallOptions): PagedGenerator<SearchItem> {
    return this.items.list(
      p,
      {
        perPage: p.perPage,
        search: p.search,
        sort_by: p.sortBy,
        status: p.status,
        source: p.source,
        metadata_filter: p.metadataFilter,
        item_id: p.itemId,
      },
      options,
    );
  }

  /** @deprecated Since 0.2.0: use `api.search.items.upload(ids, params)`; removed in 0.3.0. */
  uploadItem(
    { accountId, namespace, id, ...fields }: UploadItemParams,
    options?: CallOptions,
  ): Promise<SearchItem> {
    return this.items.upload({ accountId, namespace, id }, fields, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.items.createOrUpdate(ids, params)`; removed in 0.3.0. */
  createOrUpdateItem(
    { accountId, namespace, id, ...body }: CreateOrUpdateItemParams,
    options?: CallOptions,
  ): Promise<SearchItem> {
    return this.items.createOrUpdate({ accountId, namespace, id }, body, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.items.get(ids)`; removed in 0.3.0. */
  getItem(params: ItemRef, options?: CallOptions): Promise<SearchItem> {
    return this.items.get(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.items.sync(ids, params)`; removed in 0.3.0. */
  syncItem({ wait_for_completion, ...ids }: SyncItemParams, options?: CallOptions): Promise<SearchItem> {
    return this.items.sync(ids, { wait_for_completion }, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.items.delete(ids)`; removed in 0.3.0. */
  deleteItem(params: ItemRef, options?: CallOptions): Promise<{ key: string }> {
    return this.items.delete(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.items.chunks(ids, params)`; removed in 0.3.0. */
  listItemChunks(params: ItemRef & { limit?: number }, options?: CallOptions): PagedGenerator<ItemChunk> {
    return this.items.chunks(params, params, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.items.download(ids)`; removed in 0.3.0. */
  downloadItem(params: ItemRef, options?: CallOptions): Promise<string> {
    return this.items.download(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.search.items.logs(ids, params)`; removed in 0.3.0. */
  listItemLogs(params: ItemRef & { limit?: number }, options?: CallOptions): PagedGenerator<ItemLog> {
    return this.items.logs(params, params, options);
  }
}
