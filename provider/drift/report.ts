/**
 * The drift report: its shape (the JSON report is this object), and the counts and exit code made
 * from its resources. Pure; events.ts builds the resources, ignore.ts and unmanaged.ts add to them.
 */

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
