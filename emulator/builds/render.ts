/** Wire shapes of the builds area: stored records → the JSON the public API returns. */
import type { z } from "zod";
import type {
  BuildSchema,
  BuildTokenSchema,
  DeployHookSchema,
  DeploymentSchema,
  EnvVarsSchema,
  RepoConnectionSchema,
  ScriptSchema,
  TriggerSchema,
  VersionSchema,
  WorkerBuildConfigSchema,
} from "../../sdk/schemas/builds";
import { iso } from "../clock";
import type {
  BuildRecord,
  BuildTokenRecord,
  DeployHookRecord,
  DeploymentRecord,
  EnvVarRecord,
  RepoConnectionRecord,
  ScriptRecord,
  TriggerRecord,
  VersionRecord,
  WorkerBuildConfigRecord,
} from "./model";
import { viewBuild } from "./timeline";

/**
 * Secrets never leave the emulator: their value is null in every response. A variable saved before
 * `created_on` was kept answers `since` (its trigger's creation).
 */
export function envVars(vars: Record<string, EnvVarRecord>, since: number): z.input<typeof EnvVarsSchema> {
  return Object.fromEntries(
    Object.entries(vars).map(([k, v]) => [
      k,
      { value: v.is_secret ? null : v.value, is_secret: v.is_secret, created_on: iso(v.created_on ?? since) },
    ]),
  );
}

export function script(s: ScriptRecord): z.input<typeof ScriptSchema> {
  return {
    id: s.name,
    tag: s.tag,
    ...(s.tags ? { tags: [...s.tags] } : {}),
    created_on: iso(s.created_on),
    modified_on: iso(s.modified_on),
  };
}

export function version(v: VersionRecord): z.input<typeof VersionSchema> {
  return {
    id: v.id,
    number: v.number,
    created_on: iso(v.created_on),
    metadata: { ...v.metadata, created_on: iso(v.created_on) },
  };
}

/** What `workers/triggered_by` says for each way a deployment is made. */
const TRIGGERED_BY: Record<DeploymentRecord["source"], string> = {
  upload: "upload",
  api: "deployment",
  build: "upload",
};

export function deployment(d: DeploymentRecord): z.input<typeof DeploymentSchema> {
  return {
    id: d.id,
    created_on: iso(d.created_on),
    source: d.source,
    strategy: "percentage",
    annotations: {
      "workers/triggered_by": TRIGGERED_BY[d.source],
      ...(d.message !== undefined ? { "workers/message": d.message } : {}),
    },
    versions: d.versions.map((v) => ({ ...v })),
  };
}

export function repoConnection(c: RepoConnectionRecord): z.input<typeof RepoConnectionSchema> {
  return {
    repo_connection_uuid: c.repo_connection_uuid,
    provider_type: c.provider_type,
    provider_account_id: c.provider_account_id,
    provider_account_name: c.provider_account_name,
    repo_id: c.repo_id,
    repo_name: c.repo_name,
    created_on: iso(c.created_on),
    modified_on: iso(c.modified_on),
    deleted_on: null,
  };
}

/** The secret it was made with never leaves the emulator. */
export function token(t: BuildTokenRecord): z.input<typeof BuildTokenSchema> {
  return {
    build_token_uuid: t.build_token_uuid,
    build_token_name: t.build_token_name,
    ...(t.cloudflare_token_id !== undefined ? { cloudflare_token_id: t.cloudflare_token_id } : {}),
  };
}

export function deployHook(h: DeployHookRecord): z.input<typeof DeployHookSchema> {
  return {
    deploy_hook_uuid: h.deploy_hook_uuid,
    deploy_hook_name: h.deploy_hook_name,
    branch: h.branch,
    external_script_id: h.external_script_id,
    created_on: iso(h.created_on),
    modified_on: iso(h.modified_on),
  };
}

export function workerConfig(c: WorkerBuildConfigRecord): z.input<typeof WorkerBuildConfigSchema> {
  return {
    ...structuredClone(c.extra),
    external_script_id: c.external_script_id,
    repo_connection_uuid: c.repo_connection_uuid,
    created_on: iso(c.created_on),
    modified_on: iso(c.modified_on),
  };
}

export function trigger(
  t: TriggerRecord,
  repo: RepoConnectionRecord | null,
  tokenName: string | null,
): z.input<typeof TriggerSchema> {
  const { environment_variables, created_on, modified_on, cache_purged_on: _purged, ...fields } = t;
  return {
    ...fields,
    ...(repo ? { repo_connection: repoConnection(repo) } : {}),
    ...(tokenName !== null ? { build_token_name: tokenName } : {}),
    environment_variables: envVars(environment_variables, created_on),
    created_on: iso(created_on),
    modified_on: iso(modified_on),
    deleted_on: null,
  };
}

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

export function build(b: BuildRecord, now: number): z.input<typeof BuildSchema> {
  const v = viewBuild(b, now);
  const t = b.trigger;
  return {
    build_uuid: b.build_uuid,
    status: v.status,
    // Absent, not null, until the build stops (the contract's enum has no null).
    ...(v.outcome !== null ? { build_outcome: v.outcome } : {}),
    branch: b.branch,
    created_at: iso(b.created_on),
    created_on: iso(b.created_on),
    initializing_on: isoOrNull(v.initializingOn),
    running_on: isoOrNull(v.runningOn),
    stopped_on: isoOrNull(v.stoppedOn),
    modified_on: iso(v.modifiedOn),
    trigger: trigger(t, b.repo, b.build_token_name),
    build_trigger_metadata: {
      build_trigger_source: "api",
      branch: b.branch,
      commit_hash: b.commit_hash,
      commit_message: b.commit_message,
      author: b.author,
      build_command: t.build_command,
      deploy_command: t.deploy_command,
      root_directory: t.root_directory,
      environment_variables: envVars(t.environment_variables, t.created_on),
      build_token_uuid: t.build_token_uuid,
      ...(b.build_token_name !== null ? { build_token_name: b.build_token_name } : {}),
      ...(b.repo
        ? {
            provider_type: b.repo.provider_type,
            provider_account_name: b.repo.provider_account_name,
            repo_name: b.repo.repo_name,
          }
        : {}),
    },
  };
}
