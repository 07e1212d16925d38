/**
 * What else the engine offers, each measured once at one count beside the same run's baselines:
 * - repository connections, ours against a naive provider that captures its client and the floor: the
 *   state, and up, refresh and destroy (the issue's own measure of the ratio to the floor);
 * - PULUMI_SKIP_CHECKPOINTS, ours and the floor;
 * - refresh in the same run (`up --refresh`) against `refresh` then `up`;
 * - a higher parallelism (full runs only).
 * A quick run measures only the state.
 */
import type { Installed } from "./install";
import type { RunResult } from "./protocol";
import { engineRun, PARALLEL } from "./scale";

export interface Study {
  count: number;
  state: { ours: RunResult; naive: RunResult; floor: RunResult };
  skipCheckpoints?: { ours: RunResult; floor: RunResult };
  /** ours: up, refresh, up-again (unchanged), up-refreshed (unchanged, --refresh), destroy. */
  sameRun?: RunResult;
  parallel?: { parallel: number; ours: RunResult };
}

export async function study(
  installed: Installed,
  count: number,
  full: boolean,
  log: (line: string) => void,
): Promise<Study> {
  const repos = (variant: "ours" | "naive" | "floor") =>
    engineRun({ installed, variant, shape: "repos", count, phases: ["up", "refresh", "destroy"] });
  const state = { ours: await repos("ours"), naive: await repos("naive"), floor: await repos("floor") };
  for (const [k, r] of Object.entries(state))
    log(
      `  state, ${count} repository connections, ${k}: ${r.state?.checkpointBytes} bytes, up ${r.seconds.up?.toFixed(1)} s, refresh ${r.seconds.refresh?.toFixed(1)} s, destroy ${r.seconds.destroy?.toFixed(1)} s`,
    );
  if (!full) return { count, state };
  const skip = (variant: "ours" | "floor") =>
    engineRun({
      installed,
      variant,
      shape: "mix",
      count,
      phases: ["up", "refresh", "destroy"],
      skipCheckpoints: true,
    });
  const skipCheckpoints = { ours: await skip("ours"), floor: await skip("floor") };
  log(
    `  PULUMI_SKIP_CHECKPOINTS: ours up ${skipCheckpoints.ours.seconds.up?.toFixed(1)} s, floor up ${skipCheckpoints.floor.seconds.up?.toFixed(1)} s`,
  );
  const sameRun = await engineRun({
    installed,
    variant: "ours",
    shape: "mix",
    count,
    phases: ["up", "refresh", "up-again", "up-refreshed", "destroy"],
  });
  log(
    `  refresh then up ${(sameRun.seconds.refresh! + sameRun.seconds["up-again"]!).toFixed(1)} s, up --refresh ${sameRun.seconds["up-refreshed"]?.toFixed(1)} s`,
  );
  const higher = PARALLEL * 4;
  const parallel = {
    parallel: higher,
    ours: await engineRun({
      installed,
      variant: "ours",
      shape: "mix",
      count,
      phases: ["up", "refresh", "destroy"],
      parallel: higher,
    }),
  };
  log(`  parallelism ${higher}: up ${parallel.ours.seconds.up?.toFixed(1)} s`);
  return { count, state, skipCheckpoints, sameRun, parallel };
}
