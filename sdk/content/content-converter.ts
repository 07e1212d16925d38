/** The `content_converter` zone setting: `GET` and `PATCH /zones/{zone_id}/settings/content_converter`. */
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import {
  CONTENT_CONVERTER_SETTING,
  ContentConverterSettingSchema,
  ContentConverterValueSchema,
  type ContentConverterSetting,
  type ContentConverterValue,
} from "../schemas/content";
import { validate } from "../validate";
import { ZoneIdsSchema, type ZoneIds } from "./paths";

export class ContentConverter {
  constructor(private readonly client: ApiClient) {}

  async get(ids: ZoneIds, options: CallOptions = {}): Promise<ContentConverterSetting> {
    const { zoneId } = validate(ZoneIdsSchema, ids, "getContentConverter");
    return this.client.request({
      method: "GET",
      path: path`/zones/${zoneId}/settings/${CONTENT_CONVERTER_SETTING}`,
      schema: ContentConverterSettingSchema,
      ...options,
    });
  }

  async set(
    ids: ZoneIds,
    params: { value: ContentConverterValue },
    options: CallOptions = {},
  ): Promise<ContentConverterSetting> {
    const { zoneId } = validate(ZoneIdsSchema, ids, "setContentConverter");
    const value = validate(ContentConverterValueSchema, params.value, "setContentConverter: value");
    return this.client.request({
      method: "PATCH",
      path: path`/zones/${zoneId}/settings/${CONTENT_CONVERTER_SETTING}`,
      body: { value },
      schema: ContentConverterSettingSchema,
      ...options,
    });
  }
}
