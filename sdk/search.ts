/**
 * Client for search instances and their sync jobs (spec F). Every operation exists in the default
 * namespace (`/accounts/{a}/ai-search/instances/...`) and in a named one
 * (`/accounts/{a}/ai-search/namespaces/{ns}/instances/...`): pass `namespace` to address the latter.
 */
import { z } from "zod";
import { path, type ApiClient } from "./client";
import { createOnce, orGone, pollUntil, type CallOptions, type WaitOptions } from "./core";
import { pageStyle, type PagedGenerator } from "./paging";
import {
  CancelJobBodySchema,
  CreateInstanceBodySchema,
  SearchInstanceIdSchema,
  SearchInstanceSchema,
  SearchJobIdSchema,
  SearchJobLogSchema,
  SearchJobSchema,
  SearchNamespaceSchema,
  SearchStatsSchema,
  UpdateInstanceBodySchema,
  type CreateInstanceBody,
  type SearchInstance,
  type SearchJob,
  type SearchJobLog,
  type SearchStats,
  type UpdateInstanceBody,
} from "./schemas/search";
import { validate } from "./validate";

export type {
  CreateInstanceBody,
  InstanceSettings,
  SearchInstance,
  SearchJob,
  SearchJobLog,
  SearchStats,
  UpdateInstanceBody,
} from "./schemas/search";

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

export interface ListParams extends SearchScope {
  /** Page size, 1-100 (default 50). */
  perPage?: number;
}

export type CreateInstanceParams = SearchScope & CreateInstanceBody;
export type UpdateInstanceParams = SearchScope & { id: string } & UpdateInstanceBody;

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
const PerPageSchema = z
  .number()
  .int("must be an integer")
  .min(1, "must be between 1 and 100")
  .max(100, "must be between 1 and 100");

/** POSTs repeated after a lookup proved the previous attempt did not land. */
const CREATE_RETRIES = 2;

export function isJobRunning(job: SearchJob): boolean {
  return job.ended_at === null || job.ended_at === undefined;
}

export class SearchApi {
  constructor(readonly client: ApiClient) {}

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

  /** Every instance of the namespace, page by page. */
  listInstances(params: ListParams = {}, options: CallOptions = {}): PagedGenerator<SearchInstance> {
    const base = this.#collection(params);
    const perPage = this.#perPage(params.perPage, "search.listInstances");
    return pageStyle(async (page, per_page) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: base,
        query: { page, per_page },
        schema: ListOfInstances,
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

  /** Replaces the instance's mutable settings (omitted ones return to their defaults). */
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

  /** Indexing statistics: how many items are queued, running, completed or in error. */
  instanceStats(params: InstanceRef, options: CallOptions = {}): Promise<SearchStats> {
    return this.client.request({
      method: "GET",
      path: `${this.#instance(params)}/stats`,
      schema: SearchStatsSchema,
      ...options,
    });
  }

  /**
   * Starts a sync job (no body). Only one job runs per instance, so a second POST is refused with
   * 409: after a connection failure we therefore look for the running job before posting again.
   */
  async createJob(params: InstanceRef, options: CallOptions = {}): Promise<SearchJob> {
    const jobs = `${this.#instance(params)}/jobs`;
    return createOnce(
      () => this.client.request({ method: "POST", path: jobs, schema: SearchJobSchema, ...options }),
      () => this.runningJob(params, options),
      { retries: CREATE_RETRIES },
    );
  }

  /** Jobs of an instance, newest first, page by page. */
  listJobs(params: InstanceRef & { perPage?: number }, options: CallOptions = {}): PagedGenerator<SearchJob> {
    const jobs = `${this.#instance(params)}/jobs`;
    const perPage = this.#perPage(params.perPage, "search.listJobs");
    return pageStyle(async (page, per_page) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: jobs,
        query: { page, per_page },
        schema: ListOfJobs,
        ...options,
      });
      return { items: res.value, info: res.resultInfo };
    }, perPage);
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

  /** Log lines of a job, oldest first, page by page. */
  listJobLogs(
    params: JobRef & { perPage?: number },
    options: CallOptions = {},
  ): PagedGenerator<SearchJobLog> {
    const logs = `${this.#job(params)}/logs`;
    const perPage = this.#perPage(params.perPage, "search.listJobLogs");
    return pageStyle(async (page, per_page) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: logs,
        query: { page, per_page },
        schema: ListOfLogs,
        ...options,
      });
      return { items: res.value, info: res.resultInfo };
    }, perPage);
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

  #perPage(perPage: number | undefined, context: string): number {
    return perPage === undefined
      ? 50
      : validate(z.object({ perPage: PerPageSchema }), { perPage }, context).perPage;
  }

  #collection(scope: SearchScope): string {
    const account = this.client.account(scope.accountId);
    if (scope.namespace === undefined) return path`/accounts/${account}/ai-search/instances`;
    const ns = validate(
      z.object({ namespace: SearchNamespaceSchema }),
      { namespace: scope.namespace },
      "search",
    );
    return path`/accounts/${account}/ai-search/namespaces/${ns.namespace}/instances`;
  }

  #instance(ref: InstanceRef): string {
    const { id } = validate(z.object({ id: SearchInstanceIdSchema }), { id: ref.id }, "search");
    return this.#collection(ref) + path`/${id}`;
  }

  #job(ref: JobRef): string {
    const { jobId } = validate(z.object({ jobId: SearchJobIdSchema }), { jobId: ref.jobId }, "search");
    return this.#instance(ref) + path`/jobs/${jobId}`;
  }
}

function describeJob(job: SearchJob): string {
  return `running since ${job.started_at ?? "?"}, last seen ${job.last_seen_at ?? "?"}`;
}
