/** Sync jobs of a search instance: starting, listing, reading, cancelling and waiting for them. */
import { z } from "zod";
import type { ApiClient } from "../client";
import { createOnce, pollUntil, type CallOptions, type WaitOptions } from "../core";
import type { PagedGenerator } from "../paging";
import {
  CancelJobBodySchema,
  CreateJobBodySchema,
  SearchJobLogSchema,
  SearchJobSchema,
  type CreateJobBody,
  type SearchJob,
  type SearchJobLog,
} from "../schemas/search";
import { validate } from "../validate";
import { CREATE_RETRIES, PAGE_BOUNDS, SearchPaths, type InstanceRef, type JobRef } from "./paths";

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
export interface JobWaitOptions extends WaitOptions {
  onProgress?: (progress: JobProgress) => void;
}

const ListOfJobs = z.array(SearchJobSchema);
const ListOfLogs = z.array(SearchJobLogSchema);

export function isJobRunning(job: SearchJob): boolean {
  return job.ended_at === null || job.ended_at === undefined;
}

export class Jobs {
  readonly #paths: SearchPaths;

  constructor(readonly client: ApiClient) {
    this.#paths = new SearchPaths(client);
  }

  /**
   * Starts a sync job. A job already running is ended by the service (`end_reason:
   * "new_job_has_started"`), so after a connection failure the running job is looked for first: it
   * is the one the lost request started, or one that a repeat would only have replaced.
   */
  async create(ids: InstanceRef, params: CreateJobBody = {}, options: CallOptions = {}): Promise<SearchJob> {
    const { description } = params;
    const jobs = `${this.#paths.instance(ids)}/jobs`;
    const body =
      description === undefined
        ? undefined
        : validate(CreateJobBodySchema, { description }, "search.createJob");
    return createOnce(
      () => this.client.request({ method: "POST", path: jobs, body, schema: SearchJobSchema, ...options }),
      () => this.running(ids, options),
      { retries: CREATE_RETRIES },
    );
  }

  /** Jobs of an instance, newest first, page by page (1-50 per page). */
  list(
    ids: InstanceRef,
    params: { perPage?: number } = {},
    options: CallOptions = {},
  ): PagedGenerator<SearchJob> {
    const jobs = `${this.#paths.instance(ids)}/jobs`;
    const perPage = this.#paths.perPage(params.perPage, PAGE_BOUNDS.jobs, "search.listJobs");
    return this.#paths.pages(jobs, ListOfJobs, perPage, options);
  }

  /** The instance's running job, if any (the newest job is listed first). */
  async running(ids: InstanceRef, options: CallOptions = {}): Promise<SearchJob | undefined> {
    for await (const job of this.list(ids, { perPage: 20 }, options)) {
      if (isJobRunning(job)) return job;
    }
    return undefined;
  }

  get(ids: JobRef, options: CallOptions = {}): Promise<SearchJob> {
    return this.client.request({
      method: "GET",
      path: this.#paths.job(ids),
      schema: SearchJobSchema,
      ...options,
    });
  }

  /** Log lines of a job, oldest first, page by page (1-500 per page). */
  logs(
    ids: JobRef,
    params: { perPage?: number } = {},
    options: CallOptions = {},
  ): PagedGenerator<SearchJobLog> {
    const logs = `${this.#paths.job(ids)}/logs`;
    const perPage = this.#paths.perPage(params.perPage, PAGE_BOUNDS.logs, "search.listJobLogs");
    return this.#paths.pages(logs, ListOfLogs, perPage, options);
  }

  /** Cancels a running job (`PATCH …/jobs/{job_id}` with `{action: "cancel"}`); repeating it is harmless. */
  cancel(ids: JobRef, options: CallOptions = {}): Promise<SearchJob> {
    const body = validate(CancelJobBodySchema, { action: "cancel" }, "search.cancelJob");
    return this.client.request({
      method: "PATCH",
      path: this.#paths.job(ids),
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
  async wait(ids: JobRef, o: JobWaitOptions = {}): Promise<SearchJob> {
    this.#paths.job(ids); // validate before the first request
    return pollUntil(
      `search job ${ids.jobId} of instance ${ids.id}`,
      (call) => this.get(ids, call),
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
}

function describeJob(job: SearchJob): string {
  return `running since ${job.started_at ?? "?"}, last seen ${job.last_seen_at ?? "?"}`;
}
