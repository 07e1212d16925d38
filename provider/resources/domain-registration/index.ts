/** The DomainRegistration class, for programs. */
import type * as pulumi from "@pulumi/pulumi";
import type { InputsOf, StateOf } from "../../core/define";
import type { ArgsOf, OutputsOf } from "../../core/resource-types";
import { AccountApiResource, specArgs } from "../../resource";
import { DomainRegistrationSpec } from "./spec";

export {
  ContactInputSchema,
  ContactsInputSchema,
  DomainRegistrationSpec,
  MaxCostSchema,
  PriceSchema,
} from "./spec";
export {
  hooks,
  outputs,
  priceFor,
  priceGuard,
  privacyIssue,
  rules,
  termOf,
  type Live,
  type Price,
} from "./hooks";
export { handler } from "./handler";

type Spec = typeof DomainRegistrationSpec;
export type DomainRegistrationArgs = ArgsOf<Spec>;
export type DomainRegistrationInputs = InputsOf<Spec>;
export type DomainRegistrationOutputs = StateOf<Spec>;

// The outputs come from the description; merging declares them without repeating the table.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface DomainRegistration extends OutputsOf<Spec> {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class DomainRegistration extends AccountApiResource {
  /** The id is the domain name. */
  constructor(name: string, args: DomainRegistrationArgs, opts?: pulumi.CustomResourceOptions) {
    super("DomainRegistration", name, specArgs(DomainRegistrationSpec, args), opts);
  }
}
