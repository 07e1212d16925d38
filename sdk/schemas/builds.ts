/**
 * zod schemas of the build service (spec section A) and of the script endpoints around it. Request
 * bodies are strict (a typo is refused), responses loose (fields the service adds pass through).
 */
import { z } from "zod";
import { IdentifierSchema, noDefaults, optionalAll } from "./common";

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

/**
 * One environment variable as a PATCH sends it (public contract): `is_secret` is required; `value`
 * may be left out or null, which keeps the variable's stored value (to flip `is_secret` alone).
 */
export const EnvVarInputSchema = z.strictObject({
  value: z.string().nullable().optional(),
  is_secret: z.boolean({ error: (iss) => (iss.input === undefined ? "is required" : "must be a boolean") }),
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

/** As returned: a secret's value is null; `created_on` is when the variable was first set. */
export const EnvVarSchema = z.looseObject({
  value: z.string().nullable().optional(),
  is_secret: z.boolean(),
  created_on: z.string().optional(),
});
export type EnvVar = z.infer<typeof EnvVarSchema>;
export const EnvVarsSchema = z.record(z.string(), EnvVarSchema);
export type EnvVars = z.infer<typeof EnvVarsSchema>;

/** A trigger's fields fixed at creation: the script it builds and the repository it builds from. */
export const TriggerCreateOnlyFields = {
  external_script_id: ScriptTagSchema,
  repo_connection_uuid: UuidSchema,
};

/**
 * The fields a trigger's owner sets and may change (spec A table, without the server's and the
 * variables). The public contract requires every one on create except `build_caching_enabled`
 * (default false); the sdk fills `branch_excludes: []`, `path_includes: ["*"]`, `path_excludes: []`
 * when left out, so what is sent is what the trigger holds.
 */
export const TriggerSettingsFields = {
  trigger_name: z.string().min(1, "must not be empty"),
  build_token_uuid: UuidSchema,
  build_command: z.string(),
  deploy_command: z.string().min(1, "must not be empty"),
  root_directory: z.string(),
  branch_includes: PatternListSchema.min(1, "must list at least one branch pattern"),
  branch_excludes: PatternListSchema.default([]),
  path_includes: PatternListSchema.default(["*"]),
  path_excludes: PatternListSchema.default([]),
  build_caching_enabled: z.boolean().default(false),
};

/** Every wire field of a trigger a program sets: the one table the bodies and the response come from. */
export const TriggerFields = { ...TriggerCreateOnlyFields, ...TriggerSettingsFields };

/** Create body: parsing fills the API's defaults, so what is sent is what the trigger will hold. */
export const TriggerCreateBodySchema = z.strictObject(TriggerFields);
/** What a caller passes (defaulted fields optional). */
export type TriggerCreateBody = z.input<typeof TriggerCreateBodySchema>;

/**
 * PATCH body: any subset of the settings, without defaults (a field left out stays as it is). The
 * script and repository connection are fixed at creation.
 */
export const TriggerUpdateBodySchema = z.strictObject(noDefaults(TriggerSettingsFields)).partial();
export type TriggerUpdateBody = z.infer<typeof TriggerUpdateBodySchema>;

/** The git providers the public contract lists (`provider_type`, here and in config autofill). */
export const PROVIDER_TYPES = ["github"] as const;
/** Typed as a string so a caller's object literal needs no `as const`; the check is the enum's. */
export const ProviderTypeSchema = z
  .string()
  .min(1, { message: "must not be empty", abort: true })
  .refine((v) => (PROVIDER_TYPES as readonly string[]).includes(v), {
    message: `must be one of: ${PROVIDER_TYPES.join(", ")}`,
  });

/** A repository connection's wire fields (spec A, Repository connection). */
export const RepoConnectionFields = {
  provider_type: ProviderTypeSchema,
  provider_account_id: z.string().min(1, "must not be empty"),
  provider_account_name: z.string().min(1, "must not be empty"),
  repo_id: z.string().min(1, "must not be empty"),
  repo_name: z.string().min(1, "must not be empty"),
};

/** PUT upsert body (there is no partial update: the same fields keep one connection). */
export const RepoConnectionBodySchema = z.strictObject(RepoConnectionFields);
export type RepoConnectionBody = z.infer<typeof RepoConnectionBodySchema>;

const Timestamp = z.string().nullable().optional();

export const RepoConnectionSchema = z.looseObject({
  repo_connection_uuid: z.string(),
  ...optionalAll(RepoConnectionFields),
  created_on: Timestamp,
  modified_on: Timestamp,
  deleted_on: Timestamp,
});
export type RepoConnection = z.infer<typeof RepoConnectionSchema>;

export const TriggerSchema = z.looseObject({
  trigger_uuid: z.string(),
  ...optionalAll(TriggerFields),
  build_token_name: z.string().optional(),
  repo_connection: RepoConnectionSchema.optional(),
  environment_variables: EnvVarsSchema.optional(),
  created_on: Timestamp,
  modified_on: Timestamp,
  deleted_on: Timestamp,
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

/** A file a seeded repository starts with (`isBase64` is the service's own camelCase). */
export const SeedFileSchema = z.strictObject({
  filename: z.string(),
  content: z.string(),
  isBase64: z.boolean().default(false),
  replace: z.string().optional(),
});

/** `seed_repo`: the repository a build first creates from a template (public contract). */
export const SeedRepoSchema = z.strictObject({
  provider: ProviderTypeSchema,
  owner: z.string(),
  repository: z.string(),
  branch: z.string(),
  path: z.string(),
  files: z.array(SeedFileSchema).max(2, "must hold at most 2 files").optional(),
});
export type SeedRepo = z.input<typeof SeedRepoSchema>;

/** Rule 1: `branch`, `commit_hash` or both (spec A; the contract alone would take neither). */
export const TriggerBuildBodySchema = z
  .strictObject({
    branch: z.string().min(1, "must not be empty").optional(),
    commit_hash: z.string().min(1, "must not be empty").optional(),
    seed_repo: SeedRepoSchema.optional(),
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
  build_token_uuid: z.string().optional(),
  build_token_name: z.string().optional(),
  provider_type: z.string().optional(),
  provider_account_name: z.string().optional(),
  repo_name: z.string().optional(),
});

/**
 * A build as read. Status and outcome stay plain strings so a value the service adds later does not
 * break a client; `build_outcome` is absent until the build stops (null is read as absent).
 */
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
  pull_request: z
    .looseObject({ created_on: z.string().optional(), pull_request_url: z.string().optional() })
    .nullable()
    .optional(),
});
export type Build = z.infer<typeof BuildSchema>;

/** What a build's POST answers: the contract shows only `build_uuid` and `created_on`. */
export const NewBuildSchema = z.looseObject({ build_uuid: z.string(), created_on: Timestamp });

/** What a cancel answers: the contract shows `build_uuid`, `build_outcome` and `stopped_on`. */
export const CancelledBuildSchema = z.looseObject({
  build_uuid: z.string().optional(),
  build_outcome: z.string().nullable().optional(),
  stopped_on: Timestamp,
});

/** `result.builds` of the by-version listing: a map keyed by version id (public reference) or an array. */
export const BuildsByVersionSchema = z.looseObject({
  builds: z.union([z.record(z.string(), BuildSchema), z.array(BuildSchema)]),
});

/** `result.builds` of the latest-build read: a map from script tag to that script's newest build. */
export const LatestBuildsSchema = z.looseObject({ builds: z.record(z.string(), BuildSchema) });

export const LogLineSchema = z.tuple([z.number(), z.string()]);
export const BuildLogsSchema = z.looseObject({
  cursor: z.string().nullable().optional(),
  lines: z.array(LogLineSchema),
  truncated: z.boolean().optional(),
});
export type BuildLogs = z.infer<typeof BuildLogsSchema>;

// ---------------------------------------------------------------------------------------------------
// Tokens, account limits, configuration autofill

export const BuildTokenSchema = z.looseObject({
  build_token_uuid: z.string(),
  build_token_name: z.string().optional(),
  cloudflare_token_id: z.string().optional(),
  owner_type: z.string().optional(),
});
export type BuildToken = z.infer<typeof BuildTokenSchema>;

/** Registers an API token (its id and secret) as a build token; the contract requires all three. */
export const BuildTokenCreateBodySchema = z.strictObject({
  build_token_name: z.string(),
  build_token_secret: z.string(),
  cloudflare_token_id: z.string(),
});
export type BuildTokenCreateBody = z.infer<typeof BuildTokenCreateBodySchema>;

export const AccountLimitsSchema = z.looseObject({
  build_minutes_refresh_on: z.string().nullable().optional(),
  has_reached_build_minutes_limit: z.boolean().nullable().optional(),
});
export type AccountLimits = z.infer<typeof AccountLimitsSchema>;

export const PACKAGE_MANAGERS = ["npm", "yarn", "pnpm", "bun", "uv"] as const;

/** What the service reads from a repository to prefill a trigger (every field may be null). */
export const ConfigAutofillSchema = z.looseObject({
  config_file: z.string().nullable().optional(),
  default_worker_name: z.string().nullable().optional(),
  env_worker_names: z.record(z.string(), z.unknown()).nullable().optional(),
  package_manager: z.string().nullable().optional(),
  scripts: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type ConfigAutofill = z.infer<typeof ConfigAutofillSchema>;

// ---------------------------------------------------------------------------------------------------
// Deploy hooks: a URL that starts a build of one branch of a script

export const DeployHookFields = {
  deploy_hook_name: z.string().min(1, "must be 1 to 58 characters").max(58, "must be 1 to 58 characters"),
  branch: z.string(),
};

/** Create and update (PUT) take the same body: both fields are required. */
export const DeployHookBodySchema = z.strictObject(DeployHookFields);
export type DeployHookBody = z.infer<typeof DeployHookBodySchema>;

export const DeployHookSchema = z.looseObject({
  deploy_hook_uuid: z.string(),
  ...optionalAll(DeployHookFields),
  external_script_id: z.string().optional(),
  created_on: Timestamp,
  modified_on: Timestamp,
  latest_build: z.looseObject({ created_on: z.string().optional() }).nullable().optional(),
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

export const WorkerBuildConfigSchema = z.looseObject({
  external_script_id: z.string(),
  repo_connection_uuid: z.string().optional(),
  created_on: Timestamp,
  modified_on: Timestamp,
});
export type WorkerBuildConfig = z.infer<typeof WorkerBuildConfigSchema>;

// ---------------------------------------------------------------------------------------------------
// Scripts, versions, deployments

export const ScriptSchema = z.looseObject({
  id: z.string(),
  tag: z.string(),
  tags: z.array(z.string()).optional(),
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

/** `workers/message` is the caller's note; `workers/triggered_by` is the service's (read-only). */
export const DeploymentAnnotationsSchema = z.looseObject({
  "workers/message": z.string().optional(),
  "workers/triggered_by": z.string().optional(),
});

export const DeploymentSchema = z.looseObject({
  id: z.string().optional(),
  created_on: Timestamp,
  source: z.string().optional(),
  strategy: z.string().optional(),
  author_email: z.string().optional(),
  annotations: DeploymentAnnotationsSchema.optional(),
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
          percentage: z.number().min(0.01, "must be at least 0.01").max(100, "must be at most 100"),
        }),
      )
      .min(1, "must hold one or two versions")
      .max(2, "must hold one or two versions"),
    annotations: z
      .strictObject(
        { "workers/message": z.string().max(1000, "must be at most 1000 characters").optional() },
        {
          error: (iss) =>
            iss.code === "unrecognized_keys"
              ? "is not set by a caller (only workers/message is; workers/triggered_by is the service's)"
              : "must be an object",
        },
      )
      .optional(),
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
  conflict: 12010,
} as const;
