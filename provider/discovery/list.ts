/**
 * The shared lister: every object of the eight resource kinds that the account holds (and the zones
 * and meeting apps named), read through the sdk and its paginated listings. `account-api drift
 * --unmanaged` compares it with a stack; `account-api discover` calls the same `listAccount`.
 *
 * Objects that runs make (builds, sync jobs, sent email) are not objects a program manages: left out.
 * Two states are not listed because they are what a program's delete leaves behind, not something
 * anyone made: a meeting that is INACTIVE (the API has no delete; a MeetingTemplate's delete
 * deactivates) and a zone's content converter at `off` (the setting's initial value, which a
 * ZoneContentConverter's delete sets back).
 */
import type { AccountApi } from "../../sdk/account-api";
import { orGone } from "../../sdk/core";
import type { Zone } from "../../sdk/schemas/content";
import { importTarget } from "../native/import-ids";
import { DEFAULT_NAMESPACE } from "../resources/search-instance/hooks";
import type { ResourceKind } from "../types";

/** Where an object lives, in the program's input names (what a resource adopting it sets). */
export interface DiscoveryScope {
  zoneId?: string;
  zoneName?: string;
  appId?: string;
  /** Absent for the default namespace, as SearchInstance stores it. */
  namespace?: string;
  scriptName?: string;
  triggerUuid?: string;
}

export interface DiscoveredObject {
  kind: ResourceKind;
  /** The `importId` the TypeScript resource takes to adopt it (its hooks' `importIdOf`, else the resource id). */
  id: string;
  /** The id a stack's state holds for it once managed: what a stack's resources are compared by. */
  resourceId: string;
  /** The id `pulumi import account-api:index:<Kind>` takes (composite where the kind needs it). */
  importId: string;
  /** A short label for people (a domain, a title, `script/kind`). */
  name: string;
  scope: DiscoveryScope;
  /** The object as the API answers it (wire names): the live settings. */
  settings: Record<string, unknown>;
}

/** A kind that could not be listed (the listing answered 404, or nothing says where to look). */
export interface ListingGap {
  kind: ResourceKind;
  reason: string;
}

export interface ListOptions {
  /** Zone ids or names; absent: every zone of the account. */
  zones?: string[];
  /** Realtime apps whose meetings are listed: the API has no listing of apps, so none without. */
  apps?: string[];
  /** The account (default: the client's). */
  accountId?: string;
}

export interface AccountListing {
  objects: DiscoveredObject[];
  gaps: ListingGap[];
}

const GONE_MEETING_STATUS = "INACTIVE";
const CONVERTER_INITIAL = "off";

/** The id `pulumi import` takes: the resource id, or the composite form import-ids.ts reads. */
function nativeImportId(kind: ResourceKind, resourceId: string, scope: DiscoveryScope): string {
  if (kind === "BuildTrigger") return `${scope.scriptName ?? ""}/${resourceId}`;
  if (kind === "MeetingTemplate") return `${scope.appId ?? ""}/${resourceId}`;
  return resourceId;
}

function object(
  kind: ResourceKind,
  ids: { id: string; resourceId: string },
  name: string,
  scope: DiscoveryScope,
  settings: Record<string, unknown>,
): DiscoveredObject {
  const importId = nativeImportId(kind, ids.resourceId, scope);
  // The native provider reads what this id holds: a malformed one would fail only at `pulumi import`.
  importTarget(kind, importId);
  return { kind, ...ids, importId, name, scope, settings };
}

async function triggersAndVariables(api: AccountApi, accountId?: string): Promise<DiscoveredObject[]> {
  const out: DiscoveredObject[] = [];
  const scripts = await api.builds.listScripts({ accountId });
  for (const script of scripts) {
    const triggers = (await orGone(api.builds.listTriggers(script.tag, { accountId }))) ?? [];
    for (const t of triggers) {
      const scope = { scriptName: script.id };
      const label = `${script.id}/${t.trigger_name ?? t.trigger_uuid}`;
      const uuid = t.trigger_uuid;
      out.push(object("BuildTrigger", { id: uuid, resourceId: uuid }, label, scope, t));
      const variables = (await orGone(api.builds.getEnvironmentVariables(uuid, { accountId }))) ?? {};
      if (Object.keys(variables).length === 0) continue;
      out.push(
        object(
          "TriggerEnvVars",
          { id: uuid, resourceId: uuid },
          `variables of ${label}`,
          { ...scope, triggerUuid: uuid },
          { variables },
        ),
      );
    }
  }
  return out;
}

async function repoConnections(api: AccountApi, gaps: ListingGap[], accountId?: string) {
  const all = await orGone(api.builds.listRepoConnections({ accountId }));
  if (all === undefined) {
    gaps.push({
      kind: "RepoConnection",
      reason: "the API has no listing of repository connections (it answered 404)",
    });
    return [];
  }
  return all.map((c) => {
    const id = c.repo_connection_uuid;
    const label = `${c.provider_type ?? "repo"}/${c.provider_account_name ?? ""}/${c.repo_name ?? c.repo_id ?? ""}`;
    return object("RepoConnection", { id, resourceId: id }, label, {}, c);
  });
}

async function registrations(api: AccountApi, accountId?: string): Promise<DiscoveredObject[]> {
  const out: DiscoveredObject[] = [];
  for await (const r of api.registrar.listRegistrations({ accountId })) {
    const id = r.domain_name;
    out.push(object("DomainRegistration", { id, resourceId: id }, id, {}, r));
  }
  return out;
}

async function searchInstances(api: AccountApi, accountId?: string): Promise<DiscoveredObject[]> {
  const out: DiscoveredObject[] = [];
  for await (const ns of api.search.listNamespaces({ accountId })) {
    const namespace = ns.name === DEFAULT_NAMESPACE ? undefined : ns.name;
    for await (const inst of api.search.listInstances({ accountId, namespace })) {
      const resourceId = `${ns.name}/${inst.id}`;
      const scope = namespace === undefined ? {} : { namespace };
      out.push(object("SearchInstance", { id: inst.id, resourceId }, resourceId, scope, inst));
    }
  }
  return out;
}

async function meetings(api: AccountApi, apps: readonly string[], accountId?: string) {
  const out: DiscoveredObject[] = [];
  for (const appId of apps) {
    for await (const m of api.meetings.listMeetings({ accountId, appId })) {
      if (m.status === GONE_MEETING_STATUS) continue;
      const label = `${appId}/${m.title ?? m.id}`;
      out.push(object("MeetingTemplate", { id: m.id, resourceId: m.id }, label, { appId }, m));
    }
  }
  return out;
}

/** The zones named (by id or name), or every zone of the account. */
async function zonesOf(api: AccountApi, named: readonly string[] | undefined): Promise<Zone[]> {
  const all = await api.content.listZones().toArray();
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

async function zoneObjects(api: AccountApi, zones: readonly Zone[]): Promise<DiscoveredObject[]> {
  const out: DiscoveredObject[] = [];
  for (const zone of zones) {
    const scope = { zoneId: zone.id, zoneName: zone.name };
    const converter = await orGone(api.content.getContentConverter({ zoneId: zone.id }));
    if (converter && converter.value !== CONVERTER_INITIAL)
      out.push(
        object(
          "ZoneContentConverter",
          { id: zone.id, resourceId: zone.id },
          `content converter of ${zone.name}`,
          scope,
          converter,
        ),
      );
    const ruleset = await api.content.getConfigRuleset({ zoneId: zone.id });
    for (const rule of ruleset?.rules ?? []) {
      const ref = rule.ref ?? rule.id;
      const label = `${zone.name}/${rule.description || ref}`;
      const settings = { ...rule, ruleset_id: ruleset?.id };
      out.push(object("ConfigRule", { id: ref, resourceId: `${zone.id}/${ref}` }, label, scope, settings));
    }
  }
  return out;
}

/** Every object of the eight kinds, with the kinds that could not be listed and why. */
export async function discoverAccount(api: AccountApi, options: ListOptions = {}): Promise<AccountListing> {
  const { accountId } = options;
  const gaps: ListingGap[] = [];
  if (!options.apps?.length)
    gaps.push({
      kind: "MeetingTemplate",
      reason: "the API has no listing of realtime apps: meetings are listed only in the apps named",
    });
  const parts = await Promise.all([
    triggersAndVariables(api, accountId),
    repoConnections(api, gaps, accountId),
    registrations(api, accountId),
    searchInstances(api, accountId),
    meetings(api, options.apps ?? [], accountId),
    zonesOf(api, options.zones).then((zones) => zoneObjects(api, zones)),
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
