/**
 * Functions for programs around search instances: start a sync job, and wait for one. Both run only
 * on `up` (on preview they resolve to undefined) and never build a URL: the sdk does.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AccountApi } from "../../sdk";
import type { SearchJob } from "../../sdk/search";
import { onUp } from "./common";

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

export type TriggerSyncJobArgs = { [K in keyof TriggerSyncJobParams]: pulumi.Input<TriggerSyncJobParams[K]> };
export type WaitForJobArgs = { [K in keyof WaitForJobParams]: pulumi.Input<WaitForJobParams[K]> };

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
  const running = p.reuseRunning === false ? undefined : await api.search.runningJob(ref);
  let job = running ?? (await api.search.createJob(ref));
  if (p.wait) {
    job = await api.search.waitForJob(p.instanceId, job.id, {
      namespace: p.namespace,
      accountId: p.accountId,
      ...(p.deadlineMs !== undefined ? { deadlineMs: p.deadlineMs } : {}),
    });
  }
  return toSyncJob(job, running !== undefined);
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

/**
 * Starts a sync job of a search instance on `up` (reusing a running one unless told not to), and
 * optionally waits for it. Pass the instance's outputs so the job starts after the instance exists:
 * `triggerSyncJob({ instanceId: kb.instanceId, namespace: kb.namespace })`.
 */
export function triggerSyncJob(args: TriggerSyncJobArgs): pulumi.Output<SyncJob | undefined> {
  return onUp(args, runTriggerSyncJob);
}

/** Waits on `up` until a sync job has ended (its `endedAt` is set) and returns it. */
export function waitForJob(args: WaitForJobArgs): pulumi.Output<SyncJob | undefined> {
  return onUp(args, runWaitForJob);
}

/** The same as waitForJob, under a name that says which job (for the package's flat export list). */
export const waitForSyncJob = waitForJob;
