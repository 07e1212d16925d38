/**
 * Functions for programs around builds: start one, wait for one, read its logs, cancel it, redeploy
 * what is live (rule 2), purge a trigger's cache. Each runs only on `up` (on preview it resolves to
 * undefined) and goes through the sdk; the `run…` functions hold the logic over a client, for tests.
 */
import * as pulumi from "@pulumi/pulumi";
import type { AccountApi } from "../../sdk";
import type { Build } from "../../sdk/builds";
import { onUp, programApi, type FunctionArgs } from "./common";

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

type Args<T> = FunctionArgs<T>;

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
  const done = await api.builds.waitForBuild(buildUuid, {
    ...account(p),
    ...(p.deadlineMs !== undefined ? { deadlineMs: p.deadlineMs } : {}),
    ...(p.pollIntervalMs !== undefined ? { pollIntervalMs: p.pollIntervalMs } : {}),
  });
  if (p.requireSuccess !== false && done.build_outcome !== "success") {
    throw new Error(
      `build ${buildUuid} stopped with outcome ${done.build_outcome ?? "unknown"} (read its logs with buildLogs)`,
    );
  }
  return done;
}

export async function runTriggerBuild(api: AccountApi, p: TriggerBuildParams): Promise<BuildInfo> {
  const build = await api.builds.triggerBuild(p.triggerUuid, {
    ...account(p),
    ...(p.branch !== undefined ? { branch: p.branch } : {}),
    ...(p.commitHash !== undefined ? { commitHash: p.commitHash } : {}),
  });
  return toBuildInfo(p.wait ? await waitFor(api, build.build_uuid, p) : build);
}

export async function runWaitForBuild(api: AccountApi, p: WaitForBuildParams): Promise<BuildInfo> {
  return toBuildInfo(await waitFor(api, p.buildUuid, { ...p, requireSuccess: p.requireSuccess ?? false }));
}

export async function runBuildLogs(api: AccountApi, p: BuildRef): Promise<BuildLogs> {
  return api.builds.collectLogs(p.buildUuid, account(p));
}

export async function runCancelBuild(api: AccountApi, p: BuildRef): Promise<BuildInfo> {
  return toBuildInfo(await api.builds.cancelBuild(p.buildUuid, account(p)));
}

export async function runRedeploy(api: AccountApi, p: RedeployParams): Promise<RedeployInfo> {
  const r = await api.builds.redeployActiveDeployment(p.scriptName, account(p));
  const build = p.wait ? await waitFor(api, r.build.build_uuid, p) : r.build;
  return { build: toBuildInfo(build), versionId: r.versionId };
}

export async function runPurgeBuildCache(
  api: AccountApi,
  p: PurgeBuildCacheParams,
): Promise<{ triggerUuid: string }> {
  await api.builds.purgeBuildCache(p.triggerUuid, account(p));
  return { triggerUuid: p.triggerUuid };
}

export async function runBuildTokens(api: AccountApi, p: BuildTokensParams): Promise<BuildTokenInfo[]> {
  const tokens = await api.builds.listTokens(account(p));
  return tokens.map((t) => ({
    buildTokenUuid: t.build_token_uuid,
    buildTokenName: t.build_token_name ?? null,
  }));
}

/**
 * The account's build tokens (made in the dashboard), for a trigger's `buildTokenUuid`; the command
 * line's `account-api build tokens` lists the same. A read with no effect, so unlike the functions
 * above it also runs on preview: a trigger that takes a token from it previews with the real value.
 */
export function buildTokens(args: Args<BuildTokensParams> = {}): pulumi.Output<BuildTokenInfo[]> {
  return pulumi.output(args).apply(async (resolved) => {
    const api = programApi();
    try {
      return await runBuildTokens(api, { ...(resolved.accountId ? { accountId: resolved.accountId } : {}) });
    } finally {
      await api.close();
    }
  });
}

/** Starts a build of a trigger on `up`: `triggerBuild({ triggerUuid: prod.triggerUuid, branch: "main" })`. */
export function triggerBuild(args: Args<TriggerBuildParams>): pulumi.Output<BuildInfo | undefined> {
  return onUp(args, runTriggerBuild);
}

/** Waits on `up` until a build stopped and returns it (whatever its outcome unless `requireSuccess`). */
export function waitForBuild(args: Args<WaitForBuildParams>): pulumi.Output<BuildInfo | undefined> {
  return onUp(args, runWaitForBuild);
}

/** Every log line of a build so far. */
export function buildLogs(args: Args<BuildRef>): pulumi.Output<BuildLogs | undefined> {
  return onUp(args, runBuildLogs);
}

/** Cancels a build that has not stopped. */
export function cancelBuild(args: Args<BuildRef>): pulumi.Output<BuildInfo | undefined> {
  return onUp(args, runCancelBuild);
}

/** Rule 2 on `up`: rebuilds the branch and commit behind the script's active deployment. */
export function redeployActiveDeployment(
  args: Args<RedeployParams>,
): pulumi.Output<RedeployInfo | undefined> {
  return onUp(args, runRedeploy);
}

/** Clears a trigger's cached dependencies and build artifacts on `up`. */
export function purgeBuildCache(
  args: Args<PurgeBuildCacheParams>,
): pulumi.Output<{ triggerUuid: string } | undefined> {
  return onUp(args, runPurgeBuildCache);
}
