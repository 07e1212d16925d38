/**
 * A build's life is a pure function of its stored record and the clock: queued → initializing →
 * running → stopped, each phase a fixed length, the log a fixed script of lines written one per
 * second. Nothing is scheduled, so a test advances a ManualClock and reads the next state.
 */
import { createHash } from "node:crypto";
import type { BuildRecord } from "./model";

export const QUEUED_MS = 2_000;
export const INITIALIZING_MS = 3_000;
export const LINE_MS = 1_000;

export type Outcome = "success" | "fail" | "cancelled";
export type Status = "queued" | "initializing" | "running" | "stopped";

export interface LogLine {
  at: number;
  text: string;
}

/** The deterministic outcome rule: a branch or commit hash containing "fail" fails, anything else succeeds. */
export function plannedOutcome(b: { branch: string; commit_hash: string }): "success" | "fail" {
  return /fail/i.test(b.branch) || /fail/i.test(b.commit_hash) ? "fail" : "success";
}

/** UUID-shaped id derived from a seed, so effects replayed after a restart get the same ids. */
export function uuidFrom(seed: string): string {
  const h = createHash("sha256").update(seed).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function versionIdOf(b: { build_uuid: string }): string {
  return uuidFrom(`${b.build_uuid}:version`);
}

export function deploymentIdOf(b: { build_uuid: string }): string {
  return uuidFrom(`${b.build_uuid}:deployment`);
}

/** The whole planned log of an uncancelled build. */
export function plannedLines(b: BuildRecord): {
  lines: LogLine[];
  initializingOn: number;
  runningOn: number;
  stoppedOn: number;
} {
  const initializingOn = b.created_on + QUEUED_MS;
  const runningOn = initializingOn + INITIALIZING_MS;
  const t = b.trigger;
  const repo = b.repo ? `${b.repo.provider_type}/${b.repo.repo_name}` : "(repository connection deleted)";
  const init: LogLine[] = [
    { at: initializingOn, text: "Initializing build environment..." },
    {
      at: initializingOn + LINE_MS,
      text: `Cloning ${repo} (branch ${b.branch}, commit ${b.commit_hash.slice(0, 7)})`,
    },
  ];
  const vars = Object.entries(t.environment_variables);
  const running: string[] = [
    !t.build_caching_enabled
      ? "Build caching is disabled"
      : b.cache_restored
        ? "Restored build cache"
        : "No build cache to restore",
    vars.length === 0
      ? "No build environment variables"
      : `Build environment variables: ${vars.map(([k, v]) => `${k}=${v.is_secret ? "********" : v.value}`).join(", ")}`,
    `Installing dependencies in ${t.root_directory || "/"}`,
    t.build_command
      ? `Executing user build command: ${t.build_command}`
      : "No build command; skipping the build step",
    "Compiling sources...",
  ];
  const versionId = versionIdOf(b);
  if (plannedOutcome(b) === "fail") {
    running.push("✘ Build failed: the build command exited with code 1");
  } else {
    running.push(
      "Build command finished",
      `Executing user deploy command: ${t.deploy_command}`,
      `Uploaded ${b.script_name} (version ${versionId})`,
      b.kind === "production"
        ? `Deployed ${b.script_name}: version ${versionId} at 100%`
        : `Uploaded preview version ${versionId}; the live deployment is unchanged`,
      "Success: build completed",
    );
  }
  const lines = [...init, ...running.map((text, i) => ({ at: runningOn + i * LINE_MS, text }))];
  return { lines, initializingOn, runningOn, stoppedOn: runningOn + (running.length - 1) * LINE_MS };
}

export interface BuildView {
  status: Status;
  outcome: Outcome | null;
  initializingOn: number | null;
  runningOn: number | null;
  stoppedOn: number | null;
  modifiedOn: number;
  /** Lines written so far. */
  lines: LogLine[];
  /** When the build stops (or stopped), whatever `now` is. */
  finalStoppedOn: number;
  finalOutcome: Outcome;
}

/** What the build looks like at `now`. A cancel cuts the plan at `cancelled_on`. */
export function viewBuild(b: BuildRecord, now: number): BuildView {
  const plan = plannedLines(b);
  const cancelled = b.cancelled_on !== undefined && b.cancelled_on < plan.stoppedOn;
  const stopAt = cancelled ? b.cancelled_on! : plan.stoppedOn;
  const finalOutcome: Outcome = cancelled ? "cancelled" : plannedOutcome(b);
  const all = cancelled
    ? [...plan.lines.filter((l) => l.at < stopAt), { at: stopAt, text: "Build cancelled" }]
    : plan.lines;
  const reached = (t: number): number | null => (t <= now && t <= stopAt ? t : null);
  const initializingOn = cancelled && plan.initializingOn >= stopAt ? null : reached(plan.initializingOn);
  const runningOn = cancelled && plan.runningOn >= stopAt ? null : reached(plan.runningOn);
  const stoppedOn = stopAt <= now ? stopAt : null;
  const status: Status =
    stoppedOn !== null
      ? "stopped"
      : runningOn !== null
        ? "running"
        : initializingOn !== null
          ? "initializing"
          : "queued";
  return {
    status,
    outcome: stoppedOn !== null ? finalOutcome : null,
    initializingOn,
    runningOn,
    stoppedOn,
    modifiedOn: Math.max(b.created_on, initializingOn ?? 0, runningOn ?? 0, stoppedOn ?? 0),
    lines: all.filter((l) => l.at <= now),
    finalStoppedOn: stopAt,
    finalOutcome,
  };
}
