/**
 * Client for the content area (markdown conversion): zones, the `content_converter` zone setting, any
 * zone setting, the `http_config_settings` entrypoint ruleset, custom hostnames, and fetching a page as
 * Markdown. One sub-resource per path family, every method `(ids, params, options?)`.
 */
import type { ApiClient } from "../client";
import type { CallOptions } from "../core";
import type { PagedGenerator } from "../paging";
import type {
  ContentConverterSetting,
  ContentConverterValue,
  CreateCustomHostnameRequest,
  CustomHostname,
  EditZoneSettingRequest,
  PatchCustomHostnameRequest,
  Ruleset,
  Zone,
  ZoneSetting,
} from "../schemas/content";
import { ConfigRuleset, type PutConfigRulesetParams } from "./config-ruleset";
import { ContentConverter } from "./content-converter";
import { CustomHostnames } from "./custom-hostnames";
import { Markdown, type FetchMarkdownOptions, type MarkdownFetchResult } from "./markdown";
import type { CustomHostnameIds, SettingIds, ZoneIds } from "./paths";
import { Settings } from "./settings";
import { Zones } from "./zones";

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
} from "../schemas/content";
export {
  parseContentSignal,
  parseMarkdownDocument,
  type MarkdownDocument,
  type MarkdownFrontmatter,
} from "./markdown-document";
export type { FetchMarkdownOptions, MarkdownFetchResult } from "./markdown";
export type { AccountIds, CustomHostnameIds, NoIds, SettingIds, ZoneIds } from "./paths";
export type { CreateZoneParams } from "./zones";
export type { PutConfigRulesetParams } from "./config-ruleset";
export { ConfigRuleset, ContentConverter, CustomHostnames, Markdown, Settings, Zones };

export class ContentApi {
  /** `/zones`, `/zones/{zone_id}` */
  readonly zones: Zones;
  /** `/zones/{zone_id}/settings/{setting_id}`: any zone setting */
  readonly settings: Settings;
  /** `/zones/{zone_id}/settings/content_converter` */
  readonly contentConverter: ContentConverter;
  /** `/zones/{zone_id}/rulesets/phases/http_config_settings/entrypoint` */
  readonly configRuleset: ConfigRuleset;
  /** `/zones/{zone_id}/custom_hostnames[/{custom_hostname_id}]` */
  readonly customHostnames: CustomHostnames;
  /** A public page fetched by its URL, as Markdown */
  readonly markdown: Markdown;

  constructor(readonly client: ApiClient) {
    this.zones = new Zones(client);
    this.settings = new Settings(client);
    this.contentConverter = new ContentConverter(client);
    this.configRuleset = new ConfigRuleset(client);
    this.customHostnames = new CustomHostnames(client);
    this.markdown = new Markdown(client);
  }

  // ---- deprecated flat methods of 0.1.0: one-line delegations, removed in 0.3.0 ------------------

  /** @deprecated Since 0.2.0: use `api.content.zones.create(ids, params)`; removed in 0.3.0. */
  async createZone(params: { name: string; accountId?: string }, options: CallOptions = {}): Promise<Zone> {
    return this.zones.create({ accountId: params.accountId }, { name: params.name }, options);
  }

  /** @deprecated Since 0.2.0: use `api.content.zones.list(ids, params)`; removed in 0.3.0. */
  listZones(params: { name?: string } = {}, options: CallOptions = {}): PagedGenerator<Zone> {
    return this.zones.list({}, params, options);
  }

  /** @deprecated Since 0.2.0: use `api.content.zones.find(ids, params)`; removed in 0.3.0. */
  async findZone(params: { name: string }, options: CallOptions = {}): Promise<Zone | undefined> {
    return this.zones.find({}, params, options);
  }

  /** @deprecated Since 0.2.0: use `api.content.zones.get(ids)`; removed in 0.3.0. */
  async getZone(params: ZoneIds, options: CallOptions = {}): Promise<Zone> {
    return this.zones.get(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.content.settings.get(ids)`; removed in 0.3.0. */
  async getZoneSetting(params: SettingIds, options: CallOptions = {}): Promise<ZoneSetting> {
    return this.settings.get(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.content.settings.edit(ids, params)`; removed in 0.3.0. */
  async editZoneSetting(
    { zoneId, settingId, ...body }: SettingIds & EditZoneSettingRequest,
    options: CallOptions = {},
  ): Promise<ZoneSetting> {
    return this.settings.edit({ zoneId, settingId }, body, options);
  }

  /** @deprecated Since 0.2.0: use `api.content.contentConverter.get(ids)`; removed in 0.3.0. */
  async getContentConverter(params: ZoneIds, options: CallOptions = {}): Promise<ContentConverterSetting> {
    return this.contentConverter.get(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.content.contentConverter.set(ids, params)`; removed in 0.3.0. */
  async setContentConverter(
    { zoneId, value }: ZoneIds & { value: ContentConverterValue },
    options: CallOptions = {},
  ): Promise<ContentConverterSetting> {
    return this.contentConverter.set({ zoneId }, { value }, options);
  }

  /** @deprecated Since 0.2.0: use `api.content.configRuleset.get(ids)`; removed in 0.3.0. */
  async getConfigRuleset(params: ZoneIds, options: CallOptions = {}): Promise<Ruleset | undefined> {
    return this.configRuleset.get(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.content.configRuleset.put(ids, params)`; removed in 0.3.0. */
  async putConfigRuleset(
    { zoneId, ...body }: ZoneIds & PutConfigRulesetParams,
    options: CallOptions = {},
  ): Promise<Ruleset> {
    return this.configRuleset.put({ zoneId }, body, options);
  }

  /** @deprecated Since 0.2.0: use `api.content.customHostnames.create(ids, params)`; removed in 0.3.0. */
  async createCustomHostname(
    { zoneId, ...body }: ZoneIds & CreateCustomHostnameRequest,
    options: CallOptions = {},
  ): Promise<CustomHostname> {
    return this.customHostnames.create({ zoneId }, body, options);
  }

  /** @deprecated Since 0.2.0: use `api.content.customHostnames.list(ids, params)`; removed in 0.3.0. */
  listCustomHostnames(
    { zoneId, ...query }: ZoneIds & { hostname?: string },
    options: CallOptions = {},
  ): PagedGenerator<CustomHostname> {
    return this.customHostnames.list({ zoneId }, query, options);
  }

  /** @deprecated Since 0.2.0: use `api.content.customHostnames.get(ids)`; removed in 0.3.0. */
  async getCustomHostname(params: CustomHostnameIds, options: CallOptions = {}): Promise<CustomHostname> {
    return this.customHostnames.get(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.content.customHostnames.update(ids, params)`; removed in 0.3.0. */
  async updateCustomHostname(
    { zoneId, customHostnameId, ...body }: CustomHostnameIds & PatchCustomHostnameRequest,
    options: CallOptions = {},
  ): Promise<CustomHostname> {
    return this.customHostnames.update({ zoneId, customHostnameId }, body, options);
  }

  /** @deprecated Since 0.2.0: use `api.content.customHostnames.delete(ids)`; removed in 0.3.0. */
  async deleteCustomHostname(params: CustomHostnameIds, options: CallOptions = {}): Promise<{ id: string }> {
    return this.customHostnames.delete(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.content.markdown.fetch(ids, params)`; removed in 0.3.0. */
  async fetchMarkdown(url: string, options: FetchMarkdownOptions = {}): Promise<MarkdownFetchResult> {
    return this.markdown.fetch({}, { url }, options);
  }
}

/** Each deprecated flat method of `ContentApi` → the sub-resource method that replaces it. */
export const DEPRECATED_CONTENT_METHODS: Readonly<Record<string, string>> = Object.freeze({
  createZone: "zones.create",
  listZones: "zones.list",
  findZone: "zones.find",
  getZone: "zones.get",
  getZoneSetting: "settings.get",
  editZoneSetting: "settings.edit",
  getContentConverter: "contentConverter.get",
  setContentConverter: "contentConverter.set",
  getConfigRuleset: "configRuleset.get",
  putConfigRuleset: "configRuleset.put",
  createCustomHostname: "customHostnames.create",
  listCustomHostnames: "customHostnames.list",
  getCustomHostname: "customHostnames.get",
  updateCustomHostname: "customHostnames.update",
  deleteCustomHostname: "customHostnames.delete",
  fetchMarkdown: "markdown.fetch",
});
