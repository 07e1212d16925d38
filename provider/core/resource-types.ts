/** The program-side types of a described resource: its Args and its outputs. */
import type * as pulumi from "@pulumi/pulumi";
import type { DeepInput } from "../input-types";
import type {
  ArgsShapeOf,
  CreatedValuesOfFields,
  HashValuesOfFields,
  InputsOf,
  ResourceSpec,
} from "./define";

/** The class's Args: every input, nested ones included, may be a Pulumi input. */
export type ArgsOf<S extends ResourceSpec> = { [K in keyof ArgsShapeOf<S>]: DeepInput<ArgsShapeOf<S>[K]> };

type InputOutputs<S extends ResourceSpec> = {
  readonly [K in keyof InputsOf<S>]-?: pulumi.Output<InputsOf<S>[K]>;
};
type ServerOutputs<S extends ResourceSpec> = {
  readonly [K in keyof CreatedValuesOfFields<S["fields"]>]: pulumi.Output<
    CreatedValuesOfFields<S["fields"]>[K]
  >;
};

type HashOutputs<S extends ResourceSpec> = {
  readonly [K in keyof HashValuesOfFields<S["fields"]>]: pulumi.Output<string | undefined>;
};

/** The class's outputs: one per input (undefined where the program left it out), per server value, per hash. */
export type OutputsOf<S extends ResourceSpec> = InputOutputs<S> & ServerOutputs<S> & HashOutputs<S>;
