/** What no flag of BuildRun's description says: rule 1, and how the build is started. */
import { runTriggerBuild } from "../../functions/builds-logic";
import type { Hooks } from "../../core/pipeline";
import { runHooks, type RunRecord } from "../run";
import type { BuildRunSpec } from "./spec";

export const hooks: Hooks<typeof BuildRunSpec, RunRecord> = {
  ...runHooks<typeof BuildRunSpec>({
    noun: "build",
    afterDelete: "the build and its deployment stay as they are",
    perform: async (inputs, ctx) => {
      const build = await runTriggerBuild(ctx.api, { ...inputs, accountId: ctx.accountId(inputs.accountId) });
      return { id: build.buildUuid, result: build };
    },
  }),
  rules: (inputs, known) =>
    known("branch") && known("commitHash") && inputs.branch === undefined && inputs.commitHash === undefined
      ? [{ field: "branch", rule: "a branch, a commit hash, or both are required (rule 1)" }]
      : [],
};
