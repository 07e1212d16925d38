/** How SyncJobRun starts its job. */
import { runTriggerSyncJob } from "../../functions/search-logic";
import { runCapabilities } from "../run";
import type { SyncJobRunSpec } from "./spec";

export const { remote, reading } = runCapabilities<typeof SyncJobRunSpec>({
  noun: "sync job",
  afterDelete: "the job and what it indexed stay as they are",
  perform: async (inputs, ctx) => {
    const job = await runTriggerSyncJob(ctx.api, { ...inputs, accountId: ctx.accountId(inputs.accountId) });
    return { id: job.id, result: job };
  },
});
