/** Any zone setting: `GET` and `PATCH /zones/{zone_id}/settings/{setting_id}`. */
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import { ValidationError } from "../errors";
import {
  EditZoneSettingRequestSchema,
  settingIssues,
  zoneSetting,
  ZoneSettingSchema,
  type EditZoneSettingRequest,
  type ZoneSetting,
} from "../schemas/content";
import { validate } from "../validate";
import { SettingIdsSchema, type SettingIds } from "./paths";

export class Settings {
  constructor(private readonly client: ApiClient) {}

  /** Any zone setting, as the service returns it (`value`, or `enabled` for a switch setting). */
  async get(ids: SettingIds, options: CallOptions = {}): Promise<ZoneSetting> {
    const { zoneId, settingId } = validate(SettingIdsSchema, ids, "getZoneSetting");
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
  async edit(
    ids: SettingIds,
    params: EditZoneSettingRequest,
    options: CallOptions = {},
  ): Promise<ZoneSetting> {
    const { zoneId, settingId } = validate(SettingIdsSchema, ids, "editZoneSetting");
    const body = validate(EditZoneSettingRequestSchema, params, "editZoneSetting");
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
}
