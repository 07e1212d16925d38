/** The SearchToken class, for programs. */
import type { StateOf } from "../../core/define";
import { describedResource } from "../../core/class";
import type { ArgsOf } from "../../core/resource-types";
import { SearchTokenSpec } from "./spec";

export { SearchTokenSpec } from "./spec";
export * from "./hooks"; // the capabilities, and the <Kind>Inputs type
export { handler } from "./handler";

export const SearchToken = describedResource(SearchTokenSpec);
export type SearchToken = InstanceType<typeof SearchToken>;
export type SearchTokenArgs = ArgsOf<typeof SearchTokenSpec>;
export type SearchTokenOutputs = StateOf<typeof SearchTokenSpec>;
