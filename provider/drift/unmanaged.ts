/**
 * `--unmanaged`: the account's objects (provider/discovery/list.ts) set against the stack's
 * resources, by kind and the id the state holds, with a coverage figure per kind. Pure.
 */
import type { DiscoveredObject, ListingGap } from "../discovery/list";
import type { KindCoverage, ResourceDrift, UnmanagedReport } from "./report";
import { RESOURCE_KINDS } from "../types";

const PROVIDER_PREFIX = "account-api:";

/** `account-api:BuildTrigger` (dynamic) or `account-api:index:BuildTrigger` (native) → its kind. */
export function managedKind(type: string): string | undefined {
  if (!type.startsWith(PROVIDER_PREFIX)) return undefined;
  const kind = type.split(":").pop() ?? "";
  return RESOURCE_KINDS.some((k) => k === kind) ? kind : undefined;
}

const key = (kind: string, id: string): string => `${kind}\u0000${id}`;

/** The stack's resources against the listing: what it does not manage, and managed of total per kind. */
export function unmanagedReport(
  stackResources: readonly Pick<ResourceDrift, "type" | "id">[],
  listed: readonly DiscoveredObject[],
  gaps: readonly ListingGap[],
  failOn: boolean,
): UnmanagedReport {
  const managed = new Set(
    stackResources.flatMap((r) => {
      const kind = managedKind(r.type);
      return kind && r.id ? [key(kind, r.id)] : [];
    }),
  );
  const isManaged = (o: DiscoveredObject): boolean => managed.has(key(o.kind, o.resourceId));
  const coverage: KindCoverage[] = RESOURCE_KINDS.map((kind) => {
    const gap = gaps.find((g) => g.kind === kind);
    const mine = listed.filter((o) => o.kind === kind);
    return {
      kind,
      managed: mine.filter(isManaged).length,
      total: mine.length,
      ...(gap ? { notListed: gap.reason } : {}),
    };
  });
  const objects = listed
    .filter((o) => !isManaged(o))
    .map((o) => ({
      kind: o.kind,
      id: o.id,
      importId: o.importId,
      name: o.name,
      scope: Object.fromEntries(
        Object.entries(o.scope).filter((e): e is [string, string] => typeof e[1] === "string"),
      ),
    }));
  const managedCount = coverage.reduce((n, c) => n + c.managed, 0);
  const total = coverage.reduce((n, c) => n + c.total, 0);
  // One decimal, and never 100 while one object is unmanaged.
  const percent = total === 0 ? 100 : Math.floor((1000 * managedCount) / total) / 10;
  return { objects, coverage, overall: { managed: managedCount, total, percent }, failOn };
}

/** The realtime apps the stack's MeetingTemplates live in, from their inputs (kept in when `--app` filters). */
export function stackApps(inputs: readonly { type: string; inputs?: Record<string, unknown> }[]): string[] {
  const apps = inputs.flatMap((r) =>
    managedKind(r.type) === "MeetingTemplate" && typeof r.inputs?.appId === "string" ? [r.inputs.appId] : [],
  );
  return [...new Set(apps)].sort();
}
