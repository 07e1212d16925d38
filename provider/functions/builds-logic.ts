/**
 * The logic of the build functions over an sdk client, in program naming: what `triggerBuild` and
 * friends call on `up`, and what a BuildRun performs in the provider host, which never loads Pulumi.
 */
import type { AccountApi } from "../../sdk";
import type { Build } from "../../sdk/builds";

/** A build in program naming. */
export interface BuildInfo {
  buildUuid: string;
  status: string;
  /** success, fail, cancelled, …; null until it stopped. */
  buildOutcome: string | null;
  branch: string | null;
  commitHash: string | null;
  triggerUuid: string | null;
  createdOn: string | null;
  stoppedOn: string | null;
}

export interface WaitParams {
  /** Give up after this long (default 30 minutes). */
  deadlineMs?: number;
  pollIntervalMs?: number;
}

export interface TriggerBuildParams extends WaitParams {
  triggerUuid: string;
  /** Rule 1: a branch, a commit hash, or both. */
  branch?: string;
  commitHash?: string;
  /** Also wait until the build stopped (default false). */
  wait?: boolean;
  /** With `wait`: fail the update unless the outcome is success (default true). */
  requireSuccess?: boolean;
  accountId?: string;
}

export interface WaitForBuildParams extends WaitParams {
  buildUuid: string;
  requireSuccess?: boolean;
  accountId?: string;
}

export interface BuildRef {
  buildUuid: string;
  accountId?: string;
}

export interface RedeployParams extends WaitParams {
  scriptName: string;
  wait?: boolean;
  requireSuccess?: boolean;
  accountId?: string;
}

export interface PurgeBuildCacheParams {
  triggerUuid: string;
  accountId?: string;
}

export interface BuildTokensParams {
  accountId?: string;
}

/** A build token in program naming. */
export interface BuildTokenInfo {
  buildTokenUuid: string;
  buildTokenName: string | null;
}

export interface BuildLogs {
  lines: { at: number; text: string }[];
  truncated: boolean;
}

export interface RedeployInfo {
  build: BuildInfo;
  versionId: string;
}

export function toBuildInfo(b: Build): BuildInfo {
  return {
    buildUuid: b.build_uuid,
    status: b.status,
    buildOutcome: b.build_outcome ?? null,
    branch: b.build_trigger_metadata?.branch ?? b.branch ?? null,
    commitHash: b.build_trigger_metadata?.commit_hash ?? null,
    triggerUuid: b.trigger?.trigger_uuid ?? null,
    createdOn: b.created_on ?? b.created_at ?? null,
    stoppedOn: b.stopped_on ?? null,
  };
}

const account = (p: { accountId?: string }) => (p.accountId ? { accountId: p.accountId } : {});

async function waitFor(
  api: AccountApi,
  buildUuid: string,
  p: WaitParams & { accountId?: string; requireSuccess?: boolean },
): Promise<Build> {
  const done = await api.builds.builds.wait(
    { ...account(p), buildUuid },
    {
      ...(p.deadlineMs !== undefined ? { deadlineMs: p.deadlineMs } : {}),
      ...(p.pollIntervalMs !== undefined ? { pollIntervalMs: p.pollIntervalMs } : {}),
    },
  );
  if (p.requireSuccess !== false && done.build_outcome !== "success") {
    throw new Error(
      `build ${buildUuid} stopped with outcome ${done.build_outcome ?? "unknown"} (read its logs with buildLogs)`,
    );
  }
  return done;
}

export async function runTriggerBuild(api: AccountApi, p: TriggerBuildParams): Promise<BuildInfo> {
  const build = await api.builds.builds.create(
    { ...account(p), triggerUuid: p.triggerUuid },
    {
      ...(p.branch !== undefined ? { branch: p.branch } : {}),
      ...(p.commitHash !== undefined ? { commit_hash: p.commitHash } : {}),
    },
  );
  return toBuildInfo(p.wait ? await waitFor(api, build.build_uuid, p) : build);
}

export async function runWaitForBuild(api: AccountApi, p: WaitForBuildParams): Promise<BuildInfo> {
  return toBuildInfo(await waitFor(api, p.buildUuid, { ...p, requireSuccess: p.requireSuccess ?? false }));
}

export async function runBuildLogs(api: AccountApi, p: BuildRef): Promise<BuildLogs> {
  return api.builds.builds.collectLogs({ ...account(p), buildUuid: p.buildUuid });
}

export async function runCancelBuild(api: AccountApi, p: BuildRef): Promise<BuildInfo> {
  return toBuildInfo(await api.builds.builds.cancel({ ...account(p), buildUuid: p.buildUuid }));
}

export async function runRedeploy(api: AccountApi, p: RedeployParams): Promise<RedeployInfo> {
  const r = await api.builds.builds.redeployActiveDeployment({ ...account(p), scriptName: p.scriptName });
  const build = p.wait ? await waitFor(api, r.build.build_uuid, p) : r.build;
  return { build: toBuildInfo(build), versionId: r.versionId };
}

export async function runPurgeBuildCache(
  api: AccountApi,
  p: PurgeBuildCacheParams,
): Promise<{ triggerUuid: string }> {
  await api.builds.triggers.purgeCache({ ...account(p), triggerUuid: p.triggerUuid });
  return { triggerUuid: p.triggerUuid };
}

export async function runBuildTokens(api: AccountApi, p: BuildTokensParams): Promise<BuildTokenInfo[]> {
  const tokens = await api.builds.tokens.list(account(p));
  return tokens.map((t) => ({
    buildTokenUuid: t.build_token_uuid,
    buildTokenName: t.build_token_name ?? null,
  }));
}
