/**
 * The shared lister: every object of the resource kinds that the account holds (in the zones named,
 * or all of them; in the realtime apps named, or all of them), read through the sdk and its paginated listings. `account-api drift
 * --unmanaged` compares it with a stack; `account-api discover` calls the same `listAccount`.
 *
 * Here are the containers (the account, each trigger of each script, each app, each zone),
 * walked once; each kind's room lists its own objects in them (its `lister`, core/room.ts), leaving
 * out what a program's delete leaves behind (an INACTIVE meeting, a converter at `off`). Objects
 * that runs make (builds, sync jobs, sent email) are not objects a program manages: left out.
 */
import type { AccountApi } from "../../sdk/account-api";
import { orGone } from "../../sdk/core";
import type { Zone } from "../../sdk/schemas/content";
import type { KindLister, ListedApp, ListingWalk } from "../core/room";
import { roomOf } from "../kinds";
import { composeImportId, importTarget } from "../native/import-ids";
import { RESOURCE_KINDS, type ResourceKind } from "../types";
import type { AccountListing, DiscoveredObject, ListingGap, ListOptions } from "./types";

export type { AccountListing, DiscoveredObject, DiscoveryScope, ListingGap, ListOptions } from "./types";

/** The kinds that live in one kind of container, with their listers, in the kinds' order. */
function listersIn<C extends KindLister["in"]>(
  container: C,
): { kind: ResourceKind; lister: Extract<KindLister, { in: C }> }[] {
  return RESOURCE_KINDS.flatMap((kind) => {
    const lister = roomOf(kind).lister;
    return lister && isIn(lister, container) ? [{ kind, lister }] : [];
  });
}

const isIn = <C extends KindLister["in"]>(l: KindLister, c: C): l is Extract<KindLister, { in: C }> =>
  l.in === c;

function walkOf(api: AccountApi, gaps: ListingGap[], accountId?: string): ListingWalk {
  return {
    api,
    accountId,
    object(kind: ResourceKind, ids, name, scope, settings): DiscoveredObject {
      const importId = composeImportId(kind, ids.resourceId, scope);
      // The native provider reads what this id holds: a malformed one would fail only at `pulumi import`.
      importTarget(kind, importId);
      return { kind, ...ids, importId, name, scope, settings };
    },
    gap: (kind, reason) => void gaps.push({ kind, reason }),
  };
}

/** Runs each lister in turn over one container: their objects in the kinds' order. */
async function inTurn<L>(listers: readonly L[], run: (l: L) => Promise<DiscoveredObject[]>) {
  const out: DiscoveredObject[] = [];
  for (const l of listers) out.push(...(await run(l)));
  return out;
}

/** Each trigger of each script, and what the kinds that live in a trigger find there. */
async function inTriggers(walk: ListingWalk): Promise<DiscoveredObject[]> {
  const listers = listersIn("trigger");
  const out: DiscoveredObject[] = [];
  const { api, accountId } = walk;
  for (const script of await api.builds.scripts.list({ accountId })) {
    const triggers = (await orGone(api.builds.triggers.list({ accountId, scriptTag: script.tag }))) ?? [];
    for (const t of triggers)
      out.push(...(await inTurn(listers, ({ lister }) => lister.list(script, t, walk))));
  }
  return out;
}

/** The zones named (by id or name), or every zone of the account. */
async function zonesOf(api: AccountApi, named: readonly string[] | undefined): Promise<Zone[]> {
  const all = await api.content.zones.list().toArray();
  if (named === undefined) return all;
  return named.map((z) => {
    const zone = all.find((x) => x.id === z || x.name === z.toLowerCase());
    if (!zone) throw new ZoneNotFoundError(z, all);
    return zone;
  });
}

export class ZoneNotFoundError extends Error {
  /** Why, without the zone: what a caller prints after its own name for the zone (`--zone X: …`). */
  readonly reason: string;
  constructor(
    readonly zone: string,
    known: readonly Zone[],
  ) {
    const names = known.map((z) => z.name).join(", ") || "none";
    const reason = `no zone of the account has this id or name (its zones: ${names})`;
    super(`zone ${JSON.stringify(zone)}: ${reason}`);
    this.name = "ZoneNotFoundError";
    this.reason = reason;
  }
}

/**
 * The account's realtime apps, or those named (by id): a filter, where an app named that the listing
 * does not show (one only its meetings made, on a service that lists no such app) is still walked.
 */
async function appsOf(
  api: AccountApi,
  named: readonly string[] | undefined,
  accountId: string | undefined,
): Promise<ListedApp[]> {
  const all = (await api.meetings.apps.list({ accountId })).flatMap((a) =>
    a.id ? [{ ...a, id: a.id }] : [],
  );
  if (named === undefined) return all;
  return [...new Set(named)].map((id) => all.find((a) => a.id === id) ?? { id });
}

/** Every object of the eight kinds, with the kinds that could not be listed and why. */
export async function discoverAccount(api: AccountApi, options: ListOptions = {}): Promise<AccountListing> {
  const gaps: ListingGap[] = [];
  const walk = walkOf(api, gaps, options.accountId);
  const inApps = listersIn("app");
  const inZones = listersIn("zone");
  const parts = await Promise.all([
    inTriggers(walk),
    ...listersIn("account").map(({ lister }) => lister.list(walk)),
    appsOf(api, options.apps, options.accountId).then((apps) =>
      inTurn(apps, (app) => inTurn(inApps, ({ lister }) => lister.list(app, walk))),
    ),
    zonesOf(api, options.zones).then((zones) =>
      inTurn(zones, (zone) => inTurn(inZones, ({ lister }) => lister.list(zone, walk))),
    ),
  ]);
  return { objects: parts.flat(), gaps };
}

/** Every object of the eight kinds in the account (and the zones and apps named). */
export async function listAccount(
  api: AccountApi,
  options: { zones?: string[]; apps?: string[]; accountId?: string } = {},
): Promise<DiscoveredObject[]> {
  return (await discoverAccount(api, options)).objects;
}
