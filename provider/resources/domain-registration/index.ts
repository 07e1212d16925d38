/** The DomainRegistration class, for programs. */
import type { InputsOf, StateOf } from "../../core/define";
import { describedResource } from "../../core/class";
import type { ArgsOf } from "../../core/resource-types";
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

/** The id is the domain name. */
export const DomainRegistration = describedResource(DomainRegistrationSpec);
export type DomainRegistration = InstanceType<typeof DomainRegistration>;
export type DomainRegistrationArgs = ArgsOf<typeof DomainRegistrationSpec>;
export type DomainRegistrationInputs = InputsOf<typeof DomainRegistrationSpec>;
export type DomainRegistrationOutputs = StateOf<typeof DomainRegistrationSpec>;
