/**
 * zod schemas of the content area (markdown conversion): zones, the `content_converter` zone setting,
 * the `http_config_settings` phase entrypoint and custom hostnames. Requests are strict and carry every
 * rule of the spec and public-api-notes; responses are loose so fields the service adds pass through.
 */
import { z } from "zod";
import { IdentifierSchema, strictShape } from "./common";

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

export {
  EditZoneSettingRequestSchema,
  SettingIdSchema,
  ZONE_SETTINGS,
  zoneSetting,
  ZoneSettingSchema,
  settingIssues,
  type EditZoneSettingRequest,
  type SettingShape,
  type ZoneSetting,
} from "./zone-settings";

/** `on` enables conversion (spec C); `off` is its counterpart, the value a fresh zone reports. */
export const ContentConverterValueSchema = z.enum(["on", "off"], { error: 'must be "on" or "off"' });
export type ContentConverterValue = z.infer<typeof ContentConverterValueSchema>;

/** The content_converter setting's one field a program sets. */
export const ZoneSettingFields = { value: ContentConverterValueSchema };

/** The content_converter setting's edit body. */
export const PatchZoneSettingRequestSchema = z.strictObject(ZoneSettingFields);
export type PatchZoneSettingRequest = z.infer<typeof PatchZoneSettingRequestSchema>;

/** The content_converter setting as returned; `value` stays any string so a new value is reported. */
export const ContentConverterSettingSchema = z.looseObject({
  id: z.string(),
  value: z.string(),
  editable: z.boolean().optional(),
  modified_on: z.string().nullable().optional(),
});
export type ContentConverterSetting = z.infer<typeof ContentConverterSettingSchema>;

// ---- configuration rules -----------------------------------------------------------------------

/** The service's limit on a rule expression. */
export const MAX_EXPRESSION_LENGTH = 4096;

const bool = () => z.boolean({ error: "must be a boolean" });
const enumOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(", ")}` });
const onlyTrue = () => z.literal(true, { error: "must be true (leave it out otherwise)" });

/** The `set_config` action parameters, with the types the public client gives them. */
const SET_CONFIG_PARAMETERS = {
  automatic_https_rewrites: bool().optional(),
  autominify: z
    .strictObject({ css: bool().optional(), html: bool().optional(), js: bool().optional() })
    .optional(),
  bic: bool().optional(),
  content_converter: bool().optional(),
  disable_apps: onlyTrue().optional(),
  disable_pay_per_crawl: onlyTrue().optional(),
  disable_rum: onlyTrue().optional(),
  disable_zaraz: onlyTrue().optional(),
  email_obfuscation: bool().optional(),
  fonts: bool().optional(),
  hotlink_protection: bool().optional(),
  mirage: bool().optional(),
  opportunistic_encryption: bool().optional(),
  polish: enumOf(["off", "lossless", "lossy", "webp"]).optional(),
  redirects_for_ai_training: bool().optional(),
  request_body_buffering: enumOf(["none", "standard", "full"]).optional(),
  response_body_buffering: enumOf(["none", "standard"]).optional(),
  rocket_loader: bool().optional(),
  security_level: enumOf(["off", "essentially_off", "low", "medium", "high", "under_attack"]).optional(),
  server_side_excludes: bool().optional(),
  ssl: enumOf(["off", "flexible", "full", "strict", "origin_pull"]).optional(),
  sxg: bool().optional(),
  webmcp_enabled: bool().optional(),
  webmcp_packs: z.array(z.string({ error: "must be a string" })).optional(),
};

const atLeastOne = {
  message: "must set at least one configuration parameter",
  // Only about a body that is otherwise fine: a typo's parameter is named by its own issue.
  when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0,
};

/**
 * As the sdk sends them: unknown parameters pass through, since the service adds parameters over
 * time and a read-modify-write of a shared entrypoint must write back every rule it read.
 */
export const SetConfigParametersSchema = z
  .looseObject(SET_CONFIG_PARAMETERS)
  .refine((p) => Object.keys(p).length > 0, atLeastOne);
export type SetConfigParameters = z.infer<typeof SetConfigParametersSchema>;

/** As a program gives them (ConfigRule): a parameter the sdk does not know is a typo until typed. */
export const SetConfigParametersStrictSchema = strictShape(SET_CONFIG_PARAMETERS).refine(
  (p) => Object.keys(p).length > 0,
  atLeastOne,
);

const text = () => z.string({ error: "must be a string" });
const seconds = () =>
  z.number({ error: "must be a number" }).int("must be a whole number").min(0, "must be at least 0");

/** The rule's logging switch (contract: `logging.enabled`, required within the object). */
const LOGGING = { enabled: bool() };

/** Exposed-credential checking (contract; shape from the public client). */
const EXPOSED_CREDENTIAL_CHECK = {
  username_expression: text().min(1, "must not be empty"),
  password_expression: text().min(1, "must not be empty"),
};

/** Rate limit of a rule (contract; shape from the public client). */
const RATELIMIT = {
  characteristics: z.array(text().min(1, "must not be empty"), { error: "must be an array of strings" }),
  period: seconds(),
  counting_expression: text().optional(),
  mitigation_timeout: seconds().optional(),
  requests_per_period: seconds().optional(),
  requests_to_origin: bool().optional(),
  score_per_period: seconds().optional(),
  score_response_header_name: text().optional(),
};

/** The nested objects of a rule, strict: what a program (ConfigRule) may give. */
export const RuleLoggingSchema = strictShape(LOGGING);
export const ExposedCredentialCheckSchema = strictShape(EXPOSED_CREDENTIAL_CHECK);
export const RuleRatelimitSchema = strictShape(RATELIMIT);

/** A configuration rule's wire fields (spec C; the public contract's SetConfigRule). */
export const ConfigRuleFields = {
  /** A server-assigned rule id from an earlier read: keeps that rule's identity. */
  id: z.string().min(1, "must not be empty").max(32, "must be at most 32 characters").optional(),
  /** Caller-chosen identity kept across updates (public-api-notes). */
  ref: text().min(1, "must not be empty").optional(),
  expression: text()
    .min(1, "must not be empty")
    .max(MAX_EXPRESSION_LENGTH, `must be at most ${MAX_EXPRESSION_LENGTH} characters`),
  action: z.literal("set_config", { error: 'must be "set_config"' }),
  action_parameters: SetConfigParametersSchema,
  description: text().optional(),
  enabled: bool().optional(),
  // Loose in the sdk, like action_parameters: a rule read back is written back whole.
  logging: z.looseObject(LOGGING).optional(),
  categories: z
    .array(text().min(1, "must not be empty"), { error: "must be an array of strings" })
    .min(1, "must list at least one category (leave it out otherwise)")
    .refine((c) => new Set(c).size === c.length, "must not repeat a category")
    .optional(),
  exposed_credential_check: z.looseObject(EXPOSED_CREDENTIAL_CHECK).optional(),
  ratelimit: z.looseObject(RATELIMIT).optional(),
  /** Echoes of a read (the server's own): accepted so a rule read can be sent back, and ignored. */
  version: text().optional(),
  last_updated: text().optional(),
};

export const ConfigRuleRequestSchema = z.strictObject(ConfigRuleFields);
export type ConfigRuleRequest = z.infer<typeof ConfigRuleRequestSchema>;

/** Names and descriptions of the entrypoint itself: optional, kept when left out. */
export const RulesetFields = {
  name: text().min(1, "must not be empty").optional(),
  description: text().optional(),
  /** Echoes of a read: accepted and ignored (the API has no conditional write). */
  id: text().optional(),
  version: text().optional(),
};

export const PutConfigRulesetRequestSchema = z
  .strictObject({
    ...RulesetFields,
    rules: z.array(ConfigRuleRequestSchema, { error: "must be an array of rules" }),
  })
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
 * As returned: every field loose, since a ruleset shared with other tools may hold rules this
 * package would not write.
 */
export const ConfigRuleSchema = z.looseObject({
  id: z.string(),
  ref: z.string().optional(),
  version: z.string(),
  expression: z.string(),
  action: z.string(),
  action_parameters: z.looseObject({ content_converter: z.boolean().optional() }).optional(),
  description: z.string().optional(),
  enabled: z.boolean().optional(),
  logging: z.looseObject({ enabled: z.boolean() }).optional(),
  categories: z.array(z.string()).optional(),
  exposed_credential_check: z.looseObject({}).optional(),
  ratelimit: z.looseObject({}).optional(),
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

const onOff = () => enumOf(["on", "off"]);

/** TLS settings of a custom hostname's edge certificate (contract). */
export const CustomHostnameSslSettingsSchema = z.strictObject({
  ciphers: z
    .array(text().min(1, "must not be empty"), { error: "must be an array of cipher names" })
    .refine((c) => new Set(c).size === c.length, "must not repeat a cipher")
    .optional(),
  early_hints: onOff().optional(),
  http2: onOff().optional(),
  min_tls_version: enumOf(["1.0", "1.1", "1.2", "1.3"]).optional(),
  tls_1_3: onOff().optional(),
});

/** The `ssl` object of a custom hostname's create and edit bodies, every field of the contract. */
export const CustomHostnameSslRequestSchema = z
  .strictObject({
    bundle_method: enumOf(["ubiquitous", "optimal", "force"]).optional(),
    certificate_authority: enumOf(["digicert", "google", "lets_encrypt", "ssl_com"]).optional(),
    cloudflare_branding: bool().optional(),
    custom_cert_bundle: z
      .array(z.strictObject({ custom_certificate: text(), custom_key: text() }), {
        error: "must be an array of { custom_certificate, custom_key }",
      })
      .min(1, "must hold one or two certificates")
      .max(2, "must hold one or two certificates")
      .optional(),
    custom_certificate: text().optional(),
    custom_csr_id: text().optional(),
    /** Write-only: the service never returns it. */
    custom_key: text().optional(),
    method: enumOf(["http", "txt", "email"]).optional(),
    settings: CustomHostnameSslSettingsSchema.optional(),
    type: z.literal("dv", { error: 'must be "dv"' }).optional(),
    wildcard: bool().optional(),
  })
  .superRefine((ssl, ctx) => {
    // A certificate is useless without its key and the other way round.
    if ((ssl.custom_certificate === undefined) !== (ssl.custom_key === undefined))
      ctx.addIssue({
        code: "custom",
        message: "custom_certificate and custom_key go together",
        path: [ssl.custom_certificate === undefined ? "custom_certificate" : "custom_key"],
      });
  });
export type CustomHostnameSslRequest = z.infer<typeof CustomHostnameSslRequestSchema>;

/** `:request_host_header:` sends the visitor's Host as SNI (the service's special value). */
export const REQUEST_HOST_HEADER_SNI = ":request_host_header:";

/** The settable fields of a custom hostname: each optional in an edit (public contract). */
export const CustomHostnameFields = {
  ssl: CustomHostnameSslRequestSchema.optional(),
  custom_metadata: CustomMetadataSchema.optional(),
  /** A hostname of the zone that serves this custom hostname instead of the zone's default origin. */
  custom_origin_server: HostnameSchema.optional(),
  /** SNI sent to the custom origin: a hostname, or `:request_host_header:`. */
  custom_origin_sni: text()
    .refine(
      (v) => v === REQUEST_HOST_HEADER_SNI || HOSTNAME_RE.test(v),
      `must be a hostname or ${REQUEST_HOST_HEADER_SNI}`,
    )
    .optional(),
};

export const CreateCustomHostnameRequestSchema = z.strictObject({
  hostname: HostnameSchema,
  ...CustomHostnameFields,
});
export type CreateCustomHostnameRequest = z.infer<typeof CreateCustomHostnameRequestSchema>;

export const PatchCustomHostnameRequestSchema = z.strictObject(CustomHostnameFields);
export type PatchCustomHostnameRequest = z.infer<typeof PatchCustomHostnameRequestSchema>;

/** A DCV or validation record of a certificate (contract). */
const ValidationRecordSchema = z.looseObject({
  cname: z.string().optional(),
  cname_target: z.string().optional(),
  emails: z.array(z.string()).optional(),
  http_body: z.string().optional(),
  http_url: z.string().optional(),
  status: z.string().optional(),
  txt_name: z.string().optional(),
  txt_value: z.string().optional(),
});

/** As returned: `id` and `hostname` always (contract); everything else when the service has it. */
export const CustomHostnameSchema = z.looseObject({
  id: z.string(),
  hostname: z.string(),
  status: z.string().optional(),
  ssl: z
    .looseObject({
      id: z.string().optional(),
      status: z.string().optional(),
      method: z.string().optional(),
      type: z.string().optional(),
      bundle_method: z.string().optional(),
      certificate_authority: z.string().optional(),
      cloudflare_branding: z.boolean().optional(),
      custom_certificate: z.string().optional(),
      custom_csr_id: z.string().optional(),
      settings: z
        .looseObject({
          ciphers: z.array(z.string()).optional(),
          early_hints: z.string().optional(),
          http2: z.string().optional(),
          min_tls_version: z.string().optional(),
          tls_1_3: z.string().optional(),
        })
        .optional(),
      wildcard: z.boolean().optional(),
      hosts: z.array(z.string()).optional(),
      issuer: z.string().optional(),
      serial_number: z.string().optional(),
      signature: z.string().optional(),
      expires_on: z.string().optional(),
      uploaded_on: z.string().optional(),
      dcv_delegation_records: z.array(ValidationRecordSchema).optional(),
      validation_records: z.array(ValidationRecordSchema).optional(),
      validation_errors: z.array(z.looseObject({ message: z.string().optional() })).optional(),
    })
    .optional(),
  custom_metadata: z.record(z.string(), z.string()).optional(),
  custom_origin_server: z.string().optional(),
  custom_origin_sni: z.string().optional(),
  ownership_verification: z
    .looseObject({ name: z.string().optional(), type: z.string().optional(), value: z.string().optional() })
    .optional(),
  ownership_verification_http: z
    .looseObject({ http_body: z.string().optional(), http_url: z.string().optional() })
    .optional(),
  verification_errors: z.array(z.string()).optional(),
  created_at: z.string().optional(),
});
export type CustomHostname = z.infer<typeof CustomHostnameSchema>;

export const DeletedSchema = z.looseObject({ id: z.string() });
