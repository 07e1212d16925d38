/** What no flag of BuildRun's description says: rule 1, and how the build is started. */
import { runTriggerBuild } from "../../functions/builds-logic";
import type { Checks } from "../../core/pipeline";
import { runCapabilities } from "../run";
import type { BuildRunSpec } from "./spec";

export const { remote, reading } = runCapabilities<typeof BuildRunSpec>({
  noun: "build",
  afterDelete: "the build and its deployment stay as they are",
  perform: async (inputs, ctx) => {
    const build = await runTriggerBuild(ctx.api, { ...inputs, accountId: ctx.accountId(inputs.accountId) });
    return { id: build.buildUuid, result: build };
  },
});

export const checks: Checks<typeof BuildRunSpec> = {
  rules: (inputs, known) =>
    known("branch") && known("commitHash") && inputs.branch === undefined && inputs.commitHash === undefined
      ? [{ field: "branch", rule: "a branch, a commit hash, or both are required (rule 1)" }]
      : [],
};
