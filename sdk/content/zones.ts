/** Zones: `POST /zones`, `GET /zones?name=`, `GET /zones/{zone_id}`. */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import { createOnce, type CallOptions } from "../core";
import { pageStyle, type PagedGenerator } from "../paging";
import { CreateZoneRequestSchema, HostnameSchema, ZoneSchema, type Zone } from "../schemas/content";
import { validate } from "../validate";
import { PER_PAGE, ZoneIdsSchema, type AccountIds, type NoIds, type ZoneIds } from "./paths";

/** The body of a zone create less the account, which comes from `ids`. */
export type CreateZoneParams = Pick<z.input<typeof CreateZoneRequestSchema>, "name">;

export class Zones {
  constructor(private readonly client: ApiClient) {}

  /**
   * Creates a zone. A POST is never blindly repeated: after a connection error or timeout the zone is
   * looked up by name and returned if the first attempt landed; only otherwise is it sent again, once.
   */
  async create(ids: AccountIds = {}, params: CreateZoneParams, options: CallOptions = {}): Promise<Zone> {
    const body = validate(
      CreateZoneRequestSchema,
      { name: params.name, account: { id: this.client.account(ids.accountId) } },
      "createZone",
    );
    return createOnce(
      () => this.client.request({ method: "POST", path: "/zones", body, schema: ZoneSchema, ...options }),
      () => this.find({}, { name: body.name.toLowerCase() }, options),
      { retries: 1 },
    );
  }

  /** Zones of the token's account, optionally only the one with this name. */
  list(_ids: NoIds = {}, params: { name?: string } = {}, options: CallOptions = {}): PagedGenerator<Zone> {
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
  async find(
    _ids: NoIds = {},
    params: { name: string },
    options: CallOptions = {},
  ): Promise<Zone | undefined> {
    const [zone] = await this.list({}, { name: params.name }, options).toArray();
    return zone;
  }

  async get(ids: ZoneIds, options: CallOptions = {}): Promise<Zone> {
    const { zoneId } = validate(ZoneIdsSchema, ids, "getZone");
    return this.client.request({
      method: "GET",
      path: path`/zones/${zoneId}`,
      schema: ZoneSchema,
      ...options,
    });
  }
}
