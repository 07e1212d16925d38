/**
 * The native provider beside the dynamic one (ours) and the engine's floor, from the same scale runs:
 * seconds per command at each count, and the state it stores per resource (issue 19's measure).
 */
import { STATE_PARTS, type StateFigures } from "./protocol";
import type { Sample } from "./scale";
import { table } from "./markdown";
import { round, summarize, type Summary } from "./stats";

const PHASES = ["up", "refresh", "destroy"] as const;
type Engine = "native" | "ours" | "floor";

export interface NativeRow {
  resources: number;
  phase: (typeof PHASES)[number];
  runs: number;
  native_s: number;
  native_spread_s: [number, number];
  ours_s: number;
  floor_s: number;
  native_vs_floor: number;
  native_vs_ours: number;
  native_requests: number;
}

export interface NativeFigures {
  rows: NativeRow[];
  /** The checkpoint after `up` at the largest count, per resource: native, ours, the floor. */
  state_bytes_per_resource: Partial<Record<Engine, number>>;
  state_parts?: Partial<Record<Engine, StateFigures["parts"]>>;
  resources_for_state: number;
}

const summary = (samples: readonly Sample[], who: Engine, count: number, phase: string): Summary =>
  summarize(
    samples.flatMap((s) => {
      const v = s.variant === who && s.count === count ? s.result.seconds[phase as "up"] : undefined;
      return v === undefined ? [] : [v];
    }),
  );

/** Undefined when the run had no native provider (a bench of a commit without the plugin). */
export function nativeFigures(samples: readonly Sample[]): NativeFigures | undefined {
  const natives = samples.filter((s) => s.variant === "native");
  if (natives.length === 0) return undefined;
  const counts = [...new Set(natives.map((s) => s.count))].sort((a, b) => a - b);
  const rows = counts.flatMap((count) =>
    PHASES.map((phase): NativeRow => {
      const [n, o, f] = (["native", "ours", "floor"] as const).map((w) => summary(samples, w, count, phase));
      const requests = summarize(
        natives.flatMap((s) =>
          s.count === count && s.result.requests[phase] !== undefined ? [s.result.requests[phase]] : [],
        ),
      );
      return {
        resources: count,
        phase,
        runs: n!.n,
        native_s: round(n!.median, 2),
        native_spread_s: [round(n!.min, 2), round(n!.max, 2)],
        ours_s: round(o!.median, 2),
        floor_s: round(f!.median, 2),
        native_vs_floor: round(n!.median / f!.median, 2),
        native_vs_ours: round(n!.median / o!.median, 2),
        native_requests: requests.median,
      };
    }),
  );
  const largest = Math.max(...counts);
  const stateOf = (who: Engine): StateFigures | undefined =>
    samples.find((s) => s.variant === who && s.count === largest && s.result.state)?.result.state;
  const perResource = (st: StateFigures | undefined): number | undefined =>
    st && st.resources > 0 ? round(st.checkpointBytes / st.resources, 0) : undefined;
  const engines = ["native", "ours", "floor"] as const;
  return {
    rows,
    resources_for_state: largest,
    state_bytes_per_resource: Object.fromEntries(
      engines.flatMap((w) => {
        const b = perResource(stateOf(w));
        return b === undefined ? [] : [[w, b]];
      }),
    ),
    state_parts: Object.fromEntries(
      engines.flatMap((w) => {
        const parts = stateOf(w)?.parts;
        return parts ? [[w, parts]] : [];
      }),
    ),
  };
}

export function nativeMarkdown(f: NativeFigures | undefined): string[] {
  if (!f) return [];
  const x = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(2)}×` : "–");
  const partsRows = (["native", "ours", "floor"] as const).flatMap((w) => {
    const parts = f.state_parts?.[w];
    return parts
      ? [[w, ...STATE_PARTS.map((k) => parts[k]), STATE_PARTS.reduce((n, k) => n + parts[k], 0)]]
      : [];
  });
  return [
    "## Native provider",
    "",
    "The same mix through the native provider plugin `pulumi-resource-account-api` (resources `account-api:index:<Kind>`, as a YAML, Python or Go program declares them; here a Node inline program, so the program side is the same as ours), beside ours (the dynamic resources) and the engine's floor (a no-op dynamic provider), in the same repetitions. Medians in seconds, min–max beside the native one.",
    "",
    table(
      [
        "resources",
        "command",
        "runs",
        "native s",
        "ours s",
        "floor s",
        "native / floor",
        "native / ours",
        "requests (native)",
      ],
      f.rows.map((r) => [
        r.resources,
        r.phase,
        r.runs,
        `${r.native_s.toFixed(1)} (${r.native_spread_s[0].toFixed(1)}–${r.native_spread_s[1].toFixed(1)})`,
        r.ours_s.toFixed(1),
        r.floor_s.toFixed(1),
        x(r.native_vs_floor),
        x(r.native_vs_ours),
        r.native_requests,
      ]),
    ),
    "",
    `State after \`up\` of ${f.resources_for_state} resources, bytes per resource (the checkpoint over the program's resources): native **${f.state_bytes_per_resource.native ?? "–"}**, ours ${f.state_bytes_per_resource.ours ?? "–"}, the floor ${f.state_bytes_per_resource.floor ?? "–"}. The native provider stores no serialized provider; what is left is the engine's record of each resource. Mean bytes per resource by part (compact JSON; "__provider × 2" is the serialized provider, "stack record" the engine's \`sourcePosition\` and \`stackTrace\`):`,
    "",
    table(["provider", "__provider × 2", "stack record", "inputs", "outputs", "other", "total"], partsRows),
    "",
  ];
}
