/** The class of a described resource, made from its description: nothing to repeat per resource. */
import type * as pulumi from "@pulumi/pulumi";
import { AccountApiResource, specArgs } from "../resource";
import type { ResourceSpec } from "./define";
import type { ArgsOf, OutputsOf } from "./resource-types";

export interface DescribedClass<S extends ResourceSpec> {
  new (name: string, args: ArgsOf<S>, opts?: pulumi.CustomResourceOptions): AccountApiResource & OutputsOf<S>;
}

export interface ClassOptions<S extends ResourceSpec> {
  /** Reshapes the program's args before registration (per-leaf secrets of a map). */
  prepare?(args: ArgsOf<S>): object;
}

export function describedResource<S extends ResourceSpec>(
  spec: S,
  options?: ClassOptions<S>,
): DescribedClass<S>;
// The engine sets one output property per registered prop at run time; the overload above names them.
export function describedResource<S extends ResourceSpec>(
  spec: S,
  options: ClassOptions<S> = {},
): new (name: string, args: ArgsOf<S>, opts?: pulumi.CustomResourceOptions) => AccountApiResource {
  class Described extends AccountApiResource {
    constructor(name: string, args: ArgsOf<S>, opts?: pulumi.CustomResourceOptions) {
      // Secret inputs stay secret in every output too, whatever read answers.
      const props = specArgs(spec, options.prepare ? options.prepare(args) : args);
      super(spec.kind, name, props, opts, [...spec.secretInputs, ...spec.secretOutputs]);
      if (spec.idOutput) Object.defineProperty(this, spec.idOutput, { value: this.id, enumerable: true });
    }
  }
  return Described;
}
