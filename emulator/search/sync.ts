/**
 * The deterministic sync simulation. A job's progress, logs, end and the instance's indexing stats are
 * DERIVED from stored timestamps and the clock each time they are read: nothing runs in the background.
 *
 * Rules (documented in docs/areas/search.md):
 * - the items a job scans follow from the source string: none without a source, else
 *   3 + (sum of the source's UTF-16 code units mod 8), i.e. 3 to 10;
 * - a job scans for SCAN_MS, then takes ITEM_MS per item, in order;
 * - item k (1-based) fails when k is a multiple of 5; an item already indexed is skipped;
 * - a cancelled job stops where it is; items it had not reached keep their earlier state.
 */

export const SCAN_MS = 1_000;
export const ITEM_MS = 500;

export type JobOrigin = "user" | "schedule";
export type EndReason = "completed" | "cancelled";
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
  cancelled_at?: number;
  scan: ScanTarget;
}

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

export interface Replay {
  /** Jobs in start order. */
  jobs: JobState[];
  /** Every item the instance knows, by name. */
  items: Record<string, ItemStatus>;
}

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

export type Baseline = Record<string, "completed" | "error">;

/**
 * Replays the jobs of an instance up to `now`, on top of `baseline` (what jobs pruned from the
 * history had left behind).
 */
export function replay(records: readonly JobRecord[], now: number, baseline: Baseline = {}): Replay {
  const indexed: Baseline = { ...baseline };
  const jobs: JobState[] = [];
  let live: { names: string[]; processed: number } | undefined;
  const ordered = [...records].sort((a, b) => a.started_at - b.started_at);
  for (const record of ordered) {
    const names = itemNames(record.scan);
    const end = endOf(record);
    const t = Math.min(now, end);
    const ended = end <= now;
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
    const counts: JobCounts = { indexed: 0, skipped: 0, failed: 0 };
    for (let k = 1; k <= processed; k++) {
      const name = names[k - 1]!;
      const at = start + SCAN_MS + k * ITEM_MS;
      if (indexed[name] === "completed") {
        counts.skipped++;
        log(at, `Skipped ${name}: unchanged since last sync`);
      } else if (failsAt(k)) {
        indexed[name] = "error";
        counts.failed++;
        log(at, `Failed to index ${name}: unsupported content`, "error");
      } else {
        indexed[name] = "completed";
        counts.indexed++;
        log(at, `Indexed ${name}`);
      }
    }
    const state: JobState = { record, items: names.length, processed, last_seen_at: t, counts, logs };
    if (ended) {
      state.ended_at = end;
      state.end_reason = record.cancelled_at !== undefined ? "cancelled" : "completed";
      const summary = `${counts.indexed} indexed, ${counts.skipped} skipped, ${counts.failed} failed`;
      if (state.end_reason === "cancelled")
        log(
          end,
          `Sync job cancelled after ${Math.max(processed, 0)} of ${names.length} items: ${summary}`,
          "warning",
        );
      else log(end, `Sync job completed: ${summary}`);
    } else {
      live = { names, processed };
    }
    jobs.push(state);
  }
  const items: Record<string, ItemStatus> = { ...indexed };
  if (live && live.processed >= 0) {
    for (let k = live.processed + 1; k <= live.names.length; k++) {
      const name = live.names[k - 1]!;
      if (items[name] !== "completed") items[name] = k === live.processed + 1 ? "running" : "queued";
    }
  }
  return { jobs, items };
}

export interface Stats {
  queued: number;
  running: number;
  completed: number;
  error: number;
}

export function statsOf(r: Replay): Stats {
  const stats: Stats = { queued: 0, running: 0, completed: 0, error: 0 };
  for (const status of Object.values(r.items)) stats[status]++;
  return stats;
}

/** Folds ended jobs into a baseline, so they can leave the history without changing any stats. */
export function fold(baseline: Baseline, ended: readonly JobRecord[]): Baseline {
  const out: Baseline = {};
  for (const [name, status] of Object.entries(replay(ended, Number.MAX_SAFE_INTEGER, baseline).items)) {
    if (status === "completed" || status === "error") out[name] = status;
  }
  return out;
}
