/**
 * The builds area's state model: scripts, versions, deployments, triggers, variables, builds, tokens
 * and repository connections of one account. It never sees HTTP; it throws the area's domain errors.
 */
import { createHash, randomUUID } from "node:crypto";
import {
  productionBranchOf,
  triggerKind,
  type DeploymentCreateBody,
  type EnvVarsPatchBody,
  type RepoConnectionBody,
  type TriggerBuildBody,
  type TriggerUpdateBody,
} from "../../sdk/schemas/builds";
import { buildErrors } from "./errors";
import { dict, type Store } from "../store";
import type {
  AccountBuilds,
  BuildRecord,
  BuildTokenRecord,
  BuildsState,
  DeploymentRecord,
  RepoConnectionRecord,
  ScriptRecord,
  TriggerFieldsRecord,
  TriggerRecord,
  VersionRecord,
} from "./model";
import { DeployHooks } from "./deploy-hooks";
import { DEFAULT_BUILD_MINUTES, accountLimits, configAutofill } from "./limits";
import { deploymentIdOf, versionIdOf, viewBuild } from "./timeline";
import { WorkerConfigs } from "./worker-configs";

export const AREA = "builds";

export { NOT_FOUND_MESSAGE, buildErrors } from "./errors";
export const DEFAULT_BUILD_TOKEN_NAME = "Default build token";

/** A stand-in for the id of the API token a build token deploys with (32 hex digits, like the service's). */
export const tokenIdOf = (seed: string): string =>
  createHash("sha256").update(seed).digest("hex").slice(0, 32);

export function accountState(store: Store, accountId: string, now: number): AccountBuilds {
  const state = store.area<BuildsState>(AREA, () => ({ accounts: dict() }));
  let acct = state.accounts[accountId];
  if (!acct) {
    // A build token exists from the first use: the dashboard makes one when builds are first set up.
    const uuid = randomUUID();
    acct = {
      scripts: dict(),
      triggers: dict(),
      builds: dict(),
      tokens: [
        {
          build_token_uuid: uuid,
          build_token_name: DEFAULT_BUILD_TOKEN_NAME,
          created_on: now,
          cloudflare_token_id: tokenIdOf(uuid),
        },
      ],
      repoConnections: dict(),
    };
    state.accounts[accountId] = acct;
  }
  return acct;
}

/**
 * `tags` of the script listing: comma-separated, each `name` or `name:yes` (the script carries the
 * tag) or `name:no` (it does not); all must hold.
 */
export function tagFilter(query: string | undefined): (s: ScriptRecord) => boolean {
  const terms = (query ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean)
    .map((t) => {
      const m = /^(.*):(yes|no)$/i.exec(t);
      return m ? { tag: m[1] ?? "", want: m[2]!.toLowerCase() === "yes" } : { tag: t, want: true };
    });
  return (s) => terms.every(({ tag, want }) => (s.tags ?? []).includes(tag) === want);
}

function byNewest<T extends { created_on: number }>(seqOf: (x: T) => number) {
  return (a: T, b: T): number => b.created_on - a.created_on || seqOf(b) - seqOf(a);
}

export class BuildsModel {
  /** Deploy hooks of the account's scripts. */
  readonly hooks: DeployHooks;
  /** Build configurations of the account's scripts. */
  readonly configs: WorkerConfigs;

  constructor(
    private readonly acct: AccountBuilds,
    private readonly now: number,
    private readonly next: (counter: string) => number,
  ) {
    this.settle();
    const byTag = (tag: string): ScriptRecord => this.scriptByTag(tag);
    // States saved before these collections existed get them on first use.
    this.hooks = new DeployHooks((acct.deployHooks ??= dict()), now, byTag);
    this.configs = new WorkerConfigs((acct.workerConfigs ??= dict()), now, byTag, (uuid) =>
      this.repoConnection(uuid),
    );
  }

  /**
   * Writes the effects of builds that have finished since the last look: a successful build leaves a
   * version (and, for the production trigger, a deployment) stamped with its stop time, so the
   * result is the same however late it is noticed.
   */
  settle(): void {
    const pending = Object.values(this.acct.builds)
      .filter((b) => !b.applied)
      .sort((a, b) => a.seq - b.seq);
    for (const b of pending) {
      const view = viewBuild(b, this.now);
      if (view.status !== "stopped") continue;
      b.applied = true;
      if (view.outcome !== "success") continue;
      const script = Object.values(this.acct.scripts).find((s) => s.tag === b.script_tag);
      if (!script) continue;
      const versionId = versionIdOf(b);
      const at = view.stoppedOn!;
      script.versions.push({
        id: versionId,
        number: script.versions.length + 1,
        created_on: at,
        source: "build",
        build_uuid: b.build_uuid,
        metadata: { source: "build", build_uuid: b.build_uuid, branch: b.branch, commit_hash: b.commit_hash },
      });
      if (b.kind === "production") {
        script.deployments.push({
          id: deploymentIdOf(b),
          seq: this.next("builds.deployment"),
          created_on: at,
          source: "build",
          versions: [{ version_id: versionId, percentage: 100 }],
        });
      }
      script.modified_on = Math.max(script.modified_on, at);
    }
  }

  // ------------------------------------------------------------------------------------------------
  // Scripts, versions, deployments (addressed by name)

  listScripts(tags?: string): ScriptRecord[] {
    return Object.values(this.acct.scripts)
      .filter(tagFilter(tags))
      .sort((a, b) => a.created_on - b.created_on || a.name.localeCompare(b.name));
  }

  script(name: string): ScriptRecord {
    const s = this.acct.scripts[name];
    if (!s) throw buildErrors.notFound();
    return s;
  }

  scriptByTag(tag: string): ScriptRecord {
    const s = Object.values(this.acct.scripts).find((x) => x.tag.toLowerCase() === tag.toLowerCase());
    if (!s) throw buildErrors.notFound();
    return s;
  }

  /** An upload makes the script (first time), a new version, and deploys that version at 100%. */
  uploadScript(
    name: string,
    metadata: Record<string, unknown>,
  ): { script: ScriptRecord; version: VersionRecord } {
    let script = this.acct.scripts[name];
    if (!script) {
      script = {
        name,
        tag: randomUUID(),
        created_on: this.now,
        modified_on: this.now,
        versions: [],
        deployments: [],
      };
      this.acct.scripts[name] = script;
    }
    const tags = metadata.tags;
    if (Array.isArray(tags)) script.tags = tags.filter((t): t is string => typeof t === "string");
    const version: VersionRecord = {
      id: randomUUID(),
      number: script.versions.length + 1,
      created_on: this.now,
      source: "upload",
      metadata: { source: "upload", ...metadata },
    };
    script.versions.push(version);
    script.deployments.push({
      id: randomUUID(),
      seq: this.next("builds.deployment"),
      created_on: this.now,
      source: "upload",
      versions: [{ version_id: version.id, percentage: 100 }],
    });
    script.modified_on = this.now;
    return { script, version };
  }

  versions(name: string): VersionRecord[] {
    return [...this.script(name).versions].sort(byNewest((v) => v.number));
  }

  /** Newest first: the first one is the active deployment. */
  deployments(name: string): DeploymentRecord[] {
    return [...this.script(name).deployments].sort(byNewest((d) => d.seq));
  }

  createDeployment(name: string, body: DeploymentCreateBody): DeploymentRecord {
    const script = this.script(name);
    body.versions.forEach((v, i) => {
      if (!script.versions.some((x) => x.id === v.version_id)) {
        throw buildErrors.invalid(`versions.${i}.version_id`, `no version with this id on script ${name}`);
      }
    });
    const d: DeploymentRecord = {
      id: randomUUID(),
      seq: this.next("builds.deployment"),
      created_on: this.now,
      source: "api",
      versions: body.versions.map((v) => ({ ...v })),
      ...(body.annotations?.["workers/message"] !== undefined
        ? { message: body.annotations["workers/message"] }
        : {}),
    };
    script.deployments.push(d);
    script.modified_on = this.now;
    return d;
  }

  // ------------------------------------------------------------------------------------------------
  // Triggers

  trigger(uuid: string): TriggerRecord {
    const t = this.acct.triggers[uuid.toLowerCase()];
    if (!t) throw buildErrors.notFound();
    return t;
  }

  triggersOf(tag: string): TriggerRecord[] {
    const script = this.scriptByTag(tag);
    return Object.values(this.acct.triggers)
      .filter((t) => t.external_script_id === script.tag)
      .sort((a, b) => a.created_on - b.created_on);
  }

  repoConnection(uuid: string): RepoConnectionRecord | null {
    return this.acct.repoConnections[uuid.toLowerCase()] ?? null;
  }

  token(uuid: string): BuildTokenRecord | null {
    return this.acct.tokens.find((t) => t.build_token_uuid.toLowerCase() === uuid.toLowerCase()) ?? null;
  }

  /** Limits: at most two triggers per script, one of each kind (see `triggerKind`). */
  #checkSlot(scriptTag: string, branchIncludes: readonly string[], except?: string): void {
    const others = Object.values(this.acct.triggers).filter(
      (t) => t.external_script_id === scriptTag && t.trigger_uuid !== except,
    );
    if (others.length >= 2) {
      throw buildErrors.triggerLimit(
        "A script has at most two triggers (one production, one preview); this script already has two",
      );
    }
    const kind = triggerKind({ branch_includes: branchIncludes });
    const clash = others.find((t) => triggerKind(t) === kind);
    if (clash) {
      throw buildErrors.triggerLimit(
        `This script already has a ${kind} trigger (${clash.trigger_uuid}); a script has one production trigger ` +
          "(branch_includes without '*') and one preview trigger (branch_includes with '*')",
      );
    }
  }

  #checkReferences(body: { build_token_uuid?: string; repo_connection_uuid?: string }): void {
    if (body.build_token_uuid !== undefined && !this.token(body.build_token_uuid)) {
      throw buildErrors.missingReference("build_token_uuid", "build token");
    }
    if (body.repo_connection_uuid !== undefined && !this.repoConnection(body.repo_connection_uuid)) {
      throw buildErrors.missingReference("repo_connection_uuid", "repository connection");
    }
  }

  /** `body` is the create body as parsed: the API's defaults are already filled in. */
  createTrigger(body: TriggerFieldsRecord): TriggerRecord {
    const script = this.scriptByTag(body.external_script_id);
    this.#checkReferences(body);
    this.#checkSlot(script.tag, body.branch_includes);
    const t: TriggerRecord = {
      trigger_uuid: randomUUID(),
      ...structuredClone(body),
      external_script_id: script.tag,
      repo_connection_uuid: body.repo_connection_uuid.toLowerCase(),
      build_token_uuid: body.build_token_uuid.toLowerCase(),
      environment_variables: dict(),
      created_on: this.now,
      modified_on: this.now,
    };
    this.acct.triggers[t.trigger_uuid] = t;
    return t;
  }

  updateTrigger(
    uuid: string,
    body: TriggerUpdateBody & { environment_variables?: EnvVarsPatchBody | undefined },
  ): TriggerRecord {
    const t = this.trigger(uuid);
    this.#checkReferences(body);
    if (body.branch_includes) this.#checkSlot(t.external_script_id, body.branch_includes, t.trigger_uuid);
    const { environment_variables, build_token_uuid, ...settings } = structuredClone(body);
    // A parsed JSON body holds only the fields it names (never one set to undefined): those replace.
    Object.assign(t, settings);
    if (build_token_uuid) t.build_token_uuid = build_token_uuid.toLowerCase();
    if (environment_variables) this.#setEnvVars(t, environment_variables);
    t.modified_on = this.now;
    return t;
  }

  /** Deletes the trigger and its variables; builds it started keep their snapshot. */
  deleteTrigger(uuid: string): void {
    const t = this.trigger(uuid);
    delete this.acct.triggers[t.trigger_uuid];
  }

  patchEnvVars(uuid: string, vars: EnvVarsPatchBody): TriggerRecord {
    const t = this.trigger(uuid);
    this.#setEnvVars(t, vars);
    t.modified_on = this.now;
    return t;
  }

  /**
   * All or nothing: a `value` left out or null keeps the variable's stored value (to change
   * `is_secret` alone), so a variable the trigger does not have yet needs one.
   */
  #setEnvVars(t: TriggerRecord, vars: EnvVarsPatchBody): void {
    for (const [name, v] of Object.entries(vars)) {
      if ((v.value ?? undefined) === undefined && !Object.hasOwn(t.environment_variables, name))
        throw buildErrors.invalid(
          `${name}.value`,
          "is required for a variable the trigger does not have yet (null keeps an existing value)",
        );
    }
    for (const [name, v] of Object.entries(vars)) {
      const had = Object.hasOwn(t.environment_variables, name) ? t.environment_variables[name] : undefined;
      t.environment_variables[name] = {
        value: v.value ?? had?.value ?? "",
        is_secret: v.is_secret,
        created_on: had?.created_on ?? this.now,
      };
    }
  }

  deleteEnvVar(uuid: string, key: string): void {
    const t = this.trigger(uuid);
    if (!Object.hasOwn(t.environment_variables, key)) throw buildErrors.notFound();
    delete t.environment_variables[key];
    t.modified_on = this.now;
  }

  purgeCache(uuid: string): void {
    this.trigger(uuid).cache_purged_on = this.now;
  }

  // ------------------------------------------------------------------------------------------------
  // Builds

  build(uuid: string): BuildRecord {
    const b = this.acct.builds[uuid.toLowerCase()];
    if (!b) throw buildErrors.notFound();
    return b;
  }

  /**
   * Rule 1. With only a commit, the build runs on the branch that commit was last built on (else the
   * trigger's production branch, else "main"); with only a branch, on that branch's head, which the
   * emulator derives from the repository and branch (it has no real repository).
   */
  triggerBuild(uuid: string, body: TriggerBuildBody): BuildRecord {
    const t = this.trigger(uuid);
    const script = this.scriptByTag(t.external_script_id);
    const previous = this.#buildsOfTrigger(t.trigger_uuid);
    const branch =
      body.branch ??
      previous.find((b) => b.commit_hash === body.commit_hash)?.branch ??
      productionBranchOf(t) ??
      "main";
    const commit =
      body.commit_hash ?? createHash("sha1").update(`${t.repo_connection_uuid}:${branch}`).digest("hex");
    const cacheRestored =
      t.build_caching_enabled &&
      previous.some((b) => {
        const v = viewBuild(b, this.now);
        return v.outcome === "success" && v.stoppedOn! > (t.cache_purged_on ?? -Infinity);
      });
    const tokenName = this.token(t.build_token_uuid)?.build_token_name ?? null;
    const b: BuildRecord = {
      build_uuid: randomUUID(),
      seq: this.next("builds.build"),
      script_tag: script.tag,
      script_name: script.name,
      kind: triggerKind(t),
      trigger: structuredClone(t),
      repo: this.repoConnection(t.repo_connection_uuid),
      build_token_name: tokenName,
      branch,
      commit_hash: commit,
      commit_message: `Commit ${commit.slice(0, 7)} on ${branch}`,
      author: "builder@example.com",
      created_on: this.now,
      cache_restored: cacheRestored,
    };
    if (b.repo) b.repo = { ...b.repo };
    this.acct.builds[b.build_uuid] = b;
    return b;
  }

  #buildsOfTrigger(triggerUuid: string): BuildRecord[] {
    return Object.values(this.acct.builds)
      .filter((b) => b.trigger.trigger_uuid === triggerUuid)
      .sort((a, b) => b.seq - a.seq);
  }

  /** Newest first. */
  buildsOfScript(tag: string): BuildRecord[] {
    const script = this.scriptByTag(tag);
    return Object.values(this.acct.builds)
      .filter((b) => b.script_tag === script.tag)
      .sort((a, b) => b.seq - a.seq);
  }

  /** Each known script's newest build, keyed by the tag as asked (scripts without builds are left out). */
  latestBuilds(tags: readonly string[]): Map<string, BuildRecord> {
    const out = new Map<string, BuildRecord>();
    for (const tag of tags) {
      const script = Object.values(this.acct.scripts).find((x) => x.tag.toLowerCase() === tag.toLowerCase());
      const newest = script ? this.buildsOfScript(script.tag)[0] : undefined;
      if (newest) out.set(tag, newest);
    }
    return out;
  }

  /** Build minutes this month against the account's allowance. */
  limits(): ReturnType<typeof accountLimits> {
    return accountLimits(
      Object.values(this.acct.builds),
      this.now,
      this.acct.buildMinutesAllowance ?? DEFAULT_BUILD_MINUTES,
    );
  }

  setBuildMinutesAllowance(minutes: number): void {
    this.acct.buildMinutesAllowance = minutes;
  }

  /** What the service would prefill for this repository; 404 unless the account has connected it. */
  configAutofill(
    key: { provider_type: string; provider_account_id: string; repo_id: string },
    rootDirectory: string | undefined,
  ): ReturnType<typeof configAutofill> {
    const repo = Object.values(this.acct.repoConnections).find(
      (c) =>
        c.provider_type === key.provider_type &&
        c.provider_account_id === key.provider_account_id &&
        c.repo_id === key.repo_id,
    );
    if (!repo) throw buildErrors.notFound();
    return configAutofill(repo, rootDirectory);
  }

  /** The builds that produced these versions, keyed by version id (unknown ids are left out). */
  buildsByVersion(versionIds: readonly string[]): Map<string, BuildRecord> {
    const out = new Map<string, BuildRecord>();
    for (const id of versionIds) {
      const b = Object.values(this.acct.builds).find((x) => versionIdOf(x) === id.toLowerCase());
      if (b && viewBuild(b, this.now).outcome === "success") out.set(id, b);
    }
    return out;
  }

  cancel(uuid: string): BuildRecord {
    const b = this.build(uuid);
    const view = viewBuild(b, this.now);
    if (view.status === "stopped") throw buildErrors.buildStopped(view.outcome ?? "unknown");
    b.cancelled_on = this.now;
    return b;
  }

  // ------------------------------------------------------------------------------------------------
  // Tokens and repository connections

  tokens(): BuildTokenRecord[] {
    return [...this.acct.tokens];
  }

  addToken(name: string, cloudflareTokenId?: string): BuildTokenRecord {
    const uuid = randomUUID();
    const t: BuildTokenRecord = {
      build_token_uuid: uuid,
      build_token_name: name,
      created_on: this.now,
      cloudflare_token_id: cloudflareTokenId ?? tokenIdOf(uuid),
    };
    this.acct.tokens.push(t);
    return t;
  }

  /** Refused while a trigger deploys with the token, as a repository connection in use is. */
  deleteToken(uuid: string): BuildTokenRecord {
    const t = this.token(uuid);
    if (!t) throw buildErrors.notFound();
    const user = Object.values(this.acct.triggers).find((x) => x.build_token_uuid === t.build_token_uuid);
    if (user) {
      throw buildErrors.inUse(
        `Build token is in use by trigger ${user.trigger_uuid}; give that trigger another token first`,
      );
    }
    this.acct.tokens = this.acct.tokens.filter((x) => x !== t);
    return t;
  }

  /** Upsert keyed by provider, provider account and repository id: the same repository keeps its UUID. */
  upsertRepoConnection(body: RepoConnectionBody): RepoConnectionRecord {
    const existing = Object.values(this.acct.repoConnections).find(
      (c) =>
        c.provider_type === body.provider_type &&
        c.provider_account_id === body.provider_account_id &&
        c.repo_id === body.repo_id,
    );
    if (existing) {
      Object.assign(existing, body, { modified_on: this.now });
      return existing;
    }
    const c: RepoConnectionRecord = {
      repo_connection_uuid: randomUUID(),
      ...body,
      created_on: this.now,
      modified_on: this.now,
    };
    this.acct.repoConnections[c.repo_connection_uuid] = c;
    return c;
  }

  repoConnections(): RepoConnectionRecord[] {
    return Object.values(this.acct.repoConnections).sort((a, b) => a.created_on - b.created_on);
  }

  /** Refused while a trigger still builds from the connection. */
  deleteRepoConnection(uuid: string): void {
    const c = this.repoConnection(uuid);
    if (!c) throw buildErrors.notFound();
    const user = Object.values(this.acct.triggers).find(
      (t) => t.repo_connection_uuid === c.repo_connection_uuid,
    );
    if (user) {
      throw buildErrors.inUse(
        `Repository connection is in use by trigger ${user.trigger_uuid}; delete or move that trigger first`,
      );
    }
    const config = this.configs.usesConnection(c.repo_connection_uuid);
    if (config) {
      throw buildErrors.inUse(
        `Repository connection is in use by the build configuration of script ${config.external_script_id}; delete that configuration first`,
      );
    }
    delete this.acct.repoConnections[c.repo_connection_uuid];
  }
}
