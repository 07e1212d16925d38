/**
 * State model of search instances, sync jobs, items and the answer cache. Never sees HTTP: routes.ts
 * hands it parsed bodies and the clock's time, and renders what it returns (./views). Domain errors
 * carry status and code.
 *
 * State is plain JSON per account: namespaces (the "default" one always exists) holding instances,
 * each with its settings, its write-only storage credentials kept apart, its job history, the item
 * events made through the API, and the cached chat answers; and the account's service tokens
 * (./tokens).
 */
import { randomUUID } from "node:crypto";
import { dict } from "../store";
import { DomainError, GENERIC_CODES, notFound, type ErrorItem } from "../http";
import {
  SEARCH_INSTANCE_DEFAULTS,
  settingsIssues,
  type CreateInstanceBody,
  type InstanceSettings,
  type UpdateInstanceBody,
} from "../../sdk/schemas/search";
import { stableUuid } from "./chunks";
import { sourceItemText } from "./corpus";
import {
  endOf,
  fold,
  isRunning,
  itemNames,
  replay,
  sourceIdOf,
  type Baseline,
  type ItemEvent,
  type ItemState,
  type ItemValues,
  type JobRecord,
  type Replay,
  type ScanTarget,
} from "./sync";

export const DEFAULT_NAMESPACE = "default";
/** Jobs kept per instance; older ended ones are folded into the baseline. */
export const JOB_HISTORY_LIMIT = 50;
/** Cached chat answers kept per instance (the oldest go first). */
export const ANSWER_CACHE_LIMIT = 100;
/** How long a cached answer lives without `cache_ttl`, in seconds. */
export const DEFAULT_CACHE_TTL_S = 86_400;

type StorageCredentials = NonNullable<NonNullable<InstanceSettings["source_params"]>["storage_credentials"]>;
type SourceParams = Omit<NonNullable<InstanceSettings["source_params"]>, "storage_credentials">;
/** Settings as kept and returned: never the credentials, never a null (null means unset). */
export type PublicSettings = {
  [K in Exclude<keyof InstanceSettings, "source_params">]?: Exclude<InstanceSettings[K], null>;
} & { source_params?: SourceParams };

/** A chat answer kept by the instance's cache. */
export interface CachedAnswer {
  at: number;
  completion: Record<string, unknown>;
}

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
  /** Item changes made through the API, oldest first (absent in states of earlier releases). */
  events?: ItemEvent[];
  answers?: Record<string, CachedAnswer>;
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

/** A search service token (./tokens reads and writes them). */
export interface TokenRecord {
  id: string;
  name: string;
  cf_api_id: string;
  /** Write-only: accepted, kept, never rendered. */
  cf_api_key: string;
  legacy: boolean;
  enabled: boolean;
  created_at: number;
  modified_at: number;
  created_by: string;
  modified_by: string;
}

/** An account's search state; `tokens` is absent in states of earlier releases. */
export interface SearchAccount {
  namespaces: Record<string, NamespaceRecord>;
  tokens?: Record<string, TokenRecord>;
}

export interface SearchState {
  accounts: Record<string, SearchAccount>;
}

export function initialState(): SearchState {
  return { accounts: dict() };
}

const NAMESPACE_NAME = /^[a-z0-9_-]{1,32}$/;

/** A 400 naming the field (`path`, as the contract's 400s carry it) and the rule. */
export function invalid(field: string, rule: string, code: number = GENERIC_CODES.badRequest): DomainError {
  return new DomainError(400, invalidItem(field, rule, code));
}

export function invalidItem(field: string, rule: string, code: number = GENERIC_CODES.badRequest): ErrorItem {
  return { code, message: `${field}: ${rule}`, path: field.split(".") };
}

/** Filled in for settings a create or a PUT leaves out (a copy: stored state never shares objects). */
function defaults(): PublicSettings {
  const { index_method, ...scalars } = SEARCH_INSTANCE_DEFAULTS;
  return { ...scalars, index_method: { ...index_method } };
}

/** The body's settings without nulls (null asks for the unset value) and without the credentials. */
function settingsOf(body: Partial<InstanceSettings>): {
  visible: PublicSettings;
  credentials?: StorageCredentials;
} {
  const visible: Record<string, unknown> = {};
  let credentials: StorageCredentials | undefined;
  for (const [k, v] of Object.entries(body)) {
    if (v === null || v === undefined || k === "source_params") continue;
    visible[k] = structuredClone(v);
  }
  if (body.source_params) {
    const { storage_credentials, ...params } = body.source_params;
    credentials = storage_credentials;
    visible.source_params = structuredClone(params);
  }
  // Keys and values are the body's, nulls and credentials left out: PublicSettings by construction.
  return { visible: visible as PublicSettings, ...(credentials ? { credentials } : {}) };
}

export class SearchModel {
  constructor(
    private readonly state: SearchState,
    readonly now: number,
  ) {}

  // ---- namespaces ----

  #account(accountId: string): SearchAccount {
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
    const ns = Object.hasOwn(this.#account(accountId).namespaces, name)
      ? this.#account(accountId).namespaces[name]
      : undefined;
    if (!ns) throw notFound(`namespace "${name}"`);
    return ns;
  }

  listNamespaces(accountId: string): NamespaceRecord[] {
    return Object.values(this.#account(accountId).namespaces).sort(byCreation);
  }

  createNamespace(accountId: string, name: string, settings: NamespaceSettings = {}): NamespaceRecord {
    if (!NAMESPACE_NAME.test(name))
      throw invalid("name", "must be 1 to 32 lowercase letters, digits, - and _");
    const account = this.#account(accountId);
    if (account.namespaces[name])
      throw new DomainError(409, {
        code: GENERIC_CODES.conflict,
        message: `namespace "${name}" already exists`,
      });
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
    if (name === DEFAULT_NAMESPACE) throw invalid("name", "the default namespace cannot be deleted");
    const ns = this.namespace(accountId, name);
    delete this.#account(accountId).namespaces[name];
    return ns;
  }

  // ---- service tokens (./tokens reads and writes them) ----

  tokenRecords(accountId: string): Record<string, TokenRecord> {
    return (this.#account(accountId).tokens ??= dict());
  }

  // ---- instances ----

  /** get-or-throw, after catching up on any scheduled sync that fell due. */
  instance(ns: NamespaceRecord, id: string): InstanceRecord {
    const inst = Object.hasOwn(ns.instances, id) ? ns.instances[id] : undefined;
    if (!inst) throw notFound(`instance "${id}" in namespace "${ns.name}"`);
    upgradeRecord(inst);
    this.#catchUp(inst);
    return inst;
  }

  /** Oldest first; `search` keeps the ids that contain it. */
  listInstances(ns: NamespaceRecord, search?: string): InstanceRecord[] {
    const all = Object.values(ns.instances)
      .filter((i) => search === undefined || i.id.includes(search))
      .sort(byCreation);
    for (const inst of all) {
      upgradeRecord(inst);
      this.#catchUp(inst);
    }
    return all;
  }

  createInstance(ns: NamespaceRecord, body: CreateInstanceBody, actor: string): InstanceRecord {
    // The contract's create answers 201, 400 or 403: an id in use is a 400 (with the conflict code).
    if (Object.hasOwn(ns.instances, body.id))
      throw invalid(
        "id",
        `an instance "${body.id}" already exists in namespace "${ns.name}"`,
        GENERIC_CODES.conflict,
      );
    const { id, ...settings } = body;
    const { visible, credentials } = settingsOf(settings);
    const inst: InstanceRecord = {
      id,
      settings: { ...defaults(), ...visible },
      ...(credentials ? { storage_credentials: credentials } : {}),
      created_at: this.now,
      modified_at: this.now,
      created_by: actor,
      modified_by: actor,
      jobs: [],
      baseline: dict(),
      events: [],
      answers: dict(),
    };
    ns.instances[id] = inst;
    return inst;
  }

  /**
   * PUT: replaces the settings it takes (omitted ones go back to their defaults). `type`, `source`
   * and `hybrid_search_enabled` are fixed at create; storage credentials are kept unless new ones
   * are given.
   */
  updateInstance(ns: NamespaceRecord, id: string, body: UpdateInstanceBody, actor: string): InstanceRecord {
    const inst = this.instance(ns, id);
    const { source, ...mutable } = body;
    const errors: ErrorItem[] = [];
    const current = inst.settings;
    if (source !== undefined && (source ?? undefined) !== current.source) {
      errors.push(invalidItem("source", "cannot be changed after create (create a new instance)"));
    }
    const { visible, credentials } = settingsOf(mutable);
    const next: PublicSettings = {
      ...defaults(),
      ...(current.type !== undefined ? { type: current.type } : {}),
      ...(current.source !== undefined ? { source: current.source } : {}),
      ...(current.hybrid_search_enabled !== undefined
        ? { hybrid_search_enabled: current.hybrid_search_enabled }
        : {}),
      ...visible,
    };
    for (const issue of settingsIssues(next)) errors.push(invalidItem(issue.path.join("."), issue.message));
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

  /** Moves an instance with its jobs, items and cache; to its own namespace it is a no-op. */
  moveInstance(
    accountId: string,
    from: NamespaceRecord,
    id: string,
    to: string,
    actor: string,
  ): InstanceRecord {
    const inst = this.instance(from, id);
    const target = this.namespace(accountId, to);
    if (target === from) return inst;
    if (Object.hasOwn(target.instances, id))
      throw invalid(
        "new_namespace",
        `an instance "${id}" already exists in namespace "${to}"`,
        GENERIC_CODES.conflict,
      );
    delete from.instances[id];
    target.instances[id] = inst;
    inst.modified_at = this.now;
    inst.modified_by = actor;
    return inst;
  }

  // ---- jobs ----

  /**
   * Starts a user job. A running job is ended by it (`end_reason: "new_job_has_started"`, as the
   * service does); a paused instance refuses.
   */
  createJob(inst: InstanceRecord, description?: string): JobRecord {
    if (inst.settings.paused) throw invalid("paused", `instance "${inst.id}" is paused: resume it to sync`);
    const running = inst.jobs.find((j) => isRunning(j, this.now));
    if (running) {
      running.cancelled_at = this.now;
      running.superseded = true;
    }
    return this.#startJob(inst, "user", this.now, description);
  }

  job(inst: InstanceRecord, jobId: string): JobRecord {
    const job = inst.jobs.find((j) => j.id === jobId);
    if (!job) throw notFound(`job "${jobId}" of instance "${inst.id}"`);
    return job;
  }

  /** Cancelling a running job ends it now; cancelling it again is harmless; an ended job cannot be. */
  cancelJob(inst: InstanceRecord, jobId: string): JobRecord {
    const job = this.job(inst, jobId);
    if (job.cancelled_at !== undefined && !job.superseded) return job;
    if (!isRunning(job, this.now)) throw invalid("action", `job "${jobId}" has already ended`);
    job.cancelled_at = this.now;
    return job;
  }

  replay(inst: InstanceRecord): Replay {
    return replay(inst.jobs, this.now, inst.baseline, inst.events ?? []);
  }

  // ---- items ----

  /** Every item the instance knows, with its id. */
  items(inst: InstanceRecord): { id: string; item: ItemState }[] {
    return Object.values(this.replay(inst).items).map((item) => ({ id: itemId(inst, item.key), item }));
  }

  item(inst: InstanceRecord, id: string): ItemState {
    const found = this.items(inst).find((i) => i.id === id);
    if (!found) throw notFound(`item "${id}" of instance "${inst.id}"`);
    return found.item;
  }

  /** An upload: the file's name is the key; it replaces an item of that key and is indexed now. */
  uploadItem(inst: InstanceRecord, key: string, text: string, metadata?: ItemValues): ItemState {
    this.#event(inst, { kind: "upload", at: this.now, key, text, ...(metadata ? { metadata } : {}) });
    return this.#itemByKey(inst, key);
  }

  /** Indexes the item with this key now: one the index knows, or one its source lists. */
  indexKey(inst: InstanceRecord, key: string): ItemState {
    if (this.replay(inst).items[key]) {
      this.#event(inst, { kind: "index", at: this.now, key });
      return this.#itemByKey(inst, key);
    }
    const scan = scanOf(inst.settings);
    const position = itemNames(scan).indexOf(key) + 1;
    if (position === 0) throw notFound(`item "${key}" in the source of instance "${inst.id}"`);
    this.#event(inst, { kind: "index", at: this.now, key, position, source_id: sourceIdOf(scan) });
    return this.#itemByKey(inst, key);
  }

  syncItem(inst: InstanceRecord, id: string): ItemState {
    return this.indexKey(inst, this.item(inst, id).key);
  }

  deleteItem(inst: InstanceRecord, id: string): ItemState {
    const item = this.item(inst, id);
    this.#event(inst, { kind: "delete", at: this.now, key: item.key });
    return item;
  }

  #itemByKey(inst: InstanceRecord, key: string): ItemState {
    const item = this.replay(inst).items[key];
    if (!item) throw new Error(`search: item ${key} vanished from instance ${inst.id}`);
    return item;
  }

  #event(inst: InstanceRecord, event: ItemEvent): void {
    (inst.events ??= []).push(event);
  }

  // ---- the answer cache ----

  cachedAnswer(inst: InstanceRecord, key: string): CachedAnswer | undefined {
    const hit = inst.answers?.[key];
    const ttl = (inst.settings.cache_ttl ?? DEFAULT_CACHE_TTL_S) * 1000;
    return hit && hit.at + ttl > this.now ? hit : undefined;
  }

  cacheAnswer(inst: InstanceRecord, key: string, completion: Record<string, unknown>): void {
    const answers = (inst.answers ??= dict());
    answers[key] = { at: this.now, completion };
    const keys = Object.keys(answers).sort((a, b) => answers[a]!.at - answers[b]!.at);
    for (const old of keys.slice(0, Math.max(0, keys.length - ANSWER_CACHE_LIMIT))) delete answers[old];
  }

  /** Empties the answer cache; the number of answers dropped. */
  purgeCache(inst: InstanceRecord): number {
    const n = Object.keys(inst.answers ?? {}).length;
    inst.answers = dict();
    return n;
  }

  // ---- internals ----

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

  /** Old ended jobs, and the item events before the oldest job kept, go into the baseline. */
  #prune(inst: InstanceRecord): void {
    const excess = inst.jobs.length - JOB_HISTORY_LIMIT;
    if (excess <= 0) return;
    const old = inst.jobs.slice(0, excess).filter((j) => !isRunning(j, this.now));
    const kept = inst.jobs.filter((j) => !old.includes(j));
    const cutoff = Math.min(...kept.map((j) => j.started_at));
    const events = inst.events ?? [];
    inst.baseline = fold(
      inst.baseline,
      old,
      events.filter((e) => e.at < cutoff),
    );
    inst.events = events.filter((e) => e.at >= cutoff);
    inst.jobs = kept;
  }
}

/** An item's id: derived from what fixes it, so it is the same on every read and after a restart. */
export function itemId(inst: InstanceRecord, key: string): string {
  return stableUuid(`${inst.created_at}/${inst.id}/item/${key}`);
}

/** States stored by earlier releases kept only each item's status in the baseline. */
function upgradeRecord(inst: InstanceRecord): void {
  for (const [key, value] of Object.entries(inst.baseline)) {
    if (typeof value !== "string") continue;
    const status: unknown = value;
    // The synthetic names end in the item's place in its source (`doc-3.md`, `page-3`, `item-3`).
    const position = Number(/(\d+)(?:\.md)?$/.exec(key)?.[1] ?? "1");
    inst.baseline[key] = {
      key,
      origin: "source",
      position,
      source_id: sourceIdOf(scanOf(inst.settings)),
      status: status === "error" ? "error" : "completed",
      text: sourceItemText(key, position),
      created_at: inst.created_at,
      last_seen_at: inst.modified_at,
      log: [],
    };
  }
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
