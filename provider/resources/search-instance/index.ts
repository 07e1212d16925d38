/** The SearchInstance class, for programs. */
import type * as pulumi from "@pulumi/pulumi";
import type { InputsOf, StateOf } from "../../core/define";
import type { ArgsOf, OutputsOf } from "../../core/resource-types";
import { AccountApiResource, specArgs } from "../../resource";
import { SearchInstanceSpec } from "./spec";

export { SearchInstanceSpec } from "./spec";
export {
  DEFAULT_NAMESPACE,
  hooks,
  instanceRef,
  normalize,
  project,
  resourceId,
  rules,
  toBody,
} from "./hooks";
export { handler } from "./handler";

type Spec = typeof SearchInstanceSpec;
export type SearchInstanceArgs = ArgsOf<Spec>;
export type SearchInstanceInputs = InputsOf<Spec>;
export type SearchInstanceOutputs = StateOf<Spec>;
export type SearchSourceParams = NonNullable<SearchInstanceInputs["sourceParams"]>;
export type SearchStorageCredentials = NonNullable<SearchInstanceInputs["storageCredentials"]>;
export type SearchInstanceStatsOutput = NonNullable<SearchInstanceOutputs["stats"]>;

// The outputs come from the description; merging declares them without repeating the table.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface SearchInstance extends OutputsOf<Spec> {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class SearchInstance extends AccountApiResource {
  constructor(name: string, args: SearchInstanceArgs, opts?: pulumi.CustomResourceOptions) {
    // The credentials stay secret in every output too, as they are in state.
    super("SearchInstance", name, specArgs(SearchInstanceSpec, args), opts, SearchInstanceSpec.secretInputs);
  }
}
