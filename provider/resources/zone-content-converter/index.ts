/** The ZoneContentConverter class, for programs. */
import type * as pulumi from "@pulumi/pulumi";
import type { InputsOf, StateOf } from "../../core/define";
import type { ArgsOf, OutputsOf } from "../../core/resource-types";
import { AccountApiResource, specArgs } from "../../resource";
import { ZoneContentConverterSpec } from "./spec";

export { ZoneContentConverterSpec } from "./spec";
export { hooks, rules } from "./hooks";
export { handler } from "./handler";

type Spec = typeof ZoneContentConverterSpec;
export type ZoneContentConverterArgs = ArgsOf<Spec>;
export type ZoneContentConverterInputs = InputsOf<Spec>;
export type ZoneContentConverterOutputs = StateOf<Spec>;

// The outputs come from the description; merging declares them without repeating the table.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface ZoneContentConverter extends OutputsOf<Spec> {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class ZoneContentConverter extends AccountApiResource {
  constructor(name: string, args: ZoneContentConverterArgs, opts?: pulumi.CustomResourceOptions) {
    super("ZoneContentConverter", name, specArgs(ZoneContentConverterSpec, args), opts);
  }
}
