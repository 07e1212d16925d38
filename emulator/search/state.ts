/**
 * State model of search instances and sync jobs. Never sees HTTP: routes.ts hands it parsed bodies
 * and the clock's time, and renders what it returns. Domain errors carry status and code.
 *
 * State is plain JSON per account: namespaces (the "default" one always exists) holding instances,
 * each with its settings, its write-only storage credentials kept apart, and its job history.
 */
import { createHash, randomUUID } from "node:crypto";
import { iso } from "../clock";
import { dict } from "../store";
import { badRequest, conflict, DomainError, GENERIC_CODES, notFound } from "../http";
import type { z } from "zod";
import {
  SEARCH_INSTANCE_DEFAULTS,
  type SearchInstanceSchema,
  type SearchJobLogSchema,
  type SearchJobSchema,
  type SearchStatsSchema,
  settingsIssues,
  type CreateInstanceBody,
  type InstanceSettings,
  type UpdateInstanceBody,
} from "../../sdk/schemas/search";
import {
  endOf,
  fold,
  isRunning,
  replay,
  statsOf,
  type Baseline,
  type JobRecord,
  type Replay,
  type ScanTarget,
} from "./sync";

export const DEFAULT_NAMESPACE = "default";
/** Jobs kept per instance; older ended ones are folded into the baseline. */
export const JOB_HISTORY_LIMIT = 50;

/** Filled in for settings a create or a PUT leaves out (a copy: stored state never shares objects). */
function defaults(): Partial<InstanceSettings> {
  const { index_method, ...scalars } = SEARCH_INSTANCE_DEFAULTS;
  return { ...scalars, index_method: { ...index_method } };
}

type StorageCredentials = NonNullable<NonNullable<InstanceSettings["source_params"]>["storage_credentials"]>;
/** Settings as returned: never holds the credentials. */
export type PublicSettings = Omit<InstanceSettings, "source_params"> & {
  source_params?: Omit<NonNullable<InstanceSettings["source_params"]>, "storage_credentials">;
};

export interface InstanceRecord {
  id: string;
  settings: PublicSettings;
  /** Write-only: accepted, kept, never rendered. */
  storage_credentials?: StorageCredentials;
  created_at: number;
  modified_at: number;
  created_by: string;
  modified_by: string;
  jobs: JobRecord[];
  baseline: Baseline;
}

export interface NamespaceRecord {
  name: string;
  created_at: number;
  /** Set through the public namespace operations; absent on namespaces made before them. */
  description?: string | null;
  public_endpoint_params?: Record<string, unknown> | null;
  instances: Record<string, InstanceRecord>;
}

/** What a namespace create or update may set besides the name. */
export interface NamespaceSettings {
  description?: string | null | undefined;
  public_endpoint_params?: Record<string, unknown> | null | undefined;
}

export interface SearchState {
  accounts: Record<string, { namespaces: Record<string, NamespaceRecord> }>;
}

export function initialState(): SearchState {
  return { accounts: dict() };
}

const NAMESPACE_NAME = /^[a-z0-9_-]{1,32}$/;

export class SearchModel {
  constructor(
    private readonly state: SearchState,
    private readonly now: number,
  ) {}

  // ---- namespaces ----

  #account(accountId: string): { namespaces: Record<string, NamespaceRecord> } {
    const account = (this.state.accounts[accountId] ??= { namespaces: dict() });
    account.namespaces[DEFAULT_NAMESPACE] ??= {
      name: DEFAULT_NAMESPACE,
      created_at: this.now,
      instances: dict(),
    };
    return account;
  }

  /** The namespace addressed by a path; none given means the default one. */
  namespace(accountId: string, name: string = DEFAULT_NAMESPACE): NamespaceRecord {
    const ns = this.#account(accountId).namespaces[name];
    if (!ns) throw notFound(`namespace "${name}"`);
    return ns;
  }

  listNamespaces(accountId: string): NamespaceRecord[] {
    return Object.values(this.#account(accountId).namespaces).sort(byCreation);
  }

  createNamespace(accountId: string, name: string, settings: NamespaceSettings = {}): NamespaceRecord {
    if (!NAMESPACE_NAME.test(name)) {
      throw badRequest("name: must be 1 to 32 lowercase letters, digits, - and _");
    }
    const account = this.#account(accountId);
    if (account.namespaces[name]) throw conflict(`namespace "${name}" already exists`);
    const ns: NamespaceRecord = { name, created_at: this.now, instances: dict() };
    this.#applyNamespace(ns, settings);
    account.namespaces[name] = ns;
    return ns;
  }

  /** Only the fields given change; `null` clears one. */
  updateNamespace(accountId: string, name: string, settings: NamespaceSettings): NamespaceRecord {
    const ns = this.namespace(accountId, name);
    this.#applyNamespace(ns, settings);
    return ns;
  }

  #applyNamespace(ns: NamespaceRecord, settings: NamespaceSettings): void {
    if (settings.description !== undefined) ns.description = settings.description;
    if (settings.public_endpoint_params !== undefined)
      ns.public_endpoint_params = structuredClone(settings.public_endpoint_params);
  }

  deleteNamespace(accountId: string, name: string): NamespaceRecord {
    if (name === DEFAULT_NAMESPACE) throw badRequest("name: the default namespace cannot be deleted");
    const ns = this.namespace(accountId, name);
    delete this.#account(accountId).namespaces[name];
    return ns;
  }

  // ---- instances ----

  /** get-or-throw, after catching up on any scheduled sync that fell due. */
  instance(ns: NamespaceRecord, id: string): InstanceRecord {
    const inst = Object.hasOwn(ns.instances, id) ? ns.instances[id] : undefined;
    if (!inst) throw notFound(`instance "${id}" in namespace "${ns.name}"`);
    this.#catchUp(inst);
    return inst;
  }

  listInstances(ns: NamespaceRecord): InstanceRecord[] {
    const all = Object.values(ns.instances).sort(byCreation);
    for (const inst of all) this.#catchUp(inst);
    return all;
  }

  createInstance(ns: NamespaceRecord, body: CreateInstanceBody, actor: string): InstanceRecord {
    if (Object.hasOwn(ns.instances, body.id)) {
      throw conflict(`instance "${body.id}" already exists in namespace "${ns.name}"`);
    }
    const { id, ...settings } = body;
    const { visible, credentials } = splitCredentials(settings);
    const inst: InstanceRecord = {
      id,
      settings: { ...defaults(), ...visible },
      ...(credentials ? { storage_credentials: credentials } : {}),
      created_at: this.now,
      modified_at: this.now,
      created_by: actor,
      modified_by: actor,
      jobs: [],
      baseline: {},
    };
    ns.instances[id] = inst;
    return inst;
  }

  /**
   * PUT: replaces the mutable settings (omitted ones go back to their defaults). `type` and `source`
   * are fixed at create; storage credentials are kept unless new ones are given.
   */
  updateInstance(ns: NamespaceRecord, id: string, body: UpdateInstanceBody, actor: string): InstanceRecord {
    const inst = this.instance(ns, id);
    const { type, source, ...mutable } = body;
    const errors = [];
    if (type !== undefined && type !== inst.settings.type) {
      errors.push({
        code: GENERIC_CODES.badRequest,
        message: "type: cannot be changed after create (create a new instance)",
      });
    }
    if (source !== undefined && source !== inst.settings.source) {
      errors.push({
        code: GENERIC_CODES.badRequest,
        message: "source: cannot be changed after create (create a new instance)",
      });
    }
    const { visible, credentials } = splitCredentials(mutable);
    const next: PublicSettings = {
      ...defaults(),
      ...(inst.settings.type !== undefined ? { type: inst.settings.type } : {}),
      ...(inst.settings.source !== undefined ? { source: inst.settings.source } : {}),
      ...visible,
    };
    for (const issue of settingsIssues(next)) {
      errors.push({ code: GENERIC_CODES.badRequest, message: `${issue.path.join(".")}: ${issue.message}` });
    }
    if (errors.length) throw new DomainError(400, errors);
    inst.settings = next;
    if (credentials) inst.storage_credentials = credentials;
    inst.modified_at = this.now;
    inst.modified_by = actor;
    return inst;
  }

  deleteInstance(ns: NamespaceRecord, id: string): InstanceRecord {
    const inst = this.instance(ns, id);
    delete ns.instances[id];
    return inst;
  }

  // ---- jobs ----

  /** Starts a user job. One job runs per instance: a second one while it runs is a conflict. */
  createJob(inst: InstanceRecord, description?: string): JobRecord {
    const running = inst.jobs.find((j) => isRunning(j, this.now));
    if (running) throw conflict(`a sync job is already running for instance "${inst.id}": ${running.id}`);
    return this.#startJob(inst, "user", this.now, description);
  }

  job(inst: InstanceRecord, jobId: string): JobRecord {
    const job = inst.jobs.find((j) => j.id === jobId);
    if (!job) throw notFound(`job "${jobId}" of instance "${inst.id}"`);
    return job;
  }

  /** Cancelling a running job ends it now; cancelling it again is harmless; a finished job cannot be. */
  cancelJob(inst: InstanceRecord, jobId: string): JobRecord {
    const job = this.job(inst, jobId);
    if (job.cancelled_at !== undefined) return job;
    if (!isRunning(job, this.now)) throw conflict(`job "${jobId}" has already ended`);
    job.cancelled_at = this.now;
    return job;
  }

  replay(inst: InstanceRecord): Replay {
    return replay(inst.jobs, this.now, inst.baseline);
  }

  // ---- views (what the API returns) ----

  instanceView(ns: NamespaceRecord, inst: InstanceRecord): z.input<typeof SearchInstanceSchema> {
    const r = this.replay(inst);
    const last = r.jobs[r.jobs.length - 1];
    const running = last !== undefined && last.ended_at === undefined;
    return {
      id: inst.id,
      namespace: ns.name,
      ...inst.settings,
      created_at: iso(inst.created_at),
      modified_at: iso(inst.modified_at),
      created_by: inst.created_by,
      modified_by: inst.modified_by,
      status: inst.settings.paused ? "paused" : running ? "syncing" : last ? "ready" : "waiting",
      enable: true,
      last_activity: last ? iso(last.last_seen_at) : null,
    };
  }

  jobView(inst: InstanceRecord, job: JobRecord): z.input<typeof SearchJobSchema> {
    const state = this.#replayed(inst, job);
    return {
      id: job.id,
      source: job.source,
      description: job.description,
      started_at: iso(job.started_at),
      last_seen_at: iso(state.last_seen_at),
      ended_at: state.ended_at !== undefined ? iso(state.ended_at) : null,
      end_reason: state.end_reason ?? null,
    };
  }

  /** Newest first. */
  jobViews(inst: InstanceRecord): z.input<typeof SearchJobSchema>[] {
    return [...inst.jobs].reverse().map((j) => this.jobView(inst, j));
  }

  logViews(inst: InstanceRecord, job: JobRecord): z.input<typeof SearchJobLogSchema>[] {
    const state = this.#replayed(inst, job);
    return state.logs.map((l) => ({ ...l, created_at: iso(l.created_at) }));
  }

  statsView(inst: InstanceRecord): z.input<typeof SearchStatsSchema> {
    const r = this.replay(inst);
    const last = r.jobs[r.jobs.length - 1];
    return { ...statsOf(r), last_activity: last ? iso(last.last_seen_at) : null };
  }

  // ---- internals ----

  #replayed(inst: InstanceRecord, job: JobRecord): Replay["jobs"][number] {
    const state = this.replay(inst).jobs.find((j) => j.record.id === job.id);
    if (!state) throw new Error(`search: job ${job.id} is not in the history of instance ${inst.id}`);
    return state;
  }

  #startJob(inst: InstanceRecord, source: JobRecord["source"], at: number, description?: string): JobRecord {
    const job: JobRecord = {
      // A scheduled job may be materialized by a GET, which is not persisted: its id is derived from
      // what fixes it, so it comes out the same if it is materialized again after a restart.
      id: source === "user" ? randomUUID() : stableUuid(`${inst.id}/${inst.created_at}/${at}`),
      source,
      description: description ?? (source === "user" ? "Sync requested through the API" : "Scheduled sync"),
      started_at: at,
      scan: scanOf(inst.settings),
    };
    inst.jobs.push(job);
    this.#prune(inst);
    return job;
  }

  /**
   * Scheduled syncs, derived on read: with `sync_interval` set and not paused, a job starts
   * `sync_interval` seconds after the previous job ended (or after create). Each one is
   * materialized the first time it is observed, so the history is the same whenever it is read.
   */
  #catchUp(inst: InstanceRecord): void {
    const { sync_interval, paused } = inst.settings;
    if (paused || sync_interval === undefined) return;
    const interval = sync_interval * 1000;
    for (let guard = 0; guard < 2 * JOB_HISTORY_LIMIT; guard++) {
      const last = inst.jobs[inst.jobs.length - 1];
      if (last && isRunning(last, this.now)) return;
      let due = (last ? endOf(last) : inst.created_at) + interval;
      if (due > this.now) return;
      if (last) {
        // Far behind (the clock jumped): later runs repeat the same outcome, so skip to the recent ones.
        const period = interval + (endOf(last) - last.started_at);
        const behind = Math.floor((this.now - due) / period);
        if (behind > JOB_HISTORY_LIMIT) due += (behind - JOB_HISTORY_LIMIT) * period;
      }
      this.#startJob(inst, "schedule", due);
    }
  }

  #prune(inst: InstanceRecord): void {
    const excess = inst.jobs.length - JOB_HISTORY_LIMIT;
    if (excess <= 0) return;
    const old = inst.jobs.slice(0, excess).filter((j) => !isRunning(j, this.now));
    inst.baseline = fold(inst.baseline, old);
    inst.jobs = inst.jobs.filter((j) => !old.includes(j));
  }
}

function splitCredentials<T extends { source_params?: InstanceSettings["source_params"] }>(
  settings: T,
): {
  visible: Omit<T, "source_params"> & { source_params?: PublicSettings["source_params"] };
  credentials?: StorageCredentials;
} {
  const { source_params, ...rest } = settings;
  if (!source_params) return { visible: rest };
  const { storage_credentials, ...params } = source_params;
  return {
    visible: { ...rest, source_params: params },
    ...(storage_credentials ? { credentials: storage_credentials } : {}),
  };
}

function stableUuid(seed: string): string {
  const h = createHash("sha256").update(seed).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function scanOf(settings: PublicSettings): ScanTarget {
  return {
    ...(settings.type !== undefined ? { type: settings.type } : {}),
    ...(settings.source !== undefined ? { source: settings.source } : {}),
    ...(settings.source_params?.prefix !== undefined ? { prefix: settings.source_params.prefix } : {}),
  };
}

/** Oldest first; equal times (a manual clock) by name, so the order never depends on key order. */
function byCreation<T extends { created_at: number; id?: string; name?: string }>(a: T, b: T): number {
  const ka = a.id ?? a.name ?? "";
  const kb = b.id ?? b.name ?? "";
  return a.created_at - b.created_at || (ka < kb ? -1 : ka > kb ? 1 : 0);
}
