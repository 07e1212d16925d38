/**
 * The report's sentences every format shares: the verdict, the status words, a change, an ignore
 * entry, the lines after the resources. Every string of the report is the account's or the engine's
 * (names, ids, paths, values, messages): the writers show it through display.ts, never raw, so that
 * what a reader sees is what the account holds (no terminal escape, line break, link or markup of
 * its own).
 */
import {
  MASK,
  failingUnmanaged,
  type DriftCounts,
  type DriftReport,
  type DriftStatus,
  type IgnoredBy,
  type KindCoverage,
  type PropertyChange,
  type ResourceDrift,
} from "../report";
import { shown, shownJson } from "./display";

export const NEXT_STEPS = [
  "`pulumi up --refresh` restores the declared values where the API can change them (a plain `pulumi up` compares with the stored state, which still holds them, and changes nothing).",
  "`pulumi refresh` accepts the remote values into the state.",
] as const;

/** A value as one line: JSON with every control escaped (`JSON.parse` gives it back), or a mark. */
export function formatValue(v: unknown): string {
  if (v === undefined) return "(absent)";
  if (v === MASK) return MASK;
  return shownJson(v);
}

export const LABEL: Record<DriftStatus, string> = {
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
export function extraLines(r: DriftReport): string[] {
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
export const whyOf = (res: ResourceDrift): string | undefined =>
  res.reason !== undefined ? shown(res.reason) : res.ignoredBy ? ignoredWhy(res.ignoredBy) : undefined;

/** `path: old → new`, as display text. */
export const changeLine = (c: PropertyChange): string =>
  `${shown(c.path)}: ${formatValue(c.old)} → ${formatValue(c.new)}`;
