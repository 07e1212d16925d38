/**
 * Functions for programs around search instances: start a sync job, wait for one, and read an
 * instance's indexing counts. They run only on `up` (on preview their outputs are unknown) and never
 * build a URL: the sdk does. The logic over a client is search-logic.ts. `triggerSyncJob` runs on every `up`; a SyncJobRun starts a job only
 * when its inputs or triggers change.
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  runGetSearchInstanceStats,
  runTriggerSyncJob,
  runWaitForJob,
  type GetSearchInstanceStatsParams,
  type SearchInstanceStats,
  type TriggerSyncJobParams,
  type WaitForJobParams,
  type SyncJob,
} from "./search-logic";
import { onUp } from "./common";

export * from "./search-logic";

export type TriggerSyncJobArgs = { [K in keyof TriggerSyncJobParams]: pulumi.Input<TriggerSyncJobParams[K]> };
export type WaitForJobArgs = { [K in keyof WaitForJobParams]: pulumi.Input<WaitForJobParams[K]> };
export type GetSearchInstanceStatsArgs = {
  [K in keyof GetSearchInstanceStatsParams]: pulumi.Input<GetSearchInstanceStatsParams[K]>;
};

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

/**
 * Reads an instance's indexing counts on `up`: one request, made where the program asks, instead of
 * on every create and refresh of the instance (`readStats: true` does that). Pass the instance's
 * outputs so the read follows the instance: `getSearchInstanceStats({ instanceId: kb.instanceId })`.
 */
export function getSearchInstanceStats(
  args: GetSearchInstanceStatsArgs,
): pulumi.Output<SearchInstanceStats | undefined> {
  return onUp(args, runGetSearchInstanceStats);
}
