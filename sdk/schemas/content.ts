/**
 * zod schemas of the content area (markdown conversion): zones, the `content_converter` zone setting,
 * the `http_config_settings` phase entrypoint and custom hostnames. Requests are strict and carry every
 * rule of the spec and public-api-notes; responses are loose so fields the service adds pass through.
 */
import { z } from "zod";
import { IdentifierSchema, optionalAll } from "./common";

/** The only phase this area uses: configuration rules. */
export const CONFIG_PHASE = "http_config_settings";
/** The only zone setting this area uses. */
export const CONTENT_CONVERTER_SETTING = "content_converter";
/** Custom-hostname metadata key and the value that opts a hostname in (spec C). */
export const CONTENT_CONVERTER_METADATA_KEY = "content_converter";
export const CONTENT_CONVERTER_METADATA_ENABLED = "enabled";
/** Origin responses above this many bytes are served as they are (spec, Limits). */
export const MAX_ORIGIN_BYTES = 2_097_152;
/** The content-signal header value every converted response carries (custom policies are not available). */
export const DEFAULT_CONTENT_SIGNAL = "ai-train=yes, search=yes, ai-input=yes";

const HOSTNAME_RE =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** A DNS name with at least two labels, each 1 to 63 letters, digits or inner hyphens. */
export const HostnameSchema = z
  .string()
  .regex(
    HOSTNAME_RE,
    "must be a hostname of at least two labels (letters, digits, inner hyphens; at most 253)",
  );

/** Zone and custom-hostname ids are tags like account ids. */
export const ZoneIdSchema = IdentifierSchema;

// ---- zones -------------------------------------------------------------------------------------

export const CreateZoneRequestSchema = z.strictObject({
  name: HostnameSchema,
  account: z.strictObject({ id: IdentifierSchema }),
});
export type CreateZoneRequest = z.infer<typeof CreateZoneRequestSchema>;

export const ZoneSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  account: z.looseObject({ id: z.string() }),
  created_on: z.string(),
  modified_on: z.string(),
});
export type Zone = z.infer<typeof ZoneSchema>;

// ---- zone setting ------------------------------------------------------------------------------

/** `on` enables conversion (spec C); `off` is its counterpart, the value a fresh zone reports. */
export const ContentConverterValueSchema = z.enum(["on", "off"], { error: 'must be "on" or "off"' });
export type ContentConverterValue = z.infer<typeof ContentConverterValueSchema>;

/** The zone setting's one field a program sets. */
export const ZoneSettingFields = { value: ContentConverterValueSchema };

export const PatchZoneSettingRequestSchema = z.strictObject(ZoneSettingFields);
export type PatchZoneSettingRequest = z.infer<typeof PatchZoneSettingRequestSchema>;

/** As returned; `value` stays any string so a value the service adds later is reported, not refused. */
export const ZoneSettingSchema = z.looseObject({
  id: z.string(),
  value: z.string(),
  editable: z.boolean(),
  modified_on: z.string().nullable(),
});
export type ZoneSetting = z.infer<typeof ZoneSettingSchema>;

// ---- configuration rules -----------------------------------------------------------------------

export const MAX_EXPRESSION_LENGTH = 4096;
export const MAX_DESCRIPTION_LENGTH = 500;
export const MAX_REF_LENGTH = 64;

/** A configuration rule's wire fields a program sets (spec C; public-api-notes). */
export const ConfigRuleFields = {
  /** A server-assigned rule id from an earlier read: keeps that rule's identity. */
  id: z.string().min(1, "must not be empty").max(32, "must be at most 32 characters").optional(),
  /** Caller-chosen identity kept across updates (public-api-notes). */
  ref: z
    .string()
    .min(1, "must not be empty")
    .max(MAX_REF_LENGTH, `must be at most ${MAX_REF_LENGTH} characters`)
    .optional(),
  expression: z
    .string()
    .min(1, "must not be empty")
    .max(MAX_EXPRESSION_LENGTH, `must be at most ${MAX_EXPRESSION_LENGTH} characters`),
  action: z.literal("set_config", { error: 'must be "set_config"' }),
  /**
   * `content_converter` is the parameter this package manages; the service's other `set_config`
   * parameters (polish, rocket_loader, …) pass through untouched, so a read-modify-write of a shared
   * entrypoint can write back every rule it read.
   */
  action_parameters: z
    .looseObject({ content_converter: z.boolean({ error: "must be a boolean" }).optional() })
    .refine((p) => Object.keys(p).length > 0, { message: "must set at least one configuration parameter" }),
  description: z
    .string()
    .max(MAX_DESCRIPTION_LENGTH, `must be at most ${MAX_DESCRIPTION_LENGTH} characters`)
    .optional(),
  enabled: z.boolean({ error: "must be a boolean" }).optional(),
};

export const ConfigRuleRequestSchema = z.strictObject(ConfigRuleFields);
export type ConfigRuleRequest = z.infer<typeof ConfigRuleRequestSchema>;

export const PutConfigRulesetRequestSchema = z
  .strictObject({ rules: z.array(ConfigRuleRequestSchema, { error: "must be an array of rules" }) })
  .superRefine((v, ctx) => {
    const refs = new Map<string, number>();
    const ids = new Map<string, number>();
    v.rules.forEach((r, i) => {
      if (r.ref !== undefined) {
        if (refs.has(r.ref))
          ctx.addIssue({
            code: "custom",
            message: "must be unique within the ruleset",
            path: ["rules", i, "ref"],
          });
        refs.set(r.ref, i);
      }
      if (r.id !== undefined) {
        if (ids.has(r.id))
          ctx.addIssue({
            code: "custom",
            message: "must be unique within the ruleset",
            path: ["rules", i, "id"],
          });
        ids.set(r.id, i);
      }
    });
  });
export type PutConfigRulesetRequest = z.infer<typeof PutConfigRulesetRequestSchema>;

/**
 * As returned: the set fields, plus the server's. `action` and `action_parameters` are looser than in a
 * request, since a ruleset shared with other tools may hold rules this package would not write.
 */
export const ConfigRuleSchema = z.looseObject({
  ...optionalAll(ConfigRuleFields),
  id: z.string(),
  version: z.string(),
  expression: z.string(),
  action: z.string(),
  action_parameters: z.looseObject({ content_converter: z.boolean().optional() }).optional(),
  last_updated: z.string(),
});
export type ConfigRule = z.infer<typeof ConfigRuleSchema>;

export const RulesetSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  kind: z.string(),
  phase: z.string(),
  version: z.string(),
  last_updated: z.string().optional(),
  rules: z.array(ConfigRuleSchema).default([]),
});
export type Ruleset = z.infer<typeof RulesetSchema>;

// ---- custom hostnames --------------------------------------------------------------------------

/** A map of strings (public-api-notes); `content_converter: "enabled"` opts the hostname in. */
export const CustomMetadataSchema = z.record(
  z.string().min(1, "keys must not be empty"),
  z.string({ error: "must be a string" }),
  { error: "must be an object of strings" },
);
export type CustomMetadata = z.infer<typeof CustomMetadataSchema>;

export const CustomHostnameSslRequestSchema = z.strictObject({
  method: z.enum(["http", "txt", "email"], { error: 'must be "http", "txt" or "email"' }),
  type: z.literal("dv", { error: 'must be "dv"' }).optional(),
});

export const CreateCustomHostnameRequestSchema = z.strictObject({
  hostname: HostnameSchema,
  ssl: CustomHostnameSslRequestSchema.optional(),
  custom_metadata: CustomMetadataSchema.optional(),
});
export type CreateCustomHostnameRequest = z.infer<typeof CreateCustomHostnameRequestSchema>;

export const PatchCustomHostnameRequestSchema = z
  .strictObject({
    ssl: CustomHostnameSslRequestSchema.optional(),
    custom_metadata: CustomMetadataSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.ssl === undefined && v.custom_metadata === undefined) {
      ctx.addIssue({ code: "custom", message: "must set at least one of ssl, custom_metadata", path: [] });
    }
  });
export type PatchCustomHostnameRequest = z.infer<typeof PatchCustomHostnameRequestSchema>;

export const CustomHostnameSchema = z.looseObject({
  id: z.string(),
  hostname: z.string(),
  status: z.string(),
  ssl: z
    .looseObject({
      status: z.string().optional(),
      method: z.string().optional(),
      type: z.string().optional(),
    })
    .optional(),
  custom_metadata: z.record(z.string(), z.string()).optional(),
  created_at: z.string(),
});
export type CustomHostname = z.infer<typeof CustomHostnameSchema>;

export const DeletedSchema = z.looseObject({ id: z.string() });
