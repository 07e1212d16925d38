/** The Pulumi side: resources and functions for programs. */
export { AccountApiResource, TYPE_MODULE } from "./resource";
export type { CommonArgs } from "./resource";
export { PartialCreateError, ResourceInputError } from "./errors";
export type { ProviderConfig, ResourceKind } from "./types";
