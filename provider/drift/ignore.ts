/**
 * The drift ignore file (`.account-api-driftignore`): drift a team accepts, each entry with a reason
 * and an optional expiry. One entry a line:
 *
 *     PATTERN | REASON [| EXPIRES]
 *
 * PATTERN is `TYPE NAME [PROPERTY]`: TYPE the resource's type (`account-api:BuildTrigger`) or its kind
 * alone (`BuildTrigger`), NAME the resource's name, PROPERTY a dotted path of the report
 * (`variables.MODE.value`) that also covers everything below it. `*` stands for any run of
 * characters. Without PROPERTY the entry covers the whole resource (drifted or gone), and an
 * unmanaged object whose id or name NAME matches. EXPIRES is the last day (UTC, YYYY-MM-DD) the entry
 * applies; past it the entry is reported and not applied. `#` starts a comment line.
 *
 * Pure: text and today's date in, entries or a report out.
 */
import {
  summarize,
  type DriftReport,
  type ExpiredIgnore,
  type IgnoredBy,
  type PropertyChange,
  type ResourceDrift,
  type UnmanagedObject,
} from "./report";

export const IGNORE_FILE = ".account-api-driftignore";

export interface IgnoreEntry extends IgnoredBy {
  type: string;
  name: string;
  property?: string;
}

/** Every bad line of an ignore file, each named by its line and the rule it breaks. */
export class DriftIgnoreError extends Error {
  constructor(
    readonly file: string,
    readonly issues: readonly { line: number; rule: string }[],
  ) {
    super(issues.map((i) => `${file}:${i.line}: ${i.rule}`).join("; "));
    this.name = "DriftIgnoreError";
  }
}

const FORM = "an entry is PATTERN | REASON [| EXPIRES]";
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(text);
}

/** One line's entry, or the rule it breaks. */
function parseLine(text: string, line: number): IgnoreEntry | string {
  const fields = text.split("|").map((f) => f.trim());
  if (fields.length < 2) return `no reason: ${FORM}`;
  if (fields.length > 3) return `${fields.length} fields: ${FORM}`;
  const [pattern = "", reason = "", expires] = fields;
  const tokens = pattern.split(/\s+/).filter(Boolean);
  if (tokens.length < 2 || tokens.length > 3)
    return `pattern ${JSON.stringify(pattern)}: must be TYPE NAME [PROPERTY] (e.g. "BuildTrigger prod buildCommand")`;
  if (!reason) return `no reason: every entry says why the drift is accepted (${FORM})`;
  if (expires !== undefined && !isDate(expires))
    return `expiry ${JSON.stringify(expires)}: must be a date YYYY-MM-DD (the last day the entry applies)`;
  const [type = "", name = "", property] = tokens;
  return {
    line,
    pattern: tokens.join(" "),
    reason,
    type,
    name,
    ...(property ? { property } : {}),
    ...(expires ? { expires } : {}),
  };
}

/** The entries of an ignore file; every bad line at once in a DriftIgnoreError. */
export function parseIgnoreFile(text: string, file = IGNORE_FILE): IgnoreEntry[] {
  const entries: IgnoreEntry[] = [];
  const issues: { line: number; rule: string }[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const trimmed = raw.trim();
    if (!trimmed || trimmed.startsWith("#")) return;
    const parsed = parseLine(trimmed, i + 1);
    if (typeof parsed === "string") issues.push({ line: i + 1, rule: parsed });
    else entries.push(parsed);
  });
  if (issues.length) throw new DriftIgnoreError(file, issues);
  return entries;
}

/** A glob with `*` for any run of characters, as a whole-string regex; `below` also takes `.<more>`. */
function glob(pattern: string, below = false): RegExp {
  const body = pattern
    .split("*")
    .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}${below ? "(?:\\..*)?" : ""}$`);
}

const kindOf = (type: string): string => type.split(":").pop() ?? type;

function typeMatches(e: IgnoreEntry, type: string): boolean {
  const re = glob(e.type);
  return re.test(type) || re.test(kindOf(type));
}

const byOf = (e: IgnoreEntry): IgnoredBy => ({
  line: e.line,
  pattern: e.pattern,
  reason: e.reason,
  ...(e.expires ? { expires: e.expires } : {}),
});

/** Today's date as the entries write it (UTC). */
export const today = (now: Date = new Date()): string => now.toISOString().slice(0, 10);

function applyToResource(res: ResourceDrift, entries: readonly IgnoreEntry[]): ResourceDrift {
  if (res.status !== "drifted" && res.status !== "gone") return res;
  const mine = entries.filter((e) => typeMatches(e, res.type) && glob(e.name).test(res.name));
  const whole = mine.find((e) => e.property === undefined);
  if (whole) return { ...res, status: "ignored", ignoredBy: byOf(whole) };
  if (res.status === "gone") return res;
  const kept: PropertyChange[] = [];
  const hidden: NonNullable<ResourceDrift["ignoredChanges"]> = [];
  for (const c of res.changes) {
    const e = mine.find((x) => x.property !== undefined && glob(x.property, true).test(c.path));
    if (e) hidden.push({ ...c, ignoredBy: byOf(e) });
    else kept.push(c);
  }
  if (!hidden.length) return res;
  return { ...res, status: kept.length ? "drifted" : "ignored", changes: kept, ignoredChanges: hidden };
}

function applyToObject(o: UnmanagedObject, entries: readonly IgnoreEntry[]): UnmanagedObject {
  const e = entries.find(
    (x) =>
      x.property === undefined &&
      typeMatches(x, o.kind) &&
      (glob(x.name).test(o.id) || glob(x.name).test(o.name)),
  );
  return e ? { ...o, ignoredBy: byOf(e) } : o;
}

/**
 * The report with the entries applied that have not expired by `day` (YYYY-MM-DD, UTC): the changes
 * and resources they cover are "ignored" (shown, not counted as drift); expired entries are listed.
 */
export function applyIgnores(report: DriftReport, entries: readonly IgnoreEntry[], day: string): DriftReport {
  const expired: ExpiredIgnore[] = [];
  const live: IgnoreEntry[] = [];
  for (const e of entries) {
    if (e.expires !== undefined && e.expires < day) expired.push({ ...byOf(e), expires: e.expires });
    else live.push(e);
  }
  const resources = report.resources.map((r) => applyToResource(r, live));
  const unmanaged = report.unmanaged && {
    ...report.unmanaged,
    objects: report.unmanaged.objects.map((o) => applyToObject(o, live)),
  };
  return summarize(report.stack, resources, report.error, {
    expiredIgnores: [...(report.expiredIgnores ?? []), ...expired],
    ...(unmanaged ? { unmanaged } : {}),
  });
}
