/** The ZoneContentConverter class, for programs. */
import type { InputsOf, StateOf } from "../../core/define";
import { describedResource } from "../../core/class";
import type { ArgsOf } from "../../core/resource-types";
import { ZoneContentConverterSpec } from "./spec";

export { ZoneContentConverterSpec } from "./spec";
export { remote, checks, rules } from "./hooks";
export { handler } from "./handler";

export const ZoneContentConverter = describedResource(ZoneContentConverterSpec);
export type ZoneContentConverter = InstanceType<typeof ZoneContentConverter>;
export type ZoneContentConverterArgs = ArgsOf<typeof ZoneContentConverterSpec>;
export type ZoneContentConverterInputs = InputsOf<typeof ZoneContentConverterSpec>;
export type ZoneContentConverterOutputs = StateOf<typeof ZoneContentConverterSpec>;
