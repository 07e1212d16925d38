/** The ConfigRule class, for programs. */
import { describedResource } from "../../core/class";
import type { InputsOf, StateOf } from "../../core/define";
import type { ArgsOf } from "../../core/resource-types";
import { ConfigRuleSpec } from "./spec";

export { ConfigRuleSpec } from "./spec";
// The pure functions and the capabilities, for table tests; the types below are the resource's own.
export * from "./hooks";
export { handler } from "./handler";

type Spec = typeof ConfigRuleSpec;
export type ConfigRuleArgs = ArgsOf<Spec>;
export type ConfigRuleInputs = InputsOf<Spec>;
export type ConfigRuleOutputs = StateOf<Spec>;

export const ConfigRule = describedResource(ConfigRuleSpec);
export type ConfigRule = InstanceType<typeof ConfigRule>;
