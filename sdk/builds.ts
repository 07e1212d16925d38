/**
 * Client for the build service (spec section A) and the script endpoints it depends on. Build-service
 * paths take a script's tag, script paths its name; errors from either get a hint saying which.
 */
import { z } from "zod";
import { path, type ApiClient, type ApiResponse, type RequestSpec } from "./client";
import { createOnce, pollUntil, type CallOptions, type WaitOptions } from "./core";
import { AccountApiError, ApiError, errorFromResponse } from "./errors";
import { cursorStyle, pageStyle } from "./paging";
import { IdentifierSchema } from "./schemas/common";
import {
  AccountLimitsSchema,
  BuildLogsSchema,
  BuildSchema,
  BuildTokenCreateBodySchema,
  BuildTokenSchema,
  BuildsByVersionSchema,
  CancelledBuildSchema,
  ConfigAutofillSchema,
  DeployHookBodySchema,
  DeployHookSchema,
  DeploymentCreateBodySchema,
  DeploymentSchema,
  DeploymentsSchema,
  EnvVarsPatchBodySchema,
  EnvVarsSchema,
  LatestBuildsSchema,
  NewBuildSchema,
  ProviderTypeSchema,
  RepoConnectionBodySchema,
  RepoConnectionSchema,
  ScriptNameSchema,
  ScriptSchema,
  ScriptTagSchema,
  TriggerBuildBodySchema,
  TriggerCreateBodySchema,
  TriggerSchema,
  TriggerUpdateBodySchema,
  UuidSchema,
  VersionsPageSchema,
  WorkerBuildConfigCreateBodySchema,
  WorkerBuildConfigSchema,
  WorkerBuildConfigUpdateBodySchema,
  triggerKind,
  type AccountLimits,
  type Build,
  type BuildLogs,
  type BuildToken,
  type BuildTokenCreateBody,
  type ConfigAutofill,
  type DeployHook,
  type DeployHookBody,
  type Deployment,
  type DeploymentCreateBody,
  type EnvVars,
  type EnvVarsPatchBody,
  type RepoConnection,
  type RepoConnectionBody,
  type Script,
  type SeedRepo,
  type Trigger,
  type TriggerCreateBody,
  type TriggerUpdateBody,
  type Version,
  type WorkerBuildConfig,
  type WorkerBuildConfigCreateBody,
  type WorkerBuildConfigUpdateBody,
} from "./schemas/builds";
import { validate } from "./validate";

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
} from "./schemas/builds";
export { triggerKind, productionBranchOf, BUILD_ERROR_CODES } from "./schemas/builds";

export type { CallOptions } from "./core";

export interface AccountParams {
  /** Overrides the client's default account (at most 32 characters). */
  accountId?: string;
}

export interface LogLine {
  /** Epoch milliseconds. */
  at: number;
  text: string;
}

/**
 * Defaults: `deadlineMs` 30 minutes, `pollIntervalMs` 2 s growing by half each poll up to
 * `maxPollIntervalMs` 15 s.
 */
export interface WaitForBuildOptions extends WaitOptions, AccountParams {
  /** Called with every build read while waiting. */
  onProgress?: (build: Build) => void;
}

/** The steps of rule 2, in order; a RedeployError names the one that failed. */
export const REDEPLOY_STEPS = {
  deployments: "1. list the script's deployments",
  version: "2. read the first version id of the first (active) deployment",
  builds: "3. list builds by that version id",
  metadata: "4. read the trigger uuid, branch and commit hash of the matching build",
  post: "5. post a build with that branch and commit hash",
} as const;
export type RedeployStep = keyof typeof REDEPLOY_STEPS;

export interface RedeployResult {
  build: Build;
  versionId: string;
  triggerUuid: string;
  branch: string;
  commitHash: string;
}

/** `resolveScriptTag` found no script with that name (or tag) in the account. */
export class ScriptNotFoundError extends AccountApiError {
  readonly scriptName: string;
  constructor(scriptName: string, accountId: string, known: readonly string[]) {
    const list = known.length
      ? `; scripts in the account: ${known.slice(0, 10).join(", ")}${known.length > 10 ? ", …" : ""}`
      : "; the account has no scripts";
    super(
      "ERR_SCRIPT_NOT_FOUND",
      `no script named ${JSON.stringify(scriptName)} in account ${accountId}${list}`,
    );
    this.scriptName = scriptName;
  }
}

/** Rule 2 stopped at one of its steps; `step` says which and `cause` carries the underlying error. */
export class RedeployError extends AccountApiError {
  readonly step: RedeployStep;
  constructor(scriptName: string, step: RedeployStep, detail: string, cause?: unknown) {
    super(
      "ERR_REDEPLOY",
      `redeploy of ${JSON.stringify(scriptName)} failed at step ${REDEPLOY_STEPS[step]}: ${detail}`,
      {
        cause,
      },
    );
    this.step = step;
  }
}

/** Which kind of path a request addresses, to explain a 404 (tag vs name). */
type Scope = "build" | "script-name" | "script-tag";

const HINTS = {
  userScoped:
    'the build service accepts only user-scoped API tokens; an account-scoped token gets "Invalid token" — create a user API token with the build-configuration Edit permission',
  tagNotName:
    "build-service paths and external_script_id take the script's tag (a UUID, field `tag` of listScripts()), not its name — resolve a name with builds.resolveScriptTag(name)",
  nameNotTag: "script paths take the script's name (field `id` of listScripts()), not its tag",
} as const;

/** Adds the build service's two classic hints to an API error, keeping its class. */
export function withBuildHint(error: unknown, scope: Scope): unknown {
  if (!(error instanceof ApiError)) return error;
  let hint: string | undefined;
  if (error.status === 401 && error.errors.some((e) => /invalid token/i.test(e.message)))
    hint = HINTS.userScoped;
  else if (error.status === 404 && scope === "script-tag") hint = HINTS.tagNotName;
  else if (error.status === 404 && scope === "script-name") hint = HINTS.nameNotTag;
  if (!hint) return error;
  return errorFromResponse({
    status: error.status,
    errors: error.errors,
    method: error.method,
    path: error.path,
    ...(error.requestId ? { requestId: error.requestId } : {}),
    body: error.body,
    hint,
  });
}

const Account = { accountId: IdentifierSchema.optional() };
const P = {
  account: z.object(Account),
  scriptName: z.object({ ...Account, scriptName: ScriptNameSchema }),
  scriptTag: z.object({ ...Account, scriptTag: ScriptTagSchema }),
  trigger: z.object({ ...Account, triggerUuid: UuidSchema }),
  build: z.object({ ...Account, buildUuid: UuidSchema }),
  envKey: z.object({ ...Account, triggerUuid: UuidSchema, key: z.string().min(1, "must not be empty") }),
  versionIds: z.object({
    ...Account,
    versionIds: z
      .array(UuidSchema)
      .min(1, "must hold at least one version id")
      .max(20, "must hold at most 20 version ids"),
  }),
  perPage: z
    .number()
    .int("must be an integer")
    .min(1, "must be at least 1")
    .max(100, "must be at most 100")
    .optional(),
  /** The build service's page-style listings take up to 200 a page (public contract). */
  buildPerPage: z
    .number()
    .int("must be an integer")
    .min(1, "must be at least 1")
    .max(200, "must be at most 200")
    .optional(),
  hook: z.object({ ...Account, scriptTag: ScriptTagSchema, deployHookUuid: UuidSchema }),
  tokenUuid: z.object({ ...Account, buildTokenUuid: UuidSchema }),
  scriptTags: z.object({
    ...Account,
    scriptTags: z
      .array(ScriptTagSchema)
      .min(1, "must hold at least one script tag")
      .max(20, "must hold at most 20 script tags"),
  }),
  autofill: z.object({
    ...Account,
    providerType: ProviderTypeSchema,
    providerAccountId: z.string().min(1, "must not be empty"),
    repoId: z.string().min(1, "must not be empty"),
    branch: z.string().min(1, "must not be empty").optional(),
    rootDirectory: z.string().optional(),
  }),
  wait: z.object({
    deadlineMs: z.number().positive("must be greater than 0").optional(),
    pollIntervalMs: z.number().positive("must be greater than 0").optional(),
    maxPollIntervalMs: z.number().positive("must be greater than 0").optional(),
  }),
};

export class BuildsApi {
  constructor(readonly client: ApiClient) {}

  async #send<T>(scope: Scope, spec: RequestSpec<T>): Promise<ApiResponse<T>> {
    try {
      return await this.client.requestWithInfo(spec);
    } catch (e) {
      throw withBuildHint(e, scope);
    }
  }

  async #value<T>(scope: Scope, spec: RequestSpec<T>): Promise<T> {
    return (await this.#send(scope, spec)).value;
  }

  // ------------------------------------------------------------------------------------------------
  // Scripts (addressed by name) and their versions and deployments

  /**
   * `result[]`: `id` is the script's name, `tag` its tag. `tags` filters on the scripts' own tags:
   * comma-separated `name` or `name:yes` (has it), `name:no` (has it not).
   */
  async listScripts(
    params: AccountParams & { tags?: string } = {},
    options: CallOptions = {},
  ): Promise<Script[]> {
    const p = validate(
      P.account.extend({ tags: z.string().min(1, "must not be empty").optional() }),
      params,
      "builds.listScripts",
    );
    const a = this.client.account(p.accountId);
    return this.#value("build", {
      method: "GET",
      path: path`/accounts/${a}/workers/scripts`,
      query: { tags: p.tags },
      schema: z.array(ScriptSchema),
      ...options,
    });
  }

  /**
   * Uploads a script as the public API does (`PUT …/workers/scripts/{name}`, multipart: a `metadata`
   * JSON part and the module files). Scripts are made outside the build service; this is the way in
   * that lets a program or test make one before pointing triggers at it. Returns `id` (name) and `tag`.
   */
  async uploadScript(
    scriptName: string,
    params: AccountParams & { mainModule?: string; modules?: Record<string, string> } = {},
    options: CallOptions = {},
  ): Promise<Script> {
    const p = validate(
      P.scriptName,
      { scriptName, ...(params.accountId ? { accountId: params.accountId } : {}) },
      "builds.uploadScript",
    );
    const a = this.client.account(p.accountId);
    const modules = params.modules ?? {
      "index.js": "export default { fetch() { return new Response('ok'); } };",
    };
    const mainModule = params.mainModule ?? Object.keys(modules)[0] ?? "index.js";
    const form = new FormData();
    form.append(
      "metadata",
      new Blob([JSON.stringify({ main_module: mainModule })], { type: "application/json" }),
    );
    for (const [file, code] of Object.entries(modules)) {
      form.append(file, new Blob([code], { type: "application/javascript+module" }), file);
    }
    return this.#value("build", {
      method: "PUT",
      path: path`/accounts/${a}/workers/scripts/${scriptName}`,
      body: form,
      schema: ScriptSchema,
      ...options,
    });
  }

  /**
   * The tag of the script with this name. A value that already is a tag of the account's scripts is
   * returned as is, so callers may pass either.
   */
  async resolveScriptTag(
    scriptName: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<string> {
    const p = validate(P.scriptName, { ...params, scriptName }, "builds.resolveScriptTag");
    const scripts = await this.listScripts({ ...(p.accountId ? { accountId: p.accountId } : {}) }, options);
    const byName = scripts.find((s) => s.id === scriptName);
    if (byName) return byName.tag;
    const byTag = scripts.find((s) => s.tag.toLowerCase() === scriptName.toLowerCase());
    if (byTag) return byTag.tag;
    throw new ScriptNotFoundError(
      scriptName,
      this.client.account(p.accountId),
      scripts.map((s) => s.id),
    );
  }

  /** `result.deployments`, newest first: the first one is the active deployment. */
  async listDeployments(
    scriptName: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<Deployment[]> {
    const p = validate(P.scriptName, { ...params, scriptName }, "builds.listDeployments");
    const a = this.client.account(p.accountId);
    const r = await this.#value("script-name", {
      method: "GET",
      path: path`/accounts/${a}/workers/scripts/${scriptName}/deployments`,
      schema: DeploymentsSchema,
      ...options,
    });
    return r.deployments;
  }

  /**
   * Deploys versions of a script (percentages add up to 100), with an optional
   * `annotations["workers/message"]`; `force` deploys over changes made outside the service's
   * tooling. Not retried: it creates a deployment.
   */
  async createDeployment(
    scriptName: string,
    params: AccountParams &
      Pick<DeploymentCreateBody, "versions" | "annotations"> & { strategy?: "percentage"; force?: boolean },
    options: CallOptions = {},
  ): Promise<Deployment> {
    const { accountId, versions, strategy, annotations, force } = params;
    const p = validate(
      P.scriptName.extend({ force: z.boolean().optional() }),
      { accountId, scriptName, force },
      "builds.createDeployment",
    );
    const body = validate(
      DeploymentCreateBodySchema,
      { strategy: strategy ?? "percentage", versions, ...(annotations ? { annotations } : {}) },
      "builds.createDeployment",
    );
    const a = this.client.account(p.accountId);
    return this.#value("script-name", {
      method: "POST",
      path: path`/accounts/${a}/workers/scripts/${scriptName}/deployments`,
      query: { force: p.force },
      body,
      schema: DeploymentSchema,
      ...options,
    });
  }

  /** Every version of a script, newest first, page by page. */
  async *listVersions(
    scriptName: string,
    params: AccountParams & { perPage?: number } = {},
    options: CallOptions = {},
  ): AsyncGenerator<Version> {
    const p = validate(
      P.scriptName.extend({ perPage: P.perPage }),
      { ...params, scriptName },
      "builds.listVersions",
    );
    const a = this.client.account(p.accountId);
    yield* pageStyle(async (page, perPage) => {
      const r = await this.#send("script-name", {
        method: "GET",
        path: path`/accounts/${a}/workers/scripts/${scriptName}/versions`,
        query: { page, per_page: perPage },
        schema: VersionsPageSchema,
        ...options,
      });
      return { items: r.value.items, ...(r.resultInfo ? { info: r.resultInfo } : {}) };
    }, p.perPage ?? 50);
  }

  // ------------------------------------------------------------------------------------------------
  // Triggers (scripts addressed by tag)

  /** `result[]`: at most two, one production and one preview (see `triggerKind`). */
  async listTriggers(
    scriptTag: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<Trigger[]> {
    const p = validate(P.scriptTag, { ...params, scriptTag }, "builds.listTriggers");
    const a = this.client.account(p.accountId);
    return this.#value("script-tag", {
      method: "GET",
      path: path`/accounts/${a}/builds/workers/${scriptTag}/triggers`,
      schema: z.array(TriggerSchema),
      ...options,
    });
  }

  /**
   * Creates a trigger. The POST is not repeated; after a connection failure the script's triggers are
   * read, and one of the same kind and name (the natural key: a script has one trigger per kind) means
   * the first attempt landed.
   */
  async createTrigger(
    params: AccountParams & TriggerCreateBody,
    options: CallOptions = {},
  ): Promise<Trigger> {
    const { accountId, ...rest } = params;
    validate(P.account, { accountId }, "builds.createTrigger");
    const body = validate(TriggerCreateBodySchema, rest, "builds.createTrigger");
    const a = this.client.account(accountId);
    return createOnce(
      () =>
        this.#value("script-tag", {
          method: "POST",
          path: path`/accounts/${a}/builds/triggers`,
          body,
          schema: TriggerSchema,
          ...options,
        }),
      async () => {
        const landed = await this.listTriggers(body.external_script_id, { accountId: a }, options);
        return landed.find(
          (t) => t.trigger_name === body.trigger_name && triggerKind(t) === triggerKind(body),
        );
      },
    );
  }

  /** PATCH with any subset of the settings. */
  async updateTrigger(
    triggerUuid: string,
    params: AccountParams & TriggerUpdateBody,
    options: CallOptions = {},
  ): Promise<Trigger> {
    const { accountId, ...rest } = params;
    const p = validate(P.trigger, { accountId, triggerUuid }, "builds.updateTrigger");
    const body = validate(TriggerUpdateBodySchema, rest, "builds.updateTrigger");
    const a = this.client.account(p.accountId);
    return this.#value("build", {
      method: "PATCH",
      path: path`/accounts/${a}/builds/triggers/${triggerUuid}`,
      body,
      schema: TriggerSchema,
      ...options,
    });
  }

  async deleteTrigger(
    triggerUuid: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<void> {
    const p = validate(P.trigger, { ...params, triggerUuid }, "builds.deleteTrigger");
    const a = this.client.account(p.accountId);
    await this.#value("build", {
      method: "DELETE",
      path: path`/accounts/${a}/builds/triggers/${triggerUuid}`,
      schema: z.unknown(),
      ...options,
    });
  }

  /** Clears the trigger's cached dependencies and build artifacts. Repeating it is harmless. */
  async purgeBuildCache(
    triggerUuid: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<void> {
    const p = validate(P.trigger, { ...params, triggerUuid }, "builds.purgeBuildCache");
    const a = this.client.account(p.accountId);
    await this.#value("build", {
      method: "POST",
      path: path`/accounts/${a}/builds/triggers/${triggerUuid}/purge_build_cache`,
      schema: z.unknown(),
      idempotent: true,
      ...options,
    });
  }

  // ------------------------------------------------------------------------------------------------
  // Environment variables of a trigger

  /** The trigger's variables; a secret's `value` is null. */
  async getEnvironmentVariables(
    triggerUuid: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<EnvVars> {
    const p = validate(P.trigger, { ...params, triggerUuid }, "builds.getEnvironmentVariables");
    const a = this.client.account(p.accountId);
    return this.#value("build", {
      method: "GET",
      path: path`/accounts/${a}/builds/triggers/${triggerUuid}/environment_variables`,
      schema: EnvVarsSchema,
      ...options,
    });
  }

  /** Sets (adds or replaces) the given variables; others stay. Returns the whole map. */
  async patchEnvironmentVariables(
    triggerUuid: string,
    params: AccountParams & { variables: EnvVarsPatchBody },
    options: CallOptions = {},
  ): Promise<EnvVars> {
    const p = validate(
      P.trigger,
      { accountId: params.accountId, triggerUuid },
      "builds.patchEnvironmentVariables",
    );
    const body = validate(
      EnvVarsPatchBodySchema,
      params.variables,
      "builds.patchEnvironmentVariables: variables",
    );
    const a = this.client.account(p.accountId);
    return this.#value("build", {
      method: "PATCH",
      path: path`/accounts/${a}/builds/triggers/${triggerUuid}/environment_variables`,
      body,
      schema: EnvVarsSchema,
      ...options,
    });
  }

  async deleteEnvironmentVariable(
    triggerUuid: string,
    key: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<void> {
    const p = validate(P.envKey, { ...params, triggerUuid, key }, "builds.deleteEnvironmentVariable");
    const a = this.client.account(p.accountId);
    await this.#value("build", {
      method: "DELETE",
      path: path`/accounts/${a}/builds/triggers/${triggerUuid}/environment_variables/${key}`,
      schema: z.unknown(),
      ...options,
    });
  }

  // ------------------------------------------------------------------------------------------------
  // Builds

  /**
   * Starts a build (rule 1: `branch`, `commitHash` or both; checked before any request), optionally
   * seeding the repository first from `seedRepo`. Not retried: a second POST would start a second
   * build. The contract's answer holds only `build_uuid` and `created_on`; when that is all that
   * comes back, the build is read once so the caller gets its status.
   */
  async triggerBuild(
    triggerUuid: string,
    params: AccountParams & { branch?: string; commitHash?: string; seedRepo?: SeedRepo },
    options: CallOptions = {},
  ): Promise<Build> {
    const p = validate(P.trigger, { accountId: params.accountId, triggerUuid }, "builds.triggerBuild");
    const body = validate(
      TriggerBuildBodySchema,
      {
        ...(params.branch !== undefined ? { branch: params.branch } : {}),
        ...(params.commitHash !== undefined ? { commit_hash: params.commitHash } : {}),
        ...(params.seedRepo !== undefined ? { seed_repo: params.seedRepo } : {}),
      },
      "builds.triggerBuild",
    );
    const a = this.client.account(p.accountId);
    const started = await this.#value("build", {
      method: "POST",
      path: path`/accounts/${a}/builds/triggers/${triggerUuid}/builds`,
      body,
      schema: NewBuildSchema,
      ...options,
    });
    const whole = BuildSchema.safeParse(started);
    return whole.success ? whole.data : this.getBuild(started.build_uuid, { accountId: a }, options);
  }

  /**
   * The newest build of each script (by tag), keyed by the tag as given; a script without builds
   * is left out.
   */
  async getLatestBuilds(
    scriptTags: readonly string[],
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<Record<string, Build>> {
    const p = validate(P.scriptTags, { ...params, scriptTags: [...scriptTags] }, "builds.getLatestBuilds");
    const a = this.client.account(p.accountId);
    const r = await this.#value("script-tag", {
      method: "GET",
      path: path`/accounts/${a}/builds/builds/latest`,
      query: { external_script_ids: p.scriptTags.join(",") },
      schema: LatestBuildsSchema,
      ...options,
    });
    return r.builds;
  }

  async getBuild(buildUuid: string, params: AccountParams = {}, options: CallOptions = {}): Promise<Build> {
    const p = validate(P.build, { ...params, buildUuid }, "builds.getBuild");
    const a = this.client.account(p.accountId);
    return this.#value("build", {
      method: "GET",
      path: path`/accounts/${a}/builds/builds/${buildUuid}`,
      schema: BuildSchema,
      ...options,
    });
  }

  /** Builds of a script, newest first, page by page. */
  async *listBuilds(
    scriptTag: string,
    params: AccountParams & { perPage?: number } = {},
    options: CallOptions = {},
  ): AsyncGenerator<Build> {
    const p = validate(
      P.scriptTag.extend({ perPage: P.buildPerPage }),
      { ...params, scriptTag },
      "builds.listBuilds",
    );
    const a = this.client.account(p.accountId);
    yield* pageStyle(async (page, perPage) => {
      const r = await this.#send("script-tag", {
        method: "GET",
        path: path`/accounts/${a}/builds/workers/${scriptTag}/builds`,
        query: { page, per_page: perPage },
        schema: z.array(BuildSchema),
        ...options,
      });
      return { items: r.value, ...(r.resultInfo ? { info: r.resultInfo } : {}) };
    }, p.perPage ?? 50);
  }

  /**
   * The builds that produced these versions (`result.builds`). Each entry carries the version id when
   * the service keys its answer by version (it does on the public API).
   */
  async listBuildsByVersionIds(
    versionIds: readonly string[],
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<{ versionId: string | undefined; build: Build }[]> {
    const p = validate(
      P.versionIds,
      { ...params, versionIds: [...versionIds] },
      "builds.listBuildsByVersionIds",
    );
    const a = this.client.account(p.accountId);
    const r = await this.#value("build", {
      method: "GET",
      path: path`/accounts/${a}/builds/builds`,
      query: { version_ids: p.versionIds.join(",") },
      schema: BuildsByVersionSchema,
      ...options,
    });
    return Array.isArray(r.builds)
      ? r.builds.map((build) => ({ versionId: undefined, build }))
      : Object.entries(r.builds).map(([versionId, build]) => ({ versionId, build }));
  }

  /** One page of a build's log: `{cursor, lines: [[ms, text]], truncated}`; an empty cursor ends it. */
  async getLogsPage(
    buildUuid: string,
    params: AccountParams & { cursor?: string } = {},
    options: CallOptions = {},
  ): Promise<BuildLogs> {
    const p = validate(P.build, { accountId: params.accountId, buildUuid }, "builds.getLogsPage");
    const a = this.client.account(p.accountId);
    return this.#value("build", {
      method: "GET",
      path: path`/accounts/${a}/builds/builds/${buildUuid}/logs`,
      query: { cursor: params.cursor || undefined },
      schema: BuildLogsSchema,
      ...options,
    });
  }

  /**
   * Every log line written so far, following the cursor from page to page. For a build still running
   * it ends at the newest line; call again later (or after waitForBuild) for the rest.
   */
  async *logLines(
    buildUuid: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): AsyncGenerator<LogLine> {
    validate(P.build, { ...params, buildUuid }, "builds.logLines");
    yield* cursorStyle(async (cursor) => {
      const page = await this.getLogsPage(buildUuid, { ...params, ...(cursor ? { cursor } : {}) }, options);
      return { items: page.lines.map(([at, text]) => ({ at, text })), cursor: page.cursor ?? null };
    });
  }

  /** All log lines so far, and whether the service cut the log short. */
  async collectLogs(
    buildUuid: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<{ lines: LogLine[]; truncated: boolean }> {
    let truncated = false;
    const lines: LogLine[] = [];
    let cursor: string | undefined;
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const page = await this.getLogsPage(buildUuid, { ...params, ...(cursor ? { cursor } : {}) }, options);
      truncated ||= page.truncated === true;
      for (const [at, text] of page.lines) lines.push({ at, text });
      const next = page.cursor ?? "";
      if (!next || seen.has(next)) break;
      seen.add(next);
      cursor = next;
    }
    return { lines, truncated };
  }

  /** Cancels a build that has not stopped yet (one that has stopped gives a 400 saying so). */
  async cancelBuild(
    buildUuid: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<Build> {
    const p = validate(P.build, { ...params, buildUuid }, "builds.cancelBuild");
    const a = this.client.account(p.accountId);
    const answer = await this.#value("build", {
      method: "PUT",
      path: path`/accounts/${a}/builds/builds/${buildUuid}/cancel`,
      schema: CancelledBuildSchema,
      ...options,
    });
    // The contract's answer is `{build_uuid, build_outcome, stopped_on}`; a whole build is used as is.
    const parsed = BuildSchema.safeParse(answer);
    return parsed.success
      ? parsed.data
      : this.getBuild(buildUuid, p.accountId ? { accountId: p.accountId } : {}, options);
  }

  /**
   * Polls until the build stops and returns it, whatever its outcome. Backs off from
   * `pollIntervalMs` to `maxPollIntervalMs`; throws DeadlineExceededError past `deadlineMs` and
   * AbortedError when `signal` fires.
   */
  async waitForBuild(buildUuid: string, options: WaitForBuildOptions = {}): Promise<Build> {
    validate(P.build, { accountId: options.accountId, buildUuid }, "builds.waitForBuild");
    validate(P.wait, options, "builds.waitForBuild");
    const account = options.accountId ? { accountId: options.accountId } : {};
    return pollUntil(
      `build ${buildUuid}`,
      (call) => this.getBuild(buildUuid, account, call),
      (build) => (build.status === "stopped" ? build : undefined),
      {
        ...options,
        deadlineMs: options.deadlineMs ?? 30 * 60_000,
        pollIntervalMs: options.pollIntervalMs ?? 2_000,
        maxPollIntervalMs: options.maxPollIntervalMs ?? 15_000,
        factor: 1.5,
        onProgress: (build) => options.onProgress?.(build),
        describe: (build) => build.status,
      },
    );
  }

  /**
   * Rule 2: rebuild what is live. Reads the active deployment's first version, finds the build that
   * produced it, and posts a build of the same branch and commit on the same trigger. Each failure
   * is a RedeployError naming its step.
   */
  async redeployActiveDeployment(
    scriptName: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<RedeployResult> {
    const p = validate(P.scriptName, { ...params, scriptName }, "builds.redeployActiveDeployment");
    const account = p.accountId ? { accountId: p.accountId } : {};
    const step = async <T>(name: RedeployStep, run: () => Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (e) {
        if (e instanceof RedeployError) throw e;
        throw new RedeployError(scriptName, name, e instanceof Error ? e.message : String(e), e);
      }
    };
    const deployments = await step("deployments", () => this.listDeployments(scriptName, account, options));
    const versionId = deployments[0]?.versions[0]?.version_id;
    if (!versionId) {
      throw new RedeployError(
        scriptName,
        "version",
        deployments.length === 0 ? "the script has no deployment" : "the active deployment lists no version",
      );
    }
    const found = await step("builds", () => this.listBuildsByVersionIds([versionId], account, options));
    const match = found.find((f) => f.versionId === versionId) ?? (found.length === 1 ? found[0] : undefined);
    if (!match) {
      throw new RedeployError(
        scriptName,
        "builds",
        `no build produced version ${versionId} (it was probably uploaded directly rather than built by a trigger)`,
      );
    }
    const triggerUuid = match.build.trigger?.trigger_uuid;
    const branch = match.build.build_trigger_metadata?.branch;
    const commitHash = match.build.build_trigger_metadata?.commit_hash;
    if (!triggerUuid || !branch || !commitHash) {
      const missing = [
        !triggerUuid && "trigger.trigger_uuid",
        !branch && "build_trigger_metadata.branch",
        !commitHash && "build_trigger_metadata.commit_hash",
      ].filter(Boolean);
      throw new RedeployError(
        scriptName,
        "metadata",
        `build ${match.build.build_uuid} lacks ${missing.join(", ")}`,
      );
    }
    const build = await step("post", () =>
      this.triggerBuild(triggerUuid, { ...account, branch, commitHash }, options),
    );
    return { build, versionId, triggerUuid, branch, commitHash };
  }

  // ------------------------------------------------------------------------------------------------
  // Tokens and repository connections

  /** Every build token of the account (`build_token_uuid`, `build_token_name`, …), all pages. */
  async listTokens(
    params: AccountParams & { perPage?: number } = {},
    options: CallOptions = {},
  ): Promise<BuildToken[]> {
    const p = validate(P.account.extend({ perPage: P.buildPerPage }), params, "builds.listTokens");
    const a = this.client.account(p.accountId);
    return pageStyle(async (page, perPage) => {
      const r = await this.#send("build", {
        method: "GET",
        path: path`/accounts/${a}/builds/tokens`,
        query: { page, per_page: perPage },
        schema: z.array(BuildTokenSchema),
        ...options,
      });
      return { items: r.value, ...(r.resultInfo ? { info: r.resultInfo } : {}) };
    }, p.perPage ?? 50).toArray();
  }

  /**
   * Registers an API token (its id and secret) as a build token. The secret is sent once and never
   * comes back. Not retried: a second POST would register a second token.
   */
  async createToken(
    params: AccountParams & BuildTokenCreateBody,
    options: CallOptions = {},
  ): Promise<BuildToken> {
    const { accountId, ...rest } = params;
    validate(P.account, { accountId }, "builds.createToken");
    const body = validate(BuildTokenCreateBodySchema, rest, "builds.createToken");
    const a = this.client.account(accountId);
    return this.#value("build", {
      method: "POST",
      path: path`/accounts/${a}/builds/tokens`,
      body,
      schema: BuildTokenSchema,
      ...options,
    });
  }

  async deleteToken(
    buildTokenUuid: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<void> {
    const p = validate(P.tokenUuid, { ...params, buildTokenUuid }, "builds.deleteToken");
    const a = this.client.account(p.accountId);
    await this.#value("build", {
      method: "DELETE",
      path: path`/accounts/${a}/builds/tokens/${buildTokenUuid}`,
      schema: z.unknown(),
      ...options,
    });
  }

  /** Whether the account used up this month's build minutes, and when they refresh. */
  async getAccountLimits(params: AccountParams = {}, options: CallOptions = {}): Promise<AccountLimits> {
    const p = validate(P.account, params, "builds.getAccountLimits");
    const a = this.client.account(p.accountId);
    return this.#value("build", {
      method: "GET",
      path: path`/accounts/${a}/builds/account/limits`,
      schema: AccountLimitsSchema,
      ...options,
    });
  }

  /**
   * What the service reads from a connected repository to prefill a trigger: the config file, the
   * Worker's name, the package manager, the package scripts.
   */
  async getConfigAutofill(
    params: AccountParams & {
      providerType: string;
      providerAccountId: string;
      repoId: string;
      branch?: string;
      rootDirectory?: string;
    },
    options: CallOptions = {},
  ): Promise<ConfigAutofill> {
    const p = validate(P.autofill, params, "builds.getConfigAutofill");
    const a = this.client.account(p.accountId);
    return this.#value("build", {
      method: "GET",
      path: path`/accounts/${a}/builds/repos/${p.providerType}/${p.providerAccountId}/${p.repoId}/config_autofill`,
      query: { branch: p.branch, root_directory: p.rootDirectory },
      schema: ConfigAutofillSchema,
      ...options,
    });
  }

  /** PUT upsert: the same provider, provider account and repository keep one connection UUID. */
  async upsertRepoConnection(
    params: AccountParams & RepoConnectionBody,
    options: CallOptions = {},
  ): Promise<RepoConnection> {
    const { accountId, ...rest } = params;
    validate(P.account, { accountId }, "builds.upsertRepoConnection");
    const body = validate(RepoConnectionBodySchema, rest, "builds.upsertRepoConnection");
    const a = this.client.account(accountId);
    return this.#value("build", {
      method: "PUT",
      path: path`/accounts/${a}/builds/repos/connections`,
      body,
      schema: RepoConnectionSchema,
      ...options,
    });
  }

  /**
   * Emulator-only listing of repository connections: the public API documents none (see
   * docs/areas/builds.md, Assumptions). On the real service this gets a 404.
   */
  async listRepoConnections(
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<RepoConnection[]> {
    const p = validate(P.account, params, "builds.listRepoConnections");
    const a = this.client.account(p.accountId);
    return this.#value("build", {
      method: "GET",
      path: path`/accounts/${a}/builds/repos/connections`,
      schema: z.array(RepoConnectionSchema),
      ...options,
    });
  }

  /** Deletes a repository connection (refused while a trigger uses it). */
  async deleteRepoConnection(
    repoConnectionUuid: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<void> {
    const p = validate(
      z.object({ ...Account, repoConnectionUuid: UuidSchema }),
      { ...params, repoConnectionUuid },
      "builds.deleteRepoConnection",
    );
    const a = this.client.account(p.accountId);
    await this.#value("build", {
      method: "DELETE",
      path: path`/accounts/${a}/builds/repos/connections/${repoConnectionUuid}`,
      schema: z.unknown(),
      ...options,
    });
  }

  // ------------------------------------------------------------------------------------------------
  // Deploy hooks of a script (addressed by tag, as every build-service path is: spec A)

  async listDeployHooks(
    scriptTag: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<DeployHook[]> {
    const p = validate(P.scriptTag, { ...params, scriptTag }, "builds.listDeployHooks");
    const a = this.client.account(p.accountId);
    return this.#value("script-tag", {
      method: "GET",
      path: path`/accounts/${a}/builds/workers/${scriptTag}/deploy_hooks`,
      schema: z.array(DeployHookSchema),
      ...options,
    });
  }

  /** A second hook of the same name on the script is refused (409). Not retried: it creates. */
  async createDeployHook(
    scriptTag: string,
    params: AccountParams & DeployHookBody,
    options: CallOptions = {},
  ): Promise<DeployHook> {
    const { accountId, ...rest } = params;
    const p = validate(P.scriptTag, { accountId, scriptTag }, "builds.createDeployHook");
    const body = validate(DeployHookBodySchema, rest, "builds.createDeployHook");
    const a = this.client.account(p.accountId);
    return this.#value("script-tag", {
      method: "POST",
      path: path`/accounts/${a}/builds/workers/${scriptTag}/deploy_hooks`,
      body,
      schema: DeployHookSchema,
      ...options,
    });
  }

  async getDeployHook(
    scriptTag: string,
    deployHookUuid: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<DeployHook> {
    const p = validate(P.hook, { ...params, scriptTag, deployHookUuid }, "builds.getDeployHook");
    const a = this.client.account(p.accountId);
    return this.#value("script-tag", {
      method: "GET",
      path: path`/accounts/${a}/builds/workers/${scriptTag}/deploy_hooks/${deployHookUuid}`,
      schema: DeployHookSchema,
      ...options,
    });
  }

  /** PUT: name and branch both given, both replaced. */
  async updateDeployHook(
    scriptTag: string,
    deployHookUuid: string,
    params: AccountParams & DeployHookBody,
    options: CallOptions = {},
  ): Promise<DeployHook> {
    const { accountId, ...rest } = params;
    const p = validate(P.hook, { accountId, scriptTag, deployHookUuid }, "builds.updateDeployHook");
    const body = validate(DeployHookBodySchema, rest, "builds.updateDeployHook");
    const a = this.client.account(p.accountId);
    return this.#value("script-tag", {
      method: "PUT",
      path: path`/accounts/${a}/builds/workers/${scriptTag}/deploy_hooks/${deployHookUuid}`,
      body,
      schema: DeployHookSchema,
      ...options,
    });
  }

  async deleteDeployHook(
    scriptTag: string,
    deployHookUuid: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<void> {
    const p = validate(P.hook, { ...params, scriptTag, deployHookUuid }, "builds.deleteDeployHook");
    const a = this.client.account(p.accountId);
    await this.#value("script-tag", {
      method: "DELETE",
      path: path`/accounts/${a}/builds/workers/${scriptTag}/deploy_hooks/${deployHookUuid}`,
      schema: z.unknown(),
      ...options,
    });
  }

  // ------------------------------------------------------------------------------------------------
  // Worker build configuration (the contract publishes paths and methods only: docs/assumptions.md)

  /** Connects a script to a repository connection; fields beyond those two travel as given. */
  async createWorkerBuildConfig(
    params: AccountParams & WorkerBuildConfigCreateBody,
    options: CallOptions = {},
  ): Promise<WorkerBuildConfig> {
    const { accountId, ...rest } = params;
    validate(P.account, { accountId }, "builds.createWorkerBuildConfig");
    const body = validate(WorkerBuildConfigCreateBodySchema, rest, "builds.createWorkerBuildConfig");
    const a = this.client.account(accountId);
    return this.#value("script-tag", {
      method: "POST",
      path: path`/accounts/${a}/builds/workers`,
      body,
      schema: WorkerBuildConfigSchema,
      ...options,
    });
  }

  async getWorkerBuildConfig(
    scriptTag: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<WorkerBuildConfig> {
    const p = validate(P.scriptTag, { ...params, scriptTag }, "builds.getWorkerBuildConfig");
    const a = this.client.account(p.accountId);
    return this.#value("script-tag", {
      method: "GET",
      path: path`/accounts/${a}/builds/workers/${scriptTag}`,
      schema: WorkerBuildConfigSchema,
      ...options,
    });
  }

  /** PATCH: the fields given replace, the others stay; the script is the path's. */
  async updateWorkerBuildConfig(
    scriptTag: string,
    params: AccountParams & WorkerBuildConfigUpdateBody,
    options: CallOptions = {},
  ): Promise<WorkerBuildConfig> {
    const { accountId, ...rest } = params;
    const p = validate(P.scriptTag, { accountId, scriptTag }, "builds.updateWorkerBuildConfig");
    const body = validate(WorkerBuildConfigUpdateBodySchema, rest, "builds.updateWorkerBuildConfig");
    const a = this.client.account(p.accountId);
    return this.#value("script-tag", {
      method: "PATCH",
      path: path`/accounts/${a}/builds/workers/${scriptTag}`,
      body,
      schema: WorkerBuildConfigSchema,
      ...options,
    });
  }

  async deleteWorkerBuildConfig(
    scriptTag: string,
    params: AccountParams = {},
    options: CallOptions = {},
  ): Promise<void> {
    const p = validate(P.scriptTag, { ...params, scriptTag }, "builds.deleteWorkerBuildConfig");
    const a = this.client.account(p.accountId);
    await this.#value("script-tag", {
      method: "DELETE",
      path: path`/accounts/${a}/builds/workers/${scriptTag}`,
      schema: z.unknown(),
      ...options,
    });
  }
}
