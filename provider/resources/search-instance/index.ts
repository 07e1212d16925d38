/** The SearchInstance class, for programs. */
import type { StateOf } from "../../core/define";
import { describedResource } from "../../core/class";
import type { ArgsOf } from "../../core/resource-types";
import { SearchInstanceSpec } from "./spec";

export { SearchInstanceSpec } from "./spec";
export * from "./hooks"; // the capabilities, and the <Kind>Inputs type
export { handler } from "./handler";

export const SearchInstance = describedResource(SearchInstanceSpec);
export type SearchInstance = InstanceType<typeof SearchInstance>;
export type SearchInstanceArgs = ArgsOf<typeof SearchInstanceSpec>;
export type SearchInstanceOutputs = StateOf<typeof SearchInstanceSpec>;
