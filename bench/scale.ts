/**
 * Scale: up, refresh and destroy of the mix at each count, ours (and the native provider) beside the
 * two baselines in the same run, interleaved repetition by repetition (ours, native, floor, plain) so that a change in the machine's load
 * touches all three alike. Each run has a fresh emulator. The largest count also gives the memory and
 * state figures, and drift.
 */
import type { Installed } from "./install";
import { runEngine } from "./launch";
import { plainScript } from "./plain";
import { UNIT, type Shape, type Variant } from "./programs";
import type { Phase, RunResult } from "./protocol";
import { startWorld } from "./world";

export const PARALLEL = 16;

export interface Sample {
  variant: Variant | "plain";
  count: number;
  rep: number;
  result: RunResult;
}

export interface EngineOptions {
  installed: Installed;
  variant: Variant;
  /** The shapes whose world this run makes (a kind alone needs its own: bench/kinds.ts). */
  shape: Extract<Shape, "mix" | "repos">;
  count: number;
  phases: Phase[];
  skipCheckpoints?: boolean;
  parallel?: number;
}

/** One engine run against a fresh world. */
export async function engineRun(o: EngineOptions): Promise<RunResult> {
  const world = await startWorld(o.shape === "mix" ? o.count / UNIT : 0);
  try {
    return await runEngine({
      program: { variant: o.variant, shape: o.shape, count: o.count, world: world.world },
      installed: o.installed,
      phases: o.phases,
      parallel: o.parallel ?? PARALLEL,
      skipCheckpoints: o.skipCheckpoints ?? false,
    });
  } finally {
    await world.stop();
  }
}

/** The plain script against a fresh world, in this process. */
export async function plainRun(installed: Installed, shape: Shape, count: number): Promise<RunResult> {
  const world = await startWorld(shape === "mix" ? count / UNIT : 0);
  try {
    const s = await plainScript(installed, world.world, shape, count, PARALLEL, world.requests);
    return {
      ...s,
      programPeakRssMb: 0,
      providerPeakRssMb: 0,
    };
  } finally {
    await world.stop();
  }
}

/**
 * Repetition by repetition over all counts: after the first, a repetition runs only if it fits in
 * what is left of the budget (each row says how many it got).
 */
export async function scale(
  installed: Installed,
  counts: readonly number[],
  reps: { from: number; to: number },
  deadline: number,
  log: (line: string) => void,
  /** How long one repetition took before (for the budget), in seconds. */
  estimate = 0,
): Promise<Sample[]> {
  const samples: Sample[] = [];
  const largest = Math.max(...counts);
  let repSeconds = estimate;
  for (let rep = reps.from; rep < reps.to; rep++) {
    if (rep > 0 && Date.now() + repSeconds * 1000 > deadline) {
      log(`  repetition ${rep + 1} skipped: it would not finish within the time budget`);
      break;
    }
    const started = performance.now();
    for (const count of counts) {
      // The native provider runs where the package has it (a bench of an older commit has none).
      const variants = installed.plugin
        ? (["ours", "native", "floor", "plain"] as const)
        : (["ours", "floor", "plain"] as const);
      for (const variant of variants) {
        const phases: Phase[] =
          variant === "ours" && count === largest && rep === 0
            ? ["up", "refresh", "drift", "destroy"]
            : ["up", "refresh", "destroy"];
        const result =
          variant === "plain"
            ? await plainRun(installed, "mix", count)
            : await engineRun({ installed, variant, shape: "mix", count, phases });
        samples.push({ variant, count, rep, result });
        const s = result.seconds;
        log(
          `  ${String(count).padStart(4)} ${variant.padEnd(6)} rep ${rep + 1}: up ${s.up?.toFixed(1)} s, refresh ${s.refresh?.toFixed(1)} s, destroy ${s.destroy?.toFixed(1)} s`,
        );
      }
    }
    repSeconds = (performance.now() - started) / 1000;
    log(`  repetition ${rep + 1} took ${Math.round(repSeconds)} s`);
  }
  return samples;
}
