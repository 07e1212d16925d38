/**
 * Client for the content area (markdown conversion): zones, the `content_converter` zone setting, the
 * `http_config_settings` entrypoint ruleset, custom hostnames, and fetching a page as Markdown.
 */
import { z } from "zod";
import { path, type ApiClient } from "./client";
import { createOnce, orGone, type CallOptions } from "./core";
import { pageStyle, type PagedGenerator } from "./paging";
import {
  CONFIG_PHASE,
  CONTENT_CONVERTER_SETTING,
  ContentConverterSettingSchema,
  ContentConverterValueSchema,
  EditZoneSettingRequestSchema,
  SettingIdSchema,
  zoneSetting,
  settingIssues,
  CreateCustomHostnameRequestSchema,
  CreateZoneRequestSchema,
  CustomHostnameSchema,
  DeletedSchema,
  HostnameSchema,
  PatchCustomHostnameRequestSchema,
  PutConfigRulesetRequestSchema,
  RulesetSchema,
  ZoneIdSchema,
  ZoneSchema,
  ZoneSettingSchema,
  type ConfigRuleRequest,
  type ContentConverterSetting,
  type ContentConverterValue,
  type CreateCustomHostnameRequest,
  type CustomHostname,
  type EditZoneSettingRequest,
  type PatchCustomHostnameRequest,
  type PutConfigRulesetRequest,
  type Ruleset,
  type Zone,
  type ZoneSetting,
} from "./schemas/content";
import { IdentifierSchema } from "./schemas/common";
import { ValidationError } from "./errors";
import { validate } from "./validate";

export type {
  ConfigRule,
  ConfigRuleRequest,
  ContentConverterSetting,
  ContentConverterValue,
  CreateCustomHostnameRequest,
  CustomHostname,
  CustomHostnameSslRequest,
  CustomMetadata,
  EditZoneSettingRequest,
  PatchCustomHostnameRequest,
  PutConfigRulesetRequest,
  Ruleset,
  SetConfigParameters,
  Zone,
  ZoneSetting,
} from "./schemas/content";

/** A page the edge converted (`converted: true`) or served as it was. */
export type MarkdownFetchResult =
  | ({
      converted: true;
      markdownTokens: number;
      originalTokens: number;
      /** The content-signal header as key → value (`{ "ai-train": "yes", ... }`). */
      contentSignal: Record<string, string>;
      headers: Record<string, string>;
    } & MarkdownDocument)
  | { converted: false; response: { status: number; headers: Record<string, string>; body: string } };

const ZoneParamsSchema = z.looseObject({ zoneId: ZoneIdSchema });
const SettingParamsSchema = z.looseObject({ zoneId: ZoneIdSchema, settingId: SettingIdSchema });
const HostnameParamsSchema = z.looseObject({ zoneId: ZoneIdSchema, customHostnameId: IdentifierSchema });
const PER_PAGE = 50;

export class ContentApi {
  constructor(readonly client: ApiClient) {}

  // ---- zones -----------------------------------------------------------------------------------

  /**
   * Creates a zone. A POST is never blindly repeated: after a connection error or timeout the zone is
   * looked up by name and returned if the first attempt landed; only otherwise is it sent again, once.
   */
  async createZone(params: { name: string; accountId?: string }, options: CallOptions = {}): Promise<Zone> {
    const body = validate(
      CreateZoneRequestSchema,
      { name: params.name, account: { id: this.client.account(params.accountId) } },
      "createZone",
    );
    return createOnce(
      () => this.client.request({ method: "POST", path: "/zones", body, schema: ZoneSchema, ...options }),
      () => this.findZone({ name: body.name.toLowerCase() }, options),
      { retries: 1 },
    );
  }

  /** Zones of the token's account, optionally only the one with this name. */
  listZones(params: { name?: string } = {}, options: CallOptions = {}): PagedGenerator<Zone> {
    if (params.name !== undefined) validate(HostnameSchema, params.name, "listZones: name");
    return pageStyle(async (page, perPage) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: "/zones",
        query: { name: params.name, page, per_page: perPage },
        schema: z.array(ZoneSchema),
        ...options,
      });
      return { items: res.value, info: res.resultInfo };
    }, PER_PAGE);
  }

  /** The zone with this name, or undefined. */
  async findZone(params: { name: string }, options: CallOptions = {}): Promise<Zone | undefined> {
    const [zone] = await this.listZones({ name: params.name }, options).toArray();
    return zone;
  }

  async getZone(params: { zoneId: string }, options: CallOptions = {}): Promise<Zone> {
    const { zoneId } = validate(ZoneParamsSchema, params, "getZone");
    return this.client.request({
      method: "GET",
      path: path`/zones/${zoneId}`,
      schema: ZoneSchema,
      ...options,
    });
  }

  // ---- zone settings ---------------------------------------------------------------------------

  /** Any zone setting, as the service returns it (`value`, or `enabled` for a switch setting). */
  async getZoneSetting(
    params: { zoneId: string; settingId: string },
    options: CallOptions = {},
  ): Promise<ZoneSetting> {
    const { zoneId, settingId } = validate(SettingParamsSchema, params, "getZoneSetting");
    return this.client.request({
      method: "GET",
      path: path`/zones/${zoneId}/settings/${settingId}`,
      schema: ZoneSettingSchema,
      ...options,
    });
  }

  /**
   * Edits one zone setting. A setting of the catalogue (`ZONE_SETTINGS`) has its value checked
   * locally; any other id is sent as it is, for the service to judge.
   */
  async editZoneSetting(
    params: { zoneId: string; settingId: string } & EditZoneSettingRequest,
    options: CallOptions = {},
  ): Promise<ZoneSetting> {
    const { zoneId, settingId, ...rest } = params;
    validate(SettingParamsSchema, { zoneId, settingId }, "editZoneSetting");
    const body = validate(EditZoneSettingRequestSchema, rest, "editZoneSetting");
    const shape = zoneSetting(settingId);
    const issues = shape ? settingIssues(shape, body) : [];
    if (issues.length) throw new ValidationError(`editZoneSetting (${settingId})`, issues);
    return this.client.request({
      method: "PATCH",
      path: path`/zones/${zoneId}/settings/${settingId}`,
      body,
      schema: ZoneSettingSchema,
      ...options,
    });
  }

  async getContentConverter(
    params: { zoneId: string },
    options: CallOptions = {},
  ): Promise<ContentConverterSetting> {
    const { zoneId } = validate(ZoneParamsSchema, params, "getContentConverter");
    return this.client.request({
      method: "GET",
      path: path`/zones/${zoneId}/settings/${CONTENT_CONVERTER_SETTING}`,
      schema: ContentConverterSettingSchema,
      ...options,
    });
  }

  async setContentConverter(
    params: { zoneId: string; value: ContentConverterValue },
    options: CallOptions = {},
  ): Promise<ContentConverterSetting> {
    const { zoneId } = validate(ZoneParamsSchema, params, "setContentConverter");
    const value = validate(ContentConverterValueSchema, params.value, "setContentConverter: value");
    return this.client.request({
      method: "PATCH",
      path: path`/zones/${zoneId}/settings/${CONTENT_CONVERTER_SETTING}`,
      body: { value },
      schema: ContentConverterSettingSchema,
      ...options,
    });
  }

  // ---- configuration rules ---------------------------------------------------------------------

  /** The zone's http_config_settings entrypoint, or undefined while it has none (the API's 404). */
  async getConfigRuleset(
    params: { zoneId: string },
    options: CallOptions = {},
  ): Promise<Ruleset | undefined> {
    const { zoneId } = validate(ZoneParamsSchema, params, "getConfigRuleset");
    // The API answers 404 for a phase with no entrypoint yet (public-api-notes); an unknown zone
    // answers 404 too and surfaces on the next write.
    return orGone(
      this.client.request({
        method: "GET",
        path: path`/zones/${zoneId}/rulesets/phases/${CONFIG_PHASE}/entrypoint`,
        schema: RulesetSchema,
        ...options,
      }),
    );
  }

  /**
   * Replaces every rule of the entrypoint; rules named by `id` or `ref` keep their identity. `name`
   * and `description` of the entrypoint are kept when left out.
   */
  async putConfigRuleset(
    params: { zoneId: string; rules: readonly ConfigRuleRequest[] } & Omit<PutConfigRulesetRequest, "rules">,
    options: CallOptions = {},
  ): Promise<Ruleset> {
    const { zoneId, ...rest } = params;
    validate(ZoneParamsSchema, { zoneId }, "putConfigRuleset");
    const body = validate(PutConfigRulesetRequestSchema, rest, "putConfigRuleset");
    return this.client.request({
      method: "PUT",
      path: path`/zones/${zoneId}/rulesets/phases/${CONFIG_PHASE}/entrypoint`,
      body,
      schema: RulesetSchema,
      ...options,
    });
  }

  // ---- custom hostnames ------------------------------------------------------------------------

  /** Creates a custom hostname; like createZone, a lost answer is resolved by looking it up by hostname. */
  async createCustomHostname(
    params: { zoneId: string } & CreateCustomHostnameRequest,
    options: CallOptions = {},
  ): Promise<CustomHostname> {
    const { zoneId, ...rest } = params;
    validate(ZoneParamsSchema, { zoneId }, "createCustomHostname");
    const body = validate(CreateCustomHostnameRequestSchema, rest, "createCustomHostname");
    return createOnce(
      () =>
        this.client.request({
          method: "POST",
          path: path`/zones/${zoneId}/custom_hostnames`,
          body,
          schema: CustomHostnameSchema,
          ...options,
        }),
      async () => {
        const [found] = await this.listCustomHostnames(
          { zoneId, hostname: body.hostname.toLowerCase() },
          options,
        ).toArray();
        return found;
      },
      { retries: 1 },
    );
  }

  listCustomHostnames(
    params: { zoneId: string; hostname?: string },
    options: CallOptions = {},
  ): PagedGenerator<CustomHostname> {
    const { zoneId } = validate(ZoneParamsSchema, params, "listCustomHostnames");
    if (params.hostname !== undefined)
      validate(HostnameSchema, params.hostname, "listCustomHostnames: hostname");
    return pageStyle(async (page, perPage) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: path`/zones/${zoneId}/custom_hostnames`,
        query: { hostname: params.hostname, page, per_page: perPage },
        schema: z.array(CustomHostnameSchema),
        ...options,
      });
      return { items: res.value, info: res.resultInfo };
    }, PER_PAGE);
  }

  async getCustomHostname(
    params: { zoneId: string; customHostnameId: string },
    options: CallOptions = {},
  ): Promise<CustomHostname> {
    const { zoneId, customHostnameId } = validate(HostnameParamsSchema, params, "getCustomHostname");
    return this.client.request({
      method: "GET",
      path: path`/zones/${zoneId}/custom_hostnames/${customHostnameId}`,
      schema: CustomHostnameSchema,
      ...options,
    });
  }

  /**
   * Edits a custom hostname: every field is optional. `custom_metadata` replaces the whole map
   * (`{ content_converter: "enabled" }` opts the hostname in); `ssl` replaces the certificate settings.
   */
  async updateCustomHostname(
    params: { zoneId: string; customHostnameId: string } & PatchCustomHostnameRequest,
    options: CallOptions = {},
  ): Promise<CustomHostname> {
    const { zoneId, customHostnameId, ...rest } = params;
    validate(HostnameParamsSchema, { zoneId, customHostnameId }, "updateCustomHostname");
    const body = validate(PatchCustomHostnameRequestSchema, rest, "updateCustomHostname");
    return this.client.request({
      method: "PATCH",
      path: path`/zones/${zoneId}/custom_hostnames/${customHostnameId}`,
      body,
      schema: CustomHostnameSchema,
      ...options,
    });
  }

  async deleteCustomHostname(
    params: { zoneId: string; customHostnameId: string },
    options: CallOptions = {},
  ): Promise<{ id: string }> {
    const { zoneId, customHostnameId } = validate(HostnameParamsSchema, params, "deleteCustomHostname");
    return this.client.request({
      method: "DELETE",
      path: path`/zones/${zoneId}/custom_hostnames/${customHostnameId}`,
      schema: DeletedSchema,
      ...options,
    });
  }

  // ---- pages -----------------------------------------------------------------------------------

  /**
   * Fetches a page asking for Markdown (no credentials: pages are public). A 200 `text/markdown`
   * answer is split into frontmatter, body and JSON-LD; anything else is returned as it came.
   */
  async fetchMarkdown(
    url: string,
    options: CallOptions & { accept?: string } = {},
  ): Promise<MarkdownFetchResult> {
    validate(
      z.string().refine((s) => /^https?:\/\//i.test(s) && URL.canParse(s), "must be an absolute http(s) URL"),
      url,
      "fetchMarkdown: url",
    );
    const res = await this.client.fetchRaw(url, {
      headers: { accept: options.accept ?? "text/markdown" },
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    const type = (res.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (res.status !== 200 || type !== "text/markdown") {
      return { converted: false, response: { status: res.status, headers: res.headers, body: res.body } };
    }
    return {
      converted: true,
      ...parseMarkdownDocument(res.body),
      markdownTokens: Number(res.headers["x-markdown-tokens"] ?? NaN),
      originalTokens: Number(res.headers["x-original-tokens"] ?? NaN),
      contentSignal: parseContentSignal(res.headers["content-signal"] ?? ""),
      headers: res.headers,
    };
  }
}

/** `ai-train=yes, search=yes, ai-input=yes` → `{ "ai-train": "yes", search: "yes", "ai-input": "yes" }`. */
export function parseContentSignal(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

export interface MarkdownFrontmatter {
  title?: string;
  description?: string;
  image?: string;
}

/** A converted page split along the spec's layout: frontmatter, body, JSON-LD. */
export interface MarkdownDocument {
  /** The whole document as served. */
  markdown: string;
  frontmatter: MarkdownFrontmatter;
  /** The body Markdown alone, without frontmatter or the JSON-LD block. */
  body: string;
  /** One entry per JSON-LD document of the trailing ```json block. */
  jsonLd: unknown[];
}

const FRONTMATTER_KEYS: readonly string[] = [
  "title",
  "description",
  "image",
] satisfies (keyof MarkdownFrontmatter)[];

function isFrontmatterKey(key: string): key is keyof MarkdownFrontmatter {
  return FRONTMATTER_KEYS.includes(key);
}

/** A YAML scalar as the converter writes it: plain, "double-quoted" or 'single-quoted'. */
function yamlScalar(raw: string): string {
  const v = raw.trim();
  if (v.startsWith('"')) {
    try {
      return String(JSON.parse(v));
    } catch {
      return v.slice(1, -1);
    }
  }
  if (v.startsWith("'") && v.endsWith("'") && v.length >= 2) return v.slice(1, -1).replace(/''/g, "'");
  return v;
}

/**
 * Splits a converted document. The JSON-LD block is recognised only as the last thing in the document
 * and only when every line in it is a JSON object or array, so a page that merely ends with a json
 * code sample keeps it in its body.
 */
export function parseMarkdownDocument(markdown: string): MarkdownDocument {
  let rest = markdown.replace(/\r\n/g, "\n");
  const frontmatter: MarkdownFrontmatter = {};
  const fm = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(rest);
  if (fm) {
    for (const line of fm[1]!.split("\n")) {
      const m = /^([A-Za-z_]+):\s?(.*)$/.exec(line);
      const key = m?.[1];
      if (m && key !== undefined && isFrontmatterKey(key)) frontmatter[key] = yamlScalar(m[2] ?? "");
    }
    rest = rest.slice(fm[0].length);
  }
  let jsonLd: unknown[] = [];
  const lines = rest.replace(/\n+$/, "").split("\n");
  if (lines.length >= 3 && lines[lines.length - 1] === "```") {
    const open = lines.lastIndexOf("```json");
    const inner = open >= 0 ? lines.slice(open + 1, -1) : [];
    const parsed = inner.length ? inner.map(tryJsonDocument) : [undefined];
    if (parsed.every((p) => p !== undefined)) {
      jsonLd = parsed;
      rest = lines.slice(0, open).join("\n");
    }
  }
  return { markdown, frontmatter, body: rest.trim(), jsonLd };
}

function tryJsonDocument(line: string): unknown {
  try {
    const v: unknown = JSON.parse(line);
    return v !== null && typeof v === "object" ? v : undefined;
  } catch {
    return undefined;
  }
}
