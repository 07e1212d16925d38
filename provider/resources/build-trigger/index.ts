/** The BuildTrigger class, for programs. Its `triggerUuid` is the resource id (see the description). */
import { describedResource } from "../../core/class";
import type { InputsOf, StateOf } from "../../core/define";
import type { ArgsOf } from "../../core/resource-types";
import { BuildTriggerSpec } from "./spec";

export { BuildTriggerSpec } from "./spec";
export { KIND_DEFAULTS, normalize, refusedAsHeld, rules, remote, checks, key, reading } from "./hooks";
export { handler } from "./handler";

export const BuildTrigger = describedResource(BuildTriggerSpec);
export type BuildTrigger = InstanceType<typeof BuildTrigger>;
export type BuildTriggerArgs = ArgsOf<typeof BuildTriggerSpec>;
export type BuildTriggerInputs = InputsOf<typeof BuildTriggerSpec>;
export type BuildTriggerOutputs = StateOf<typeof BuildTriggerSpec>;
