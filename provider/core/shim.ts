/**
 * The provider object every resource of one kind passes to the engine. It is the `exports` of
 * `provider/shims/<kind>.ts`, so:
 * - one object per kind, which every resource of the kind stores as a `require` of that module's
 *   package subpath (core/stored-provider.ts writes the text, under 300 bytes);
 * - at call time it `require`s the installed runtime, so a fix to read or delete reaches stacks that
 *   exist (the engine runs the stored provider for those: pulumi#6490).
 * Each method captures only `kind`; nothing here is imported at run time.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ProviderKind } from "../types";

export type Method = "check" | "diff" | "create" | "read" | "update" | "delete";

export interface KindShim extends pulumi.dynamic.ResourceProvider {
  readonly kind: ProviderKind;
}

export function shimFor(kind: ProviderKind): KindShim {
  return {
    kind,
    async configure(req) {
      require("pulumi-account-api/provider/runtime").configure(this, req.config);
    },
    async check(olds, news) {
      return require("pulumi-account-api/provider/runtime").call(this, "check", [olds, news]);
    },
    async diff(id, olds, news) {
      return require("pulumi-account-api/provider/runtime").call(this, "diff", [id, olds, news]);
    },
    async create(inputs) {
      return require("pulumi-account-api/provider/runtime").call(this, "create", [inputs]);
    },
    async read(id, props) {
      return require("pulumi-account-api/provider/runtime").call(this, "read", [id, props]);
    },
    async update(id, olds, news) {
      return require("pulumi-account-api/provider/runtime").call(this, "update", [id, olds, news]);
    },
    async delete(id, props) {
      return require("pulumi-account-api/provider/runtime").call(this, "delete", [id, props]);
    },
  };
}
