/**
 * The logic of the sync-job functions over an sdk client, in program naming: what `triggerSyncJob`
 * calls on `up`, and what a SyncJobRun performs in the provider host, which never loads Pulumi.
 */
import type { AccountApi } from "../../sdk";
import { ConflictError } from "../../sdk/errors";
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
  /** When a job is already running: reuse it (default) or fail with the API's conflict. */
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

/** The logic of triggerSyncJob over an sdk client (what the Pulumi wrapper calls on `up`). */
export async function runTriggerSyncJob(api: AccountApi, p: TriggerSyncJobParams): Promise<SyncJob> {
  const ref = { id: p.instanceId, namespace: p.namespace, accountId: p.accountId };
  let job: SearchJob;
  let reused = false;
  try {
    job = await api.search.createJob(ref);
  } catch (err) {
    // One job runs per instance: the running one already does what was asked.
    const running =
      err instanceof ConflictError && p.reuseRunning !== false ? await api.search.runningJob(ref) : undefined;
    if (!running) throw err;
    job = running;
    reused = true;
  }
  if (p.wait) {
    job = await api.search.waitForJob(p.instanceId, job.id, {
      namespace: p.namespace,
      accountId: p.accountId,
      ...(p.deadlineMs !== undefined ? { deadlineMs: p.deadlineMs } : {}),
    });
  }
  return toSyncJob(job, reused);
}

/** The logic of waitForJob over an sdk client. */
export async function runWaitForJob(api: AccountApi, p: WaitForJobParams): Promise<SyncJob> {
  const job = await api.search.waitForJob(p.instanceId, p.jobId, {
    namespace: p.namespace,
    accountId: p.accountId,
    ...(p.deadlineMs !== undefined ? { deadlineMs: p.deadlineMs } : {}),
    ...(p.pollIntervalMs !== undefined ? { pollIntervalMs: p.pollIntervalMs } : {}),
  });
  return toSyncJob(job, false);
}
