/**
 * The contract every resource handler implements. Handlers are plain objects over the sdk; the
 * dynamic-provider shim (shim.ts) reaches them through runtime.ts at call time, so a fix here
 * reaches stacks that already exist and nothing below is ever serialized into state.
 */
import type { AccountApi } from "../sdk/account-api";
import type { SlotClaims } from "./slot-claims";
import type { Clock } from "../sdk/core";

/** Provider configuration: Pulumi config `account-api:*`, with environment fallbacks. */
export interface ProviderConfig {
  apiToken?: string;
  accountId?: string;
  baseUrl?: string;
  /**
   * Overall budget of one API call in ms, every retry and pause included; a create whose outcome was
   * unknown is looked up and sent again within it too (`account-api:deadlineMs`, ACCOUNT_API_DEADLINE_MS).
   */
  deadlineMs?: number;
  /** Further attempts after the first, within the deadline (`account-api:maxRetries`, ACCOUNT_API_MAX_RETRIES). */
  maxRetries?: number;
  /**
   * Plain `http://` to a host other than loopback, the token in clear (`account-api:insecureHttp`,
   * ACCOUNT_API_INSECURE_HTTP); refused unless set.
   */
  insecureHttp?: boolean;
}

/** How long a handler waits for the service's asynchronous work (a registration workflow), and how it polls. */
export interface Waits {
  /** Give up waiting after this long (what was made is then recorded, and the next `up` goes on). */
  readonly deadlineMs: number;
  /** First pause between polls; it doubles up to `maxPollIntervalMs`. */
  readonly pollIntervalMs: number;
  readonly maxPollIntervalMs: number;
  /** The clock the waits run on; the system's when absent. Tests pass the emulator's manual clock. */
  readonly clock?: Clock;
}

/** The session's waits unless it sets others. */
export const DEFAULT_WAITS: Waits = Object.freeze({
  deadlineMs: 15 * 60_000,
  pollIntervalMs: 1_000,
  maxPollIntervalMs: 15_000,
});

export interface HandlerContext {
  /** The sdk, created once per provider process from the configuration. */
  readonly api: AccountApi;
  /** The account to act on: the resource's `accountId` input, else the configured one. */
  accountId(override?: string): string;
  /** A line the user sees in the engine's output. */
  log(message: string): void;
  /** Runs `fn` after every earlier call with the same key in this provider process has settled. */
  serialize<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /** How long to wait for asynchronous work; DEFAULT_WAITS when absent. */
  readonly waits?: Waits;
  /** The slots the program's resources claim in this deployment (absent: no cross-resource rule). */
  readonly claims?: SlotClaims;
}

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface CheckResult<I> {
  inputs?: I;
  failures?: CheckFailure[];
}

export interface DiffResult {
  changes: boolean;
  replaces?: string[];
  deleteBeforeReplace?: boolean;
}

export interface CreateResult<O> {
  id: string;
  outs: O;
}

export interface ReadResult<I, O> {
  id: string;
  props: O;
  /** The live object projected onto the inputs, so refresh then preview shows drift. */
  inputs: I;
}

export interface UpdateResult<O> {
  outs: O;
}

/**
 * I: the inputs as the engine stores them (camelCase, resolved). O: the outputs (inputs plus server
 * fields). `olds` in diff/update/read/delete are the previous OUTPUTS; in check they are the
 * previous INPUTS (the engine's own convention).
 */
export interface ResourceHandler<I extends object, O extends object> {
  check(
    olds: Partial<I> | undefined,
    news: Record<string, unknown>,
    ctx: HandlerContext,
  ): Promise<CheckResult<I>>;
  diff(id: string, olds: O, news: I, ctx: HandlerContext): Promise<DiffResult>;
  create(inputs: I, ctx: HandlerContext): Promise<CreateResult<O>>;
  /** Resolve to undefined when the object is gone (refresh then drops it from state). */
  read(id: string, props: O, ctx: HandlerContext): Promise<ReadResult<I, O> | undefined>;
  update(id: string, olds: O, news: I, ctx: HandlerContext): Promise<UpdateResult<O>>;
  delete(id: string, props: O, ctx: HandlerContext): Promise<void>;
  /**
   * The id of the object these inputs made, if one exists and is this resource's own (by its natural
   * key or a marker it wrote): what an interrupted create left behind. The recovery verb uses it.
   */
  find?(inputs: I, ctx: HandlerContext): Promise<string | undefined>;
  /**
   * The inputs that differ between a stored state and new inputs (write-only ones by their hash):
   * what `diff` decides on, named one by one for a host that reports a detailed diff.
   */
  changedInputs?(olds: O, news: I): string[];
  /** The kind's description as a host needs it (the native provider's secrets). */
  readonly description?: HandlerDescription;
  /**
   * Server-owned outputs whose change outside the program counts as drift (the registrar's status,
   * lock and expiry); everything else that matters is in the inputs.
   */
  readonly driftOutputs?: readonly (keyof O & string)[];
}

/** The parts of a resource's description (core/define.ts) a host reads beside its handler. */
export interface HandlerDescription {
  readonly kind: ProviderKind;
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  readonly replaceKeys: readonly string[];
  readonly secretInputs: readonly string[];
  readonly secretOutputs: readonly string[];
}

/** The names of the resources, which are also their Pulumi type names. */
export const RESOURCE_KINDS = [
  "BuildTrigger",
  "TriggerEnvVars",
  "RepoConnection",
  "ZoneContentConverter",
  "ConfigRule",
  "MeetingTemplate",
  "DomainRegistration",
  "SearchInstance",
  "MeetingApp",
  "SearchNamespace",
  "SearchToken",
  "SendingDomain",
] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/**
 * Runs: imperative operations held as resources (provider/runs), so that they happen when created
 * and again only when their inputs or `triggers` change. Kept apart from RESOURCE_KINDS: they manage
 * no remote object (nothing to list, adopt, recover or drift).
 */
export const RUN_KINDS = ["BuildRun", "EmailSend", "SyncJobRun"] as const;
export type RunKind = (typeof RUN_KINDS)[number];
/** Every kind the provider serves. */
export type ProviderKind = ResourceKind | RunKind;
