/**
 * State model of the content area: zones, the content_converter setting, the http_config_settings
 * entrypoint, custom hostnames and each zone's origin. Plain JSON (the store persists it); never sees
 * HTTP. Domain errors carry their status and code and the server renders them.
 */
import { randomBytes } from "node:crypto";
import type { Clock } from "../clock";
import { iso } from "../clock";
import { DomainError, conflict, notFound } from "../http";
import { dict, type Store } from "../store";
import {
  CONFIG_PHASE,
  CONTENT_CONVERTER_SETTING,
  type ConfigRuleRequest,
  type ContentConverterValue,
  type CreateCustomHostnameRequest,
  type PatchCustomHostnameRequest,
} from "../../sdk/schemas/content";
import { ExpressionError, evaluate, parseExpression, type RequestFacts } from "./expression";

/** Error codes of this area (the spec shows none; see docs/areas/content.md). */
export const CONTENT_CODES = {
  badRequest: 1001,
  notFound: 1002,
  zoneExists: 1061,
  hostnameExists: 1406,
  invalidExpression: 20021,
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

export interface SettingRecord {
  value: ContentConverterValue;
  modified_on: string | null;
}

/** JSON with sorted keys: equal parameters compare equal whatever order they came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export type RuleRecord = {
  id: string;
  ref: string;
  version: string;
  expression: string;
  action: "set_config";
  /** `content_converter` drives the edge; the service's other set_config parameters are kept as sent. */
  action_parameters: { content_converter?: boolean; [parameter: string]: unknown };
  description: string;
  enabled: boolean;
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

export type CustomHostnameRecord = {
  id: string;
  hostname: string;
  status: "active";
  ssl: { status: "active"; method: string; type: string };
  custom_metadata?: Record<string, string>;
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
  settings: Record<string, SettingRecord>;
  /** http_config_settings entrypoint per zone id. */
  entrypoints: Record<string, RulesetRecord>;
  /** Custom hostnames per zone id, by id, in creation order. */
  hostnames: Record<string, Record<string, CustomHostnameRecord>>;
  /** Origin base URL per zone id. */
  origins: Record<string, string>;
}

const newId = (): string => randomBytes(16).toString("hex");

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

  // ---- setting ---------------------------------------------------------------------------------

  #checkSetting(settingId: string): void {
    if (settingId !== CONTENT_CONVERTER_SETTING)
      throw notFound(`zone setting ${settingId}`, CONTENT_CODES.notFound);
  }

  getSetting(
    zoneId: string,
    settingId: string,
  ): { id: string; value: string; editable: boolean; modified_on: string | null } {
    this.getZone(zoneId);
    this.#checkSetting(settingId);
    const s = this.#s.settings[zoneId] ?? { value: "off", modified_on: null };
    return { id: settingId, value: s.value, editable: true, modified_on: s.modified_on };
  }

  patchSetting(
    zoneId: string,
    settingId: string,
    value: ContentConverterValue,
  ): ReturnType<ContentModel["getSetting"]> {
    this.getZone(zoneId);
    this.#checkSetting(settingId);
    this.#s.settings[zoneId] = { value, modified_on: this.#now() };
    return this.getSetting(zoneId, settingId);
  }

  // ---- entrypoint ------------------------------------------------------------------------------

  #checkPhase(phase: string): void {
    if (phase !== CONFIG_PHASE) {
      throw new DomainError(400, {
        code: CONTENT_CODES.badRequest,
        message: `phase: must be ${CONFIG_PHASE} (the only phase the emulator serves)`,
      });
    }
  }

  getEntrypoint(zoneId: string, phase: string): RulesetRecord {
    this.getZone(zoneId);
    this.#checkPhase(phase);
    const rs = this.#s.entrypoints[zoneId];
    if (!rs) throw notFound(`entrypoint ruleset of phase ${phase}`, CONTENT_CODES.notFound);
    return rs;
  }

  /**
   * Replaces the entrypoint's rules. A rule keeps its identity (id) when the request names its id or
   * its ref; its own version moves only when its content changed. The ruleset version moves on every PUT.
   */
  putEntrypoint(zoneId: string, phase: string, rules: readonly ConfigRuleRequest[]): RulesetRecord {
    this.getZone(zoneId);
    this.#checkPhase(phase);
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
      const content = {
        ref: r.ref ?? old?.ref,
        expression: r.expression,
        action: "set_config" as const,
        action_parameters: { ...r.action_parameters },
        description: r.description ?? "",
        enabled: r.enabled ?? true,
      };
      if (!old) {
        const id = newId();
        return { id, ...content, ref: content.ref ?? id, version: "1", last_updated: now };
      }
      const changed =
        content.ref !== old.ref ||
        content.expression !== old.expression ||
        canonical(content.action_parameters) !== canonical(old.action_parameters) ||
        content.description !== old.description ||
        content.enabled !== old.enabled;
      if (!changed) return old;
      return {
        ...old,
        ...content,
        ref: content.ref ?? old.ref,
        version: String(Number(old.version) + 1),
        last_updated: now,
      };
    });
    const refs = new Map<string, number>();
    next.forEach((r, i) => {
      const j = refs.get(r.ref);
      if (j !== undefined)
        throw badField(`rules.${i}.ref`, `must be unique within the ruleset (rules.${j} has it)`);
      refs.set(r.ref, i);
    });
    const ruleset: RulesetRecord = previous
      ? { ...previous, version: String(Number(previous.version) + 1), last_updated: now, rules: next }
      : {
          id: newId(),
          name: "default",
          description: "",
          kind: "zone",
          phase,
          version: "1",
          last_updated: now,
          rules: next,
        };
    this.#s.entrypoints[zoneId] = ruleset;
    return ruleset;
  }

  /** Every check of putEntrypoint, with the entrypoint left as it was. */
  checkEntrypoint(zoneId: string, phase: string, rules: readonly ConfigRuleRequest[]): void {
    const previous = this.#s.entrypoints[zoneId];
    try {
      this.putEntrypoint(zoneId, phase, rules);
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
    const record: CustomHostnameRecord = {
      id: newId(),
      hostname,
      status: "active",
      ssl: { status: "active", method: req.ssl?.method ?? "http", type: req.ssl?.type ?? "dv" },
      ...(req.custom_metadata ? { custom_metadata: { ...req.custom_metadata } } : {}),
      created_at: this.#now(),
    };
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

  /** `custom_metadata` replaces the whole map; an empty map removes it. */
  patchCustomHostname(zoneId: string, id: string, patch: PatchCustomHostnameRequest): CustomHostnameRecord {
    const record = this.getCustomHostname(zoneId, id);
    if (patch.ssl)
      record.ssl = { status: "active", method: patch.ssl.method, type: patch.ssl.type ?? record.ssl.type };
    if (patch.custom_metadata) {
      if (Object.keys(patch.custom_metadata).length) record.custom_metadata = { ...patch.custom_metadata };
      else delete record.custom_metadata;
    }
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
    let on = (this.#s.settings[zoneId]?.value ?? "off") === "on";
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
