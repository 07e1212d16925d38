/**
 * The serialized provider stored with every resource. It captures only the kind string and
 * `require`s the installed package's runtime at call time, so state stays small (about 1–2 KB), holds
 * no secret and no client, and a fix to `read` or `delete` reaches existing stacks (the engine runs
 * the OLD serialized code for those: pulumi#6490). Keep this file free of imports used at run time:
 * everything a method touches must be reachable from the runtime module.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "./types";

interface ShimProvider extends pulumi.dynamic.ResourceProvider {
  session: unknown;
}

export function dynamicProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  const provider: ShimProvider = {
    session: undefined,
    async configure(req) {
      this.session = require("pulumi-account-api/provider/runtime").openSession(req.config);
    },
    async check(olds, news) {
      return require("pulumi-account-api/provider/runtime").dispatch(kind, "check", this, [olds, news]);
    },
    async diff(id, olds, news) {
      return require("pulumi-account-api/provider/runtime").dispatch(kind, "diff", this, [id, olds, news]);
    },
    async create(inputs) {
      return require("pulumi-account-api/provider/runtime").dispatch(kind, "create", this, [inputs]);
    },
    async read(id, props) {
      return require("pulumi-account-api/provider/runtime").dispatch(kind, "read", this, [id, props]);
    },
    async update(id, olds, news) {
      return require("pulumi-account-api/provider/runtime").dispatch(kind, "update", this, [id, olds, news]);
    },
    async delete(id, props) {
      return require("pulumi-account-api/provider/runtime").dispatch(kind, "delete", this, [id, props]);
    },
  };
  return provider;
}
