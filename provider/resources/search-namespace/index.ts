/** The SearchNamespace class, for programs. */
import type { StateOf } from "../../core/define";
import { describedResource } from "../../core/class";
import type { ArgsOf } from "../../core/resource-types";
import { SearchNamespaceSpec } from "./spec";

export { SearchNamespaceSpec } from "./spec";
export * from "./hooks"; // the capabilities, and the <Kind>Inputs type
export { handler } from "./handler";

export const SearchNamespace = describedResource(SearchNamespaceSpec);
export type SearchNamespace = InstanceType<typeof SearchNamespace>;
export type SearchNamespaceArgs = ArgsOf<typeof SearchNamespaceSpec>;
export type SearchNamespaceOutputs = StateOf<typeof SearchNamespaceSpec>;
