/**
 * The content area's path identifiers (`ids` of every method): the contract's `zone_id`, `setting_id`
 * and `custom_hostname_id`, camelCased. Validated before any request, with the messages the flat
 * methods of 0.1.0 gave.
 */
import { z } from "zod";
import { IdentifierSchema } from "../schemas/common";
import { SettingIdSchema, ZoneIdSchema } from "../schemas/content";

export const ZoneIdsSchema = z.object({ zoneId: ZoneIdSchema });
export type ZoneIds = z.input<typeof ZoneIdsSchema>;

export const SettingIdsSchema = z.object({ zoneId: ZoneIdSchema, settingId: SettingIdSchema });
export type SettingIds = z.input<typeof SettingIdsSchema>;

export const CustomHostnameIdsSchema = z.object({ zoneId: ZoneIdSchema, customHostnameId: IdentifierSchema });
export type CustomHostnameIds = z.input<typeof CustomHostnameIdsSchema>;

/** `ids` of a zone create: the zone is made in this account (the client's default when left out). */
export type AccountIds = { accountId?: string };

/** `ids` of an operation whose path names no identifier (`/zones`, a page fetched by URL). */
export type NoIds = Record<string, never>;

/** Page size of the area's page-style lists. */
export const PER_PAGE = 50;
