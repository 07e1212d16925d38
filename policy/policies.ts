/**
 * The account-api policies for @pulumi/policy: what `pulumi-account-api/policy` exports, for the pack
 * in this folder (index.ts) and for a team's own pack that adds rules of its own (docs/policy.md).
 *
 * Only types come from @pulumi/policy here, so importing this module loads nothing of it: the pack
 * entry, which the engine runs, is the one place that does.
 */
import type { ReportViolation, ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";
import type { ResourceKind } from "../provider/types";
import { isKind } from "./kinds";
import {
  CREDENTIAL_SUFFIXES,
  plainCredentialVariables,
  productionOnEveryBranch,
  registrationWithoutPriceGuard,
  sftpRecordingWithPassword,
  type PolicySubject,
} from "./rules";

/** The policies' names: the keys of a pack's config (`--policy-pack-config`). */
export const POLICY_NAMES = {
  priceGuard: "account-api-registration-price-guard",
  plainCredential: "account-api-plain-credential-variable",
  productionEveryBranch: "account-api-production-every-branch",
  sftpPassword: "account-api-sftp-recording-password",
} as const;

/** The configuration `account-api-plain-credential-variable` takes. */
export interface CredentialConfig {
  /** Name endings that mark a credential; default `_TOKEN`, `_KEY`, `_SECRET`, `_PASSWORD`. */
  suffixes?: string[];
}

/** A validation for one kind: the check runs on that kind's resources only, in either token form. */
function forKind(
  kind: ResourceKind,
  check: (s: PolicySubject, args: ResourceValidationArgs) => string[],
): (args: ResourceValidationArgs, report: ReportViolation) => void {
  return (args, report) => {
    if (!isKind(args.type, kind)) return;
    for (const message of check({ name: args.name, props: args.props }, args)) report(message);
  };
}

export const registrationPriceGuard: ResourceValidationPolicy = {
  name: POLICY_NAMES.priceGuard,
  description: "A DomainRegistration sets maxCost, the price above which the registration is refused.",
  enforcementLevel: "mandatory",
  validateResource: forKind("DomainRegistration", registrationWithoutPriceGuard),
};

export const plainCredentialVariable: ResourceValidationPolicy = {
  name: POLICY_NAMES.plainCredential,
  description:
    "A TriggerEnvVars variable named like a credential (*_TOKEN, *_KEY, *_SECRET, *_PASSWORD) has isSecret: true.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      suffixes: { type: "array", items: { type: "string" }, default: [...CREDENTIAL_SUFFIXES] },
    },
  },
  validateResource: forKind("TriggerEnvVars", (s, args) =>
    plainCredentialVariables(s, args.getConfig<CredentialConfig>().suffixes ?? CREDENTIAL_SUFFIXES),
  ),
};

export const productionEveryBranch: ResourceValidationPolicy = {
  name: POLICY_NAMES.productionEveryBranch,
  description:
    "A BuildTrigger that deploys production names its branches (no missing branchIncludes, no '*').",
  enforcementLevel: "advisory",
  validateResource: forKind("BuildTrigger", productionOnEveryBranch),
};

export const sftpRecordingPassword: ResourceValidationPolicy = {
  name: POLICY_NAMES.sftpPassword,
  description: "A MeetingTemplate that stores recordings over SFTP authenticates with a key, not a password.",
  enforcementLevel: "advisory",
  validateResource: forKind("MeetingTemplate", sftpRecordingWithPassword),
};

/** Every account-api policy, in the order the docs list them. */
export const accountApiPolicies: ResourceValidationPolicy[] = [
  registrationPriceGuard,
  plainCredentialVariable,
  productionEveryBranch,
  sftpRecordingPassword,
];

export { CREDENTIAL_SUFFIXES, type PolicySubject } from "./rules";
export {
  plainCredentialVariables,
  productionOnEveryBranch,
  registrationWithoutPriceGuard,
  sftpRecordingWithPassword,
} from "./rules";
export { isKind, kindOfType } from "./kinds";
