/**
 * Stored shapes of the builds area. Everything is plain JSON (the store is persisted and reloaded):
 * times are epoch milliseconds, collections are records keyed by id.
 */
import type { z } from "zod";
import type { TriggerCreateBodySchema, TriggerKind } from "../../sdk/schemas/builds";

export interface EnvVarRecord {
  value: string;
  is_secret: boolean;
  /** When the variable was first set; absent in states saved before it was kept. */
  created_on?: number;
}

export interface VersionRecord {
  id: string;
  number: number;
  created_on: number;
  source: "upload" | "build";
  build_uuid?: string;
  metadata: Record<string, unknown>;
}

export interface DeploymentRecord {
  id: string;
  seq: number;
  created_on: number;
  source: "upload" | "api" | "build";
  versions: { version_id: string; percentage: number }[];
  /** The caller's `workers/message`, if it gave one. */
  message?: string;
}

export interface ScriptRecord {
  name: string;
  tag: string;
  created_on: number;
  modified_on: number;
  /** The script's own tags (upload metadata `tags`), which the listing filters on. */
  tags?: string[];
  versions: VersionRecord[];
  deployments: DeploymentRecord[];
}

export interface RepoConnectionRecord {
  repo_connection_uuid: string;
  provider_type: string;
  provider_account_id: string;
  provider_account_name: string;
  repo_id: string;
  repo_name: string;
  created_on: number;
  modified_on: number;
}

export interface BuildTokenRecord {
  build_token_uuid: string;
  build_token_name: string;
  created_on: number;
  /** The API token it deploys with (absent in states saved before tokens could be made). */
  cloudflare_token_id?: string;
}

export interface DeployHookRecord {
  deploy_hook_uuid: string;
  deploy_hook_name: string;
  branch: string;
  external_script_id: string;
  created_on: number;
  modified_on: number;
}

/** A script's build configuration: its repository and what else the caller sent, as sent. */
export interface WorkerBuildConfigRecord {
  external_script_id: string;
  repo_connection_uuid: string;
  extra: Record<string, unknown>;
  created_on: number;
  modified_on: number;
}

/** A trigger's wire fields as the create body's parse leaves them (the API's defaults filled in). */
export type TriggerFieldsRecord = z.output<typeof TriggerCreateBodySchema>;

export type TriggerRecord = TriggerFieldsRecord & {
  trigger_uuid: string;
  environment_variables: Record<string, EnvVarRecord>;
  created_on: number;
  modified_on: number;
  cache_purged_on?: number;
};

export interface BuildRecord {
  build_uuid: string;
  seq: number;
  script_tag: string;
  script_name: string;
  kind: TriggerKind;
  /** The trigger as it was when the build started (a later PATCH or delete does not change a build). */
  trigger: TriggerRecord;
  repo: RepoConnectionRecord | null;
  build_token_name: string | null;
  branch: string;
  commit_hash: string;
  commit_message: string;
  author: string;
  created_on: number;
  cache_restored: boolean;
  cancelled_on?: number;
  /** Set once a successful build's version (and deployment) were written to its script. */
  applied?: boolean;
}

export interface AccountBuilds {
  scripts: Record<string, ScriptRecord>;
  triggers: Record<string, TriggerRecord>;
  builds: Record<string, BuildRecord>;
  tokens: BuildTokenRecord[];
  repoConnections: Record<string, RepoConnectionRecord>;
  /** Keyed by hook uuid; absent in states saved before hooks existed. */
  deployHooks?: Record<string, DeployHookRecord>;
  /** Keyed by script tag; absent in states saved before build configurations existed. */
  workerConfigs?: Record<string, WorkerBuildConfigRecord>;
  /** Build minutes a month, when the control API changed the default. */
  buildMinutesAllowance?: number;
}

export interface BuildsState {
  accounts: Record<string, AccountBuilds>;
}
