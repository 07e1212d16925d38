/** The SendingDomain class, for programs. */
import { describedResource } from "../../core/class";
import type { InputsOf, StateOf } from "../../core/define";
import type { ArgsOf } from "../../core/resource-types";
import { SendingDomainSpec } from "./spec";

export { SendingDomainSpec } from "./spec";
export { remote, checks, key, reading, normalize } from "./hooks";
export { handler } from "./handler";

export const SendingDomain = describedResource(SendingDomainSpec);
export type SendingDomain = InstanceType<typeof SendingDomain>;
export type SendingDomainArgs = ArgsOf<typeof SendingDomainSpec>;
export type SendingDomainInputs = InputsOf<typeof SendingDomainSpec>;
export type SendingDomainOutputs = StateOf<typeof SendingDomainSpec>;
