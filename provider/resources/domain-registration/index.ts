/** The DomainRegistration class, for programs. */
import type { StateOf } from "../../core/define";
import { describedResource } from "../../core/class";
import type { ArgsOf } from "../../core/resource-types";
import { DomainRegistrationSpec } from "./spec";

export * from "./spec";
export * from "./hooks"; // the capabilities, and the <Kind>Inputs type
export * from "./upgrade";
export { handler } from "./handler";

/** The id is the domain name. */
export const DomainRegistration = describedResource(DomainRegistrationSpec);
export type DomainRegistration = InstanceType<typeof DomainRegistration>;
export type DomainRegistrationArgs = ArgsOf<typeof DomainRegistrationSpec>;
export type DomainRegistrationOutputs = StateOf<typeof DomainRegistrationSpec>;
