/**
 * Where one engine command's time goes, from what three witnesses saw on the one wall clock:
 * - the probe in the provider host (bench/host-probe.cjs): when the plugin and the host started, when
 *   the host listened, and each answered call with its method and resource type;
 * - the emulator's request log: each API request's end and duration;
 * - the bench child: when the command began and ended, and how long the program took to declare its
 *   resources (each constructor starts its registration).
 * Pure functions over those records, so the arithmetic is tested without an engine.
 */

export type ProbeFact =
  | { fact: "start"; pid: number; role: "host" | "resolver"; at: number }
  | { fact: "listening"; pid: number; at: number }
  | { fact: "rpc"; pid: number; method: string; type: string; t0: number; t1: number; ok: boolean };

export interface LoggedRequest {
  /** Epoch ms when the answer was sent. */
  at: number;
  durationMs: number;
}

export type Interval = readonly [number, number];

/** The time covered by at least one interval (overlaps counted once). */
export function unionMs(intervals: readonly Interval[]): number {
  const sorted = [...intervals].filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  let total = 0;
  let start = Number.NEGATIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const [a, b] of sorted) {
    if (a > end) {
      if (end > start) total += end - start;
      [start, end] = [a, b];
    } else if (b > end) end = b;
  }
  if (end > start) total += end - start;
  return total;
}

/** The probe's lines; a torn last line (a host killed mid-write) is skipped. */
export function parseProbe(text: string): ProbeFact[] {
  const facts: ProbeFact[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isFact(value)) facts.push(value);
    } catch {
      // torn line
    }
  }
  return facts;
}

function isFact(v: unknown): v is ProbeFact {
  if (typeof v !== "object" || v === null || !("fact" in v) || !("pid" in v)) return false;
  return v.fact === "start" || v.fact === "listening" || v.fact === "rpc";
}

/** The calls that act on a resource (the rest are the engine's handshake: info, configure, …). */
export const RESOURCE_METHODS = new Set(["check", "diff", "create", "read", "update", "delete"]);

export interface PhaseTimeline {
  /** The command, as the child timed it. */
  ms: number;
  /** Command start → the provider plugin's start (the engine's own start-up, its plugin discovery). */
  engineToHostMs: number | null;
  /** The plugin's start → the host's first answer of any call (the engine may talk to it from then on). */
  hostFirstAnswerMs: number | null;
  /** The plugin's start → the first answer about a resource (check, read, delete…): our code loaded. */
  hostFirstResourceAnswerMs: number | null;
  /** The plugin's start → the host listening. */
  hostListeningMs: number | null;
  /** The program's declaration of its resources (up only: refresh and destroy run no program). */
  programMs: number | null;
  /** Calls answered by the provider host, by method: how many and the time any of them was open. */
  calls: Record<string, { count: number; openMs: number }>;
  /** The time at least one resource call was open in the host. */
  providerOpenMs: number;
  requests: {
    count: number;
    /** The sum of every request's duration. */
    waitMs: number;
    /** The time at least one request was in flight. */
    openMs: number;
  };
  /**
   * The command's time outside the host's start-up, the program's declaration and every open call:
   * the engine's own steps (scheduling, diffs, checkpoint writes) while nothing of ours was running.
   */
  engineOnlyMs: number;
}

export interface PhaseWitness {
  started: number;
  ended: number;
  probe: readonly ProbeFact[];
  requests: readonly LoggedRequest[];
  /** Epoch ms interval of the program's declaration, when a program ran. */
  program?: Interval;
}

/** One command's timeline from the facts inside its window. */
export function phaseTimeline(w: PhaseWitness): PhaseTimeline {
  const inWindow = (t: number): boolean => t >= w.started && t <= w.ended;
  const starts = w.probe.filter((f) => f.fact === "start" && inWindow(f.at));
  const pluginStart = starts.length ? Math.min(...starts.map((f) => (f.fact === "start" ? f.at : 0))) : null;
  const rpcs = w.probe.flatMap((f) => (f.fact === "rpc" && inWindow(f.t1) ? [f] : []));
  const listening = w.probe.flatMap((f) => (f.fact === "listening" && inWindow(f.at) ? [f.at] : []));
  const firstEnd = (list: readonly { t1: number }[]): number | null =>
    list.length ? Math.min(...list.map((r) => r.t1)) : null;
  const since = (t: number | null): number | null =>
    t === null || pluginStart === null ? null : t - pluginStart;
  const resourceCalls = rpcs.filter((r) => RESOURCE_METHODS.has(r.method));
  const calls: PhaseTimeline["calls"] = {};
  for (const method of new Set(rpcs.map((r) => r.method))) {
    const mine = rpcs.filter((r) => r.method === method);
    calls[method] = { count: mine.length, openMs: unionMs(mine.map((r) => [r.t0, r.t1] as const)) };
  }
  const requests = w.requests.filter((r) => inWindow(r.at));
  const requestSpans = requests.map((r) => [r.at - r.durationMs, r.at] as const);
  const hostStartUp: Interval[] =
    pluginStart === null ? [] : [[pluginStart, firstEnd(resourceCalls) ?? pluginStart]];
  const ours = unionMs([
    ...hostStartUp,
    ...(w.program ? [w.program] : []),
    ...resourceCalls.map((r) => [r.t0, r.t1] as const),
    ...requestSpans,
  ]);
  const ms = w.ended - w.started;
  return {
    ms,
    engineToHostMs: pluginStart === null ? null : pluginStart - w.started,
    hostFirstAnswerMs: since(firstEnd(rpcs)),
    hostFirstResourceAnswerMs: since(firstEnd(resourceCalls)),
    hostListeningMs: since(listening.length ? Math.min(...listening) : null),
    programMs: w.program ? w.program[1] - w.program[0] : null,
    calls,
    providerOpenMs: unionMs(resourceCalls.map((r) => [r.t0, r.t1] as const)),
    requests: {
      count: requests.length,
      waitMs: requests.reduce((n, r) => n + r.durationMs, 0),
      openMs: unionMs(requestSpans),
    },
    engineOnlyMs: Math.max(0, ms - ours),
  };
}
