/** Custom hostnames of a zone: `/zones/{zone_id}/custom_hostnames[/{custom_hostname_id}]`. */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import { createOnce, type CallOptions } from "../core";
import { pageStyle, type PagedGenerator } from "../paging";
import {
  CreateCustomHostnameRequestSchema,
  CustomHostnameSchema,
  DeletedSchema,
  HostnameSchema,
  PatchCustomHostnameRequestSchema,
  type CreateCustomHostnameRequest,
  type CustomHostname,
  type PatchCustomHostnameRequest,
} from "../schemas/content";
import { validate } from "../validate";
import {
  CustomHostnameIdsSchema,
  PER_PAGE,
  ZoneIdsSchema,
  type CustomHostnameIds,
  type ZoneIds,
} from "./paths";

export class CustomHostnames {
  constructor(private readonly client: ApiClient) {}

  /** Creates a custom hostname; like a zone create, a lost answer is resolved by looking it up by hostname. */
  async create(
    ids: ZoneIds,
    params: CreateCustomHostnameRequest,
    options: CallOptions = {},
  ): Promise<CustomHostname> {
    const { zoneId } = validate(ZoneIdsSchema, ids, "createCustomHostname");
    const body = validate(CreateCustomHostnameRequestSchema, params, "createCustomHostname");
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
        const [found] = await this.list(
          { zoneId },
          { hostname: body.hostname.toLowerCase() },
          options,
        ).toArray();
        return found;
      },
      { retries: 1 },
    );
  }

  list(
    ids: ZoneIds,
    params: { hostname?: string } = {},
    options: CallOptions = {},
  ): PagedGenerator<CustomHostname> {
    const { zoneId } = validate(ZoneIdsSchema, ids, "listCustomHostnames");
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

  async get(ids: CustomHostnameIds, options: CallOptions = {}): Promise<CustomHostname> {
    const { zoneId, customHostnameId } = validate(CustomHostnameIdsSchema, ids, "getCustomHostname");
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
  async update(
    ids: CustomHostnameIds,
    params: PatchCustomHostnameRequest = {},
    options: CallOptions = {},
  ): Promise<CustomHostname> {
    const { zoneId, customHostnameId } = validate(CustomHostnameIdsSchema, ids, "updateCustomHostname");
    const body = validate(PatchCustomHostnameRequestSchema, params, "updateCustomHostname");
    return this.client.request({
      method: "PATCH",
      path: path`/zones/${zoneId}/custom_hostnames/${customHostnameId}`,
      body,
      schema: CustomHostnameSchema,
      ...options,
    });
  }

  async delete(ids: CustomHostnameIds, options: CallOptions = {}): Promise<{ id: string }> {
    const { zoneId, customHostnameId } = validate(CustomHostnameIdsSchema, ids, "deleteCustomHostname");
    return this.client.request({
      method: "DELETE",
      path: path`/zones/${zoneId}/custom_hostnames/${customHostnameId}`,
      schema: DeletedSchema,
      ...options,
    });
  }
}
