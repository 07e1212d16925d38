/** The SyncJobRun class, for programs. */
import { describedResource } from "../../core/class";
import type { InputsOf, StateOf } from "../../core/define";
import type { ArgsOf } from "../../core/resource-types";
import { SyncJobRunSpec } from "./spec";

export { SyncJobRunSpec } from "./spec";
export { remote, reading } from "./hooks";
export { handler } from "./handler";

export const SyncJobRun = describedResource(SyncJobRunSpec);
export type SyncJobRun = InstanceType<typeof SyncJobRun>;
export type SyncJobRunArgs = ArgsOf<typeof SyncJobRunSpec>;
export type SyncJobRunInputs = InputsOf<typeof SyncJobRunSpec>;
export type SyncJobRunOutputs = StateOf<typeof SyncJobRunSpec>;
