/**
 * The account-api policies' checks as plain functions of a resource's inputs: no @pulumi/policy here,
 * so unit tests and a team's own tooling can call them directly. Each answers the violations in words
 * that name the resource, its kind and the field; an empty list when the inputs pass.
 *
 * The inputs are what the engine hands an analyzer: the provider's checked inputs (defaults filled,
 * `branchIncludes` by kind), not guaranteed to match the input types when check itself failed, so
 * every field is read defensively. The types name the fields, so a renamed input fails to compile here.
 */
import type { BuildTriggerInputs } from "../provider/resources/build-trigger/index";
import type { DomainRegistrationInputs } from "../provider/resources/domain-registration/hooks";
import type { MeetingTemplateInputs } from "../provider/resources/meeting-template/index";
import type { TriggerEnvVarsInputs } from "../provider/resources/trigger-env-vars/index";

/** A resource as a rule sees it: its name and its inputs. */
export interface PolicySubject {
  name: string;
  props: Readonly<Record<string, unknown>>;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** One input of a kind, by a name its input type has. */
function input<I>(s: PolicySubject, field: keyof I & string): unknown {
  return s.props[field];
}

/** The variable name endings that say a value is a credential (upper case; matched case-insensitively). */
export const CREDENTIAL_SUFFIXES = ["_TOKEN", "_KEY", "_SECRET", "_PASSWORD"] as const;

/**
 * DomainRegistration without `maxCost`: the registration is charged whatever the registry asks
 * (premium renewals included). A registration adopted with `importId` registers nothing, so it is
 * exempt.
 */
export function registrationWithoutPriceGuard(s: PolicySubject): string[] {
  if (input<DomainRegistrationInputs>(s, "importId") !== undefined) return [];
  if (input<DomainRegistrationInputs>(s, "maxCost") !== undefined) return [];
  const domain = input<DomainRegistrationInputs>(s, "domainName");
  const which = typeof domain === "string" ? ` (${domain})` : "";
  return [
    `DomainRegistration "${s.name}"${which} has no maxCost: set maxCost { amount, currency } (with years) so a registration above that price is refused`,
  ];
}

/** TriggerEnvVars variables named like credentials whose `isSecret` is not true. */
export function plainCredentialVariables(
  s: PolicySubject,
  suffixes: readonly string[] = CREDENTIAL_SUFFIXES,
): string[] {
  const variables = input<TriggerEnvVarsInputs>(s, "variables");
  if (!isRecord(variables)) return [];
  const endings = suffixes.map((x) => x.toUpperCase());
  return Object.keys(variables)
    .filter((key) => endings.some((e) => key.toUpperCase().endsWith(e)))
    .filter((key) => {
      const entry = variables[key];
      return !(isRecord(entry) && entry.isSecret === true);
    })
    .sort()
    .map(
      (key) =>
        `TriggerEnvVars "${s.name}": variables.${key} looks like a credential but is plain: set isSecret: true (masked in build logs, a secret in state)`,
    );
}

/** Whether a trigger deploys to production: its kind says so, or its deploy command replaces the live deployment. */
function deploysProduction(s: PolicySubject): boolean {
  if (input<BuildTriggerInputs>(s, "kind") === "production") return true;
  const deploy = input<BuildTriggerInputs>(s, "deployCommand");
  return typeof deploy === "string" && /\bwrangler\s+deploy\b/.test(deploy);
}

/** Patterns that take every branch: `*` and `**` on their own. */
const EVERY_BRANCH = /^\*{1,2}$/;

/**
 * A production BuildTrigger on every branch: no `branchIncludes` (or an empty list), or a pattern
 * that matches any branch. "Production" is `kind: "production"` or a deploy command that runs
 * `wrangler deploy` (a preview-kind trigger on `*` whose command deploys is production on every branch).
 */
export function productionOnEveryBranch(s: PolicySubject): string[] {
  if (!deploysProduction(s)) return [];
  const includes = input<BuildTriggerInputs>(s, "branchIncludes");
  const list = Array.isArray(includes) ? includes : [];
  const every = list.length === 0 || list.some((p) => typeof p === "string" && EVERY_BRANCH.test(p));
  if (!every) return [];
  const given = list.length === 0 ? "no branchIncludes" : `branchIncludes ${JSON.stringify(list)}`;
  return [
    `BuildTrigger "${s.name}" deploys production from every branch (${given}): name the production branch in branchIncludes, such as ["main"]`,
  ];
}

/** A MeetingTemplate whose recordings go to SFTP with a password rather than a key. */
export function sftpRecordingWithPassword(s: PolicySubject): string[] {
  const recording = input<MeetingTemplateInputs>(s, "recordingConfig");
  const storage = isRecord(recording) ? recording.storageConfig : undefined;
  if (!isRecord(storage) || storage.type !== "sftp") return [];
  const byPassword = storage.password !== undefined || storage.authMethod === "PASSWORD";
  if (!byPassword) return [];
  return [
    `MeetingTemplate "${s.name}" stores recordings over SFTP with a password (recordingConfig.storageConfig): use authMethod "KEY" with privateKey`,
  ];
}
