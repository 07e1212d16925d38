/**
 * The logic of the search functions over an sdk client, in program naming: what `triggerSyncJob` and
 * `getSearchInstanceStats` call on `up`, and what a SyncJobRun performs in the provider host, which
 * never loads Pulumi.
 */
import type { AccountApi } from "../../sdk";
import type { SearchJob } from "../../sdk/search";

/** A sync job in program naming. `endedAt` is null while it runs. */
export interface SyncJob {
  id: string;
  source?: string;
  description?: string | null;
  startedAt?: string | null;
  lastSeenAt?: string | null;
  endedAt?: string | null;
  endReason?: string | null;
  /** True when the job was already running and was reused rather than started. */
  reused: boolean;
}

export interface SyncJobTarget {
  instanceId: string;
  /** A named namespace; absent means the default one. */
  namespace?: string;
  accountId?: string;
}

export interface TriggerSyncJobParams extends SyncJobTarget {
  /** When a job is already running: reuse it (default), or start a new one, which ends it. */
  reuseRunning?: boolean;
  /** Also wait for the job to end (default false). */
  wait?: boolean;
  /** Deadline of that wait (default 30 minutes). */
  deadlineMs?: number;
}

export interface WaitForJobParams extends SyncJobTarget {
  jobId: string;
  deadlineMs?: number;
  pollIntervalMs?: number;
}

function toSyncJob(job: SearchJob, reused: boolean): SyncJob {
  return {
    id: job.id,
    ...(job.source !== undefined ? { source: job.source } : {}),
    description: job.description ?? null,
    startedAt: job.started_at ?? null,
    lastSeenAt: job.last_seen_at ?? null,
    endedAt: job.ended_at ?? null,
    endReason: job.end_reason ?? null,
    reused,
  };
}

/**
 * The logic of triggerSyncJob over an sdk client. A new job ends a running one (the service's
 * `end_reason: "new_job_has_started"`), so the running job is reused unless the caller asks for a
 * fresh one.
 */
export async function runTriggerSyncJob(api: AccountApi, p: TriggerSyncJobParams): Promise<SyncJob> {
  const ref = { id: p.instanceId, namespace: p.namespace, accountId: p.accountId };
  const running = p.reuseRunning === false ? undefined : await api.search.jobs.running(ref);
  let job = running ?? (await api.search.jobs.create(ref));
  if (p.wait) {
    job = await api.search.jobs.wait(
      { id: p.instanceId, jobId: job.id, namespace: p.namespace, accountId: p.accountId },
      p.deadlineMs !== undefined ? { deadlineMs: p.deadlineMs } : {},
    );
  }
  return toSyncJob(job, running !== undefined);
}

/** The logic of waitForJob over an sdk client. */
export async function runWaitForJob(api: AccountApi, p: WaitForJobParams): Promise<SyncJob> {
  const job = await api.search.jobs.wait(
    { id: p.instanceId, jobId: p.jobId, namespace: p.namespace, accountId: p.accountId },
    {
      ...(p.deadlineMs !== undefined ? { deadlineMs: p.deadlineMs } : {}),
      ...(p.pollIntervalMs !== undefined ? { pollIntervalMs: p.pollIntervalMs } : {}),
    },
  );
  return toSyncJob(job, false);
}

/** An instance's indexing counts in program naming; `lastActivity` is null when the service sent none. */
export interface SearchInstanceStats {
  queued: number;
  running: number;
  completed: number;
  error: number;
  lastActivity: string | null;
}

export type GetSearchInstanceStatsParams = SyncJobTarget;

/** The logic of getSearchInstanceStats over an sdk client: one GET of the instance's stats. */
export async function runGetSearchInstanceStats(
  api: AccountApi,
  p: GetSearchInstanceStatsParams,
): Promise<SearchInstanceStats> {
  const s = await api.search.instances.stats({
    id: p.instanceId,
    namespace: p.namespace,
    accountId: p.accountId,
  });
  return {
    queued: s.queued,
    running: s.running,
    completed: s.completed,
    error: s.error,
    lastActivity: s.last_activity ?? null,
  };
}
