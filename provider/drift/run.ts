/**
 * A drift check from start to report: the engine's refresh preview of the stack (the Automation
 * API's `previewRefresh`, i.e. `pulumi refresh --preview-only`), with `--unmanaged` the account's
 * objects set against it, then the ignore file's entries. The engine decrypts what it needs inside
 * itself and masks secrets in its events; nothing here decrypts the state. Never throws for an
 * engine or a listing failure: the report says it, with exit code 1.
 */
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import type { AccountApi } from "../../sdk";
import { errorLine } from "../../sdk/error-line";
import { discoverAccount } from "../discovery/list";
import { displayType, driftFromEvents } from "./events";
import { applyIgnores, today, type IgnoreEntry } from "./ignore";
import { summarize, type DriftReport } from "./report";
import { stackApps, unmanagedReport } from "./unmanaged";

/** A line of progress while the check runs (the CLI shows it on a terminal). */
export type DriftProgress = (line: string) => void;

const INSTALL_PULUMI =
  "the `pulumi` CLI was not found on PATH: install it (https://www.pulumi.com/docs/iac/download-install/) or add its folder to PATH";

/** Said when the `pulumi` CLI cannot be found: the error a stack selection throws then. */
export class PulumiNotFoundError extends Error {
  constructor() {
    super(INSTALL_PULUMI);
    this.name = "PulumiNotFoundError";
  }
}

/**
 * The engine's own message on failure, without the Automation API's wrapping (`code:`, `stderr:`)
 * or its echo of the command line (`Command failed with exit code 1: pulumi refresh …`).
 */
export function engineError(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  if (/spawn \S*pulumi ENOENT/.test(text)) return INSTALL_PULUMI;
  const stderr = /stderr: ([\s\S]*?)(?:\n\s*err\?:|$)/.exec(text)?.[1]?.trim();
  const lines = (stderr || text)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !/^(code|stdout|stderr):/.test(l) && !/^Command failed with /.test(l))
    .map((l) => l.replace(/^error: /, ""));
  // The token never reaches us, but an engine message might quote configuration: keep it short.
  return errorLine(lines.slice(0, 6).join("\n")) || errorLine(text);
}

/**
 * Runs the refresh preview of one stack and reports drift; never throws for an engine failure. The
 * engine's events are collected in `events` (pass an array to read them afterwards).
 */
export async function stackDrift(
  stack: Stack,
  progress: DriftProgress = () => undefined,
  events: EngineEvent[] = [],
): Promise<DriftReport> {
  const onEvent = (e: EngineEvent): void => {
    events.push(e);
    const done = e.resOutputsEvent?.metadata;
    if (done && done.old?.custom)
      progress(`checked ${displayType(done.type)} ${done.urn.split("::").pop() ?? ""}`);
  };
  try {
    await stack.previewRefresh({ onEvent });
    return driftFromEvents(stack.name, events);
  } catch (err) {
    return driftFromEvents(stack.name, events, engineError(err));
  }
}

/** `--unmanaged`: where to list the account's objects, and whether those found fail the run. */
export interface UnmanagedCheck {
  /** The client to list with; the caller closes it. */
  api: AccountApi;
  /** Zones (id or name) to look in; every zone when absent. */
  zones?: readonly string[];
  /** Realtime apps to look in, with those the stack's MeetingTemplates live in (default: every app). */
  apps?: readonly string[];
  /** `--fail-on unmanaged`: unmanaged objects no ignore entry accepts make the run exit 2. */
  failOn: boolean;
}

/** The account's objects set against the stack's resources; a failed listing is said, not thrown. */
async function withUnmanaged(
  report: DriftReport,
  events: readonly EngineEvent[],
  check: UnmanagedCheck,
): Promise<DriftReport> {
  const { failOn } = check;
  const states = events.flatMap((e) => {
    const m = e.resOutputsEvent?.metadata;
    const state = m?.old ?? m?.new;
    return m && state ? [{ type: displayType(m.type), inputs: state.inputs }] : [];
  });
  try {
    // `--app` filters the apps walked (the stack's own stay in); without it, every app is.
    const apps = check.apps?.length ? { apps: [...new Set([...check.apps, ...stackApps(states)])] } : {};
    const zones = check.zones ? { zones: [...check.zones] } : {};
    const listing = await discoverAccount(check.api, { ...zones, ...apps });
    const unmanaged = unmanagedReport(report.resources, listing.objects, listing.gaps, failOn);
    return summarize(report.stack, report.resources, report.error, { unmanaged });
  } catch (err) {
    const overall = { managed: 0, total: 0, percent: 0 };
    const unmanaged = { objects: [], coverage: [], overall, failOn, error: errorLine(err) };
    return summarize(report.stack, report.resources, report.error, { unmanaged });
  }
}

export interface DriftCheck {
  /** The stack to check; a selection that throws is the run's error (exit 1). */
  selectStack: () => Promise<Stack>;
  /** The stack's name for the report when selecting it failed ("" when none is known). */
  stackName: string;
  /** The ignore file's entries (ignore.ts `parseIgnoreFile`). */
  ignores: readonly IgnoreEntry[];
  /** With `--unmanaged` or `--fail-on unmanaged`. */
  unmanaged?: UnmanagedCheck;
  progress?: DriftProgress;
  /** The day (UTC, YYYY-MM-DD) ignore entries expire against; today by default. */
  day?: string;
}

/** A whole drift check: the report every format renders, and the exit code it carries. */
export async function runDriftCheck(check: DriftCheck): Promise<DriftReport> {
  const progress = check.progress ?? (() => undefined);
  const events: EngineEvent[] = [];
  let report: DriftReport;
  try {
    const stack = await check.selectStack();
    progress(`refresh preview of stack ${stack.name}…`);
    report = await stackDrift(stack, progress, events);
  } catch (err) {
    report = driftFromEvents(check.stackName, [], engineError(err));
  }
  // A stack the engine did not read whole would make every object look unmanaged: no listing then.
  if (check.unmanaged && !report.error) {
    progress("listing the account's objects…");
    report = await withUnmanaged(report, events, check.unmanaged);
  }
  return applyIgnores(report, check.ignores, check.day ?? today());
}
