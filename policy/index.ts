/**
 * The account-api policy pack: the folder the engine runs for `pulumi preview --policy-pack <this
 * folder>` (dist/policy in a build, node_modules/pulumi-account-api/dist/policy when installed). It is
 * the only module that loads @pulumi/policy, an optional peer dependency: a program that does not use
 * the pack never needs it.
 */
import { accountApiPolicies } from "./policies";

/** @pulumi/policy is not installed where the pack runs; says the one command that adds it. */
export class PolicyDependencyMissingError extends Error {
  override readonly name = "PolicyDependencyMissingError";
  constructor(cause: unknown) {
    super(
      "the account-api policy pack needs @pulumi/policy beside the program: run `npm install --save-dev @pulumi/policy@^1.21.0` in the project",
      { cause },
    );
  }
}

function loadPolicySdk(): typeof import("@pulumi/policy") {
  try {
    return require("@pulumi/policy") as typeof import("@pulumi/policy");
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND";
    if (missing && String(err).includes("'@pulumi/policy'")) throw new PolicyDependencyMissingError(err);
    throw err;
  }
}

const { PolicyPack } = loadPolicySdk();

new PolicyPack("account-api", {
  description: "Rules for pulumi-account-api resources: price guards, secret credentials, safe triggers.",
  policies: accountApiPolicies,
});
