/** The BuildRun class, for programs. */
import { describedResource } from "../../core/class";
import type { InputsOf, StateOf } from "../../core/define";
import type { ArgsOf } from "../../core/resource-types";
import { BuildRunSpec } from "./spec";

export { BuildRunSpec } from "./spec";
export { remote, checks, reading } from "./hooks";
export { handler } from "./handler";

export const BuildRun = describedResource(BuildRunSpec);
export type BuildRun = InstanceType<typeof BuildRun>;
export type BuildRunArgs = ArgsOf<typeof BuildRunSpec>;
export type BuildRunInputs = InputsOf<typeof BuildRunSpec>;
export type BuildRunOutputs = StateOf<typeof BuildRunSpec>;
