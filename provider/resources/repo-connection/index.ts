/** The RepoConnection class, for programs. */
import { describedResource } from "../../core/class";
import type { InputsOf, StateOf } from "../../core/define";
import type { ArgsOf } from "../../core/resource-types";
import { RepoConnectionSpec } from "./spec";

export { RepoConnectionSpec } from "./spec";
export { remote, key, adoption, reading, keyOf } from "./hooks";
export { handler } from "./handler";

export const RepoConnection = describedResource(RepoConnectionSpec);
export type RepoConnection = InstanceType<typeof RepoConnection>;
export type RepoConnectionArgs = ArgsOf<typeof RepoConnectionSpec>;
export type RepoConnectionInputs = InputsOf<typeof RepoConnectionSpec>;
export type RepoConnectionOutputs = StateOf<typeof RepoConnectionSpec>;
