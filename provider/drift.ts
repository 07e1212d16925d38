/**
 * Drift, read from the engine's own refresh preview (`pulumi refresh --preview-only`): the engine
 * reads every resource through its provider and reports, per resource, the state before and after
 * the read. Nothing here decrypts anything: the engine masks secret values in its events, so a
 * secret shows as `[secret]` and its change is only known as "changed".
 *
 * This module is pure (events in, report out) so its rules are tested without an engine; the
 * command (cli/drift.ts) runs the engine and prints.
 */
import type { EngineEvent, StepEventMetadata, StepEventStateMetadata } from "@pulumi/pulumi/automation";
import { deepEqual, isRecord } from "./core/values";

/** The engine's marker key on a secret value. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic/";
/** How the report shows a secret value: the engine never hands it to us. */
export const MASK = "[secret]";

export type DriftStatus = "in-sync" | "drifted" | "gone" | "unchecked";

export interface PropertyChange {
  /** Dotted path below the resource, in the program's naming (`variables.MODE.value`). */
  path: string;
  /** The value in the state: what the last `up` declared or recorded. Secrets are MASK. */
  old: unknown;
  /** The value the API holds now. Secrets are MASK. */
  new: unknown;
  /** False where `pulumi up` cannot put the old value back (the API cannot change the field). */
  restorable: boolean;
  /** Why not, and what to do instead, when not restorable; or what a masked change means. */
  note?: string;
}

export interface ResourceDrift {
  urn: string;
  /** The Pulumi type as a user writes it (`account-api:DomainRegistration`, or the full token for others). */
  type: string;
  name: string;
  id: string;
  status: DriftStatus;
  changes: PropertyChange[];
  /** Why the resource could not be checked (status "unchecked"). */
  reason?: string;
  /** The check failed on an error (not a known limit of the API): the command then exits 1. */
  failed?: boolean;
}

export interface DriftCounts {
  resources: number;
  inSync: number;
  drifted: number;
  gone: number;
  unchecked: number;
}

export interface DriftReport {
  stack: string;
  resources: ResourceDrift[];
  counts: DriftCounts;
  /** 0 no drift, 2 drift (drifted or gone), 1 an error (a resource whose check failed, or the run). */
  exitCode: 0 | 1 | 2;
  /** An error of the run as a whole (the engine stopped), with the resources it did check. */
  error?: string;
}

/**
 * Outputs that are the server's, yet whose change outside the program is drift worth a line, per
 * kind. Other outputs (timestamps, hashes) change with any write and are not reported.
 */
const WATCHED_OUTPUTS: Readonly<Record<string, readonly string[]>> = {
  DomainRegistration: ["status", "locked"],
};

/** Fields `pulumi up` cannot put back, and why: the report says so next to the change. */
const NOT_RESTORABLE: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  DomainRegistration: {
    locked:
      "the API's registration PATCH changes auto_renew only, so `pulumi up` cannot set the transfer lock back: change it in the dashboard, or `pulumi refresh` to accept it",
    privacyMode:
      "privacy is set at registration only (the API's PATCH changes auto_renew only): change it in the dashboard, or `pulumi refresh` to accept it",
    status: "the status is the registry's: neither command changes it; `pulumi refresh` records it",
  },
};

/** A provider may say it could not check a resource (e.g. an API without a read): this output. */
export const UNCHECKED_OUTPUT = "uncheckedReason";

export const NEXT_STEPS = [
  "`pulumi up --refresh` restores the declared values where the API can change them (a plain `pulumi up` compares with the stored state, which still holds them, and changes nothing).",
  "`pulumi refresh` accepts the remote values into the state.",
] as const;

function isSecret(v: unknown): boolean {
  return isRecord(v) && v[SECRET_SIG] !== undefined;
}

/** Secret envelopes become MASK; the engine already replaced their contents by `[secret]`. */
export function masked(v: unknown): unknown {
  if (isSecret(v)) return MASK;
  if (Array.isArray(v)) return v.map(masked);
  if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, masked(x)]));
  return v;
}

/** Leaf-level differences between two values, as dotted paths (arrays compare whole). */
export function leafChanges(
  olds: unknown,
  news: unknown,
  prefix = "",
): { path: string; old: unknown; new: unknown }[] {
  if (isRecord(olds) && isRecord(news) && !isSecret(olds) && !isSecret(news)) {
    const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].sort();
    return keys.flatMap((k) => leafChanges(olds[k], news[k], prefix ? `${prefix}.${k}` : k));
  }
  if (deepEqual(masked(olds), masked(news))) return [];
  return [{ path: prefix, old: masked(olds), new: masked(news) }];
}

/** `pulumi-nodejs:dynamic/account-api:BuildTrigger` → `account-api:BuildTrigger`. */
export function displayType(type: string): string {
  return type.startsWith(DYNAMIC_PREFIX) ? type.slice(DYNAMIC_PREFIX.length) : type;
}

const kindOf = (type: string): string => displayType(type).split(":").pop() ?? type;
const nameOf = (urn: string): string => urn.split("::").pop() ?? urn;

/** Resources a drift report is about: custom resources, not providers (the stack is not custom). */
function reported(m: StepEventMetadata): boolean {
  const state = m.old ?? m.new;
  return state?.custom === true && !m.type.startsWith("pulumi:providers:");
}

const withoutProvider = (o: Record<string, unknown> | undefined): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o ?? {}).filter(([k]) => k !== "__provider"));

/** What changed outside the program: the inputs the read projected, and the kind's watched outputs. */
export function propertyChanges(
  type: string,
  old: StepEventStateMetadata,
  now: StepEventStateMetadata,
): PropertyChange[] {
  const kind = kindOf(type);
  const oldIn = withoutProvider(old.inputs);
  const newIn = withoutProvider(now.inputs);
  const watched = (WATCHED_OUTPUTS[kind] ?? []).filter((k) => !(k in oldIn) && !(k in newIn));
  const pick = (o: Record<string, unknown> | undefined) =>
    Object.fromEntries(watched.map((k) => [k, o?.[k]]));
  const raw = [...leafChanges(oldIn, newIn), ...leafChanges(pick(old.outputs), pick(now.outputs))];
  return raw.map((c) => {
    const why = NOT_RESTORABLE[kind]?.[c.path.split(".")[0] ?? ""];
    return {
      ...c,
      restorable: why === undefined,
      ...(why ? { note: why } : c.old === MASK && c.new === MASK ? { note: "a secret value changed" } : {}),
    };
  });
}

function resourceFrom(m: StepEventMetadata): ResourceDrift {
  const base = { urn: m.urn, type: displayType(m.type), name: nameOf(m.urn), id: (m.old ?? m.new)?.id ?? "" };
  if (m.op === "delete" || m.op === "discard-replaced" || !m.new) {
    return { ...base, status: "gone", changes: [] };
  }
  const unchecked = m.new.outputs?.[UNCHECKED_OUTPUT];
  if (typeof unchecked === "string" && unchecked) {
    return { ...base, status: "unchecked", reason: unchecked, changes: [] };
  }
  const changes = m.old ? propertyChanges(m.type, m.old, m.new) : [];
  return { ...base, status: changes.length ? "drifted" : "in-sync", changes };
}

/** Counts and the exit code for a list of resources. */
export function summarize(stack: string, resources: ResourceDrift[], error?: string): DriftReport {
  const count = (s: DriftStatus) => resources.filter((r) => r.status === s).length;
  const counts: DriftCounts = {
    resources: resources.length,
    inSync: count("in-sync"),
    drifted: count("drifted"),
    gone: count("gone"),
    unchecked: count("unchecked"),
  };
  const exitCode = counts.drifted + counts.gone > 0 ? 2 : error || resources.some((r) => r.failed) ? 1 : 0;
  return { stack, resources, counts, exitCode, ...(error ? { error } : {}) };
}

/**
 * The report of one refresh preview's events. A resource the engine started to read but never
 * finished is "unchecked", with the engine's error for it (or the run's) as the reason.
 */
export function driftFromEvents(
  stack: string,
  events: readonly EngineEvent[],
  runError?: string,
): DriftReport {
  const started = new Map<string, StepEventMetadata>();
  const done = new Map<string, ResourceDrift>();
  const errors = new Map<string, string>();
  for (const e of events) {
    const pre = e.resourcePreEvent?.metadata;
    if (pre && reported(pre)) started.set(pre.urn, pre);
    const out = e.resOutputsEvent?.metadata;
    if (out && reported(out)) done.set(out.urn, resourceFrom(out));
    const failed = e.resOpFailedEvent?.metadata;
    if (failed && reported(failed)) started.set(failed.urn, failed);
    const diag = e.diagnosticEvent;
    if (diag?.urn && diag.severity === "error") {
      const prior = errors.get(diag.urn);
      errors.set(diag.urn, prior ? `${prior}; ${clean(diag.message)}` : clean(diag.message));
    }
  }
  const resources = [...done.values()];
  for (const [urn, m] of started) {
    if (done.has(urn)) continue;
    resources.push({
      urn,
      type: displayType(m.type),
      name: nameOf(urn),
      id: (m.old ?? m.new)?.id ?? "",
      status: "unchecked",
      changes: [],
      reason: errors.get(urn) ?? runError ?? "the engine stopped before reading it",
      failed: true,
    });
  }
  resources.sort((a, b) => a.type.localeCompare(b.type) || a.name.localeCompare(b.name));
  return summarize(stack, resources, runError);
}

/** ESC [ … m: an ANSI colour code. Built from a string, as a control character in a regex literal is refused by lint. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** Engine messages carry ANSI colour codes, colour tags and a trailing newline. */
function clean(message: string): string {
  return message
    .replace(ANSI, "")
    .replace(/<\{%[^%]*%\}>/g, "")
    .trim();
}

// ---- rendering ------------------------------------------------------------------------------------

export function formatValue(v: unknown): string {
  if (v === undefined) return "(absent)";
  if (v === MASK) return MASK;
  return JSON.stringify(v);
}

const LABEL: Record<DriftStatus, string> = {
  "in-sync": "in sync",
  drifted: "drifted",
  gone: "gone",
  unchecked: "could not be checked",
};

function countsOf(c: DriftCounts): string {
  return `${c.resources} resources: ${c.inSync} in sync, ${c.drifted} drifted, ${c.gone} gone, ${c.unchecked} could not be checked`;
}

/**
 * The report's one-line verdict. A check that failed says so and why: it never reads as "no drift",
 * since an engine that could not run saw no resources at all.
 */
export function verdict(r: DriftReport): string {
  const c = r.counts;
  const failedReads = r.resources.filter((x) => x.failed).length;
  if (r.error) {
    const seen = c.resources ? ` (before it stopped: ${countsOf(c)})` : "";
    return c.drifted + c.gone > 0
      ? `drift found, but the check did not finish: ${r.error}${seen}`
      : `drift check failed: ${r.error}${seen}`;
  }
  if (r.exitCode === 1)
    return `drift check failed: ${failedReads} of ${c.resources} resources could not be read (${countsOf(c)})`;
  if (c.resources === 0) return "no resources, no drift";
  if (r.exitCode === 0 && c.unchecked === 0) return `no drift: ${c.resources} resources checked`;
  return countsOf(c);
}

/** The human report: one block per resource that is not in sync, the counts, how to go on. */
export function renderText(r: DriftReport): string {
  const lines: string[] = [];
  for (const res of r.resources) {
    if (res.status === "in-sync") continue;
    lines.push(
      `${res.type} ${res.name} (${res.id}): ${LABEL[res.status]}${res.reason ? `: ${res.reason}` : ""}`,
    );
    for (const c of res.changes) {
      lines.push(`  ${c.path}: ${formatValue(c.old)} → ${formatValue(c.new)}${c.note ? ` (${c.note})` : ""}`);
    }
    if (res.status === "gone")
      lines.push(
        "  deleted outside the program: `pulumi up --refresh` creates it again, `pulumi refresh` drops it from the state",
      );
  }
  lines.push(verdict(r));
  if (r.counts.drifted + r.counts.gone > 0) lines.push(...NEXT_STEPS.map((s) => `next: ${s}`));
  return `${lines.join("\n")}\n`;
}

/** A Markdown cell: pipes and newlines would break the table. */
function cell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

const code = (text: string): string => (text ? `\`${text.replace(/`/g, "'")}\`` : "");

/** A section for a CI job summary ($GITHUB_STEP_SUMMARY): a heading, the counts, one table. */
export function renderMarkdown(r: DriftReport): string {
  const stack = r.stack ? `stack \`${r.stack}\`` : "no stack selected";
  const out = [`### Drift: ${stack}`, "", `**${cell(verdict(r))}**`, ""];
  const rows = r.resources.flatMap((res) => {
    const what = cell(`${res.type} ${res.name}`);
    const status = cell(LABEL[res.status]);
    if (!res.changes.length) return [`| ${what} | ${status} | ${cell(res.reason ?? "")} | | | |`];
    return res.changes.map(
      (c) =>
        `| ${what} | ${status} | ${cell(code(c.path))} | ${cell(code(formatValue(c.old)))} | ${cell(code(formatValue(c.new)))} | ${cell(c.restorable ? "`pulumi up --refresh`" : (c.note ?? "no"))} |`,
    );
  });
  if (rows.length) {
    out.push("| Resource | Status | Property or reason | Declared (state) | Remote (now) | Restored by |");
    out.push("|---|---|---|---|---|---|");
    out.push(...rows, "");
  }
  if (r.counts.drifted + r.counts.gone > 0) out.push(...NEXT_STEPS.map((s) => `- ${s}`), "");
  return `${out.join("\n")}\n`;
}
