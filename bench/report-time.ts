/**
 * The report's start-up and "where the time goes" figures, from each engine run's timeline
 * (bench/timeline.ts): ours beside the floor, medians over every run that recorded one.
 */
import type { Phase } from "./protocol";
import type { Sample } from "./scale";
import { table } from "./markdown";
import { round, summarize } from "./stats";
import type { PhaseTimeline } from "./timeline";

const PHASES = ["up", "refresh", "destroy"] as const;
type Engine = "ours" | "floor";

const timelines = (samples: readonly Sample[], who: Engine, phase: Phase, count?: number): PhaseTimeline[] =>
  samples.flatMap((s) =>
    s.variant === who && (count === undefined || s.count === count) && s.result.timeline?.[phase]
      ? [s.result.timeline[phase]]
      : [],
  );

const median = (xs: readonly (number | null)[]): number | null => {
  const known = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  return known.length ? round(summarize(known).median, 0) : null;
};

export interface StartupRow {
  phase: (typeof PHASES)[number];
  who: Engine;
  runs: number;
  engine_to_host_ms: number | null;
  host_listening_ms: number | null;
  host_first_answer_ms: number | null;
  host_first_resource_answer_ms: number | null;
}

/** Host start-up per command, over every count (it does not depend on the count). */
export function startupRows(samples: readonly Sample[]): StartupRow[] {
  return PHASES.flatMap((phase) =>
    (["ours", "floor"] as const).map((who) => {
      const t = timelines(samples, who, phase);
      return {
        phase,
        who,
        runs: t.length,
        engine_to_host_ms: median(t.map((x) => x.engineToHostMs)),
        host_listening_ms: median(t.map((x) => x.hostListeningMs)),
        host_first_answer_ms: median(t.map((x) => x.hostFirstAnswerMs)),
        host_first_resource_answer_ms: median(t.map((x) => x.hostFirstResourceAnswerMs)),
      };
    }),
  );
}

/** The program's declaration of its resources (during `up`), per count. */
export function programRows(
  samples: readonly Sample[],
): { resources: number; ours_ms: number | null; floor_ms: number | null }[] {
  const counts = [...new Set(samples.map((s) => s.count))].sort((a, b) => a - b);
  return counts.map((count) => ({
    resources: count,
    ours_ms: median(timelines(samples, "ours", "up", count).map((t) => t.programMs)),
    floor_ms: median(timelines(samples, "floor", "up", count).map((t) => t.programMs)),
  }));
}

export interface WhereRow {
  phase: (typeof PHASES)[number];
  who: Engine;
  runs: number;
  command_ms: number | null;
  engine_to_host_ms: number | null;
  host_start_up_ms: number | null;
  program_ms: number | null;
  provider_open_ms: number | null;
  requests: number | null;
  request_wait_ms: number | null;
  request_open_ms: number | null;
  engine_only_ms: number | null;
}

/** Where one engine command's time goes at one count, medians over its repetitions. */
export function whereRows(samples: readonly Sample[], count: number): WhereRow[] {
  return PHASES.flatMap((phase) =>
    (["ours", "floor"] as const).map((who) => {
      const t = timelines(samples, who, phase, count);
      return {
        phase,
        who,
        runs: t.length,
        command_ms: median(t.map((x) => x.ms)),
        engine_to_host_ms: median(t.map((x) => x.engineToHostMs)),
        host_start_up_ms: median(t.map((x) => x.hostFirstResourceAnswerMs)),
        program_ms: median(t.map((x) => x.programMs)),
        provider_open_ms: median(t.map((x) => x.providerOpenMs)),
        requests: median(t.map((x) => x.requests.count)),
        request_wait_ms: median(t.map((x) => x.requests.waitMs)),
        request_open_ms: median(t.map((x) => x.requests.openMs)),
        engine_only_ms: median(t.map((x) => x.engineOnlyMs)),
      };
    }),
  );
}

export function timeFigures(samples: readonly Sample[], focus: number) {
  return {
    startup: startupRows(samples),
    program_declaration: programRows(samples),
    where_time_goes: { resources: focus, rows: whereRows(samples, focus) },
  };
}

export type TimeFigures = ReturnType<typeof timeFigures>;

const ms = (x: number | null): string => (x === null ? "–" : String(x));

export function timeMarkdown(
  f: TimeFigures,
  checkpoints?: {
    writes: number;
    mib: number;
    floorWrites?: number;
    floorMib?: number;
    skipSavedS?: { ours: number; floor: number };
  },
): string[] {
  const w = f.where_time_goes;
  return [
    "## Start-up",
    "",
    "Per engine command, medians over every run of this bench (the count does not change them), in ms. The plugin's start is when the engine launched Pulumi's Node dynamic-provider host (its shell script's first `node`); the first answer is to the engine's handshake; the first resource answer is to the first check, read or delete, after our provider code has loaded. Seen by a probe preloaded into the host (`bench/host-probe.cjs`).",
    "",
    table(
      [
        "command",
        "provider",
        "runs",
        "command start → plugin start",
        "plugin start → listening",
        "→ first answer",
        "→ first resource answer",
      ],
      f.startup.map((r) => [
        r.phase,
        r.who,
        r.runs,
        ms(r.engine_to_host_ms),
        ms(r.host_listening_ms),
        ms(r.host_first_answer_ms),
        ms(r.host_first_resource_answer_ms),
      ]),
    ),
    "",
    "The program's declaration of its resources during `up` (the constructors, each of which starts a registration; the engine starts the provider host only once the first registration arrives, so this delays it), in ms:",
    "",
    table(
      ["resources", "ours", "floor"],
      f.program_declaration.map((r) => [r.resources, ms(r.ours_ms), ms(r.floor_ms)]),
    ),
    "",
    `## Where the time goes at ${w.resources}`,
    "",
    "One engine command of the mix, medians over its repetitions, in ms, on one wall clock: the engine's start-up until it launches the plugin; the host's start-up until its first resource answer; the program's declaration; the time at least one call about a resource was open in the host; API requests (how many, the sum of their durations, and the time at least one was in flight; each includes the 20 ms injected); and what is left: the engine's own steps (scheduling, diffs, checkpoint writes) while nothing of ours ran.",
    "",
    table(
      [
        "command",
        "provider",
        "runs",
        "total",
        "engine start-up",
        "host start-up",
        "program",
        "calls open",
        "requests",
        "request wait (sum)",
        "requests in flight",
        "engine only",
      ],
      w.rows.map((r) => [
        r.phase,
        r.who,
        r.runs,
        ms(r.command_ms),
        ms(r.engine_to_host_ms),
        ms(r.host_start_up_ms),
        ms(r.program_ms),
        ms(r.provider_open_ms),
        ms(r.requests),
        ms(r.request_wait_ms),
        ms(r.request_open_ms),
        ms(r.engine_only_ms),
      ]),
    ),
    "",
    ...(checkpoints
      ? [
          `Checkpoint writes during \`up\` at the largest count: ${checkpoints.writes} (${checkpoints.mib.toFixed(1)} MiB)${checkpoints.floorWrites !== undefined ? `, the floor's ${checkpoints.floorWrites} (${checkpoints.floorMib?.toFixed(1)} MiB)` : ""}.${checkpoints.skipSavedS ? ` What they cost, from the engine-options study (the same graph with \`PULUMI_SKIP_CHECKPOINTS\`): up is ${checkpoints.skipSavedS.ours.toFixed(1)} s shorter for ours without them, ${checkpoints.skipSavedS.floor.toFixed(1)} s for the floor.` : ""}`,
          "",
        ]
      : []),
  ];
}
