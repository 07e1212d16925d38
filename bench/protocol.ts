/** What the bench process asks of one engine run in a child process, and what the child answers. */
import type { Installed } from "./install";
import type { ProgramSpec } from "./programs";
import type { PhaseTimeline } from "./timeline";

/**
 * - `up`, `refresh`, `destroy`: the engine's commands;
 * - `up-again`: `up` of the unchanged stack;
 * - `up-refreshed`: `up --refresh` of the unchanged stack (refresh in the same run);
 * - `drift`: `account-api drift` over the exported stack (from the installed package).
 */
export type Phase = "up" | "refresh" | "destroy" | "up-again" | "up-refreshed" | "drift";

export interface RunSpec {
  program: ProgramSpec;
  installed: Installed;
  phases: Phase[];
  parallel: number;
  /** PULUMI_SKIP_CHECKPOINTS: the backend writes the checkpoint once, at the end. */
  skipCheckpoints: boolean;
  /** A fresh directory for this run's backend and PULUMI_HOME. */
  scratch: string;
}

export interface StateFigures {
  /** The checkpoint file after `up`. */
  checkpointBytes: number;
  resources: number;
  /** Each distinct serialized provider (`__provider`) in the state, by kind. */
  providers: { kind: string; bytes: number; copies: number }[];
  /** Checkpoint writes seen during `up`, and the bytes they wrote. */
  writes: number;
  bytesWritten: number;
  /** Mean bytes per dynamic resource by part of its record (compact JSON): see STATE_PARTS. */
  parts?: Record<StatePart, number>;
}

/**
 * The parts of a resource's record in the checkpoint: the serialized provider (in inputs and again in
 * outputs, where the engine's dynamic-provider host puts it back for read and delete), the engine's
 * record of where the program declared the resource (`sourcePosition`, `stackTrace`), the rest of
 * inputs and of outputs, and everything else (urn, type, parent, provider reference, dependencies,
 * timestamps).
 */
export const STATE_PARTS = ["provider", "stack", "inputs", "outputs", "other"] as const;
export type StatePart = (typeof STATE_PARTS)[number];

export interface DriftFigures {
  /** `account-api drift` when it worked; the provider's `read` path otherwise. */
  method: "command" | "read-path";
  seconds: number;
  /** The command's own start-up (`--version`), included in `seconds`. */
  startupSeconds?: number;
  resources: number;
  inSync: number;
  note?: string;
}

export interface RunResult {
  seconds: Partial<Record<Phase, number>>;
  /** API requests the emulator served during each phase. */
  requests: Partial<Record<Phase, number>>;
  /** Where each command's time went (bench/timeline.ts); absent in results of older runs. */
  timeline?: Partial<Record<Phase, PhaseTimeline>>;
  state?: StateFigures;
  drift?: DriftFigures;
  programPeakRssMb: number;
  providerPeakRssMb: number;
}

export type ChildMessage = { ok: true; result: RunResult } | { ok: false; error: string };
