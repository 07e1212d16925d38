/** Type helpers for resource Args: every field, nested ones included, takes a Pulumi input. */
import type * as pulumi from "@pulumi/pulumi";

/** A value whose every level may be an Input (so a nested field can come from a secret config). */
export type DeepInput<T> = T extends readonly (infer U)[]
  ? pulumi.Input<pulumi.Input<DeepInput<U>>[]>
  : T extends object
    ? pulumi.Input<{ [K in keyof T]: DeepInput<T[K]> }>
    : pulumi.Input<T>;

/** The resolved input shape `T` as optional, deeply input-typed Args fields. */
export type DeepInputs<T> = { [K in keyof T]?: DeepInput<T[K]> };
