/**
 * Functions for programs around builds: start one, wait for one, read its logs, cancel it, redeploy
 * what is live (rule 2), purge a trigger's cache. Each runs only on `up` (on preview its output is
 * unknown) and goes through the sdk; the `run…` functions (builds-logic.ts) hold the logic over a
 * client. `triggerBuild` runs on every `up`; a BuildRun builds only when its inputs or triggers change.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  runTriggerBuild,
  runWaitForBuild,
  runBuildLogs,
  runCancelBuild,
  runRedeploy,
  runPurgeBuildCache,
  runBuildTokens,
  type BuildInfo,
  type TriggerBuildParams,
  type WaitForBuildParams,
  type BuildRef,
  type RedeployParams,
  type PurgeBuildCacheParams,
  type BuildTokensParams,
  type BuildTokenInfo,
  type BuildLogs,
  type RedeployInfo,
} from "./builds-logic";
import { onUp, programApi, type FunctionArgs } from "./common";

export * from "./builds-logic";

type Args<T> = FunctionArgs<T>;

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
  return onUp(args, runTriggerBuild, { name: "triggerBuild", instead: "BuildRun" });
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
