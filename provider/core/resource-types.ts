/** The program-side types of a described resource: its Args and its outputs. */
import type * as pulumi from "@pulumi/pulumi";
import type { DeepInput } from "../input-types";
import type { ArgsShapeOf, InputsOf, ResourceSpec, StateOf } from "./define";

/** The class's Args: every input, nested ones included, may be a Pulumi input. */
export type ArgsOf<S extends ResourceSpec> = { [K in keyof ArgsShapeOf<S>]: DeepInput<ArgsShapeOf<S>[K]> };

type StateShape<S extends ResourceSpec> = Omit<StateOf<S>, `${string}Hash`> & InputsOf<S>;

/** The class's outputs: one per input and per server value. */
export type OutputsOf<S extends ResourceSpec> = {
  readonly [K in keyof StateShape<S>]-?: pulumi.Output<StateShape<S>[K]>;
};
