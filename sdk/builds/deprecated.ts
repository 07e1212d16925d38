/**
 * The flat methods of release 0.1.0 (`api.builds.triggerBuild(uuid, { branch, commitHash })`), kept for
 * one more minor release: each is a one-line delegation to its sub-resource method, with the same
 * arguments, results and errors. `BuildsApi` inherits them; our own code calls the sub-resources.
 */
import type { CallOptions } from "../core";
import type {
  AccountLimits as Limits,
  Build,
  BuildLogs,
  BuildToken,
  BuildTokenCreateBody,
  ConfigAutofill,
  DeployHook,
  DeployHookBody,
  Deployment,
  EnvVars,
  EnvVarsPatchBody,
  RepoConnection,
  RepoConnectionBody,
  Script,
  SeedRepo,
  Trigger,
  TriggerCreateBody,
  TriggerUpdateBody,
  Version,
  WorkerBuildConfig,
  WorkerBuildConfigCreateBody,
  WorkerBuildConfigUpdateBody,
} from "../schemas/builds";
import type { AccountLimits } from "./account-limits";
import type { BuildCreateParams, BuildWaitOptions, Builds, LogLine, RedeployResult } from "./builds";
import type { DeployHooks } from "./deploy-hooks";
import type { DeploymentCreateParams, Deployments } from "./deployments";
import type { EnvironmentVariables } from "./environment-variables";
import type { AccountParams } from "./paths";
import type { Repos } from "./repos";
import type { Scripts } from "./scripts";
import type { Tokens } from "./tokens";
import type { Triggers } from "./triggers";
import type { Versions } from "./versions";
import type { Workers } from "./workers";

/** The options of the deprecated `waitForBuild`, which took the account among them. */
export interface WaitForBuildOptions extends BuildWaitOptions, AccountParams {}

/** Old flat method -> its replacement under `api.builds` (each flat method is a deprecated delegation). */
export const DEPRECATED_BUILDS_METHODS: Readonly<Record<string, string>> = Object.freeze({
  listScripts: "scripts.list",
  uploadScript: "scripts.upload",
  resolveScriptTag: "scripts.resolveTag",
  listDeployments: "deployments.list",
  createDeployment: "deployments.create",
  listVersions: "versions.list",
  listTriggers: "triggers.list",
  createTrigger: "triggers.create",
  updateTrigger: "triggers.update",
  deleteTrigger: "triggers.delete",
  purgeBuildCache: "triggers.purgeCache",
  getEnvironmentVariables: "environmentVariables.list",
  patchEnvironmentVariables: "environmentVariables.upsert",
  deleteEnvironmentVariable: "environmentVariables.delete",
  triggerBuild: "builds.create",
  getLatestBuilds: "builds.latest",
  getBuild: "builds.get",
  listBuilds: "builds.list",
  listBuildsByVersionIds: "builds.listByVersionIds",
  getLogsPage: "builds.logs",
  logLines: "builds.logLines",
  collectLogs: "builds.collectLogs",
  cancelBuild: "builds.cancel",
  waitForBuild: "builds.wait",
  redeployActiveDeployment: "builds.redeployActiveDeployment",
  listTokens: "tokens.list",
  createToken: "tokens.create",
  deleteToken: "tokens.delete",
  getAccountLimits: "accountLimits.get",
  getConfigAutofill: "repos.configAutofill",
  upsertRepoConnection: "repos.connections.upsert",
  listRepoConnections: "repos.connections.list",
  deleteRepoConnection: "repos.connections.delete",
  listDeployHooks: "deployHooks.list",
  createDeployHook: "deployHooks.create",
  getDeployHook: "deployHooks.get",
  updateDeployHook: "deployHooks.update",
  deleteDeployHook: "deployHooks.delete",
  createWorkerBuildConfig: "workers.create",
  getWorkerBuildConfig: "workers.get",
  updateWorkerBuildConfig: "workers.update",
  deleteWorkerBuildConfig: "workers.delete",
});

/** A flat method's params without the account: what its replacement takes as `params`. */
function withoutAccount<T extends object>(params: T & AccountParams): T {
  const rest: T & AccountParams = { ...params };
  delete rest.accountId;
  return rest;
}

/** The deprecated `triggerBuild`'s camelCase fields as the wire's body (rule 1 is checked on it). */
function manualBuildBody(params: {
  branch?: string;
  commitHash?: string;
  seedRepo?: SeedRepo;
}): BuildCreateParams {
  return {
    ...(params.branch !== undefined ? { branch: params.branch } : {}),
    ...(params.commitHash !== undefined ? { commit_hash: params.commitHash } : {}),
    ...(params.seedRepo !== undefined ? { seed_repo: params.seedRepo } : {}),
  };
}

/** The deprecated flat methods over the sub-resources a `BuildsApi` holds. */
export abstract class DeprecatedBuildsMethods {
  abstract readonly scripts: Scripts;
  abstract readonly deployments: Deployments;
  abstract readonly versions: Versions;
  abstract readonly triggers: Triggers;
  abstract readonly environmentVariables: EnvironmentVariables;
  abstract readonly builds: Builds;
  abstract readonly tokens: Tokens;
  abstract readonly accountLimits: AccountLimits;
  abstract readonly repos: Repos;
  abstract readonly deployHooks: DeployHooks;
  abstract readonly workers: Workers;

  /** @deprecated Since 0.2.0: use `api.builds.scripts.list(ids, params)`; removed in 0.3.0. */
  listScripts(params: AccountParams & { tags?: string } = {}, options: CallOptions = {}): Promise<Script[]> {
    return this.scripts.list({ accountId: params.accountId }, { tags: params.tags }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.scripts.upload(ids, params)`; removed in 0.3.0. */
  uploadScript(
    scriptName: string,
    params: AccountParams & { mainModule?: string; modules?: Record<string, string> } = {},
    options: CallOptions = {},
  ): Promise<Script> {
    return this.scripts.upload({ accountId: params.accountId, scriptName }, params, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.scripts.resolveTag(ids)`; removed in 0.3.0. */
  resolveScriptTag(
    scriptName: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<string> {
    return this.scripts.resolveTag({ ...params, scriptName }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.deployments.list(ids)`; removed in 0.3.0. */
  listDeployments(
    scriptName: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<Deployment[]> {
    return this.deployments.list({ ...params, scriptName }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.deployments.create(ids, params)`; removed in 0.3.0. */
  createDeployment(
    scriptName: string,
    params: AccountParams & DeploymentCreateParams,
    options: CallOptions = {},
  ): Promise<Deployment> {
    return this.deployments.create({ accountId: params.accountId, scriptName }, params, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.versions.list(ids, params)`; removed in 0.3.0. */
  listVersions(
    scriptName: string,
    params: AccountParams & { perPage?: number } = {},
    options: CallOptions = {},
  ): AsyncGenerator<Version> {
    return this.versions.list(
      { accountId: params.accountId, scriptName },
      { perPage: params.perPage },
      options,
    );
  }

  /** @deprecated Since 0.2.0: use `api.builds.triggers.list(ids)`; removed in 0.3.0. */
  listTriggers(scriptTag: string, params: AccountParams = {}, options: CallOptions = {}): Promise<Trigger[]> {
    return this.triggers.list({ ...params, scriptTag }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.triggers.create(ids, params)`; removed in 0.3.0. */
  createTrigger(params: AccountParams & TriggerCreateBody, options: CallOptions = {}): Promise<Trigger> {
    return this.triggers.create({ accountId: params.accountId }, withoutAccount(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.triggers.update(ids, params)`; removed in 0.3.0. */
  updateTrigger(
    triggerUuid: string,
    params: AccountParams & TriggerUpdateBody,
    options: CallOptions = {},
  ): Promise<Trigger> {
    return this.triggers.update(
      { accountId: params.accountId, triggerUuid },
      withoutAccount(params),
      options,
    );
  }

  /** @deprecated Since 0.2.0: use `api.builds.triggers.delete(ids)`; removed in 0.3.0. */
  deleteTrigger(triggerUuid: string, params: AccountParams = {}, options: CallOptions = {}): Promise<void> {
    return this.triggers.delete({ ...params, triggerUuid }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.triggers.purgeCache(ids)`; removed in 0.3.0. */
  purgeBuildCache(triggerUuid: string, params: AccountParams = {}, options: CallOptions = {}): Promise<void> {
    return this.triggers.purgeCache({ ...params, triggerUuid }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.environmentVariables.list(ids)`; removed in 0.3.0. */
  getEnvironmentVariables(
    triggerUuid: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<EnvVars> {
    return this.environmentVariables.list({ ...params, triggerUuid }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.environmentVariables.upsert(ids, variables)`; removed in 0.3.0. */
  patchEnvironmentVariables(
    triggerUuid: string,
    params: AccountParams & { variables: EnvVarsPatchBody },
    options: CallOptions = {},
  ): Promise<EnvVars> {
    return this.environmentVariables.upsert(
      { accountId: params.accountId, triggerUuid },
      params.variables,
      options,
    );
  }

  /** @deprecated Since 0.2.0: use `api.builds.environmentVariables.delete(ids)`; removed in 0.3.0. */
  deleteEnvironmentVariable(
    triggerUuid: string,
    key: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<void> {
    return this.environmentVariables.delete({ ...params, triggerUuid, environmentVariableKey: key }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.builds.create(ids, { branch, commit_hash, seed_repo })`; removed in 0.3.0. */
  triggerBuild(
    triggerUuid: string,
    params: AccountParams & { branch?: string; commitHash?: string; seedRepo?: SeedRepo },
    options: CallOptions = {},
  ): Promise<Build> {
    return this.builds.create({ accountId: params.accountId, triggerUuid }, manualBuildBody(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.builds.latest(ids, { external_script_ids })`; removed in 0.3.0. */
  getLatestBuilds(
    scriptTags: readonly string[],
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<Record<string, Build>> {
    return this.builds.latest(params, { external_script_ids: scriptTags }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.builds.get(ids)`; removed in 0.3.0. */
  getBuild(buildUuid: string, params: AccountParams = {}, options: CallOptions = {}): Promise<Build> {
    return this.builds.get({ ...params, buildUuid }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.builds.list(ids, params)`; removed in 0.3.0. */
  listBuilds(
    scriptTag: string,
    params: AccountParams & { perPage?: number } = {},
    options: CallOptions = {},
  ): AsyncGenerator<Build> {
    return this.builds.list({ accountId: params.accountId, scriptTag }, { perPage: params.perPage }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.builds.listByVersionIds(ids, { version_ids })`; removed in 0.3.0. */
  listBuildsByVersionIds(
    versionIds: readonly string[],
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<{ versionId: string | undefined; build: Build }[]> {
    return this.builds.listByVersionIds(params, { version_ids: versionIds }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.builds.logs(ids, { cursor })`; removed in 0.3.0. */
  getLogsPage(
    buildUuid: string,
    params: AccountParams & { cursor?: string } = {},
    options: CallOptions = {},
  ): Promise<BuildLogs> {
    return this.builds.logs({ accountId: params.accountId, buildUuid }, { cursor: params.cursor }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.builds.logLines(ids)`; removed in 0.3.0. */
  logLines(
    buildUuid: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): AsyncGenerator<LogLine> {
    return this.builds.logLines({ ...params, buildUuid }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.builds.collectLogs(ids)`; removed in 0.3.0. */
  collectLogs(
    buildUuid: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<{ lines: LogLine[]; truncated: boolean }> {
    return this.builds.collectLogs({ ...params, buildUuid }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.builds.cancel(ids)`; removed in 0.3.0. */
  cancelBuild(buildUuid: string, params: AccountParams = {}, options: CallOptions = {}): Promise<Build> {
    return this.builds.cancel({ ...params, buildUuid }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.builds.wait(ids, options)`; removed in 0.3.0. */
  waitForBuild(buildUuid: string, options: WaitForBuildOptions = {}): Promise<Build> {
    return this.builds.wait({ accountId: options.accountId, buildUuid }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.builds.redeployActiveDeployment(ids)`; removed in 0.3.0. */
  redeployActiveDeployment(
    scriptName: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<RedeployResult> {
    return this.builds.redeployActiveDeployment({ ...params, scriptName }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.tokens.list(ids, params)`; removed in 0.3.0. */
  listTokens(
    params: AccountParams & { perPage?: number } = {},
    options: CallOptions = {},
  ): Promise<BuildToken[]> {
    return this.tokens.list({ accountId: params.accountId }, { perPage: params.perPage }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.tokens.create(ids, params)`; removed in 0.3.0. */
  createToken(params: AccountParams & BuildTokenCreateBody, options: CallOptions = {}): Promise<BuildToken> {
    return this.tokens.create({ accountId: params.accountId }, withoutAccount(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.tokens.delete(ids)`; removed in 0.3.0. */
  deleteToken(buildTokenUuid: string, params: AccountParams = {}, options: CallOptions = {}): Promise<void> {
    return this.tokens.delete({ ...params, buildTokenUuid }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.accountLimits.get(ids)`; removed in 0.3.0. */
  getAccountLimits(params: AccountParams = {}, options: CallOptions = {}): Promise<Limits> {
    return this.accountLimits.get(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.repos.configAutofill(ids, { branch, root_directory })`; removed in 0.3.0. */
  getConfigAutofill(
    params: AccountParams & {
      providerType: string;
      providerAccountId: string;
      repoId: string;
      branch?: string;
      rootDirectory?: string;
    },
    options: CallOptions = {},
  ): Promise<ConfigAutofill> {
    return this.repos.configAutofill(
      params,
      { branch: params.branch, root_directory: params.rootDirectory },
      options,
    );
  }

  /** @deprecated Since 0.2.0: use `api.builds.repos.connections.upsert(ids, params)`; removed in 0.3.0. */
  upsertRepoConnection(
    params: AccountParams & RepoConnectionBody,
    options: CallOptions = {},
  ): Promise<RepoConnection> {
    return this.repos.connections.upsert({ accountId: params.accountId }, withoutAccount(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.repos.connections.list(ids)`; removed in 0.3.0. */
  listRepoConnections(params: AccountParams = {}, options: CallOptions = {}): Promise<RepoConnection[]> {
    return this.repos.connections.list(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.repos.connections.delete(ids)`; removed in 0.3.0. */
  deleteRepoConnection(
    repoConnectionUuid: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<void> {
    return this.repos.connections.delete({ ...params, repoConnectionUuid }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.deployHooks.list(ids)`; removed in 0.3.0. */
  listDeployHooks(
    scriptTag: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<DeployHook[]> {
    return this.deployHooks.list({ ...params, scriptTag }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.deployHooks.create(ids, params)`; removed in 0.3.0. */
  createDeployHook(
    scriptTag: string,
    params: AccountParams & DeployHookBody,
    options: CallOptions = {},
  ): Promise<DeployHook> {
    return this.deployHooks.create(
      { accountId: params.accountId, scriptTag },
      withoutAccount(params),
      options,
    );
  }

  /** @deprecated Since 0.2.0: use `api.builds.deployHooks.get(ids)`; removed in 0.3.0. */
  getDeployHook(
    scriptTag: string,
    deployHookUuid: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<DeployHook> {
    return this.deployHooks.get({ ...params, scriptTag, deployHookUuid }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.deployHooks.update(ids, params)`; removed in 0.3.0. */
  updateDeployHook(
    scriptTag: string,
    deployHookUuid: string,
    params: AccountParams & DeployHookBody,
    options: CallOptions = {},
  ): Promise<DeployHook> {
    return this.deployHooks.update(
      { accountId: params.accountId, scriptTag, deployHookUuid },
      withoutAccount(params),
      options,
    );
  }

  /** @deprecated Since 0.2.0: use `api.builds.deployHooks.delete(ids)`; removed in 0.3.0. */
  deleteDeployHook(
    scriptTag: string,
    deployHookUuid: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<void> {
    return this.deployHooks.delete({ ...params, scriptTag, deployHookUuid }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.workers.create(ids, params)`; removed in 0.3.0. */
  createWorkerBuildConfig(
    params: AccountParams & WorkerBuildConfigCreateBody,
    options: CallOptions = {},
  ): Promise<WorkerBuildConfig> {
    return this.workers.create({ accountId: params.accountId }, withoutAccount(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.workers.get(ids)`; removed in 0.3.0. */
  getWorkerBuildConfig(
    scriptTag: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<WorkerBuildConfig> {
    return this.workers.get({ ...params, scriptTag }, options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.workers.update(ids, params)`; removed in 0.3.0. */
  updateWorkerBuildConfig(
    scriptTag: string,
    params: AccountParams & WorkerBuildConfigUpdateBody,
    options: CallOptions = {},
  ): Promise<WorkerBuildConfig> {
    return this.workers.update({ accountId: params.accountId, scriptTag }, withoutAccount(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.builds.workers.delete(ids)`; removed in 0.3.0. */
  deleteWorkerBuildConfig(
    scriptTag: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<void> {
    return this.workers.delete({ ...params, scriptTag }, options);
  }
}
