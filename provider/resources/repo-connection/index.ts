/** The RepoConnection class, for programs. */
import type * as pulumi from "@pulumi/pulumi";
import type { InputsOf, StateOf } from "../../core/define";
import type { ArgsOf, OutputsOf } from "../../core/resource-types";
import { AccountApiResource, specArgs } from "../../resource";
import { RepoConnectionSpec } from "./spec";

export { RepoConnectionSpec } from "./spec";
export { hooks, keyOf } from "./hooks";
export { handler } from "./handler";

type Spec = typeof RepoConnectionSpec;
export type RepoConnectionArgs = ArgsOf<Spec>;
export type RepoConnectionInputs = InputsOf<Spec>;
export type RepoConnectionOutputs = StateOf<Spec>;

// The outputs come from the description; merging declares them without repeating the table.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface RepoConnection extends OutputsOf<Spec> {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class RepoConnection extends AccountApiResource {
  constructor(name: string, args: RepoConnectionArgs, opts?: pulumi.CustomResourceOptions) {
    super("RepoConnection", name, specArgs(RepoConnectionSpec, args), opts);
  }
}
