/**
 * Client for the build service (spec section A) and the script endpoints it depends on, one field per
 * sub-resource (`api.builds.triggers.create(ids, params)`). Build-service paths take a script's tag,
 * script paths its name; errors from either get a hint saying which.
 */
import type { ApiClient } from "../client";
import { AccountLimits } from "./account-limits";
import { Builds } from "./builds";
import { DeployHooks } from "./deploy-hooks";
import { Deployments } from "./deployments";
import { DeprecatedBuildsMethods } from "./deprecated";
import { EnvironmentVariables } from "./environment-variables";
import { Repos } from "./repos";
import { Scripts } from "./scripts";
import { Tokens } from "./tokens";
import { Triggers } from "./triggers";
import { Versions } from "./versions";
import { Workers } from "./workers";

export type {
  AccountLimits,
  Build,
  BuildLogs,
  BuildOutcome,
  BuildStatus,
  BuildToken,
  BuildTokenCreateBody,
  ConfigAutofill,
  DeployHook,
  DeployHookBody,
  Deployment,
  DeploymentCreateBody,
  EnvVar,
  EnvVarInput,
  EnvVars,
  EnvVarsPatchBody,
  RepoConnection,
  RepoConnectionBody,
  Script,
  Trigger,
  TriggerCreateBody,
  TriggerKind,
  TriggerUpdateBody,
  SeedRepo,
  Version,
  WorkerBuildConfig,
  WorkerBuildConfigCreateBody,
  WorkerBuildConfigUpdateBody,
} from "../schemas/builds";
export { triggerKind, productionBranchOf, BUILD_ERROR_CODES } from "../schemas/builds";
export type { CallOptions } from "../core";
export { REDEPLOY_STEPS, RedeployError, ScriptNotFoundError, type RedeployStep } from "./errors";
export { withBuildHint } from "./hints";
export type {
  AccountIds,
  AccountParams,
  BuildIds,
  BuildTokenIds,
  DeployHookIds,
  EnvironmentVariableIds,
  RepoConnectionIds,
  RepoIds,
  ScriptNameIds,
  ScriptTagIds,
  TriggerIds,
} from "./paths";
export type { BuildCreateParams, BuildWaitOptions, LogLine, RedeployResult } from "./builds";
export type { DeploymentCreateParams } from "./deployments";
export type { ConfigAutofillParams } from "./repos";
export type { ScriptListParams, ScriptUploadParams } from "./scripts";
export { DEPRECATED_BUILDS_METHODS, type WaitForBuildOptions } from "./deprecated";

/** `api.builds`: the sub-resources, and (inherited, deprecated) the flat methods of release 0.1.0. */
export class BuildsApi extends DeprecatedBuildsMethods {
  /** Scripts by name (`workers/scripts`): list, upload, resolve a name to its tag. */
  readonly scripts: Scripts;
  /** A script's deployments (`workers/scripts/{script_name}/deployments`). */
  readonly deployments: Deployments;
  /** A script's versions (`workers/scripts/{script_name}/versions`). */
  readonly versions: Versions;
  /** Build triggers (`builds/triggers`), listed per script tag. */
  readonly triggers: Triggers;
  /** A trigger's environment variables (`builds/triggers/{trigger_uuid}/environment_variables`). */
  readonly environmentVariables: EnvironmentVariables;
  /** Builds (`builds/builds`): start, read, list, logs, cancel, wait, redeploy. */
  readonly builds: Builds;
  /** Build tokens (`builds/tokens`). */
  readonly tokens: Tokens;
  /** The account's build limits (`builds/account/limits`). */
  readonly accountLimits: AccountLimits;
  /** Repositories (`builds/repos`): their connections and the config autofill. */
  readonly repos: Repos;
  /** A script's deploy hooks (`builds/workers/{script_tag}/deploy_hooks`). */
  readonly deployHooks: DeployHooks;
  /** A Worker's build configuration (`builds/workers/{script_tag}`). */
  readonly workers: Workers;

  constructor(readonly client: ApiClient) {
    super();
    this.scripts = new Scripts(client);
    this.deployments = new Deployments(client);
    this.versions = new Versions(client);
    this.triggers = new Triggers(client);
    this.environmentVariables = new EnvironmentVariables(client);
    this.builds = new Builds(client, this.deployments);
    this.tokens = new Tokens(client);
    this.accountLimits = new AccountLimits(client);
    this.repos = new Repos(client);
    this.deployHooks = new DeployHooks(client);
    this.workers = new Workers(client);
  }
}
