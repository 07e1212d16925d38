/**
 * SyncJobRun: a sync job of a search instance, started when the resource is created and again only
 * when an input or `triggers` changes (`triggerSyncJob` starts one on every `up`). Its result is the
 * job.
 */
import { z } from "zod";
import { SearchNamespaceSchema, SearchInstanceFields as W } from "../../../sdk/schemas/search";
import { defineResource } from "../../core/define";
import { SyncJobSchema } from "../../functions/results";
import type { SyncJob } from "../../functions/search-logic";
import { TRIGGERS_FIELD, resultOutput, runInput } from "../run";

export const SyncJobRunSpec = defineResource({
  kind: "SyncJobRun",
  fields: {
    instanceId: runInput(W.id),
    /** A named namespace; absent means the default one. */
    namespace: runInput(SearchNamespaceSchema.optional()),
    /** When a job is already running: reuse it (default) or fail with the API's conflict. */
    reuseRunning: runInput(z.boolean().optional()),
    /** Also wait for the job to end (default false). */
    wait: runInput(z.boolean().optional()),
    deadlineMs: runInput(z.number().int("must be a whole number").positive("must be positive").optional()),
    triggers: TRIGGERS_FIELD,
    /** The job as it was when the run ended (started, or ended with `wait`). */
    result: resultOutput<SyncJob>(SyncJobSchema),
  },
});
