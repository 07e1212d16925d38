/**
 * The deterministic sync simulation. A job's progress, logs and end, the instance's items and its
 * indexing stats are DERIVED from stored timestamps, item events and the clock each time they are
 * read: nothing runs in the background.
 *
 * Rules (documented in docs/areas/search.md):
 * - the items a job scans follow from the source string: none without a source, else
 *   3 + (sum of the source's UTF-16 code units mod 8), i.e. 3 to 10;
 * - a job scans for SCAN_MS, then takes ITEM_MS per item, in order;
 * - item k (1-based) fails when k is a multiple of 5; an item already indexed is skipped;
 * - a job ended early (cancelled, or replaced by a new job) stops where it is; items it had not
 *   reached keep their earlier state;
 * - item events (an upload, a re-index, a delete) apply at their time, between the jobs' steps.
 */
import { sourceItemText } from "./corpus";

export const SCAN_MS = 1_000;
export const ITEM_MS = 500;

export type JobOrigin = "user" | "schedule";
export type EndReason = "completed" | "cancelled" | "new_job_has_started";
export type MessageType = "info" | "warning" | "error";

/** What a job scans, frozen when it starts (a later settings change does not alter a running job). */
export interface ScanTarget {
  type?: string;
  source?: string;
  prefix?: string;
}

/** A job as stored: plain JSON, times in epoch ms. */
export interface JobRecord {
  id: string;
  source: JobOrigin;
  description: string;
  started_at: number;
  /** Ended early at this time: by a cancel, or (with `superseded`) by a new job. */
  cancelled_at?: number;
  superseded?: true;
  scan: ScanTarget;
}

export type ItemValues = Record<string, string | number | boolean>;

/** A change to one item made through the API, applied at its time. */
export type ItemEvent =
  | { kind: "upload"; at: number; key: string; text: string; metadata?: ItemValues }
  | {
      kind: "index";
      at: number;
      key: string;
      /** For a key of the source not yet indexed: where the source lists it, and its source id. */
      position?: number;
      source_id?: string;
    }
  | { kind: "delete"; at: number; key: string };

export interface LogEntry {
  id: number;
  created_at: number;
  message: string;
  message_type: MessageType;
}

export interface JobCounts {
  indexed: number;
  skipped: number;
  failed: number;
}

export interface JobState {
  record: JobRecord;
  items: number;
  /** Items handled so far; -1 while still scanning. */
  processed: number;
  ended_at?: number;
  end_reason?: EndReason;
  last_seen_at: number;
  counts: JobCounts;
  logs: LogEntry[];
}

export type ItemStatus = "queued" | "running" | "completed" | "error";

/** One processing of an item: by a job's step or an API event. */
export interface ItemLogEntry {
  action: "INDEX" | "SKIP";
  at: number;
  /** The error it ended in, or null. */
  error: string | null;
  processing_ms: number;
}

/** What the index knows of one item. Plain JSON (a baseline is stored). */
export interface ItemState {
  key: string;
  origin: "source" | "upload";
  /** 1-based place in its source's listing (source items): fixes its text and whether it fails. */
  position?: number;
  source_id: string;
  status: ItemStatus;
  text: string;
  metadata?: ItemValues;
  created_at: number;
  last_seen_at: number;
  error?: string;
  log: ItemLogEntry[];
}

export interface Replay {
  /** Jobs in start order. */
  jobs: JobState[];
  /** Every item the instance knows, by key. */
  items: Record<string, ItemState>;
}

/** Why an item fails to index: a synthetic unsupported file, or an upload with nothing in it. */
export const ITEM_ERRORS = { unsupported: "unsupported_type", empty: "file_content_empty" } as const;

export function itemCount(source: string | undefined): number {
  if (source === undefined || source === "") return 0;
  let sum = 0;
  for (let i = 0; i < source.length; i++) sum += source.charCodeAt(i);
  return 3 + (sum % 8);
}

export function itemNames(scan: ScanTarget): string[] {
  const n = itemCount(scan.source);
  const name = (k: number): string => {
    if (scan.type === "r2") return `${scan.prefix ?? ""}doc-${k}.md`;
    if (scan.type === "web-crawler") return `${webOrigin(scan.source ?? "")}/page-${k}`;
    return `item-${k}`;
  };
  return Array.from({ length: n }, (_, i) => name(i + 1));
}

/** How the items of a source are tagged (`r2:{bucket}`); uploads are `builtin`. */
export function sourceIdOf(scan: ScanTarget): string {
  return `${scan.type ?? "source"}:${scan.source ?? ""}`;
}

function webOrigin(source: string): string {
  const withScheme = /^https?:\/\//i.test(source) ? source : `https://${source}`;
  return withScheme.replace(/\/+$/, "");
}

export function naturalEnd(job: JobRecord): number {
  return job.started_at + SCAN_MS + itemCount(job.scan.source) * ITEM_MS;
}

export function endOf(job: JobRecord): number {
  return job.cancelled_at ?? naturalEnd(job);
}

export function isRunning(job: JobRecord, now: number): boolean {
  return endOf(job) > now;
}

export function failsAt(k: number): boolean {
  return k % 5 === 0;
}

/** What jobs and events pruned from the history left behind: the items, by key. */
export type Baseline = Record<string, ItemState>;

interface Step {
  at: number;
  /** Job steps before events at the same time (the step was already due). */
  order: number;
  seq: number;
  run(): void;
}

/** Indexes `item` now: a source item fails where its position says so, an empty upload always. */
function index(item: ItemState, at: number, processingMs: number): void {
  const failure =
    item.origin === "source" && item.position !== undefined && failsAt(item.position)
      ? ITEM_ERRORS.unsupported
      : item.text.trim() === ""
        ? ITEM_ERRORS.empty
        : undefined;
  item.status = failure ? "error" : "completed";
  item.last_seen_at = at;
  if (failure) item.error = failure;
  else delete item.error;
  item.log.push({ action: "INDEX", at, error: failure ?? null, processing_ms: processingMs });
}

function sourceItem(key: string, position: number, sourceId: string, at: number): ItemState {
  return {
    key,
    origin: "source",
    position,
    source_id: sourceId,
    status: "queued",
    text: sourceItemText(key, position),
    created_at: at,
    last_seen_at: at,
    log: [],
  };
}

/**
 * Replays the jobs and item events of an instance up to `now`, on top of `baseline` (what jobs and
 * events pruned from the history had left behind).
 */
export function replay(
  records: readonly JobRecord[],
  now: number,
  baseline: Baseline = {},
  events: readonly ItemEvent[] = [],
): Replay {
  // Keyed by item keys (file names a caller chose): no prototype, so `constructor` or `__proto__` is
  // an ordinary key (structuredClone would give the copy Object.prototype back).
  const items: Record<string, ItemState> = Object.assign(Object.create(null), structuredClone(baseline));
  const jobs: JobState[] = [];
  const steps: Step[] = [];
  let seq = 0;
  let live: { state: JobState; names: string[]; sourceId: string } | undefined;
  const ordered = [...records].sort((a, b) => a.started_at - b.started_at);
  for (const record of ordered) {
    const names = itemNames(record.scan);
    const sourceId = sourceIdOf(record.scan);
    const end = endOf(record);
    const t = Math.min(now, end);
    const logs: LogEntry[] = [];
    const log = (at: number, message: string, message_type: MessageType = "info"): void => {
      logs.push({ id: logs.length + 1, created_at: at, message, message_type });
    };
    const start = record.started_at;
    log(start, `Sync job started (${record.source === "user" ? "requested by user" : "scheduled"})`);
    if (record.scan.source === undefined) log(start, "No source configured: nothing to scan", "warning");
    else log(start, `Scanning ${record.scan.type ?? "unknown"} source ${record.scan.source}`);
    const scanned = t >= start + SCAN_MS;
    if (scanned) log(start + SCAN_MS, `Found ${names.length} item${names.length === 1 ? "" : "s"}`);
    const processed = scanned ? Math.min(names.length, Math.floor((t - start - SCAN_MS) / ITEM_MS)) : -1;
    const state: JobState = {
      record,
      items: names.length,
      processed,
      last_seen_at: t,
      counts: { indexed: 0, skipped: 0, failed: 0 },
      logs,
    };
    for (let k = 1; k <= processed; k++) {
      const key = names[k - 1]!;
      const at = start + SCAN_MS + k * ITEM_MS;
      steps.push({
        at,
        order: 0,
        seq: seq++,
        run: () => {
          const had = items[key];
          if (had?.status === "completed") {
            state.counts.skipped++;
            had.last_seen_at = at;
            had.log.push({ action: "SKIP", at, error: null, processing_ms: ITEM_MS });
            log(at, `Skipped ${key}: unchanged since last sync`);
            return;
          }
          const item = had?.origin === "source" ? had : sourceItem(key, k, sourceId, had?.created_at ?? at);
          if (had && had !== item) item.log = had.log;
          items[key] = item;
          index(item, at, ITEM_MS);
          if (item.status === "error") {
            state.counts.failed++;
            log(at, `Failed to index ${key}: unsupported content`, "error");
          } else {
            state.counts.indexed++;
            log(at, `Indexed ${key}`);
          }
        },
      });
    }
    if (end <= now) {
      state.ended_at = end;
      state.end_reason = record.superseded
        ? "new_job_has_started"
        : record.cancelled_at !== undefined
          ? "cancelled"
          : "completed";
    } else {
      live = { state, names, sourceId };
    }
    jobs.push(state);
  }
  for (const event of events) {
    if (event.at > now) continue;
    steps.push({ at: event.at, order: 1, seq: seq++, run: () => applyEvent(items, event) });
  }
  steps.sort((a, b) => a.at - b.at || a.order - b.order || a.seq - b.seq);
  for (const step of steps) step.run();

  for (const state of jobs) {
    if (state.ended_at === undefined) continue;
    const { counts, processed, items: n } = state;
    const summary = `${counts.indexed} indexed, ${counts.skipped} skipped, ${counts.failed} failed`;
    const at = state.ended_at;
    const push = (message: string, message_type: MessageType): void => {
      state.logs.push({ id: state.logs.length + 1, created_at: at, message, message_type });
    };
    if (state.end_reason === "completed") push(`Sync job completed: ${summary}`, "info");
    else if (state.end_reason === "cancelled")
      push(`Sync job cancelled after ${Math.max(processed, 0)} of ${n} items: ${summary}`, "warning");
    else
      push(
        `Sync job ended after ${Math.max(processed, 0)} of ${n} items, a new job has started: ${summary}`,
        "warning",
      );
  }

  if (live && live.state.processed >= 0) {
    const { state, names, sourceId } = live;
    for (let k = state.processed + 1; k <= names.length; k++) {
      const key = names[k - 1]!;
      const had = items[key];
      if (had?.status === "completed") continue;
      const item = had ?? sourceItem(key, k, sourceId, state.record.started_at + SCAN_MS);
      item.status = k === state.processed + 1 ? "running" : "queued";
      items[key] = item;
    }
  }
  return { jobs, items };
}

function applyEvent(items: Record<string, ItemState>, event: ItemEvent): void {
  const had = items[event.key];
  switch (event.kind) {
    case "delete":
      delete items[event.key];
      return;
    case "upload": {
      const item: ItemState = {
        key: event.key,
        origin: "upload",
        source_id: "builtin",
        status: "queued",
        text: event.text,
        ...(event.metadata ? { metadata: event.metadata } : {}),
        created_at: had?.created_at ?? event.at,
        last_seen_at: event.at,
        log: had?.log ?? [],
      };
      items[event.key] = item;
      index(item, event.at, 0);
      return;
    }
    case "index": {
      const item =
        had ??
        (event.position !== undefined
          ? sourceItem(event.key, event.position, event.source_id ?? "source:", event.at)
          : undefined);
      if (!item) return;
      items[event.key] = item;
      index(item, event.at, 0);
      return;
    }
  }
}

export interface Stats {
  queued: number;
  running: number;
  completed: number;
  error: number;
}

export function statsOf(r: Replay): Stats {
  const stats: Stats = { queued: 0, running: 0, completed: 0, error: 0 };
  for (const item of Object.values(r.items)) stats[item.status]++;
  return stats;
}

/**
 * Folds ended jobs and the events before them into a baseline, so they can leave the history
 * without changing any item or stat.
 */
export function fold(
  baseline: Baseline,
  ended: readonly JobRecord[],
  events: readonly ItemEvent[] = [],
): Baseline {
  return replay(ended, Number.MAX_SAFE_INTEGER, baseline, events).items;
}
