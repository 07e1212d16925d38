/**
 * BuildRun: a build of a trigger, started when the resource is created and again only when an
 * input or `triggers` changes (`triggerBuild` starts one on every `up`). Its result is the build.
 */
import { z } from "zod";
import { defineResource, requiredString } from "../../core/define";
import type { BuildInfo } from "../../functions/builds-logic";
import { BuildInfoSchema } from "../../functions/results";
import { TRIGGERS_FIELD, resultOutput, runInput } from "../run";

const positive = z.number().int("must be a whole number").positive("must be positive");

export const BuildRunSpec = defineResource({
  kind: "BuildRun",
  fields: {
    triggerUuid: runInput(requiredString(z.string().min(1, "must not be empty"))),
    /** Rule 1: a branch, a commit hash, or both. */
    branch: runInput(z.string().min(1, "must not be empty").optional()),
    commitHash: runInput(z.string().min(1, "must not be empty").optional()),
    /** Also wait until the build stopped (default false). */
    wait: runInput(z.boolean().optional()),
    /** With `wait`: fail the step unless the outcome is success (default true). */
    requireSuccess: runInput(z.boolean().optional()),
    deadlineMs: runInput(positive.optional()),
    pollIntervalMs: runInput(positive.optional()),
    triggers: TRIGGERS_FIELD,
    /** The build as it was when the run ended (started, or stopped with `wait`). */
    result: resultOutput<BuildInfo>(BuildInfoSchema),
  },
});
