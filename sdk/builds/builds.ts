/**
 * Builds (`builds/builds`, started at `builds/triggers/{trigger_uuid}/builds`, listed per script at
 * `builds/workers/{script_tag}/builds`): their logs, cancelling and waiting for one, and rule 2's redeploy.
 */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import { pollUntil, type CallOptions, type WaitOptions } from "../core";
import { cursorStyle, pageStyle } from "../paging";
import {
  BuildLogsSchema,
  BuildSchema,
  BuildsByVersionSchema,
  CancelledBuildSchema,
  LatestBuildsSchema,
  NewBuildSchema,
  TriggerBuildBodySchema,
  type Build,
  type BuildLogs,
  type TriggerBuildBody,
} from "../schemas/builds";
import { validate } from "../validate";
import type { Deployments } from "./deployments";
import { RedeployError, type RedeployStep } from "./errors";
import {
  P,
  accountOf,
  send,
  value,
  type AccountIds,
  type BuildIds,
  type ScriptNameIds,
  type ScriptTagIds,
  type TriggerIds,
} from "./paths";

export interface LogLine {
  /** Epoch milliseconds. */
  at: number;
  text: string;
}

/**
 * Defaults: `deadlineMs` 30 minutes, `pollIntervalMs` 2 s growing by half each poll up to
 * `maxPollIntervalMs` 15 s.
 */
export interface BuildWaitOptions extends WaitOptions {
  /** Called with every build read while waiting. */
  onProgress?: (build: Build) => void;
}

export interface RedeployResult {
  build: Build;
  versionId: string;
  triggerUuid: string;
  branch: string;
  commitHash: string;
}

/** The body of a manual build: `branch`, `commit_hash` or both (rule 1), and `seed_repo`. */
export type BuildCreateParams = z.input<typeof TriggerBuildBodySchema>;

export class Builds {
  constructor(
    readonly client: ApiClient,
    private readonly deployments: Deployments,
  ) {}

  /**
   * Starts a build (rule 1: `branch`, `commit_hash` or both; checked before any request), optionally
   * seeding the repository first from `seed_repo`. Not retried: a second POST would start a second
   * build. The contract's answer holds only `build_uuid` and `created_on`; when that is all that
   * comes back, the build is read once so the caller gets its status.
   */
  async create(ids: TriggerIds, params: BuildCreateParams, options: CallOptions = {}): Promise<Build> {
    const p = validate(
      P.trigger,
      { accountId: ids.accountId, triggerUuid: ids.triggerUuid },
      "builds.triggerBuild",
    );
    const body: TriggerBuildBody = validate(TriggerBuildBodySchema, params, "builds.triggerBuild");
    const a = this.client.account(p.accountId);
    const started = await value(this.client, "build", {
      method: "POST",
      path: path`/accounts/${a}/builds/triggers/${ids.triggerUuid}/builds`,
      body,
      schema: NewBuildSchema,
      ...options,
    });
    const whole = BuildSchema.safeParse(started);
    return whole.success ? whole.data : this.get({ accountId: a, buildUuid: started.build_uuid }, options);
  }

  /**
   * The newest build of each script (`external_script_ids`: script tags), keyed by the tag as given;
   * a script without builds is left out.
   */
  async latest(
    ids: AccountIds,
    params: { external_script_ids: readonly string[] },
    options: CallOptions = {},
  ): Promise<Record<string, Build>> {
    const p = validate(
      P.scriptTags,
      { ...ids, scriptTags: [...params.external_script_ids] },
      "builds.getLatestBuilds",
    );
    const a = this.client.account(p.accountId);
    const r = await value(this.client, "script-tag", {
      method: "GET",
      path: path`/accounts/${a}/builds/builds/latest`,
      query: { external_script_ids: p.scriptTags.join(",") },
      schema: LatestBuildsSchema,
      ...options,
    });
    return r.builds;
  }

  async get(ids: BuildIds, options: CallOptions = {}): Promise<Build> {
    const p = validate(P.build, ids, "builds.getBuild");
    const a = this.client.account(p.accountId);
    return value(this.client, "build", {
      method: "GET",
      path: path`/accounts/${a}/builds/builds/${ids.buildUuid}`,
      schema: BuildSchema,
      ...options,
    });
  }

  /** Builds of a script, newest first, page by page (`perPage` 1 to 200, default 50). */
  async *list(
    ids: ScriptTagIds,
    params: { perPage?: number } = {},
    options: CallOptions = {},
  ): AsyncGenerator<Build> {
    const p = validate(
      P.scriptTag.extend({ perPage: P.buildPerPage }),
      { ...params, ...ids },
      "builds.listBuilds",
    );
    const a = this.client.account(p.accountId);
    yield* pageStyle(async (page, perPage) => {
      const r = await send(this.client, "script-tag", {
        method: "GET",
        path: path`/accounts/${a}/builds/workers/${ids.scriptTag}/builds`,
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
  async listByVersionIds(
    ids: AccountIds,
    params: { version_ids: readonly string[] },
    options: CallOptions = {},
  ): Promise<{ versionId: string | undefined; build: Build }[]> {
    const p = validate(
      P.versionIds,
      { ...ids, versionIds: [...params.version_ids] },
      "builds.listBuildsByVersionIds",
    );
    const a = this.client.account(p.accountId);
    const r = await value(this.client, "build", {
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
  async logs(ids: BuildIds, params: { cursor?: string } = {}, options: CallOptions = {}): Promise<BuildLogs> {
    const p = validate(P.build, { accountId: ids.accountId, buildUuid: ids.buildUuid }, "builds.getLogsPage");
    const a = this.client.account(p.accountId);
    return value(this.client, "build", {
      method: "GET",
      path: path`/accounts/${a}/builds/builds/${ids.buildUuid}/logs`,
      query: { cursor: params.cursor || undefined },
      schema: BuildLogsSchema,
      ...options,
    });
  }

  /**
   * Every log line written so far, following the cursor from page to page. For a build still running
   * it ends at the newest line; call again later (or after `wait`) for the rest.
   */
  async *logLines(ids: BuildIds, options: CallOptions = {}): AsyncGenerator<LogLine> {
    validate(P.build, ids, "builds.logLines");
    yield* cursorStyle(async (cursor) => {
      const page = await this.logs(ids, cursor ? { cursor } : {}, options);
      return { items: page.lines.map(([at, text]) => ({ at, text })), cursor: page.cursor ?? null };
    });
  }

  /** All log lines so far, and whether the service cut the log short. */
  async collectLogs(
    ids: BuildIds,
    options: CallOptions = {},
  ): Promise<{ lines: LogLine[]; truncated: boolean }> {
    let truncated = false;
    const lines: LogLine[] = [];
    let cursor: string | undefined;
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const page = await this.logs(ids, cursor ? { cursor } : {}, options);
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
  async cancel(ids: BuildIds, options: CallOptions = {}): Promise<Build> {
    const p = validate(P.build, ids, "builds.cancelBuild");
    const a = this.client.account(p.accountId);
    const answer = await value(this.client, "build", {
      method: "PUT",
      path: path`/accounts/${a}/builds/builds/${ids.buildUuid}/cancel`,
      schema: CancelledBuildSchema,
      ...options,
    });
    // The contract's answer is `{build_uuid, build_outcome, stopped_on}`; a whole build is used as is.
    const parsed = BuildSchema.safeParse(answer);
    return parsed.success
      ? parsed.data
      : this.get({ ...accountOf(p.accountId), buildUuid: ids.buildUuid }, options);
  }

  /**
   * Polls until the build stops and returns it, whatever its outcome. Backs off from
   * `pollIntervalMs` to `maxPollIntervalMs`; throws DeadlineExceededError past `deadlineMs` and
   * AbortedError when `signal` fires.
   */
  async wait(ids: BuildIds, options: BuildWaitOptions = {}): Promise<Build> {
    const { buildUuid } = ids;
    validate(P.build, { accountId: ids.accountId, buildUuid }, "builds.waitForBuild");
    validate(P.wait, options, "builds.waitForBuild");
    const build = { ...accountOf(ids.accountId), buildUuid };
    return pollUntil(
      `build ${buildUuid}`,
      (call) => this.get(build, call),
      (b) => (b.status === "stopped" ? b : undefined),
      {
        ...options,
        deadlineMs: options.deadlineMs ?? 30 * 60_000,
        pollIntervalMs: options.pollIntervalMs ?? 2_000,
        maxPollIntervalMs: options.maxPollIntervalMs ?? 15_000,
        factor: 1.5,
        onProgress: (b) => options.onProgress?.(b),
        describe: (b) => b.status,
      },
    );
  }

  /**
   * Rule 2: rebuild what is live. Reads the active deployment's first version, finds the build that
   * produced it, and posts a build of the same branch and commit on the same trigger. Each failure
   * is a RedeployError naming its step.
   */
  async redeployActiveDeployment(ids: ScriptNameIds, options: CallOptions = {}): Promise<RedeployResult> {
    const p = validate(P.scriptName, ids, "builds.redeployActiveDeployment");
    const { scriptName } = ids;
    const account = accountOf(p.accountId);
    const step = async <T>(name: RedeployStep, run: () => Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (e) {
        if (e instanceof RedeployError) throw e;
        throw new RedeployError(scriptName, name, e instanceof Error ? e.message : String(e), e);
      }
    };
    const deployments = await step("deployments", () =>
      this.deployments.list({ ...account, scriptName }, options),
    );
    const versionId = deployments[0]?.versions[0]?.version_id;
    if (!versionId) {
      throw new RedeployError(
        scriptName,
        "version",
        deployments.length === 0 ? "the script has no deployment" : "the active deployment lists no version",
      );
    }
    const found = await step("builds", () =>
      this.listByVersionIds(account, { version_ids: [versionId] }, options),
    );
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
      this.create({ ...account, triggerUuid }, { branch, commit_hash: commitHash }, options),
    );
    return { build, versionId, triggerUuid, branch, commitHash };
  }
}
