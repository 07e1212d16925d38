/**
 * State model of the content area: zones, the content_converter setting, the http_config_settings
 * entrypoint, custom hostnames and each zone's origin. Plain JSON (the store persists it); never sees
 * HTTP. Domain errors carry their status and code and the server renders them.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { Clock } from "../clock";
import { iso } from "../clock";
import { DomainError, conflict, notFound } from "../http";
import { dict, type Store } from "../store";
import {
  CONFIG_PHASE,
  CONTENT_CONVERTER_SETTING,
  zoneSetting,
  settingIssues,
  type ConfigRuleRequest,
  type CreateCustomHostnameRequest,
  type CustomHostnameSslRequest,
  type EditZoneSettingRequest,
  type PatchCustomHostnameRequest,
  type PutConfigRulesetRequest,
  type SettingShape,
} from "../../sdk/schemas/content";
import { ExpressionError, evaluate, parseExpression, type RequestFacts } from "./expression";

/** Error codes of this area (the spec shows none; see docs/areas/content.md). */
export const CONTENT_CODES = {
  badRequest: 1001,
  notFound: 1002,
  zoneExists: 1061,
  hostnameExists: 1406,
  invalidExpression: 20021,
  /** A second ruleset of an entrypoint phase made through the collection. */
  entrypointExists: 20217,
  noOrigin: 1020,
  originUnreachable: 1021,
} as const;

export type ZoneRecord = {
  id: string;
  name: string;
  status: "active";
  account: { id: string };
  created_on: string;
  modified_on: string;
};

/** A zone setting changed through the API: `value`, or `enabled` for a switch setting. */
export interface SettingRecord {
  value?: unknown;
  enabled?: boolean;
  modified_on: string;
}

/** A zone setting as the API shows it. */
export type SettingView = {
  id: string;
  value?: unknown;
  enabled?: boolean;
  editable: boolean;
  modified_on: string | null;
};

/** JSON with sorted keys: equal parameters compare equal whatever order they came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The fields of a rule that make up its content: a change to any of them moves its version. */
type RuleContent = Pick<
  ConfigRuleRequest,
  "logging" | "categories" | "exposed_credential_check" | "ratelimit"
> & {
  ref: string;
  expression: string;
  action: "set_config";
  /** `content_converter` drives the edge; the service's other set_config parameters are kept as sent. */
  action_parameters: { content_converter?: boolean; [parameter: string]: unknown };
  description: string;
  enabled: boolean;
};

export type RuleRecord = RuleContent & {
  id: string;
  version: string;
  last_updated: string;
};

export type RulesetRecord = {
  id: string;
  name: string;
  description: string;
  kind: "zone";
  phase: string;
  version: string;
  last_updated: string;
  rules: RuleRecord[];
};

/** A custom hostname's certificate as shown: the request's settings without its private keys. */
export type SslRecord = Omit<CustomHostnameSslRequest, "custom_key" | "custom_cert_bundle"> & {
  id: string;
  status: "active";
  method: string;
  type: string;
  bundle_method: string;
};

export type CustomHostnameRecord = {
  id: string;
  hostname: string;
  status: "active";
  /** Only when a create or an edit gave certificate settings: none is invented. */
  ssl?: SslRecord;
  custom_metadata?: Record<string, string>;
  custom_origin_server?: string;
  custom_origin_sni?: string;
  created_at: string;
};

/** Listing filters of the public API; each given one must hold (hostnames compare case-insensitively). */
export interface CustomHostnameFilter {
  exact?: string | undefined;
  contain?: string | undefined;
  startsWith?: string | undefined;
  id?: string | undefined;
}

export interface ContentState {
  /** Zones by id, in creation order. */
  zones: Record<string, ZoneRecord>;
  /** Settings changed through the API, per zone id, by setting id (others read as the catalogue's). */
  settings: Record<string, Record<string, SettingRecord>>;
  /** http_config_settings entrypoint per zone id. */
  entrypoints: Record<string, RulesetRecord>;
  /** Custom hostnames per zone id, by id, in creation order. */
  hostnames: Record<string, Record<string, CustomHostnameRecord>>;
  /** Origin base URL per zone id. */
  origins: Record<string, string>;
}

const newId = (): string => randomBytes(16).toString("hex");
const newUuid = (): string => randomUUID();

/**
 * State saved by earlier emulators kept one setting per zone (content_converter's `{ value,
 * modified_on }`); today's keeps a map per zone. Brought over once, in place.
 */
function upgradeSettings(settings: Record<string, Record<string, SettingRecord>>): void {
  for (const [zoneId, entry] of Object.entries(settings)) {
    if (typeof Reflect.get(entry, "value") !== "string") continue;
    const legacy: unknown = entry;
    const { value, modified_on } = legacy as { value: string; modified_on: string | null };
    settings[zoneId] = dict();
    if (modified_on !== null) settings[zoneId][CONTENT_CONVERTER_SETTING] = { value, modified_on };
  }
}

export class ContentModel {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  get #s(): ContentState {
    return this.store.area<ContentState>("content", () => ({
      zones: dict(),
      settings: dict(),
      entrypoints: dict(),
      hostnames: dict(),
      origins: dict(),
    }));
  }

  /** The changed settings of every zone, in today's shape whatever state file they came from. */
  get #settings(): Record<string, Record<string, SettingRecord>> {
    const settings = this.#s.settings;
    upgradeSettings(settings);
    return settings;
  }

  #now(): string {
    return iso(this.clock.now());
  }

  // ---- zones -----------------------------------------------------------------------------------

  createZone(accountId: string, rawName: string): ZoneRecord {
    const name = rawName.toLowerCase();
    if (this.listZones(accountId, name).length) {
      throw conflict(`zone ${name} already exists in this account`, CONTENT_CODES.zoneExists);
    }
    const now = this.#now();
    const zone: ZoneRecord = {
      id: newId(),
      name,
      status: "active",
      account: { id: accountId },
      created_on: now,
      modified_on: now,
    };
    this.#s.zones[zone.id] = zone;
    return zone;
  }

  listZones(accountId: string, name?: string): ZoneRecord[] {
    const wanted = name?.toLowerCase();
    return Object.values(this.#s.zones).filter(
      (z) => z.account.id === accountId && (wanted === undefined || z.name === wanted),
    );
  }

  getZone(zoneId: string): ZoneRecord {
    const zone = this.#s.zones[zoneId];
    if (!zone) throw notFound(`zone ${zoneId}`, CONTENT_CODES.notFound);
    return zone;
  }

  // ---- settings --------------------------------------------------------------------------------

  #shape(settingId: string): SettingShape {
    const shape = zoneSetting(settingId);
    if (!shape) throw notFound(`zone setting ${settingId}`, CONTENT_CODES.notFound);
    return shape;
  }

  /** A setting of the catalogue: as last changed, else the value a fresh zone has. */
  getSetting(zoneId: string, settingId: string): SettingView {
    this.getZone(zoneId);
    const shape = this.#shape(settingId);
    const stored = this.#settings[zoneId]?.[settingId];
    return {
      id: settingId,
      [shape.key]: stored ? stored[shape.key] : shape.initial,
      editable: true,
      modified_on: stored?.modified_on ?? null,
    };
  }

  /** Changes a setting of the catalogue: an unknown id is a 404, a value its setting refuses a 400. */
  patchSetting(zoneId: string, settingId: string, body: EditZoneSettingRequest): SettingView {
    this.getZone(zoneId);
    const shape = this.#shape(settingId);
    const issues = settingIssues(shape, body);
    if (issues.length)
      throw new DomainError(
        400,
        issues.map((i) => ({ code: CONTENT_CODES.badRequest, message: `${i.field}: ${i.rule}` })),
      );
    const zone = (this.#settings[zoneId] ??= dict());
    zone[settingId] = { [shape.key]: body[shape.key], modified_on: this.#now() };
    return this.getSetting(zoneId, settingId);
  }

  // ---- entrypoint ------------------------------------------------------------------------------

  checkPhase(phase: string): void {
    if (phase !== CONFIG_PHASE) {
      throw new DomainError(400, {
        code: CONTENT_CODES.badRequest,
        message: `phase: must be ${CONFIG_PHASE} (the only phase the emulator serves)`,
      });
    }
  }

  getEntrypoint(zoneId: string, phase: string): RulesetRecord {
    this.getZone(zoneId);
    this.checkPhase(phase);
    const rs = this.#s.entrypoints[zoneId];
    if (!rs) throw notFound(`entrypoint ruleset of phase ${phase}`, CONTENT_CODES.notFound);
    return rs;
  }

  /**
   * Replaces the entrypoint's rules. A rule keeps its identity (id) when the request names its id or
   * its ref; its own version moves only when its content changed. The ruleset version moves on every PUT.
   */
  putEntrypoint(zoneId: string, phase: string, body: PutConfigRulesetRequest): RulesetRecord {
    this.getZone(zoneId);
    const rules = body.rules;
    this.checkPhase(phase);
    const errors = rules.flatMap((r, i) => {
      try {
        parseExpression(r.expression);
        return [];
      } catch (e) {
        if (!(e instanceof ExpressionError)) throw e;
        return [{ code: CONTENT_CODES.invalidExpression, message: `rules.${i}.expression: ${e.message}` }];
      }
    });
    if (errors.length) throw new DomainError(400, errors);

    const now = this.#now();
    const previous = this.#s.entrypoints[zoneId];
    const byId = new Map((previous?.rules ?? []).map((r) => [r.id, r]));
    const byRef = new Map((previous?.rules ?? []).map((r) => [r.ref, r]));
    const claimed = new Map<string, number>();
    const next = rules.map((r, i): RuleRecord => {
      let old: RuleRecord | undefined;
      if (r.id !== undefined) {
        old = byId.get(r.id);
        if (!old) throw badField(`rules.${i}.id`, "no rule with this id in the entrypoint");
      } else if (r.ref !== undefined) {
        old = byRef.get(r.ref);
      }
      if (old) {
        const other = claimed.get(old.id);
        if (other !== undefined)
          throw badField(`rules.${i}`, `names the same existing rule as rules.${other}`);
        claimed.set(old.id, i);
      }
      const content: Omit<RuleContent, "ref"> & { ref: string | undefined } = {
        ref: r.ref ?? old?.ref,
        expression: r.expression,
        action: "set_config" as const,
        action_parameters: { ...r.action_parameters },
        description: r.description ?? "",
        enabled: r.enabled ?? true,
        ...(r.logging ? { logging: r.logging } : {}),
        ...(r.categories ? { categories: r.categories } : {}),
        ...(r.exposed_credential_check ? { exposed_credential_check: r.exposed_credential_check } : {}),
        ...(r.ratelimit ? { ratelimit: r.ratelimit } : {}),
      };
      if (!old) {
        const id = newId();
        return { id, ...content, ref: content.ref ?? id, version: "1", last_updated: now };
      }
      const next = { ...content, ref: content.ref ?? old.ref };
      const { id: _id, version: _v, last_updated: _l, ...before } = old;
      if (canonical(next) === canonical(before)) return old;
      return { ...next, id: old.id, version: String(Number(old.version) + 1), last_updated: now };
    });
    const refs = new Map<string, number>();
    next.forEach((r, i) => {
      const j = refs.get(r.ref);
      if (j !== undefined)
        throw badField(`rules.${i}.ref`, `must be unique within the ruleset (rules.${j} has it)`);
      refs.set(r.ref, i);
    });
    // `name` and `description` are kept when left out; `id` and `version` of the body are echoes of a read.
    const ruleset: RulesetRecord = {
      id: previous?.id ?? newId(),
      name: body.name ?? previous?.name ?? "default",
      description: body.description ?? previous?.description ?? "",
      kind: "zone",
      phase,
      version: previous ? String(Number(previous.version) + 1) : "1",
      last_updated: now,
      rules: next,
    };
    this.#s.entrypoints[zoneId] = ruleset;
    return ruleset;
  }

  /** The zone's entrypoint of `phase`, or undefined when none was made (no 404: the collection asks). */
  findEntrypoint(zoneId: string, phase: string = CONFIG_PHASE): RulesetRecord | undefined {
    this.getZone(zoneId);
    const rs = this.#s.entrypoints[zoneId];
    return rs?.phase === phase ? rs : undefined;
  }

  /** Removes the zone's entrypoint (the collection's DELETE by id): ConfigRule then reads none. */
  deleteEntrypoint(zoneId: string): void {
    delete this.#s.entrypoints[zoneId];
  }

  /** Every check of putEntrypoint, with the entrypoint left as it was. */
  checkEntrypoint(zoneId: string, phase: string, body: PutConfigRulesetRequest): void {
    const previous = this.#s.entrypoints[zoneId];
    try {
      this.putEntrypoint(zoneId, phase, body);
    } finally {
      // putEntrypoint never mutates the previous ruleset, it replaces it: putting it back undoes it.
      if (previous) this.#s.entrypoints[zoneId] = previous;
      else delete this.#s.entrypoints[zoneId];
    }
  }

  // ---- custom hostnames ------------------------------------------------------------------------

  #hostnames(zoneId: string): Record<string, CustomHostnameRecord> {
    this.getZone(zoneId);
    return (this.#s.hostnames[zoneId] ??= dict());
  }

  #findHostname(hostname: string): { zoneId: string; record: CustomHostnameRecord } | undefined {
    for (const [zoneId, all] of Object.entries(this.#s.hostnames)) {
      for (const record of Object.values(all)) if (record.hostname === hostname) return { zoneId, record };
    }
    return undefined;
  }

  createCustomHostname(zoneId: string, req: CreateCustomHostnameRequest): CustomHostnameRecord {
    const all = this.#hostnames(zoneId);
    const hostname = req.hostname.toLowerCase();
    if (this.#findHostname(hostname)) {
      throw conflict(`custom hostname ${hostname} already exists`, CONTENT_CODES.hostnameExists);
    }
    const { hostname: _h, ssl, ...settable } = req;
    const record: CustomHostnameRecord = {
      id: newId(),
      hostname,
      status: "active",
      ...(ssl ? { ssl: sslRecord(ssl) } : {}),
      created_at: this.#now(),
    };
    applyHostnameFields(record, settable);
    all[record.id] = record;
    return record;
  }

  listCustomHostnames(zoneId: string, filter: CustomHostnameFilter = {}): CustomHostnameRecord[] {
    const exact = filter.exact?.toLowerCase();
    const contain = filter.contain?.toLowerCase();
    const startsWith = filter.startsWith?.toLowerCase();
    return Object.values(this.#hostnames(zoneId)).filter(
      (h) =>
        (exact === undefined || h.hostname === exact) &&
        (contain === undefined || h.hostname.includes(contain)) &&
        (startsWith === undefined || h.hostname.startsWith(startsWith)) &&
        (filter.id === undefined || h.id === filter.id),
    );
  }

  getCustomHostname(zoneId: string, id: string): CustomHostnameRecord {
    const record = this.#hostnames(zoneId)[id];
    if (!record) throw notFound(`custom hostname ${id}`, CONTENT_CODES.notFound);
    return record;
  }

  /**
   * Every field is optional: `custom_metadata` replaces the whole map (an empty map removes it),
   * `ssl` replaces the certificate settings (a new certificate, at once active), the origin fields
   * replace theirs.
   */
  patchCustomHostname(zoneId: string, id: string, patch: PatchCustomHostnameRequest): CustomHostnameRecord {
    const record = this.getCustomHostname(zoneId, id);
    const { ssl, ...settable } = patch;
    if (ssl) record.ssl = sslRecord(ssl);
    applyHostnameFields(record, settable);
    return record;
  }

  deleteCustomHostname(zoneId: string, id: string): { id: string } {
    this.getCustomHostname(zoneId, id);
    delete this.#hostnames(zoneId)[id];
    return { id };
  }

  // ---- origin and the edge ---------------------------------------------------------------------

  setOrigin(zoneId: string, url: string): { zone_id: string; url: string } {
    this.getZone(zoneId);
    this.#s.origins[zoneId] = url;
    return { zone_id: zoneId, url };
  }

  getOrigin(zoneId: string): string | undefined {
    this.getZone(zoneId);
    return this.#s.origins[zoneId];
  }

  /**
   * Which zone serves a host: a custom hostname first (it belongs to the zone it was created in),
   * else the zone whose name is the host or its longest suffix.
   */
  resolveHost(host: string): { zone: ZoneRecord; customHostname?: CustomHostnameRecord } | undefined {
    const custom = this.#findHostname(host);
    if (custom) {
      const zone = this.#s.zones[custom.zoneId];
      if (zone) return { zone, customHostname: custom.record };
    }
    let best: ZoneRecord | undefined;
    for (const zone of Object.values(this.#s.zones)) {
      if (host === zone.name || host.endsWith(`.${zone.name}`)) {
        if (!best || zone.name.length > best.name.length) best = zone;
      }
    }
    return best ? { zone: best } : undefined;
  }

  /**
   * Whether conversion is on for one request: the zone setting, then every enabled rule of the
   * entrypoint whose expression matches, in order; a matching rule's content_converter overrides.
   */
  conversionEnabled(zoneId: string, facts: RequestFacts): boolean {
    let on = this.#settings[zoneId]?.[CONTENT_CONVERTER_SETTING]?.value === "on";
    for (const rule of this.#s.entrypoints[zoneId]?.rules ?? []) {
      if (!rule.enabled) continue;
      const param = rule.action_parameters.content_converter;
      if (typeof param === "boolean" && evaluate(parseExpression(rule.expression), facts)) on = param;
    }
    return on;
  }
}

function badField(field: string, rule: string): DomainError {
  return new DomainError(400, { code: CONTENT_CODES.badRequest, message: `${field}: ${rule}` });
}

/** The certificate a custom hostname shows for these settings: issued at once, its keys never shown. */
function sslRecord(ssl: CustomHostnameSslRequest): SslRecord {
  const { custom_key: _key, custom_cert_bundle: _bundle, ...shown } = ssl;
  return {
    ...shown,
    id: newUuid(),
    status: "active",
    method: ssl.method ?? "http",
    type: ssl.type ?? "dv",
    bundle_method: ssl.bundle_method ?? "ubiquitous",
  };
}

/** Metadata and origin fields of a create or an edit, onto a stored custom hostname. */
function applyHostnameFields(
  record: CustomHostnameRecord,
  fields: Omit<PatchCustomHostnameRequest, "ssl">,
): void {
  if (fields.custom_metadata) {
    if (Object.keys(fields.custom_metadata).length) record.custom_metadata = { ...fields.custom_metadata };
    else delete record.custom_metadata;
  }
  if (fields.custom_origin_server !== undefined) record.custom_origin_server = fields.custom_origin_server;
  if (fields.custom_origin_sni !== undefined) record.custom_origin_sni = fields.custom_origin_sni;
}
