/** bench/results.json (for tools; the shape issue 12 fixed, with fields added) and bench/results.md (for people). */
import { STATE_PARTS, type RunResult, type StatePart } from "./protocol";
import { KIND_PHASES, kindRequestsMarkdown, type KindRequests } from "./kinds";
import { nativeFigures, nativeMarkdown } from "./report-native";
import { timeFigures, timeMarkdown } from "./report-time";
import type { Sample } from "./scale";
import { table } from "./markdown";
import { round, summarize, type Summary } from "./stats";
import type { Study } from "./study";
import type { TransportFigure } from "./transport";

export interface Context {
  started: string;
  durationS: number;
  quick: boolean;
  commit: string;
  machine: string;
  versions: Record<string, string>;
  repetitions: number;
  load: { mean: number; max: number; cpus: number; loaded: boolean };
  latencyMs: number;
  parallel: number;
  /** An untimed engine run went first (absent in runs made before the bench had one). */
  warmedUp?: boolean;
}

const PHASES = ["up", "refresh", "destroy"] as const;

/** One row per provider whose parts were measured, with their total. */
function partRows(rows: [string, Record<StatePart, number> | undefined][]): (string | number)[][] {
  const out: (string | number)[][] = [];
  for (const [who, parts] of rows)
    if (parts)
      out.push([who, ...STATE_PARTS.map((k) => parts[k]), STATE_PARTS.reduce((n, k) => n + parts[k], 0)]);
  return out;
}

/** The program's RSS growth per resource between the smallest and the largest count, ours and the floor's. */
function rssGrowth(rows: readonly Record<string, unknown>[]): string {
  const [a, b] = [rows[0], rows.at(-1)];
  if (!a || !b || a === b) return "";
  const per = (key: string): string =>
    (
      (((Number(b[key]) - Number(a[key])) * 1024) / (Number(b.resources) - Number(a.resources))) |
      0
    ).toString();
  return `Growth from ${a.resources} to ${b.resources} resources: ${per("program_peak_rss_mb")} KB per resource for ours, ${per("floor_program_peak_rss_mb")} KB for the floor; the rest is the process's own base (Node, @pulumi/pulumi with its Automation API, ts-node), which the floor pays too.`;
}
type Who = "ours" | "floor" | "plain";

/** The 0.1.x figures (bd6e02c), as issue 12 reports them; not measured by this run. */
export const BEFORE = {
  source: "issue 12, measured on the 0.1.x code at bd6e02c (not re-measured by this run)",
  ratio_to_plain: {
    50: { up: 24.5, refresh: 14, destroy: 24 },
    200: { up: 17.8, refresh: 4.3, destroy: 22 },
    500: { up: 32.0, refresh: 3.4, destroy: 45 },
  },
  ratio_to_floor_200_repo_connections: { up: 1.9, refresh: 1.35, destroy: 1.8 },
  up_ms_per_extra_resource: { 50: 47, 500: 124 },
  up_500_s: 44.7,
  destroy_500_s: 33.7,
  state_bytes_per_resource: 7600,
  provider_bytes: 2879,
  provider_copies_per_resource: 2,
  program_peak_rss_mb_500: 1380,
  sdk_vs_cloudflare_rps_c16: 1.86,
};

function phaseSummaries(samples: Sample[], who: Who, count: number) {
  const rows = samples.filter((s) => s.variant === who && s.count === count).map((s) => s.result);
  const of = (f: (r: RunResult) => number | undefined): Summary =>
    summarize(rows.map(f).filter((x): x is number => x !== undefined));
  return {
    n: rows.length,
    up: of((r) => r.seconds.up),
    refresh: of((r) => r.seconds.refresh),
    destroy: of((r) => r.seconds.destroy),
    requests: {
      up: of((r) => r.requests.up),
      refresh: of((r) => r.requests.refresh),
      destroy: of((r) => r.requests.destroy),
    },
    programRss: of((r) => r.programPeakRssMb || undefined),
    providerRss: of((r) => r.providerPeakRssMb || undefined),
  };
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toFixed(2)}×` : "–");

type PhaseSeconds = Partial<Record<`${(typeof PHASES)[number]}_s`, number>>;

/** Ours over the floor per phase on the repository-connection study, when both ran every phase. */
function repoVsFloor(
  repos: Record<string, PhaseSeconds> | undefined,
): Record<(typeof PHASES)[number], number> | undefined {
  const ours = repos?.ours;
  const floor = repos?.floor;
  if (!ours || !floor || PHASES.some((ph) => !ours[`${ph}_s`] || !floor[`${ph}_s`])) return undefined;
  const of = (ph: (typeof PHASES)[number]): number => round(ours[`${ph}_s`]! / floor[`${ph}_s`]!, 2);
  return { up: of("up"), refresh: of("refresh"), destroy: of("destroy") };
}

export function buildResults(
  ctx: Context,
  samples: Sample[],
  transport: TransportFigure[],
  st: Study | undefined,
  kinds?: readonly KindRequests[],
) {
  const counts = [...new Set(samples.map((x) => x.count))].sort((a, b) => a - b);
  const largest = Math.max(...counts);
  const scale = counts.map((count) => {
    const [o, f, p] = (["ours", "floor", "plain"] as const).map((w) => phaseSummaries(samples, w, count));
    const row: Record<string, unknown> = { resources: count, repetitions: o!.n };
    for (const [prefix, sum] of [
      ["", o!],
      ["plain_", p!],
      ["floor_", f!],
    ] as const)
      for (const ph of PHASES) {
        row[`${prefix}${ph}_s`] = round(sum[ph].median, 2);
        row[`${prefix}${ph}_spread_s`] = [round(sum[ph].min, 2), round(sum[ph].max, 2)];
        row[`${prefix}${ph}_ms_per_resource`] = round((sum[ph].median * 1000) / count, 1);
      }
    for (const ph of PHASES) {
      row[`${ph}_vs_floor`] = round(o![ph].median / f![ph].median, 2);
      row[`${ph}_vs_plain`] = round(o![ph].median / p![ph].median, 1);
      row[`requests_${ph}`] = o!.requests[ph].median;
      row[`plain_requests_${ph}`] = p!.requests[ph].median;
    }
    row.program_peak_rss_mb = round(o!.programRss.median, 0);
    row.provider_peak_rss_mb = round(o!.providerRss.median, 0);
    row.floor_program_peak_rss_mb = round(f!.programRss.median, 0);
    return row;
  });
  const first = samples.find((x) => x.variant === "ours" && x.count === largest && x.result.state)?.result;
  const floorState = samples.find((x) => x.variant === "floor" && x.count === largest && x.result.state)
    ?.result.state;
  const mixState = first?.state;
  const providerBytes = mixState ? Math.max(...mixState.providers.map((p) => p.bytes)) : 0;
  const c16 = (c: string) => transport.find((t) => t.concurrency === 16 && t.client === c)?.rps.median ?? 0;
  const large = phaseSummaries(samples, "ours", largest);
  const repoConnections = st
    ? Object.fromEntries(
        Object.entries(st.state).map(([k, r]) => [
          k,
          {
            ...r.state,
            up_s: round(r.seconds.up ?? 0),
            refresh_s: round(r.seconds.refresh ?? 0),
            destroy_s: round(r.seconds.destroy ?? 0),
          },
        ]),
      )
    : undefined;
  return {
    started: ctx.started,
    duration_s: round(ctx.durationS, 0),
    quick: ctx.quick,
    commit: ctx.commit,
    machine: ctx.machine,
    load: { ...ctx.load, mean: round(ctx.load.mean, 1), max: round(ctx.load.max, 1) },
    versions: ctx.versions,
    repetitions: ctx.repetitions,
    latency_ms: ctx.latencyMs,
    warmed_up: ctx.warmedUp ?? false,
    parallel: ctx.parallel,
    scale,
    growth_ms_per_resource_largest_vs_smallest: Object.fromEntries(
      PHASES.map((ph) => [
        ph,
        round(
          (Number(scale.at(-1)![`${ph}_ms_per_resource`]) /
            Number(scale[0]![`${ph}_ms_per_resource`])) as number,
          2,
        ),
      ]),
    ),
    state_bytes_per_resource: mixState ? round(mixState.checkpointBytes / mixState.resources, 0) : 0,
    provider_bytes: providerBytes,
    state: {
      resources: largest,
      mix: mixState,
      floor: floorState,
      repo_connections: repoConnections,
    },
    [`program_peak_rss_mb_${largest}`]: round(large.programRss.median, 0),
    [`provider_peak_rss_mb_${largest}`]: round(large.providerRss.median, 0),
    program_peak_rss_mb_500: largest === 500 ? round(large.programRss.median, 0) : undefined,
    transport_rps: {
      sdk: round(c16("sdk"), 0),
      cloudflare: round(c16("cloudflare"), 0),
      fetch: round(c16("fetch"), 0),
    },
    transport,
    drift: first?.drift
      ? { ...first.drift, ms_per_resource: round((first.drift.seconds * 1000) / first.drift.resources, 1) }
      : undefined,
    ratio_to_floor_repo_connections: repoVsFloor(repoConnections),
    study: st,
    // Where the time goes at 200 (the issue's count), else at the middle count of a quick run.
    kinds,
    native: nativeFigures(samples),
    time: timeFigures(samples, counts.includes(200) ? 200 : counts[Math.floor(counts.length / 2)]!),
    before: BEFORE,
  };
}

export type Results = ReturnType<typeof buildResults>;

/** A start-up figure of `up`, ours or the floor's (median), or "–". */
function startupOf(
  r: Results,
  who: "ours" | "floor",
  key: "host_first_answer_ms" | "host_first_resource_answer_ms",
): string {
  return String(r.time.startup.find((x) => x.phase === "up" && x.who === who)?.[key] ?? "–");
}

/** The kinds whose create or refresh makes more requests than the plain script, or "all equal". */
function kindsOverPlain(kinds: readonly KindRequests[]): string {
  const over = kinds.flatMap((k) =>
    KIND_PHASES.filter((ph) => ph !== "destroy" && k.ours[ph].total > k.plain[ph].total).map(
      (ph) => `${k.kind} ${ph} ${k.ours[ph].total}/${k.plain[ph].total}`,
    ),
  );
  return over.length ? `over: ${over.join(", ")}` : `equal or fewer for all ${kinds.length} kinds`;
}

/** The checkpoint writes of `up` at the largest count, and what skipping them saved in the study. */
function checkpointFigures(r: Results): Parameters<typeof timeMarkdown>[1] {
  const mix = r.state.mix;
  if (!mix) return undefined;
  const st = r.study;
  const row = st ? r.scale.find((x) => Number(x.resources) === st.count) : undefined;
  const skipped = st?.skipCheckpoints;
  return {
    writes: mix.writes,
    mib: mix.bytesWritten / 2 ** 20,
    ...(r.state.floor
      ? { floorWrites: r.state.floor.writes, floorMib: r.state.floor.bytesWritten / 2 ** 20 }
      : {}),
    ...(row && skipped?.ours.seconds.up !== undefined && skipped.floor.seconds.up !== undefined
      ? {
          skipSavedS: {
            ours: Number(row.up_s) - skipped.ours.seconds.up,
            floor: Number(row.floor_up_s) - skipped.floor.seconds.up,
          },
        }
      : {}),
  };
}

export function markdown(r: Results, samples: Sample[]): string {
  const counts = r.scale.map((x) => Number(x.resources));
  const largest = Math.max(...counts);
  const out: string[] = [];
  const load = r.load;
  out.push(
    "# Benchmark results",
    "",
    `Written by \`npm run bench${r.quick ? " -- --quick" : ""}\` on ${r.started} in ${Math.round(r.duration_s / 60)} min, package built from commit \`${r.commit.slice(0, 7)}\`.`,
    "",
    `- **Machine:** ${r.machine}.`,
    `- **Load:** one-minute load average ${load.mean} on average, ${load.max} at most, on ${load.cpus} CPUs${load.loaded ? " — **the machine was loaded by other work during this run** (shared with engineers running tests): absolute times are inflated and noisy, and the ratios, measured side by side in the same run, are what to read" : ""}.`,
    `- **Versions:** ${Object.entries(r.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}.`,
    `- **Set-up:** emulator with ${r.latency_ms} ms injected on every API request, engine parallelism ${r.parallel}, \`file://\` backend, package installed as a user installs it. Up to ${r.repetitions} repetition${r.repetitions === 1 ? "" : "s"} (each row says how many it got; more run only while they fit in the time budget); every time is the median, with min–max beside it, in seconds.${r.repetitions === 1 ? " **With one repetition there is no spread to show, and on a loaded machine a single run can be off by tens of percent either way (ours below the floor at 500 is such noise): read these as one sample.**" : ""}`,
    "",
    "## Scale",
    "",
    "A realistic mix in units of five: a repository connection ← a production build trigger ← its environment variables, a search instance and a meeting template. Three columns per command: ours, the engine's floor (a no-op dynamic provider, one shared object, the same graph and count, no API call) and the plain script (the same API calls with the sdk at the same parallelism).",
    "",
    table(
      [
        "resources",
        "reps",
        "command",
        "ours s",
        "floor s",
        "plain s",
        "ours / floor",
        "ours / plain",
        "ms per resource (ours, floor)",
        "requests (ours, plain)",
      ],
      r.scale.flatMap((row) =>
        PHASES.map((ph) => {
          const spread = (p: string) => {
            const [lo, hi] = row[`${p}${ph}_spread_s`] as number[];
            return `${Number(row[`${p}${ph}_s`]).toFixed(1)} (${lo!.toFixed(1)}–${hi!.toFixed(1)})`;
          };
          return [
            Number(row.resources),
            Number(row.repetitions),
            ph,
            spread(""),
            spread("floor_"),
            spread("plain_"),
            `${Number(row[`${ph}_vs_floor`]).toFixed(2)}×`,
            `${Number(row[`${ph}_vs_plain`]).toFixed(1)}×`,
            `${row[`${ph}_ms_per_resource`]}, ${row[`floor_${ph}_ms_per_resource`]}`,
            `${row[`requests_${ph}`]}, ${row[`plain_requests_${ph}`]}`,
          ];
        }),
      ),
    ),
    "",
    ...(r.warmed_up
      ? []
      : [
          `This run had no untimed warm-up: the first engine run (ours at ${counts[0]}) carries the cold start of the engine, the plugin and the package's first load, so its row overstates ours (later runs warm up first).`,
          "",
        ]),
    `Growth, time per resource at ${largest} against ${counts[0]}: ${PHASES.map((ph) => `${ph} ${r.growth_ms_per_resource_largest_vs_smallest[ph]}×`).join(", ")}.`,
    "",
  );
  out.push(...timeMarkdown(r.time, checkpointFigures(r)));
  out.push(...nativeMarkdown(r.native));
  if (r.kinds?.length)
    out.push(
      "## Requests per resource, by kind",
      "",
      `Each kind alone, ${r.kinds[0]!.count} resources, up, refresh and destroy, beside the plain script making the same objects (its prerequisites made before counting); the last column names each request only ours makes, by method and path.`,
      "",
      kindRequestsMarkdown(r.kinds),
    );
  const mix = r.state.mix;
  out.push("## State", "");
  if (mix) {
    out.push(
      `After \`up\` of ${largest} resources of the mix: the checkpoint is ${kb(mix.checkpointBytes)}, **${r.state_bytes_per_resource} bytes per resource**${r.state.floor ? ` (the floor's: ${Math.round(r.state.floor.checkpointBytes / r.state.floor.resources)})` : ""}. The serialized provider (\`__provider\`) is stored twice per resource, in its inputs and again in its outputs (the engine's dynamic-provider host puts it there, since read and delete get only the outputs):`,
      "",
      table(
        ["kind", "bytes", "resources"],
        mix.providers.map((p) => [p.kind, p.bytes, p.copies]),
      ),
      "",
      ...(mix.parts
        ? [
            "Where a resource's bytes go (mean per resource, compact JSON): the two copies of the serialized provider; the engine's record of where the program declared the resource (`sourcePosition` and `stackTrace`, which the SDK sends for every resource; no provider can leave it out); the rest of the inputs and of the outputs; everything else (urn, type, parent, provider reference, dependencies, timestamps).",
            "",
            table(
              ["variant", "__provider × 2", "stack record", "inputs", "outputs", "other", "total"],
              partRows([
                ["ours", mix.parts],
                ["floor", r.state.floor?.parts],
              ]),
            ),
            "",
          ]
        : []),
      `During that \`up\` the backend replaced the checkpoint at least ${mix.writes} times and wrote at least ${(mix.bytesWritten / 2 ** 20).toFixed(1)} MiB${r.state.floor ? ` (the floor: ${r.state.floor.writes} times, ${(r.state.floor.bytesWritten / 2 ** 20).toFixed(1)} MiB)` : ""}. (Counted from inotify events on the checkpoint file, which may merge; so these are floors.)`,
      "",
    );
  }
  const repos = r.state.repo_connections;
  if (repos) {
    const rows = Object.entries(repos).map(([k, v]) => {
      const p = v.providers ?? [];
      return [
        k,
        Math.round((v.checkpointBytes ?? 0) / (v.resources || 1)),
        p.length ? Math.max(...p.map((x) => x.bytes)) : 0,
        p.length,
        `${v.writes} / ${((v.bytesWritten ?? 0) / 2 ** 20).toFixed(1)} MiB`,
        v.up_s,
        v.refresh_s,
        v.destroy_s,
      ];
    });
    out.push(
      `Side by side, ${r.study?.count} repository connections: ours, a naive provider (a new object per resource capturing a client that holds the base URL, account and token), and the floor:`,
      "",
      table(
        [
          "provider",
          "state bytes per resource",
          "__provider bytes",
          "distinct providers",
          "checkpoint writes / bytes during up",
          "up s",
          "refresh s",
          "destroy s",
        ],
        rows,
      ),
      "",
      ...(repoVsFloor(repos)
        ? [
            `Ours against the floor on ${r.study?.count} repository connections (one run; the issue's own measure, before: up ${BEFORE.ratio_to_floor_200_repo_connections.up}×, refresh ${BEFORE.ratio_to_floor_200_repo_connections.refresh}×, destroy ${BEFORE.ratio_to_floor_200_repo_connections.destroy}×): ${PHASES.map((ph) => `${ph} ${repoVsFloor(repos)![ph]}×`).join(", ")}.`,
            "",
          ]
        : []),
      "The naive provider also puts the API token in every resource's state in plain text.",
      "",
    );
  }
  const rssProgram = r[`program_peak_rss_mb_${largest}`];
  const rssProvider = r[`provider_peak_rss_mb_${largest}`];
  out.push(
    "## Memory",
    "",
    `At ${largest} resources (median over the runs of ours; peak over up, refresh and destroy): the program's peak RSS is **${rssProgram} MB** (the inline program with the Automation API that drives the engine, one process, as a user's \`pulumi up\` runs it), the provider host's ${rssProvider} MB. The floor's program at the same count: ${r.scale.at(-1)?.floor_program_peak_rss_mb} MB.`,
    "",
    `By count (program peak RSS in MB, ours / floor): ${r.scale.map((x) => `${x.resources}: ${x.program_peak_rss_mb} / ${x.floor_program_peak_rss_mb}`).join("; ")}. ${rssGrowth(r.scale)}`,
    "",
    "## Transport",
    "",
    "One endpoint (GET a search instance, the answer parsed), no injected latency; requests per second as median (min–max), latencies over all repetitions.",
    "",
    table(
      ["client", "concurrency", "requests/s", "p50 ms", "p99 ms"],
      r.transport.map((t) => [
        t.client,
        t.concurrency,
        `${Math.round(t.rps.median)} (${Math.round(t.rps.min)}–${Math.round(t.rps.max)})`,
        t.p50_ms.toFixed(2),
        t.p99_ms.toFixed(2),
      ]),
    ),
    "",
    `At concurrency 16 the sdk does ${ratio(r.transport_rps.sdk, r.transport_rps.cloudflare)} the public client's requests per second, and ${ratio(r.transport_rps.sdk, r.transport_rps.fetch)} plain fetch's.`,
    "",
  );
  const d = r.drift;
  out.push("## Drift", "");
  if (d)
    out.push(
      d.method === "command"
        ? `\`${d.note ?? "account-api drift"}\` over a stack of ${d.resources} resources (the installed package's command, one process, its start-up of ${d.startupSeconds?.toFixed(1)} s included): ${d.seconds.toFixed(1)} s, **${d.ms_per_resource} ms per resource**; ${d.inSync} in sync.`
        : `${d.note}; measured instead: the provider's \`read\` path over ${d.resources} resources at parallelism ${r.parallel}: ${d.seconds.toFixed(1)} s, **${d.ms_per_resource} ms per resource**.`,
      "",
    );
  const st = r.study;
  if (st?.skipCheckpoints && st.sameRun && st.parallel) {
    const sec = (x: RunResult, ph: keyof RunResult["seconds"]) => (x.seconds[ph] ?? 0).toFixed(1);
    out.push(
      "## Engine options",
      "",
      `Each once, at ${st.count} resources of the mix (compare with the scale row for ${st.count}; see docs/performance.md for what each risks).`,
      "",
      table(
        ["option", "up s", "refresh s", "destroy s"],
        [
          [
            "PULUMI_SKIP_CHECKPOINTS, ours",
            sec(st.skipCheckpoints.ours, "up"),
            sec(st.skipCheckpoints.ours, "refresh"),
            sec(st.skipCheckpoints.ours, "destroy"),
          ],
          [
            "PULUMI_SKIP_CHECKPOINTS, floor",
            sec(st.skipCheckpoints.floor, "up"),
            sec(st.skipCheckpoints.floor, "refresh"),
            sec(st.skipCheckpoints.floor, "destroy"),
          ],
          [
            `parallelism ${st.parallel.parallel}, ours`,
            sec(st.parallel.ours, "up"),
            sec(st.parallel.ours, "refresh"),
            sec(st.parallel.ours, "destroy"),
          ],
        ],
      ),
      "",
      `Refresh in the same run, unchanged stack: \`refresh\` then \`up\` took ${sec(st.sameRun, "refresh")} + ${sec(st.sameRun, "up-again")} s; \`up --refresh\` took ${sec(st.sameRun, "up-refreshed")} s (requests: ${(st.sameRun.requests.refresh ?? 0) + (st.sameRun.requests["up-again"] ?? 0)} against ${st.sameRun.requests["up-refreshed"]}).`,
      "",
    );
  }
  const b = BEFORE;
  const row500 = r.scale.find((x) => x.resources === 500);
  out.push(
    "## Before and after",
    "",
    `Before: ${b.source}. After: this run, with the mix. The before figures were taken on another machine and graph (as issue 12 states them): compare the ratios and sizes, not the absolute times.`,
    "",
    table(
      ["figure", "before (0.1.x)", "after"],
      [
        [
          "serialized provider",
          `${b.provider_bytes} bytes, stored twice per resource, one object per resource`,
          `${r.provider_bytes} bytes, stored twice per resource, one object per kind`,
        ],
        ["state per resource", `${b.state_bytes_per_resource} bytes`, `${r.state_bytes_per_resource} bytes`],
        [
          "program peak RSS at 500",
          `${b.program_peak_rss_mb_500} MB`,
          row500 ? `${row500.program_peak_rss_mb} MB` : "not measured (quick)",
        ],
        ["up of 500", `${b.up_500_s} s`, row500 ? `${row500.up_s} s` : "–"],
        ["destroy of 500", `${b.destroy_500_s} s`, row500 ? `${row500.destroy_s} s` : "–"],
        ...PHASES.map((ph) => [
          `${ph}, ratio to plain at 50 / 200 / 500`,
          `${b.ratio_to_plain[50][ph]}× / ${b.ratio_to_plain[200][ph]}× / ${b.ratio_to_plain[500][ph]}×`,
          r.scale.map((x) => `${x[`${ph}_vs_plain`]}× (${x.resources})`).join(" / "),
        ]),
        ...PHASES.map((ph) => [
          `${ph}, ratio to the floor`,
          `${b.ratio_to_floor_200_repo_connections[ph]}× (200 RepoConnections)`,
          r.scale.map((x) => `${x[`${ph}_vs_floor`]}× (${x.resources})`).join(" / ") +
            (r.ratio_to_floor_repo_connections
              ? `; ${r.ratio_to_floor_repo_connections[ph]}× (${r.study?.count} RepoConnections, one run)`
              : ""),
        ]),
        [
          "sdk / public client, requests/s at concurrency 16",
          `${b.sdk_vs_cloudflare_rps_c16}×`,
          ratio(r.transport_rps.sdk, r.transport_rps.cloudflare),
        ],
      ],
    ),
    "",
    "What made it faster (each change is in the provider, already on `main`): one provider object per kind (the SDK's serialization cache is keyed by object, so it serializes once per kind instead of once per resource); a tiny shim that `require`s the installed runtime, which an installed package stores as a `require` of its subpath instead of code; the sdk client, schemas and session made once per provider process, not per resource; fewer requests per resource: no look-up before creating a search instance (the API's 409 leads to one) or a meeting (check gives it a fresh marker), and a trigger's own slot is not listed again at every check (`up` of the mix at 200: 400 requests, where 7e32abf made 480).",
    "",
    "## Targets",
    "",
    table(
      ["figure", "target", "this run"],
      [
        [
          "host: plugin start → first answer (ours, median of `up`)",
          "≤ 400 ms",
          `${startupOf(r, "ours", "host_first_answer_ms")} ms (the floor's: ${startupOf(r, "floor", "host_first_answer_ms")} ms); first resource answer, our code loaded: ${startupOf(r, "ours", "host_first_resource_answer_ms")} ms (the floor's: ${startupOf(r, "floor", "host_first_resource_answer_ms")} ms)`,
        ],
        [
          "up, refresh, destroy against the floor at 200 and 500",
          "≤ 1.0×",
          r.scale
            .filter((x) => Number(x.resources) >= 200)
            .map((x) => `${x.resources}: ${PHASES.map((ph) => `${x[`${ph}_vs_floor`]}×`).join(", ")}`)
            .join("; ") || "–",
        ],
        [
          `time per resource at ${largest} against ${counts[0]}`,
          "≤ 1.2×",
          PHASES.map((ph) => `${ph} ${r.growth_ms_per_resource_largest_vs_smallest[ph]}×`).join(", "),
        ],
        [
          "requests per resource on create and refresh, each kind",
          "the plain script's",
          r.kinds?.length ? kindsOverPlain(r.kinds) : "not measured",
        ],
        ["state per resource", "≤ 2 KiB", `${r.state_bytes_per_resource} bytes`],
        ["serialized provider", "≤ 512 bytes", `${r.provider_bytes} bytes`],
        ["program peak RSS at 500", "≤ 400 MB", row500 ? `${row500.program_peak_rss_mb} MB` : "–"],
        [
          "sdk / public client at concurrency 16",
          "≥ 1.5×",
          ratio(r.transport_rps.sdk, r.transport_rps.cloudflare),
        ],
      ],
    ),
    "",
    `Samples: ${samples.length} runs; raw figures in bench/results.json.`,
    "",
  );
  return out.join("\n");
}
