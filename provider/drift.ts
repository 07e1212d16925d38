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
import { markdownText, shown, shownJson } from "./drift-display";

/** The engine's marker key on a secret value. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic/";
/** How the report shows a secret value: the engine never hands it to us. */
export const MASK = "[secret]";

export type DriftStatus = "in-sync" | "drifted" | "gone" | "unchecked" | "ignored";

/**
 * The version of the JSON report's shape (`schemaVersion`). A field added keeps it; a field removed,
 * renamed or given another meaning raises it. docs/drift.md documents each version.
 */
export const DRIFT_SCHEMA_VERSION = 1 as const;

/** The ignore-file entry that hid a change or a resource. */
export interface IgnoredBy {
  /** The entry's line in the ignore file. */
  line: number;
  pattern: string;
  reason: string;
  /** The last day (UTC) the entry applies, when it has one. */
  expires?: string;
}

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
  /** Changes the ignore file hid, each with its entry (status "ignored" when no other change is left). */
  ignoredChanges?: (PropertyChange & { ignoredBy: IgnoredBy })[];
  /** The entry that hid the whole resource (a drifted or gone one), when a resource pattern did. */
  ignoredBy?: IgnoredBy;
}

export interface DriftCounts {
  resources: number;
  inSync: number;
  drifted: number;
  gone: number;
  unchecked: number;
  /** Drifted or gone resources whose every change the ignore file hid. */
  ignored: number;
}

/** An ignore-file entry past its expiry: reported, not applied. */
export interface ExpiredIgnore extends IgnoredBy {
  expires: string;
}

/** An object of the account, of one of the eight kinds, that the stack does not manage. */
export interface UnmanagedObject {
  kind: string;
  /** The `importId` a TypeScript resource takes to adopt it. */
  id: string;
  /** The id `pulumi import account-api:index:<Kind> <name> <importId>` takes. */
  importId: string;
  name: string;
  /** Where it lives (zoneId, appId, namespace, scriptName), in the program's input names. */
  scope: Record<string, string>;
  /** The entry that accepts it as unmanaged, when one does. */
  ignoredBy?: IgnoredBy;
}

/** Managed of total, for one kind. */
export interface KindCoverage {
  kind: string;
  managed: number;
  total: number;
  /** Why the kind could not be listed (its objects are then not counted). */
  notListed?: string;
}

export interface UnmanagedReport {
  objects: UnmanagedObject[];
  coverage: KindCoverage[];
  /** Over the kinds listed: managed of total, and the share in percent (100 with no objects). */
  overall: { managed: number; total: number; percent: number };
  /** Whether unmanaged objects fail the run (`--fail-on unmanaged`): exit 2. */
  failOn: boolean;
  /** The listing failed: why (the run then exits 1 unless it drifted). */
  error?: string;
}

export interface DriftReport {
  schemaVersion: typeof DRIFT_SCHEMA_VERSION;
  stack: string;
  resources: ResourceDrift[];
  counts: DriftCounts;
  /** 0 no drift, 2 drift (drifted or gone), 1 an error (a resource whose check failed, or the run). */
  exitCode: 0 | 1 | 2;
  /** An error of the run as a whole (the engine stopped), with the resources it did check. */
  error?: string;
  /** Ignore-file entries past their expiry, not applied. */
  expiredIgnores?: ExpiredIgnore[];
  /** With `--unmanaged`: the account's objects the stack does not manage, and coverage per kind. */
  unmanaged?: UnmanagedReport;
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
    // privacyMode is put back through the deprecated domain PUT; locked only where the program sets it.
    locked:
      "the API's registration PATCH changes auto_renew only: `pulumi up --refresh` puts the lock back only where the program sets `locked` (through the deprecated domain PUT); left out, `pulumi up` cannot set the transfer lock back: change it in the dashboard, or `pulumi refresh` to accept it",
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

/** Unmanaged objects that fail the run: with `--fail-on unmanaged`, those no entry accepts. */
export function failingUnmanaged(u: UnmanagedReport | undefined): UnmanagedObject[] {
  return u?.failOn ? u.objects.filter((o) => !o.ignoredBy) : [];
}

/** The exit code: 2 drift (or unmanaged objects that fail), else 1 an error, else 0. */
export function exitCodeOf(r: Omit<DriftReport, "exitCode">): 0 | 1 | 2 {
  if (r.counts.drifted + r.counts.gone > 0 || failingUnmanaged(r.unmanaged).length > 0) return 2;
  return r.error || r.unmanaged?.error || r.resources.some((x) => x.failed) ? 1 : 0;
}

/** Counts and the exit code for a list of resources (and the parts of the report beside them). */
export function summarize(
  stack: string,
  resources: ResourceDrift[],
  error?: string,
  extra: Pick<DriftReport, "expiredIgnores" | "unmanaged"> = {},
): DriftReport {
  const count = (s: DriftStatus) => resources.filter((r) => r.status === s).length;
  const counts: DriftCounts = {
    resources: resources.length,
    inSync: count("in-sync"),
    drifted: count("drifted"),
    gone: count("gone"),
    unchecked: count("unchecked"),
    ignored: count("ignored"),
  };
  const base = { schemaVersion: DRIFT_SCHEMA_VERSION, stack, resources, counts, ...(error ? { error } : {}) };
  const full = {
    ...base,
    ...(extra.expiredIgnores?.length ? { expiredIgnores: extra.expiredIgnores } : {}),
    ...(extra.unmanaged ? { unmanaged: extra.unmanaged } : {}),
  };
  return { ...full, exitCode: exitCodeOf(full) };
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
// Every string of the report is the account's or the engine's (names, ids, paths, values, messages):
// the writers show it through drift-display.ts, never raw, so that what a reader sees is what the
// account holds (no terminal escape, line break, link or markup of its own).

/** A value as one line: JSON with every control escaped (`JSON.parse` gives it back), or a mark. */
export function formatValue(v: unknown): string {
  if (v === undefined) return "(absent)";
  if (v === MASK) return MASK;
  return shownJson(v);
}

const LABEL: Record<DriftStatus, string> = {
  "in-sync": "in sync",
  drifted: "drifted",
  gone: "gone",
  unchecked: "could not be checked",
  ignored: "ignored",
};

function countsOf(c: DriftCounts): string {
  const ignored = c.ignored ? `, ${c.ignored} ignored` : "";
  return `${c.resources} resources: ${c.inSync} in sync, ${c.drifted} drifted, ${c.gone} gone, ${c.unchecked} could not be checked${ignored}`;
}

/**
 * The report's one-line verdict, as display text. A check that failed says so and why: it never
 * reads as "no drift", since an engine that could not run saw no resources at all.
 */
export function verdict(r: DriftReport): string {
  const c = r.counts;
  const failedReads = r.resources.filter((x) => x.failed).length;
  if (r.error) {
    const seen = c.resources ? ` (before it stopped: ${countsOf(c)})` : "";
    return c.drifted + c.gone > 0
      ? `drift found, but the check did not finish: ${shown(r.error)}${seen}`
      : `drift check failed: ${shown(r.error)}${seen}`;
  }
  if (r.exitCode === 1 && r.unmanaged?.error && failedReads === 0)
    return `drift check failed: the account's objects could not be listed: ${shown(r.unmanaged.error)} (${countsOf(c)})`;
  if (r.exitCode === 1)
    return `drift check failed: ${failedReads} of ${c.resources} resources could not be read (${countsOf(c)})`;
  const failing = failingUnmanaged(r.unmanaged).length;
  if (failing > 0 && c.drifted + c.gone === 0)
    return `no drift, but ${failing} unmanaged object${failing === 1 ? "" : "s"} (--fail-on unmanaged): ${countsOf(c)}`;
  if (c.resources === 0) return "no resources, no drift";
  if (r.exitCode === 0 && c.unchecked === 0 && c.ignored === 0)
    return `no drift: ${c.resources} resources checked`;
  return countsOf(c);
}

/** `reason (ignore file line 3, until 2026-12-31)`: how a report names the entry that hid something. */
export function ignoredWhy(by: IgnoredBy): string {
  return `${shown(by.reason)} (ignore file line ${by.line}${by.expires ? `, until ${shown(by.expires)}` : ""})`;
}

/** `BuildTrigger 2 of 3`, or why the kind was not listed. */
export function coverageOf(k: KindCoverage): string {
  return k.notListed
    ? `${shown(k.kind)} not listed (${shown(k.notListed)})`
    : `${shown(k.kind)} ${k.managed} of ${k.total}`;
}

/** The lines after the resources: expired ignore entries, unmanaged objects and coverage. */
function extraLines(r: DriftReport): string[] {
  const lines = (r.expiredIgnores ?? []).map(
    (e) =>
      `ignore entry expired on ${shown(e.expires)}, not applied: line ${e.line} "${shown(e.pattern)}" (${shown(e.reason)})`,
  );
  const u = r.unmanaged;
  if (!u) return lines;
  if (u.error) return [...lines, `unmanaged: the account's objects could not be listed: ${shown(u.error)}`];
  for (const o of u.objects)
    lines.push(
      `unmanaged ${shown(o.kind)} ${shown(o.name)} (importId ${shown(o.id)}; pulumi import id ${shown(o.importId)})${o.ignoredBy ? `: ignored: ${ignoredWhy(o.ignoredBy)}` : ""}`,
    );
  const o = u.overall;
  lines.push(
    `coverage: ${o.percent}% (${o.managed} of ${o.total} objects managed); per kind: ${u.coverage.map(coverageOf).join(", ")}`,
  );
  return lines;
}

/** Why a resource is reported without changes, or hidden whole, as display text. */
const whyOf = (res: ResourceDrift): string | undefined =>
  res.reason !== undefined ? shown(res.reason) : res.ignoredBy ? ignoredWhy(res.ignoredBy) : undefined;

/** `path: old → new`, as display text. */
export const changeLine = (c: PropertyChange): string =>
  `${shown(c.path)}: ${formatValue(c.old)} → ${formatValue(c.new)}`;

/** The human report: one block per resource that is not in sync, the counts, how to go on. */
export function renderText(r: DriftReport): string {
  const lines: string[] = [];
  for (const res of r.resources) {
    if (res.status === "in-sync" && !res.ignoredChanges?.length) continue;
    const why = whyOf(res);
    lines.push(
      `${shown(res.type)} ${shown(res.name)} (${shown(res.id)}): ${LABEL[res.status]}${why ? `: ${why}` : ""}`,
    );
    for (const c of res.changes) lines.push(`  ${changeLine(c)}${c.note ? ` (${shown(c.note)})` : ""}`);
    for (const c of res.ignoredChanges ?? [])
      lines.push(`  ${changeLine(c)} (ignored: ${ignoredWhy(c.ignoredBy)})`);
    if (res.status === "gone")
      lines.push(
        "  deleted outside the program: `pulumi up --refresh` creates it again, `pulumi refresh` drops it from the state",
      );
  }
  lines.push(...extraLines(r), verdict(r));
  if (r.counts.drifted + r.counts.gone > 0) lines.push(...NEXT_STEPS.map((s) => `next: ${s}`));
  return `${lines.join("\n")}\n`;
}

/** Our own Markdown, a command in code: never built from the account's text. */
const RESTORE = "`pulumi up --refresh`";

/**
 * A section for a CI job summary ($GITHUB_STEP_SUMMARY): a heading, the counts, one table. Every
 * cell, heading and list item is display text escaped by markdownText: rendered, it is exactly the
 * text report's words, however hostile the account's names and values.
 */
export function renderMarkdown(r: DriftReport): string {
  const stack = r.stack ? `stack ${markdownText(shown(r.stack))}` : "no stack selected";
  const out = [`### Drift: ${stack}`, "", `**${markdownText(verdict(r))}**`, ""];
  const rows = r.resources.flatMap((res) => {
    const what = markdownText(`${shown(res.type)} ${shown(res.name)}`);
    const status = markdownText(LABEL[res.status]);
    const row = (c: PropertyChange, last: string) =>
      `| ${what} | ${status} | ${markdownText(shown(c.path))} | ${markdownText(formatValue(c.old))} | ${markdownText(formatValue(c.new))} | ${last} |`;
    const hidden = (res.ignoredChanges ?? []).map((c) =>
      row(c, markdownText(`ignored: ${ignoredWhy(c.ignoredBy)}`)),
    );
    const ignored = res.ignoredBy ? `ignored: ${ignoredWhy(res.ignoredBy)}` : undefined;
    if (!res.changes.length && !hidden.length) {
      const cause = res.reason !== undefined ? shown(res.reason) : (ignored ?? "");
      return [`| ${what} | ${status} | ${markdownText(cause)} | | | |`];
    }
    const open = res.changes.map((c) => {
      if (ignored) return row(c, markdownText(ignored));
      if (c.restorable) return row(c, RESTORE);
      return row(c, markdownText(c.note !== undefined ? shown(c.note) : "no"));
    });
    return [...open, ...hidden];
  });
  if (rows.length) {
    out.push("| Resource | Status | Property or reason | Declared (state) | Remote (now) | Restored by |");
    out.push("|---|---|---|---|---|---|");
    out.push(...rows, "");
  }
  const extra = extraLines(r);
  if (extra.length) out.push(...extra.map((l) => `- ${markdownText(l)}`), "");
  if (r.counts.drifted + r.counts.gone > 0) out.push(...NEXT_STEPS.map((s) => `- ${s}`), "");
  return `${out.join("\n")}\n`;
}
