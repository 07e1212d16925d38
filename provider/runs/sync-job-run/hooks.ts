/** How SyncJobRun starts its job. */
import type { Hooks } from "../../core/pipeline";
import { runTriggerSyncJob } from "../../functions/search-logic";
import { runHooks, type RunRecord } from "../run";
import type { SyncJobRunSpec } from "./spec";

export const hooks: Hooks<typeof SyncJobRunSpec, RunRecord> = runHooks<typeof SyncJobRunSpec>({
  noun: "sync job",
  afterDelete: "the job and what it indexed stay as they are",
  perform: async (inputs, ctx) => {
    const job = await runTriggerSyncJob(ctx.api, { ...inputs, accountId: ctx.accountId(inputs.accountId) });
    return { id: job.id, result: job };
  },
});
