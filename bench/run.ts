/**
 * `npm run bench [-- --quick]`: the package's performance, written to bench/results.md (for people)
 * and bench/results.json (for tools). Figures are never asserted; ratios are measured side by side in
 * one run. Order: transport; scale, one repetition of every count (with memory, state and drift at the
 * largest); the engine-option study (state beside a naive provider, checkpoints, refresh in the same
 * run, parallelism); then more repetitions of scale while they fit in the time budget.
 * Full: 50, 200 and 500 resources, up to 3 repetitions, 20 minutes; quick: 25 and 100, one, 5 minutes.
 * The raw samples are kept in bench/.last-run.json; `--report-only` rewrites the results from them.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { install } from "./install";
import { KIND_COUNT, kindRequests, type KindRequests } from "./kinds";
import { LoadMonitor, machine, versions } from "./machine";
import { buildResults, markdown, type Context } from "./report";
import { UNIT } from "./programs";
import { engineRun, PARALLEL, scale, type Sample } from "./scale";
import { study, type Study } from "./study";
import { transport, type TransportFigure } from "./transport";
import { LATENCY_MS } from "./world";

const quick = process.argv.includes("--quick");
const PLAN = quick
  ? {
      counts: [25, 100],
      reps: 1,
      studyCount: 25,
      requests: 300,
      transportReps: 1,
      budgetMin: 5,
      kindCount: 5,
    }
  : {
      counts: [50, 200, 500],
      reps: 3,
      studyCount: 200,
      requests: 1000,
      transportReps: 3,
      budgetMin: 20,
      kindCount: KIND_COUNT,
    };
const RAW = join(__dirname, ".last-run.json");

const log = (line: string): void => console.log(line);

interface Raw {
  ctx: Context;
  samples: Sample[];
  transport: TransportFigure[];
  study: Study;
  /** Absent in the raw samples of runs made before the bench counted requests by kind. */
  kinds?: KindRequests[];
}

function write(raw: Raw): void {
  const results = buildResults(raw.ctx, raw.samples, raw.transport, raw.study, raw.kinds);
  writeFileSync(join(__dirname, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(__dirname, "results.md"), markdown(results, raw.samples));
  log(`wrote bench/results.md and bench/results.json (${Math.round(raw.ctx.durationS)} s of measuring)`);
}

async function measure(): Promise<Raw> {
  const t0 = Date.now();
  const deadline = t0 + PLAN.budgetMin * 60_000;
  const load = new LoadMonitor();
  const installed = install("HEAD", log);
  log(`transport: ${PLAN.requests} requests × ${PLAN.transportReps}, concurrency 1 and 16`);
  const transportFigures = await transport(installed, PLAN.requests, PLAN.transportReps);
  // Untimed: the first engine run of a process pays cold caches (engine, plugin, the package's first load).
  log("warm-up: one untimed engine run of one unit");
  await engineRun({ installed, variant: "ours", shape: "mix", count: UNIT, phases: ["up", "destroy"] });
  log(`scale: ${PLAN.counts.join(", ")} resources, repetition 1`);
  const firstStarted = Date.now();
  const samples: Sample[] = await scale(installed, PLAN.counts, { from: 0, to: 1 }, deadline, log);
  const repSeconds = (Date.now() - firstStarted) / 1000;
  log(`engine options at ${PLAN.studyCount} resources`);
  const studied = await study(installed, PLAN.studyCount, !quick, log);
  log(`requests per resource by kind: ${PLAN.kindCount} of each kind, ours and the plain script`);
  const kinds = await kindRequests(installed, PLAN.kindCount, log);
  if (PLAN.reps > 1) {
    log(`scale: up to ${PLAN.reps - 1} more repetitions within the budget`);
    samples.push(
      ...(await scale(installed, PLAN.counts, { from: 1, to: PLAN.reps }, deadline, log, repSeconds)),
    );
  }
  const ctx: Context = {
    started: new Date(t0).toISOString(),
    durationS: (Date.now() - t0) / 1000,
    quick,
    commit: installed.commit,
    machine: machine().description,
    versions: versions(),
    repetitions: Math.max(...samples.map((s) => s.rep + 1)),
    load: load.stop(),
    latencyMs: LATENCY_MS,
    parallel: PARALLEL,
    warmedUp: true,
  };
  const raw = { ctx, samples, transport: transportFigures, study: studied, kinds };
  writeFileSync(RAW, JSON.stringify(raw));
  return raw;
}

async function main(): Promise<void> {
  if (process.argv.includes("--report-only")) {
    if (!existsSync(RAW)) throw new Error("no bench/.last-run.json: run the bench first");
    write(JSON.parse(readFileSync(RAW, "utf8")) as Raw);
    return;
  }
  write(await measure());
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
