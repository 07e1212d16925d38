/** The class of a described resource, made from its description: nothing to repeat per resource. */
import * as pulumi from "@pulumi/pulumi";
import { AccountApiResource, registerArgs } from "../resource";
import type { ResourceSpec } from "./define";
import type { ArgsOf, OutputsOf } from "./resource-types";

export interface DescribedClass<S extends ResourceSpec> {
  new (name: string, args: ArgsOf<S>, opts?: pulumi.CustomResourceOptions): AccountApiResource & OutputsOf<S>;
}

export interface ClassOptions<S extends ResourceSpec> {
  /** Reshapes the program's args before registration (per-leaf secrets of a map). */
  prepare?(args: ArgsOf<S>): object;
}

/**
 * What a resource declares besides the inputs its program gives: what `normalize` fills in, the
 * server's values and the hashes. The SDK makes an Output (eight promises) for every declared
 * property, at construction and again when it resolves: declaring all 39 inputs of a SearchInstance
 * made a program's declaration over six times the floor's. So a left-out input is not declared.
 */
const alwaysDeclared = (spec: ResourceSpec): string[] => [
  ...new Set([...spec.filledAtCheck, ...spec.outputNames, ...spec.hashOutputs]),
];

/**
 * A left-out input reads as what check makes of it: its type's default, else undefined (the value
 * every successful `up` leaves in place). Derived from the resource's urn, so a consumer still
 * depends on the resource. The SDK may still assign it (an own property) when a program gives it.
 */
function leftOutInputsReadTheirDefault(prototype: object, spec: ResourceSpec): void {
  for (const name of spec.inputNames) {
    if (spec.filledAtCheck.includes(name)) continue;
    Object.defineProperty(prototype, name, {
      configurable: true,
      get(this: pulumi.Resource) {
        return this.urn.apply(() => spec.fields[name]?.type.safeParse(undefined).data);
      },
      set(this: object, value: unknown) {
        Object.defineProperty(this, name, { value, writable: true, enumerable: true, configurable: true });
      },
    });
  }
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
  let declared: readonly string[] | undefined;
  const secretInputs = new Set(spec.secretInputs);
  class Described extends AccountApiResource {
    constructor(name: string, args: ArgsOf<S>, opts?: pulumi.CustomResourceOptions) {
      declared ??= alwaysDeclared(spec);
      const props = registerArgs(options.prepare ? options.prepare(args) : args, declared);
      // Secret inputs are wrapped one by one: the engine keeps the secret bit per leaf.
      for (const k of secretInputs) if (props[k] !== undefined) props[k] = pulumi.secret(props[k]);
      // Secret inputs stay secret in every output too, whatever read answers.
      super(spec.kind, name, props, opts, [...spec.secretInputs, ...spec.secretOutputs]);
      if (spec.idOutput) Object.defineProperty(this, spec.idOutput, { value: this.id, enumerable: true });
    }
  }
  leftOutInputsReadTheirDefault(Described.prototype, spec);
  return Described;
}
