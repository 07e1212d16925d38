/**
 * zod schemas of the build service (spec section A) and of the script endpoints around it. Request
 * bodies are strict (a typo is refused), responses loose (fields the service adds pass through).
 */
import { z } from "zod";
import { IdentifierSchema } from "./common";

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A script tag is a UUID; the public service also writes it as 32 hex digits without dashes. */
const TAG_PATTERN = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export const UuidSchema = z.string().regex(UUID_PATTERN, "must be a UUID");

/** The tag (`external_script_id`, `{worker_tag}`): the commonest mistake is passing the script's name. */
export const ScriptTagSchema = z
  .string()
  .regex(TAG_PATTERN, "must be the script's tag (a UUID, field `tag` of the script listing), not its name");

export const ScriptNameSchema = z.string().min(1, "must not be empty");

const PatternListSchema = z.array(z.string().min(1, "must not be empty"));

// ---------------------------------------------------------------------------------------------------
// Triggers

/** Map from variable name to `{value, is_secret}` as sent (PATCH body). */
export const EnvVarInputSchema = z.strictObject({
  value: z.string(),
  is_secret: z.boolean(),
});
export type EnvVarInput = z.infer<typeof EnvVarInputSchema>;

export const EnvVarNameSchema = z.string().min(1, "must not be empty");

/** Keys are checked one by one so the error names the offending key (zod's key error does not say why). */
export const EnvVarsPatchBodySchema = z.record(z.string(), EnvVarInputSchema).superRefine((vars, ctx) => {
  for (const key of Object.keys(vars)) {
    if (!EnvVarNameSchema.safeParse(key).success) {
      ctx.addIssue({ code: "custom", message: "variable names must not be empty", path: [key] });
    }
  }
});
export type EnvVarsPatchBody = z.infer<typeof EnvVarsPatchBodySchema>;

/** As returned: a secret's value is null. */
export const EnvVarSchema = z.looseObject({
  value: z.string().nullable(),
  is_secret: z.boolean(),
});
export type EnvVar = z.infer<typeof EnvVarSchema>;
export const EnvVarsSchema = z.record(z.string(), EnvVarSchema);
export type EnvVars = z.infer<typeof EnvVarsSchema>;

/** The fields a trigger's owner sets (spec table, without the server's and the variables). */
const triggerSettings = {
  trigger_name: z.string().min(1, "must not be empty"),
  build_token_uuid: UuidSchema,
  build_command: z.string(),
  deploy_command: z.string().min(1, "must not be empty"),
  root_directory: z.string(),
  branch_includes: PatternListSchema.min(1, "must list at least one branch pattern"),
  branch_excludes: PatternListSchema,
  path_includes: PatternListSchema,
  path_excludes: PatternListSchema,
  build_caching_enabled: z.boolean(),
};

/**
 * Create body. Required: the ones a trigger cannot work without; the pattern lists default to
 * `branch_excludes: []`, `path_includes: ["*"]`, `path_excludes: []`, caching to enabled.
 */
export const TriggerCreateBodySchema = z.strictObject({
  external_script_id: ScriptTagSchema,
  repo_connection_uuid: UuidSchema,
  trigger_name: triggerSettings.trigger_name,
  build_token_uuid: triggerSettings.build_token_uuid,
  build_command: triggerSettings.build_command,
  deploy_command: triggerSettings.deploy_command,
  root_directory: triggerSettings.root_directory,
  branch_includes: triggerSettings.branch_includes,
  branch_excludes: triggerSettings.branch_excludes.optional(),
  path_includes: triggerSettings.path_includes.optional(),
  path_excludes: triggerSettings.path_excludes.optional(),
  build_caching_enabled: triggerSettings.build_caching_enabled.optional(),
});
export type TriggerCreateBody = z.infer<typeof TriggerCreateBodySchema>;

/** PATCH body: any subset of the settings. The script and repository connection are fixed at creation. */
export const TriggerUpdateBodySchema = z.strictObject(triggerSettings).partial();
export type TriggerUpdateBody = z.infer<typeof TriggerUpdateBodySchema>;

export const RepoConnectionSchema = z.looseObject({
  repo_connection_uuid: z.string(),
  provider_type: z.string().optional(),
  provider_account_id: z.string().optional(),
  provider_account_name: z.string().optional(),
  repo_id: z.string().optional(),
  repo_name: z.string().optional(),
  created_on: z.string().nullable().optional(),
  modified_on: z.string().nullable().optional(),
  deleted_on: z.string().nullable().optional(),
});
export type RepoConnection = z.infer<typeof RepoConnectionSchema>;

export const TriggerSchema = z.looseObject({
  trigger_uuid: z.string(),
  trigger_name: z.string().optional(),
  external_script_id: z.string().optional(),
  repo_connection_uuid: z.string().optional(),
  repo_connection: RepoConnectionSchema.optional(),
  build_token_uuid: z.string().optional(),
  build_command: z.string().optional(),
  deploy_command: z.string().optional(),
  root_directory: z.string().optional(),
  branch_includes: z.array(z.string()).optional(),
  branch_excludes: z.array(z.string()).optional(),
  path_includes: z.array(z.string()).optional(),
  path_excludes: z.array(z.string()).optional(),
  build_caching_enabled: z.boolean().optional(),
  environment_variables: EnvVarsSchema.optional(),
  created_on: z.string().nullable().optional(),
  modified_on: z.string().nullable().optional(),
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

/** Rule 1: `branch`, `commit_hash` or both. */
export const TriggerBuildBodySchema = z
  .strictObject({
    branch: z.string().min(1, "must not be empty").optional(),
    commit_hash: z.string().min(1, "must not be empty").optional(),
  })
  .superRefine((v, ctx) => {
    if (v.branch === undefined && v.commit_hash === undefined) {
      ctx.addIssue({
        code: "custom",
        message: "at least one of branch and commit_hash is required",
        path: [],
      });
    }
  });
export type TriggerBuildBody = z.infer<typeof TriggerBuildBodySchema>;

export const BuildTriggerMetadataSchema = z.looseObject({
  build_trigger_source: z.string().optional(),
  branch: z.string().optional(),
  commit_hash: z.string().optional(),
  commit_message: z.string().optional(),
  author: z.string().optional(),
  build_command: z.string().optional(),
  deploy_command: z.string().optional(),
  root_directory: z.string().optional(),
  environment_variables: z.record(z.string(), z.unknown()).optional(),
  provider_type: z.string().optional(),
  repo_name: z.string().optional(),
});

const Timestamp = z.string().nullable().optional();

/** Status and outcome stay plain strings so a value the service adds later does not break a client. */
export const BuildSchema = z.looseObject({
  build_uuid: z.string(),
  status: z.string(),
  build_outcome: z.string().nullable().optional(),
  branch: z.string().optional(),
  created_at: Timestamp,
  created_on: Timestamp,
  initializing_on: Timestamp,
  running_on: Timestamp,
  stopped_on: Timestamp,
  modified_on: Timestamp,
  trigger: TriggerSchema.partial({ trigger_uuid: true }).optional(),
  build_trigger_metadata: BuildTriggerMetadataSchema.optional(),
});
export type Build = z.infer<typeof BuildSchema>;

/** `result.builds` of the by-version listing: a map keyed by version id (public reference) or an array. */
export const BuildsByVersionSchema = z.looseObject({
  builds: z.union([z.record(z.string(), BuildSchema), z.array(BuildSchema)]),
});

export const LogLineSchema = z.tuple([z.number(), z.string()]);
export const BuildLogsSchema = z.looseObject({
  cursor: z.string().nullable().optional(),
  lines: z.array(LogLineSchema),
  truncated: z.boolean().optional(),
});
export type BuildLogs = z.infer<typeof BuildLogsSchema>;

// ---------------------------------------------------------------------------------------------------
// Tokens, repository connections

export const BuildTokenSchema = z.looseObject({
  build_token_uuid: z.string(),
  build_token_name: z.string().optional(),
});
export type BuildToken = z.infer<typeof BuildTokenSchema>;

const NonEmpty = z.string().min(1, "must not be empty");
export const RepoConnectionBodySchema = z.strictObject({
  provider_type: NonEmpty,
  provider_account_id: NonEmpty,
  provider_account_name: NonEmpty,
  repo_id: NonEmpty,
  repo_name: NonEmpty,
});
export type RepoConnectionBody = z.infer<typeof RepoConnectionBodySchema>;

// ---------------------------------------------------------------------------------------------------
// Scripts, versions, deployments

export const ScriptSchema = z.looseObject({
  id: z.string(),
  tag: z.string(),
  created_on: Timestamp,
  modified_on: Timestamp,
});
export type Script = z.infer<typeof ScriptSchema>;

/** The `metadata` part of a script upload; only the fields the emulator looks at are named. */
export const ScriptMetadataSchema = z.looseObject({
  main_module: z.string().min(1, "must not be empty").optional(),
  body_part: z.string().min(1, "must not be empty").optional(),
  compatibility_date: z.string().optional(),
});

export const VersionSchema = z.looseObject({
  id: z.string(),
  number: z.number().optional(),
  created_on: Timestamp,
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type Version = z.infer<typeof VersionSchema>;
export const VersionsPageSchema = z.looseObject({ items: z.array(VersionSchema) });

export const DeploymentVersionSchema = z.looseObject({
  version_id: z.string(),
  percentage: z.number().optional(),
});
export const DeploymentSchema = z.looseObject({
  id: z.string().optional(),
  created_on: Timestamp,
  source: z.string().optional(),
  strategy: z.string().optional(),
  versions: z.array(DeploymentVersionSchema),
});
export type Deployment = z.infer<typeof DeploymentSchema>;
export const DeploymentsSchema = z.looseObject({ deployments: z.array(DeploymentSchema) });

export const DeploymentCreateBodySchema = z
  .strictObject({
    strategy: z.literal("percentage", { error: 'must be "percentage"' }),
    versions: z
      .array(
        z.strictObject({
          version_id: UuidSchema,
          percentage: z.number().gt(0, "must be greater than 0").max(100, "must be at most 100"),
        }),
      )
      .min(1, "must hold one or two versions")
      .max(2, "must hold one or two versions"),
  })
  .superRefine((v, ctx) => {
    const sum = v.versions.reduce((s, x) => s + x.percentage, 0);
    if (Math.abs(sum - 100) > 1e-9) {
      ctx.addIssue({ code: "custom", message: "percentages must add up to 100", path: ["versions"] });
    }
    if (new Set(v.versions.map((x) => x.version_id)).size !== v.versions.length) {
      ctx.addIssue({ code: "custom", message: "must not name the same version twice", path: ["versions"] });
    }
  });
export type DeploymentCreateBody = z.infer<typeof DeploymentCreateBodySchema>;

/** `accountId` as an optional parameter of every sdk method (spec: at most 32 characters). */
export const AccountParamSchema = z.object({ accountId: IdentifierSchema.optional() });

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
} as const;
