/**
 * Functions for programs around search instances: start a sync job, and wait for one. Both run only
 * on `up` (on preview they resolve to undefined) and never build a URL: the sdk does. The logic over
 * a client is search-logic.ts. `triggerSyncJob` runs on every `up`; a SyncJobRun starts a job only
 * when its inputs or triggers change.
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  runTriggerSyncJob,
  runWaitForJob,
  type TriggerSyncJobParams,
  type WaitForJobParams,
  type SyncJob,
} from "./search-logic";
import { onUp } from "./common";

export * from "./search-logic";

export type TriggerSyncJobArgs = { [K in keyof TriggerSyncJobParams]: pulumi.Input<TriggerSyncJobParams[K]> };
export type WaitForJobArgs = { [K in keyof WaitForJobParams]: pulumi.Input<WaitForJobParams[K]> };

/**
 * Starts a sync job of a search instance on `up` (reusing a running one unless told not to), and
 * optionally waits for it. Pass the instance's outputs so the job starts after the instance exists:
 * `triggerSyncJob({ instanceId: kb.instanceId, namespace: kb.namespace })`.
 */
export function triggerSyncJob(args: TriggerSyncJobArgs): pulumi.Output<SyncJob | undefined> {
  return onUp(args, runTriggerSyncJob, { name: "triggerSyncJob", instead: "SyncJobRun" });
}

/** Waits on `up` until a sync job has ended (its `endedAt` is set) and returns it. */
export function waitForJob(args: WaitForJobArgs): pulumi.Output<SyncJob | undefined> {
  return onUp(args, runWaitForJob);
}

/** The same as waitForJob, under a name that says which job (for the package's flat export list). */
export const waitForSyncJob = waitForJob;
