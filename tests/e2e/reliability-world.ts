/**
 * The world of the reliability tests: `n` resources of every kind in one program (their scripts,
 * repository, token and zones seeded first), and the remote truth compared with a stack's state:
 * objects the state does not hold (orphans), more than one object for one resource (duplicates),
 * and objects the state holds that are gone.
 */
import { request } from "undici";
import { BuildTrigger } from "../../provider/resources/build-trigger";
import { ConfigRule } from "../../provider/resources/config-rule";
import { DomainRegistration } from "../../provider/resources/domain-registration";
import { markerOf } from "../../provider/resources/meeting-template/hooks";
import { MeetingApp } from "../../provider/resources/meeting-app";
import { MeetingTemplate } from "../../provider/resources/meeting-template";
import { RepoConnection } from "../../provider/resources/repo-connection";
import { SearchInstance } from "../../provider/resources/search-instance";
import { SearchNamespace } from "../../provider/resources/search-namespace";
import { SearchToken } from "../../provider/resources/search-token";
import { SendingDomain } from "../../provider/resources/sending-domain";
import { TriggerEnvVars } from "../../provider/resources/trigger-env-vars";
import { ZoneContentConverter } from "../../provider/resources/zone-content-converter";
import type { AccountApi } from "../../sdk";
import { RESOURCE_KINDS } from "../../provider/types";
import type { RunningEmulator } from "../../emulator/server";
import type { FaultRule } from "../../emulator/faults";
import { REGISTRANT } from "../helpers/registrar";

export const KINDS = RESOURCE_KINDS;
export type Kind = (typeof KINDS)[number];

export interface World {
  /** Script tags; each carries one production and one preview trigger. */
  tags: string[];
  repo: string;
  token: string;
  zones: string[];
  app: string;
  prefix: string;
}

/** Scripts, a repository connection, a build token and zones for `n` resources of every kind. */
export async function seedWorld(
  em: RunningEmulator,
  api: AccountApi,
  n: number,
  prefix: string,
): Promise<World> {
  const tags: string[] = [];
  for (let s = 0; s < Math.ceil(n / 2); s++) {
    const res = await request(`${em.url}/accounts/${em.accountId}/workers/scripts/${prefix}-script-${s}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${em.token}`, "content-type": "application/json" },
      body: "{}",
    });
    const body: unknown = await res.body.json();
    const tag =
      typeof body === "object" && body && "result" in body ? Reflect.get(Object(body.result), "tag") : "";
    tags.push(String(tag));
  }
  const repo = await api.builds.repos.connections.upsert(
    {},
    {
      provider_type: "github",
      provider_account_id: prefix,
      provider_account_name: prefix,
      repo_id: `${prefix}-seed`,
      repo_name: `${prefix}-seed`,
    },
  );
  const [token] = await api.builds.tokens.list();
  const zones: string[] = [];
  for (let z = 0; z < n; z++)
    zones.push((await api.content.zones.create({}, { name: `${prefix}-${z}.example.com` })).id);
  return {
    tags,
    repo: repo.repo_connection_uuid,
    token: token?.build_token_uuid ?? "",
    zones,
    app: `${prefix}-app`,
    prefix,
  };
}

/** `n` resources of every kind (kinds may be left out); ConfigRules spread over five zones. */
export function buildProgram(w: World, n: number, kinds: readonly Kind[] = KINDS): void {
  const has = (k: Kind): boolean => kinds.includes(k);
  const p = w.prefix;
  for (let i = 0; i < n; i++) {
    if (has("BuildTrigger")) {
      const t = new BuildTrigger(`${p}-t${i}`, {
        externalScriptId: w.tags[Math.floor(i / 2)]!,
        repoConnectionUuid: w.repo,
        buildTokenUuid: w.token,
        kind: i % 2 === 0 ? "production" : "preview",
      });
      if (has("TriggerEnvVars"))
        new TriggerEnvVars(`${p}-v${i}`, {
          triggerUuid: t.triggerUuid,
          variables: { MODE: { value: `m${i}` } },
        });
    }
    if (has("RepoConnection"))
      new RepoConnection(`${p}-r${i}`, {
        providerType: "github",
        providerAccountId: p,
        providerAccountName: p,
        repoId: `${p}-repo-${i}`,
        repoName: `${p}-repo-${i}`,
      });
    if (has("ZoneContentConverter"))
      new ZoneContentConverter(`${p}-z${i}`, { zoneId: w.zones[i]!, value: "on" });
    if (has("ConfigRule"))
      new ConfigRule(`${p}-c${i}`, { zoneId: w.zones[i % 5]!, host: `h${i}.${p}.example.com` });
    if (has("MeetingTemplate"))
      // Identical settings on purpose: only the marker tells these meetings apart.
      new MeetingTemplate(`${p}-m${i}`, { appId: w.app, title: "Standup" });
    if (has("DomainRegistration"))
      new DomainRegistration(`${p}-d${i}`, {
        domainName: `${p}-d${i}.com`,
        contacts: { registrant: REGISTRANT },
      });
    if (has("SearchInstance"))
      new SearchInstance(`${p}-s${i}`, { instanceId: `${p}-s${i}`, type: "r2", source: `${p}-bucket` });
    // One app per world: an app outlives its destroy (the API cannot delete apps), so few are made.
    if (has("MeetingApp") && i === 0) new MeetingApp(`${p}-a${i}`, { name: `${p}-a${i}` });
    // Two at most: a namespace has no setting that a fault could leave half made.
    if (has("SearchNamespace") && i < 2) new SearchNamespace(`${p}-n${i}`, { name: `${p}-n${i}` });
    if (has("SearchToken"))
      new SearchToken(`${p}-k${i}`, { name: `${p}-k${i}`, cfApiId: `${p}-key-${i}`, cfApiKey: "s3cret" });
    if (has("SendingDomain"))
      new SendingDomain(`${p}-e${i}`, { zoneId: w.zones[i]!, name: `mail.${p}-${i}.example.com` });
  }
}

/** The apps a world's program makes (one): they stay after destroy, as registrations do. */
export const APPS_PER_WORLD = 1;

export interface StateResource {
  type: string;
  id?: string;
  outputs?: Record<string, unknown>;
}

/** The resources of a state file, by kind. */
export function stateByKind(raw: string): Map<Kind, StateResource[]> {
  const parsed: unknown = JSON.parse(raw);
  const resources: unknown = Reflect.get(
    Object(Reflect.get(Object(Reflect.get(Object(parsed), "checkpoint")), "latest")),
    "resources",
  );
  const out = new Map<Kind, StateResource[]>(KINDS.map((k) => [k, []]));
  for (const r of Array.isArray(resources) ? resources : []) {
    const type = String(Reflect.get(Object(r), "type"));
    const kind = KINDS.find((k) => type.endsWith(`:${k}`));
    if (kind)
      out.get(kind)?.push({
        type,
        id: String(Reflect.get(Object(r), "id")),
        outputs: Object(Reflect.get(Object(r), "outputs")),
      });
  }
  return out;
}

/** The ids of live remote objects of the world, by kind (meetings: ACTIVE ones). */
export async function remoteByKind(api: AccountApi, w: World): Promise<Map<Kind, string[]>> {
  const out = new Map<Kind, string[]>(KINDS.map((k) => [k, []]));
  const p = w.prefix;
  for (const tag of w.tags) {
    const triggers = await api.builds.triggers.list({ scriptTag: tag });
    for (const t of triggers) {
      out.get("BuildTrigger")?.push(t.trigger_uuid);
      const vars = await api.builds.environmentVariables.list({ triggerUuid: t.trigger_uuid });
      if (Object.keys(vars).length) out.get("TriggerEnvVars")?.push(t.trigger_uuid);
    }
  }
  for (const c of await api.builds.repos.connections.list())
    if (c.repo_id?.startsWith(`${p}-repo-`)) out.get("RepoConnection")?.push(c.repo_connection_uuid);
  for (const z of w.zones) {
    if ((await api.content.contentConverter.get({ zoneId: z })).value === "on")
      out.get("ZoneContentConverter")?.push(z);
    for (const r of (await api.content.configRuleset.get({ zoneId: z }))?.rules ?? [])
      out.get("ConfigRule")?.push(`${z}/${r.ref ?? r.id}`);
    for (const d of await api.email.subdomains.list({ zoneId: z })) out.get("SendingDomain")?.push(d.tag);
  }
  for (const m of await api.meetings.meetings.listAll({ appId: w.app }))
    if (m.status === "ACTIVE") out.get("MeetingTemplate")?.push(m.id);
  for await (const r of api.registrar.registrations.list())
    if (r.domain_name.startsWith(`${p}-d`)) out.get("DomainRegistration")?.push(r.domain_name);
  for await (const s of api.search.instances.list())
    if (s.id.startsWith(`${p}-s`)) out.get("SearchInstance")?.push(`default/${s.id}`);
  for (const a of await api.meetings.apps.list())
    if (a.id && a.name?.startsWith(`${p}-a`)) out.get("MeetingApp")?.push(a.id);
  for await (const ns of api.search.namespaces.list())
    if (ns.name.startsWith(`${p}-n`)) out.get("SearchNamespace")?.push(ns.name);
  for await (const t of api.search.tokens.list({}, { perPage: 100, search: `${p}-k` }))
    if (t.name.startsWith(`${p}-k`)) out.get("SearchToken")?.push(t.id);
  return out;
}

export interface Truth {
  orphans: number;
  duplicates: number;
  missing: number;
  /** Per kind: state count / remote count. */
  table: Record<string, string>;
}

/** State against the remote truth: orphans (remote, not in state), duplicates, missing (state, not remote). */
export async function compare(
  api: AccountApi,
  w: World,
  raw: string,
  kinds: readonly Kind[] = KINDS,
): Promise<Truth> {
  const state = stateByKind(raw);
  const remote = await remoteByKind(api, w);
  let orphans = 0;
  let duplicates = 0;
  let missing = 0;
  const table: Record<string, string> = {};
  for (const k of kinds) {
    const ids = new Set((state.get(k) ?? []).map((r) => r.id ?? ""));
    const live = remote.get(k) ?? [];
    const liveSet = new Set(live);
    orphans += live.filter((id) => !ids.has(id)).length;
    duplicates += live.length - liveSet.size;
    missing += [...ids].filter((id) => !liveSet.has(id)).length;
    table[k] = `${ids.size}/${live.length}`;
  }
  // Meetings: more than one ACTIVE meeting with one marker is a duplicate.
  const markers = new Map<string, number>();
  for (const m of await api.meetings.meetings.listAll({ appId: w.app })) {
    const marker = markerOf(m.ai_config);
    if (m.status === "ACTIVE" && marker) markers.set(marker, (markers.get(marker) ?? 0) + 1);
  }
  for (const c of markers.values()) duplicates += Math.max(0, c - 1);
  return { orphans, duplicates, missing, table };
}

/** The faults of the figure: 429 with Retry-After, 500/503, resets, latency spikes, commit-then-drop. */
export const FAULTS: FaultRule[] = [
  { path: "^/client/v4/", status: 429, retryAfter: "1", errorRate: 0.04 },
  { path: "^/client/v4/", status: 503, errorRate: 0.03 },
  { path: "^/client/v4/", status: 500, errorRate: 0.02 },
  { path: "^/client/v4/", reset: true, errorRate: 0.02 },
  { method: "POST", path: "^/client/v4/", commitThenDrop: true, errorRate: 0.08 },
  { method: "PUT", path: "^/client/v4/", commitThenDrop: true, errorRate: 0.05 },
  { method: "PATCH", path: "^/client/v4/", commitThenDrop: true, errorRate: 0.05 },
  { path: "/meetings|/ai-search/", latencyMs: 400, times: 60 },
];

/** Injected faults in the emulator's request log, by kind of fault; the log is emptied. */
export function drainFaults(em: RunningEmulator): Record<string, number> {
  const counts: Record<string, number> = { "429": 0, "5xx": 0, reset: 0, drop: 0 };
  for (const e of em.requestLog) {
    if (e.fault === "reset") counts.reset!++;
    else if (e.fault === "drop") counts.drop!++;
    else if (e.status === 429) counts["429"]!++;
    else if (e.status >= 500) counts["5xx"]!++;
  }
  em.requestLog.length = 0;
  return counts;
}

/** Retries the provider made, from its lines in the engine's output. */
export const retriesIn = (lines: readonly string[]): number =>
  lines
    .join("")
    .split("\n")
    // The diagnostics summary lists each once (progress lines repeat them behind the resource name).
    .filter((l) => /^\s+(account-api: retrying|\w+: the .* was not made)/.test(l)).length;
