/**
 * Zone settings (`GET`/`PATCH /zones/{zone_id}/settings/{setting_id}`): the edit body every setting
 * takes, and a catalogue of the settings whose value shapes we know (the public client's types).
 * The sdk checks a value against the catalogue before it sends it, and lets an id it does not know
 * through (the service knows more settings than we do); the emulator serves exactly the catalogue.
 */
import { z } from "zod";
import { ZoneSettingsEditSingleSettingBody, ZoneSettingsGetSingleSettingResult } from "../generated/content";
import { oneOf } from "../wire/rules";

/** Setting ids: lower-case words joined by `_` (`0rtt` starts with a digit). */
export const SettingIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_]{0,63}$/, "must be a zone setting id (lower-case letters, digits, _)");

/**
 * The edit body of the public contract: `value` for most settings, `enabled` for the few that are a
 * switch without a value (`ssl_recommender`). One of them is needed: an empty PATCH changes nothing.
 */
export const EditZoneSettingRequestSchema = ZoneSettingsEditSingleSettingBody.refine(
  (b) => b.value !== undefined || b.enabled !== undefined,
  "must set value or enabled",
);
export type EditZoneSettingRequest = z.infer<typeof EditZoneSettingRequestSchema>;

/**
 * As returned: `value` (any JSON) for most settings, `enabled` for switch settings. The contract's
 * result is pruned to content_converter (a string `value`), so those two are widened here.
 */
export const ZoneSettingSchema = ZoneSettingsGetSingleSettingResult.extend({
  value: z.unknown().optional(),
  enabled: z.boolean().optional(),
});
export type ZoneSetting = z.infer<typeof ZoneSettingSchema>;

/** `on` or `off`, in the words docs/assumptions.md gives for content_converter. */
export const OnOffSchema = z.enum(["on", "off"], { error: 'must be "on" or "off"' });
const onOff = OnOffSchema;
const seconds = (values: readonly number[]) =>
  z
    .number({ error: "must be a number of seconds" })
    .refine((n) => values.includes(n), `must be one of ${values.join(", ")}`);

/** A catalogued setting: which body key carries it, the rule of its value, a fresh zone's value. */
export interface SettingShape {
  key: "value" | "enabled";
  schema: z.ZodType;
  initial: unknown;
}

const value = (schema: z.ZodType, initial: unknown): SettingShape => ({ key: "value", schema, initial });

function catalogue(entries: Record<string, SettingShape>): Readonly<Record<string, SettingShape>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, SettingShape>, entries));
}

/**
 * The settings the emulator serves, with the values the public client's types allow. Looked up by a
 * caller's id, so it has no prototype: `constructor` or `toString` is no setting. Read it through
 * `zoneSetting`.
 */
export const ZONE_SETTINGS: Readonly<Record<string, SettingShape>> = catalogue({
  "0rtt": value(onOff, "off"),
  always_online: value(onOff, "off"),
  always_use_https: value(onOff, "off"),
  automatic_https_rewrites: value(onOff, "on"),
  brotli: value(onOff, "on"),
  browser_cache_ttl: value(
    seconds([
      0, 30, 60, 120, 300, 1200, 1800, 3600, 7200, 10800, 14400, 18000, 28800, 43200, 57600, 72000, 86400,
      172800, 259200, 345600, 432000, 691200, 1382400, 2073600, 2678400, 5356800, 16070400, 31536000,
    ]),
    14400,
  ),
  browser_check: value(onOff, "on"),
  cache_level: value(oneOf(["aggressive", "basic", "simplified"]), "aggressive"),
  challenge_ttl: value(
    seconds([300, 900, 1800, 2700, 3600, 7200, 10800, 14400, 28800, 57600, 86400, 604800, 2592000, 31536000]),
    1800,
  ),
  ciphers: value(
    z
      .array(z.string().min(1, "must not be empty"), { error: "must be an array of cipher names" })
      .refine((a) => new Set(a).size === a.length, "must not repeat a cipher"),
    [],
  ),
  content_converter: value(onOff, "off"),
  development_mode: value(onOff, "off"),
  early_hints: value(onOff, "off"),
  email_obfuscation: value(onOff, "on"),
  hotlink_protection: value(onOff, "off"),
  http3: value(onOff, "off"),
  ipv6: value(onOff, "on"),
  min_tls_version: value(oneOf(["1.0", "1.1", "1.2", "1.3"]), "1.0"),
  opportunistic_encryption: value(onOff, "on"),
  polish: value(oneOf(["off", "lossless", "lossy"]), "off"),
  rocket_loader: value(onOff, "off"),
  security_level: value(oneOf(["off", "essentially_off", "low", "medium", "high", "under_attack"]), "medium"),
  ssl: value(oneOf(["off", "flexible", "full", "strict"]), "flexible"),
  ssl_recommender: { key: "enabled", schema: z.boolean({ error: "must be a boolean" }), initial: false },
  tls_1_3: value(oneOf(["on", "off", "zrt"]), "on"),
  websockets: value(onOff, "on"),
});

/** A catalogued setting by id; only the catalogue's own entries, never an inherited member. */
export function zoneSetting(id: string): SettingShape | undefined {
  return Object.hasOwn(ZONE_SETTINGS, id) ? ZONE_SETTINGS[id] : undefined;
}

/** What is wrong with a catalogued setting's edit body, field by field; nothing for a fitting body. */
export function settingIssues(
  shape: SettingShape,
  body: EditZoneSettingRequest,
): { field: string; rule: string }[] {
  const other = shape.key === "value" ? "enabled" : "value";
  if (body[other] !== undefined)
    return [{ field: other, rule: `this setting takes ${shape.key}, not ${other}` }];
  const given = body[shape.key];
  if (given === undefined) return [{ field: shape.key, rule: "is required for this setting" }];
  const parsed = shape.schema.safeParse(given);
  return parsed.success ? [] : parsed.error.issues.map((i) => ({ field: shape.key, rule: i.message }));
}
