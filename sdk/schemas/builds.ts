/**
 * The build service's wire schemas (spec section A) and the script endpoints around it: the generated
 * ones of the contract (sdk/generated/builds.ts, rules in contract/rules/builds.json) under the names
 * the sdk, the emulator and the provider use, plus what data cannot say: the sdk's defaults of a
 * trigger, cross-field rules, the fields api.md states a response always carries, and the worker
 * build configuration, of which the contract gives paths only.
 */
import { z } from "zod";
import * as G from "../generated/builds";
import { formatted, str } from "../wire/rules";

export const UuidSchema = formatted(str(), "uuid");

/** The tag (`external_script_id`, `{worker_tag}`): the commonest mistake is passing the script's name. */
export const ScriptTagSchema = G.CreateTriggerBody.shape.external_script_id;

export const ScriptNameSchema = z.string().min(1, "must not be empty");

// ---------------------------------------------------------------------------------------------------
// Triggers

/**
 * One environment variable as a PATCH sends it (public contract): `is_secret` is required; `value`
 * may be left out or null, which keeps the variable's stored value (to flip `is_secret` alone).
 */
export const EnvVarInputSchema = G.UpsertEnvironmentVariablesBody.valueType;
export type EnvVarInput = z.infer<typeof EnvVarInputSchema>;

export const EnvVarNameSchema = z.string().min(1, "must not be empty");

/** Keys are checked one by one so the error names the offending key (zod's key error does not say why). */
export const EnvVarsPatchBodySchema = G.UpsertEnvironmentVariablesBody.superRefine((vars, ctx) => {
  for (const key of Object.keys(vars)) {
    if (!EnvVarNameSchema.safeParse(key).success) {
      ctx.addIssue({ code: "custom", message: "variable names must not be empty", path: [key] });
    }
  }
});
export type EnvVarsPatchBody = z.infer<typeof EnvVarsPatchBodySchema>;

/** As returned: a secret's value is null; `created_on` is when the variable was first set. */
export const EnvVarsSchema = G.ListEnvironmentVariablesResult;
export const EnvVarSchema = EnvVarsSchema.valueType;
export type EnvVar = z.infer<typeof EnvVarSchema>;
export type EnvVars = z.infer<typeof EnvVarsSchema>;

const CreateShape = G.CreateTriggerBody.shape;
const CreateDefaults = G.CreateTriggerBodyDefaults;

/**
 * Create body: the contract requires every field but `build_caching_enabled`; the sdk (and the
 * emulator, for a raw body) fills the three pattern lists a caller leaves out, so what is sent is what
 * the trigger will hold. The values are the rules' defaults (contract/rules/builds.json).
 */
export const TriggerCreateBodySchema = G.CreateTriggerBody.extend({
  branch_excludes: CreateShape.branch_excludes.default([...CreateDefaults.branch_excludes]),
  path_includes: CreateShape.path_includes.default([...CreateDefaults.path_includes]),
  path_excludes: CreateShape.path_excludes.default([...CreateDefaults.path_excludes]),
  build_caching_enabled: CreateShape.build_caching_enabled.default(CreateDefaults.build_caching_enabled),
});
/** What a caller passes (defaulted fields optional). */
export type TriggerCreateBody = z.input<typeof TriggerCreateBodySchema>;

/**
 * PATCH body: any subset of the settings, without defaults (a field left out stays as it is). The
 * script and repository connection are fixed at creation.
 */
export const TriggerUpdateBodySchema = G.UpdateTriggerBody;
export type TriggerUpdateBody = z.infer<typeof TriggerUpdateBodySchema>;

const ProviderTypeEnum = G.UpsertRepoConnectionBody.shape.provider_type;
/**
 * `provider_type` checked against the contract's enum but typed as a string, so a caller's object
 * literal (and the provider's input) needs no `as const`.
 */
export const ProviderTypeSchema = str().refine((v) => ProviderTypeEnum.safeParse(v).success, {
  message: `must be one of ${ProviderTypeEnum.options.join(", ")}`,
});

/** PUT upsert body (there is no partial update: the same fields keep one connection). */
export const RepoConnectionBodySchema = G.UpsertRepoConnectionBody.extend({
  provider_type: ProviderTypeSchema,
});
export type RepoConnectionBody = z.infer<typeof RepoConnectionBodySchema>;

/** api.md: "The response carries `repo_connection_uuid`". */
export const RepoConnectionSchema = G.UpsertRepoConnectionResult.extend({ repo_connection_uuid: z.string() });
export type RepoConnection = z.infer<typeof RepoConnectionSchema>;

/** api.md lists `trigger_uuid` in every listing and `environment_variables` among a trigger's fields. */
export const TriggerSchema = G.CreateTriggerResult.extend({
  trigger_uuid: z.string(),
  environment_variables: EnvVarsSchema.optional(),
});
export type Trigger = z.infer<typeof TriggerSchema>;

export type TriggerKind = "production" | "preview";

/**
 * How a trigger is classified (the spec gives a script one of each but no field saying which): a
 * trigger whose `branch_includes` holds a wildcard pattern (`*` anywhere) builds "all other branches"
 * and is the preview trigger; one that names branches only is the production trigger.
 */
export function triggerKind(trigger: { branch_includes?: readonly string[] | undefined }): TriggerKind {
  return (trigger.branch_includes ?? []).some((p) => p.includes("*")) ? "preview" : "production";
}

/** The branch a production trigger builds (its first literal pattern), if it names one. */
export function productionBranchOf(trigger: {
  branch_includes?: readonly string[] | undefined;
}): string | undefined {
  return (trigger.branch_includes ?? []).find((p) => !p.includes("*"));
}

// ---------------------------------------------------------------------------------------------------
// Builds

export const BUILD_STATUSES = ["queued", "initializing", "running", "stopped"] as const;
export type BuildStatus = (typeof BUILD_STATUSES)[number];
export const BUILD_OUTCOMES = ["success", "fail", "skipped", "cancelled", "terminated"] as const;
export type BuildOutcome = (typeof BUILD_OUTCOMES)[number];

/** `seed_repo`: the repository a build first creates from a template (public contract). */
const SeedRepoSchema = G.CreateManualBuildBody.shape.seed_repo
  .unwrap()
  .extend({ provider: ProviderTypeSchema });
export type SeedRepo = z.input<typeof SeedRepoSchema>;

/** Rule 1: `branch`, `commit_hash` or both (spec A; the contract alone would take neither). */
export const TriggerBuildBodySchema = G.CreateManualBuildBody.extend({
  seed_repo: SeedRepoSchema.optional(),
}).superRefine((v, ctx) => {
  if (v.branch === undefined && v.commit_hash === undefined) {
    ctx.addIssue({ code: "custom", message: "at least one of branch and commit_hash is required", path: [] });
  }
});
export type TriggerBuildBody = z.infer<typeof TriggerBuildBodySchema>;

/**
 * A build as read. Status and outcome stay plain strings so a value the service adds later does not
 * break a client; `build_outcome` is absent until the build stops (an older service's null is read).
 * api.md names `build_uuid`, `status`, `branch` and `created_at` among the fields a build shows.
 */
export const BuildSchema = G.GetBuildByUuidResult.extend({
  build_uuid: z.string(),
  status: z.string(),
  build_outcome: z.string().nullable().optional(),
  branch: z.string().optional(),
  created_at: z.string().optional(),
});
export type Build = z.infer<typeof BuildSchema>;

/** What a build's POST answers: the contract shows only `build_uuid` (api.md: "including") and `created_on`. */
export const NewBuildSchema = G.CreateManualBuildResult.extend({ build_uuid: z.string() });

/** What a cancel answers: the contract shows `build_uuid`, `build_outcome` and `stopped_on`. */
export const CancelledBuildSchema = G.CancelBuildByUuidResult.extend({
  build_outcome: z.string().nullable().optional(),
});

/** `result.builds` of the by-version listing: a map keyed by version id (public reference) or an array. */
export const BuildsByVersionSchema = G.GetBuildsByVersionIdsResult.extend({
  builds: z.union([z.record(z.string(), BuildSchema), z.array(BuildSchema)]),
});

/** `result.builds` of the latest-build read: a map from script tag to that script's newest build. */
export const LatestBuildsSchema = G.GetLatestBuildsByScriptsResult.extend({
  builds: z.record(z.string(), BuildSchema),
});

/** A log line is `[epoch milliseconds, text]` (public-api-notes; the contract says only "an array"). */
export const LogLineSchema = z.tuple([z.number(), z.string()]);
export const BuildLogsSchema = G.GetBuildLogsResult.extend({ lines: z.array(LogLineSchema) });
export type BuildLogs = z.infer<typeof BuildLogsSchema>;

// ---------------------------------------------------------------------------------------------------
// Tokens, account limits, configuration autofill

/** api.md: the listing answers `build_token_uuid` and `build_token_name`. */
export const BuildTokenSchema = G.CreateBuildTokenResult.extend({ build_token_uuid: z.string() });
export type BuildToken = z.infer<typeof BuildTokenSchema>;

/** Registers an API token (its id and secret) as a build token; the contract requires all three. */
export const BuildTokenCreateBodySchema = G.CreateBuildTokenBody;
export type BuildTokenCreateBody = z.infer<typeof BuildTokenCreateBodySchema>;

export const AccountLimitsSchema = G.GetAccountLimitsResult;
export type AccountLimits = z.infer<typeof AccountLimitsSchema>;

/** What the service reads from a repository to prefill a trigger. */
export const ConfigAutofillSchema = G.GetWorkerConfigAutofillResult;
export type ConfigAutofill = z.infer<typeof ConfigAutofillSchema>;

// ---------------------------------------------------------------------------------------------------
// Deploy hooks: a URL that starts a build of one branch of a script

/** Create and update (PUT) take the same body: both fields are required. */
export const DeployHookBodySchema = G.CreateDeployHookBody;
export type DeployHookBody = z.infer<typeof DeployHookBodySchema>;

/**
 * The listing's entry, the widest the contract shows (it adds `latest_build`); its uuid is required,
 * as a trigger's is: a hook without one cannot be addressed.
 */
export const DeployHookSchema = G.ListDeployHooksResult.unwrap().element.extend({
  deploy_hook_uuid: z.string(),
});
export type DeployHook = z.infer<typeof DeployHookSchema>;

// ---------------------------------------------------------------------------------------------------
// Worker build configuration (the contract gives paths and methods only: see docs/assumptions.md)

/**
 * Connects a script to a repository. Loose on purpose: the service's body is not published, so
 * fields beyond the two named travel as given rather than being refused.
 */
export const WorkerBuildConfigCreateBodySchema = z.looseObject({
  external_script_id: ScriptTagSchema,
  repo_connection_uuid: UuidSchema,
});
export type WorkerBuildConfigCreateBody = z.infer<typeof WorkerBuildConfigCreateBodySchema>;

/** PATCH: any fields but the script, which is in the path. */
export const WorkerBuildConfigUpdateBodySchema = z
  .looseObject({ repo_connection_uuid: UuidSchema.optional() })
  .superRefine((v, ctx) => {
    if ("external_script_id" in v)
      ctx.addIssue({
        code: "custom",
        message: "is fixed by the path (the script's tag) and cannot change",
        path: ["external_script_id"],
      });
  });
export type WorkerBuildConfigUpdateBody = z.infer<typeof WorkerBuildConfigUpdateBodySchema>;

const Timestamp = z.string().nullable().optional();

export const WorkerBuildConfigSchema = z.looseObject({
  external_script_id: z.string(),
  repo_connection_uuid: z.string().optional(),
  created_on: Timestamp,
  modified_on: Timestamp,
});
export type WorkerBuildConfig = z.infer<typeof WorkerBuildConfigSchema>;

// ---------------------------------------------------------------------------------------------------
// Scripts, versions, deployments

/** api.md: a script listing entry has `id` (the name) and `tag` (a UUID). */
export const ScriptSchema = G.WorkerScriptListWorkersResult.element.extend({
  id: z.string(),
  tag: z.string(),
});
export type Script = z.infer<typeof ScriptSchema>;

/** The `metadata` part of a script upload; only the fields the emulator looks at are named. */
export const ScriptMetadataSchema = z.looseObject({
  main_module: z.string().min(1, "must not be empty").optional(),
  body_part: z.string().min(1, "must not be empty").optional(),
  compatibility_date: z.string().optional(),
});

/** Script versions are outside the contract's subset (public-api-notes: listed as `result.items`). */
export const VersionSchema = z.looseObject({
  id: z.string(),
  number: z.number().optional(),
  created_on: Timestamp,
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type Version = z.infer<typeof VersionSchema>;
export const VersionsPageSchema = z.looseObject({ items: z.array(VersionSchema) });

export const DeploymentsSchema = G.WorkerDeploymentsListDeploymentsResult;
export const DeploymentSchema = G.WorkerDeploymentsCreateDeploymentResult;
export type Deployment = z.infer<typeof DeploymentSchema>;

/** One or two versions (contract/rules/builds.json) adding up to 100 over distinct versions. */
export const DeploymentCreateBodySchema = G.WorkerDeploymentsCreateDeploymentBody.superRefine((v, ctx) => {
  const sum = v.versions.reduce((s, x) => s + x.percentage, 0);
  if (Math.abs(sum - 100) > 1e-9) {
    ctx.addIssue({ code: "custom", message: "percentages must add up to 100", path: ["versions"] });
  }
  if (new Set(v.versions.map((x) => x.version_id)).size !== v.versions.length) {
    ctx.addIssue({ code: "custom", message: "must not name the same version twice", path: ["versions"] });
  }
});
export type DeploymentCreateBody = z.infer<typeof DeploymentCreateBodySchema>;

/** Build-service error codes (public API: the 12000 range; 12000 is "not found"). */
export const BUILD_ERROR_CODES = {
  notFound: 12000,
  invalidRequest: 12001,
  triggerLimit: 12002,
  buildStopped: 12003,
  missingReference: 12004,
  inUse: 12005,
  invalidToken: 12006,
  missingToken: 12007,
  forbidden: 12008,
  wrongAccount: 12009,
  conflict: 12010,
} as const;
