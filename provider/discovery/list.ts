/**
 * Every object of the eight resource kinds in an account, as a stack would name it: the resource id
 * its state would hold, and the import id `pulumi import` (and the native provider's read) takes.
 *
 * What the API cannot list is scoped by the caller: zone settings and rules in the zones named (all
 * of the token's zones when none is), meetings in the apps named (the API lists no apps), search
 * instances in the default namespace and the ones named. A trigger's variables are an object only
 * when the trigger holds at least one.
 */
import type { AccountApi } from "../../sdk/account-api";
import type { ResourceKind } from "../types";

export interface DiscoveredObject {
  readonly kind: ResourceKind;
  /** The resource id a stack managing it holds. */
  readonly id: string;
  /** What `pulumi import` and `importId` take (import-ids.ts), where it is not `id`. */
  readonly importId: string;
  /** A short human label (a name, a title, a host). */
  readonly label: string;
  /**
   * Identity inputs the listing knows and a read by id alone does not give back (a stored state
   * holds them): a trigger's repository connection, a setting's zone, an instance's namespace.
   */
  readonly identity?: Readonly<Record<string, string>>;
}

export interface ListScope {
  /** Zone ids; all the token's zones when absent or empty. */
  readonly zones?: readonly string[];
  /** Meeting app ids (the API has no listing of apps). */
  readonly apps?: readonly string[];
  /** Search namespaces besides the default one. */
  readonly namespaces?: readonly string[];
}

const object = (
  kind: ResourceKind,
  id: string,
  label: string,
  importId = id,
  identity?: Record<string, string>,
): DiscoveredObject => ({ kind, id, importId, label, ...(identity ? { identity } : {}) });

async function builds(api: AccountApi): Promise<DiscoveredObject[]> {
  const found: DiscoveredObject[] = [];
  for (const script of await api.builds.listScripts()) {
    for (const t of await api.builds.listTriggers(script.tag)) {
      const repo = t.repo_connection?.repo_connection_uuid;
      found.push(
        object(
          "BuildTrigger",
          t.trigger_uuid,
          `${script.id}: ${t.trigger_name ?? ""}`,
          `${script.id}/${t.trigger_uuid}`,
          repo ? { repoConnectionUuid: repo } : undefined,
        ),
      );
      const vars = await api.builds.getEnvironmentVariables(t.trigger_uuid);
      const keys = Object.keys(vars).sort();
      if (keys.length) found.push(object("TriggerEnvVars", t.trigger_uuid, keys.join(", ")));
    }
  }
  for (const c of await api.builds.listRepoConnections())
    found.push(object("RepoConnection", c.repo_connection_uuid, `${c.provider_type}/${c.repo_name}`));
  return found;
}

async function content(api: AccountApi, zones: readonly string[] | undefined): Promise<DiscoveredObject[]> {
  const ids = zones?.length ? zones : (await api.content.listZones().toArray()).map((z) => z.id);
  const found: DiscoveredObject[] = [];
  for (const zoneId of ids) {
    const setting = await api.content.getContentConverter({ zoneId });
    found.push(
      object("ZoneContentConverter", zoneId, `content_converter ${setting.value}`, zoneId, { zoneId }),
    );
    const ruleset = await api.content.getConfigRuleset({ zoneId });
    for (const rule of ruleset?.rules ?? []) {
      if (rule.action !== "set_config") continue;
      const id = `${zoneId}/${rule.ref ?? rule.id}`;
      found.push(object("ConfigRule", id, rule.description || rule.expression));
    }
  }
  return found;
}

async function meetings(api: AccountApi, apps: readonly string[]): Promise<DiscoveredObject[]> {
  const found: DiscoveredObject[] = [];
  for (const appId of apps)
    for (const m of await api.meetings.listAllMeetings({ appId }))
      found.push(object("MeetingTemplate", m.id, m.title ?? "", `${appId}/${m.id}`));
  return found;
}

async function registrar(api: AccountApi): Promise<DiscoveredObject[]> {
  const found: DiscoveredObject[] = [];
  for await (const r of api.registrar.listRegistrations())
    found.push(object("DomainRegistration", r.domain_name, r.domain_name));
  return found;
}

async function search(api: AccountApi, namespaces: readonly string[]): Promise<DiscoveredObject[]> {
  const found: DiscoveredObject[] = [];
  for (const namespace of ["default", ...namespaces.filter((n) => n !== "default")]) {
    const instances = api.search.listInstances(namespace === "default" ? {} : { namespace });
    for await (const i of instances)
      found.push(
        object(
          "SearchInstance",
          `${namespace}/${i.id}`,
          i.id,
          `${namespace}/${i.id}`,
          namespace === "default" ? undefined : { namespace },
        ),
      );
  }
  return found;
}

/** Every object in scope, in the order of RESOURCE_KINDS' areas, each list sorted by id. */
export async function listAccount(api: AccountApi, scope: ListScope = {}): Promise<DiscoveredObject[]> {
  const all = [
    ...(await builds(api)),
    ...(await content(api, scope.zones)),
    ...(await meetings(api, scope.apps ?? [])),
    ...(await registrar(api)),
    ...(await search(api, scope.namespaces ?? [])),
  ];
  return all.sort((a, b) => a.kind.localeCompare(b.kind) || a.id.localeCompare(b.id));
}
