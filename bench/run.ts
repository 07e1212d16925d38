/**
 * `npm run bench [-- --quick]`: the package's performance, written to bench/results.md (for people)
 * and bench/results.json (for tools). Figures are never asserted; ratios are measured side by side in
 * one run. Sections: transport, the engine-option study (state beside a naive provider, checkpoints,
 * refresh in the same run, parallelism), then scale (with memory, state and drift at the largest count).
 * Full: 50, 200 and 500 resources, up to 3 repetitions within 20 minutes; quick: 25 and 100, one.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { install } from "./install";
import { LoadMonitor, machine, versions } from "./machine";
import { buildResults, markdown } from "./report";
import { PARALLEL, scale, type Sample } from "./scale";
import { study, type Study } from "./study";
import { transport } from "./transport";
import { LATENCY_MS } from "./world";

const quick = process.argv.includes("--quick");
const PLAN = quick
  ? { counts: [25, 100], reps: 1, studyCount: 50, requests: 300, transportReps: 1, budgetMin: 5 }
  : { counts: [50, 200, 500], reps: 3, studyCount: 200, requests: 1000, transportReps: 3, budgetMin: 20 };

const log = (line: string): void => console.log(line);

async function main(): Promise<void> {
  const t0 = Date.now();
  const deadline = t0 + PLAN.budgetMin * 60_000;
  const load = new LoadMonitor();
  const installed = install("HEAD", log);
  log(`transport: ${PLAN.requests} requests × ${PLAN.transportReps}, concurrency 1 and 16`);
  const transportFigures = await transport(installed, PLAN.requests, PLAN.transportReps);
  log(`engine options at ${PLAN.studyCount} resources`);
  const studied: Study = await study(installed, PLAN.studyCount, log);
  log(`scale: ${PLAN.counts.join(", ")} resources, up to ${PLAN.reps} repetitions`);
  const samples: Sample[] = await scale(installed, PLAN.counts, PLAN.reps, deadline, log);
  const ctx = {
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
  };
  const results = buildResults(ctx, samples, transportFigures, studied);
  writeFileSync(join(__dirname, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(__dirname, "results.md"), markdown(results, samples));
  log(`wrote bench/results.md and bench/results.json in ${Math.round(ctx.durationS)} s`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
