/** The BuildTrigger class, for programs. */
import type * as pulumi from "@pulumi/pulumi";
import type { InputsOf, StateOf } from "../../core/define";
import type { ArgsOf, OutputsOf } from "../../core/resource-types";
import { AccountApiResource, specArgs } from "../../resource";
import { BuildTriggerSpec } from "./spec";

export { BuildTriggerSpec } from "./spec";
export { KIND_DEFAULTS, normalize, rules, slotIssue, hooks } from "./hooks";
export { handler } from "./handler";

type Spec = typeof BuildTriggerSpec;
export type BuildTriggerArgs = ArgsOf<Spec>;
export type BuildTriggerInputs = InputsOf<Spec>;
export type BuildTriggerOutputs = StateOf<Spec>;

// The outputs come from the description; merging declares them without repeating the table.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface BuildTrigger extends OutputsOf<Spec> {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class BuildTrigger extends AccountApiResource {
  /** The trigger's UUID: the resource id, so it stays known while an edit is previewed. */
  declare readonly triggerUuid: pulumi.Output<string>;

  constructor(name: string, args: BuildTriggerArgs, opts?: pulumi.CustomResourceOptions) {
    super("BuildTrigger", name, specArgs(BuildTriggerSpec, args), opts);
    Object.defineProperty(this, "triggerUuid", { value: this.id, enumerable: true });
  }
}
