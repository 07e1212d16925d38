/**
 * zod schemas of the content area (markdown conversion): zones, the `content_converter` zone setting,
 * the `http_config_settings` phase entrypoint and custom hostnames. The wire schemas are the generated
 * ones (sdk/generated/content.ts, from the contract and contract/rules/content.json); this module adds
 * only what data cannot say (refinements across fields, the zone operations the contract lacks) and
 * keeps the names the sdk, the emulator and the provider import.
 */
import { z } from "zod";
import * as G from "../generated/content";
import { list } from "../wire/rules";
import { IdentifierSchema } from "./common";

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

const HostnameEditBody = G.CustomHostnameForAZoneEditCustomHostnameBody;

/** A DNS name with at least two labels, each 1 to 63 letters, digits or inner hyphens (the rule of `custom_origin_server`). */
export const HostnameSchema = HostnameEditBody.shape.custom_origin_server.unwrap();

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
import { OnOffSchema } from "./zone-settings";

/** `on` enables conversion (spec C); `off` is its counterpart, the value a fresh zone reports. */
export const ContentConverterValueSchema = OnOffSchema;
export type ContentConverterValue = z.infer<typeof ContentConverterValueSchema>;

/** The content_converter setting's one field a program sets. */
export const ZoneSettingFields = { value: ContentConverterValueSchema };

/** The content_converter setting's edit body. */
export const PatchZoneSettingRequestSchema = z.strictObject(ZoneSettingFields);
export type PatchZoneSettingRequest = z.infer<typeof PatchZoneSettingRequestSchema>;

/** The content_converter setting as returned (the contract's setting result is this one's). */
export const ContentConverterSettingSchema = G.ZoneSettingsGetSingleSettingResult;
export type ContentConverterSetting = z.infer<typeof ContentConverterSettingSchema>;

// ---- configuration rules -----------------------------------------------------------------------

const RuleBody = G.PutZonesZoneIdRulesetsPhasesRulesetPhaseEntrypointBody.shape.rules.element;

/** The `disable_*` switches only take `true` (a boolean enum, which the generator does not write). */
const onlyTrue = () => z.literal(true, { error: "must be true (leave it out otherwise)" }).optional();
const SWITCHES = {
  disable_apps: onlyTrue(),
  disable_pay_per_crawl: onlyTrue(),
  disable_rum: onlyTrue(),
  disable_zaraz: onlyTrue(),
};
const Parameters = RuleBody.shape.action_parameters.extend(SWITCHES);

const atLeastOne = {
  message: "must set at least one configuration parameter",
  // Only about a body that is otherwise fine: a typo's parameter is named by its own issue.
  when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0,
};
const someKey = (p: object) => Object.keys(p).length > 0;

/**
 * As the sdk sends them: unknown parameters pass through, since the service adds parameters over
 * time and a read-modify-write of a shared entrypoint must write back every rule it read.
 */
export const SetConfigParametersSchema = Parameters.refine(someKey, atLeastOne);
export type SetConfigParameters = z.infer<typeof SetConfigParametersSchema>;

/** As a program gives them (ConfigRule): a parameter the sdk does not know is a typo until typed. */
export const SetConfigParametersStrictSchema = Parameters.strict().refine(someKey, atLeastOne);

/** The nested objects of a rule, strict: what a program (ConfigRule) may give. */
export const RuleLoggingSchema = RuleBody.shape.logging.unwrap().strict();
export const ExposedCredentialCheckSchema = RuleBody.shape.exposed_credential_check.unwrap().strict();
export const RuleRatelimitSchema = RuleBody.shape.ratelimit.unwrap().strict();

/** A configuration rule as sent (spec C; the contract's SetConfigRule with contract/rules/content.json). */
export const ConfigRuleRequestSchema = RuleBody.extend({ action_parameters: SetConfigParametersSchema });
export type ConfigRuleRequest = z.infer<typeof ConfigRuleRequestSchema>;

/** Rules named twice by `ref` or by `id` (assumptions: both keep a rule's identity). */
function repeatedNames(rules: readonly ConfigRuleRequest[], ctx: z.RefinementCtx): void {
  for (const key of ["ref", "id"] as const) {
    const seen = new Set<string>();
    rules.forEach((r, i) => {
      const name = r[key];
      if (name === undefined) return;
      if (seen.has(name))
        ctx.addIssue({
          code: "custom",
          message: "must be unique within the ruleset",
          path: ["rules", i, key],
        });
      seen.add(name);
    });
  }
}

export const PutConfigRulesetRequestSchema = G.PutZonesZoneIdRulesetsPhasesRulesetPhaseEntrypointBody.extend({
  rules: list(ConfigRuleRequestSchema),
}).superRefine((v, ctx) => repeatedNames(v.rules, ctx));
export type PutConfigRulesetRequest = z.infer<typeof PutConfigRulesetRequestSchema>;

/**
 * As returned: open, since a ruleset shared with other tools may hold rules this package would not
 * write. A rule's `expression` (api.md:246 shows it a string) and its server-assigned `id` (its
 * identity in a read-modify-write, assumptions: Zone and custom-hostname endpoints) stay required,
 * where the contract leaves them optional.
 */
const Ruleset = G.GetZonesZoneIdRulesetsPhasesRulesetPhaseEntrypointResult;
export const ConfigRuleSchema = Ruleset.shape.rules.element.extend({
  id: z.string(),
  expression: z.string(),
});
export type ConfigRule = z.infer<typeof ConfigRuleSchema>;
export const RulesetSchema = Ruleset.extend({ rules: z.array(ConfigRuleSchema) });
export type Ruleset = z.infer<typeof RulesetSchema>;

// ---- custom hostnames --------------------------------------------------------------------------

/** The service's special SNI value: send the visitor's Host. */
export const REQUEST_HOST_HEADER_SNI = ":request_host_header:";

/** A map of strings (api.md, assumptions); `content_converter: "enabled"` opts the hostname in. */
export const CustomMetadataSchema = HostnameEditBody.shape.custom_metadata.unwrap();
export type CustomMetadata = z.infer<typeof CustomMetadataSchema>;

/** The `ssl` object of a custom hostname's create and edit bodies: the contract's, plus the pairing rule. */
export const CustomHostnameSslRequestSchema = HostnameEditBody.shape.ssl
  .unwrap()
  .unwrap()
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

/**
 * An edit: every field optional (contract). `ssl: null`, which the official provider sends for a
 * hostname with no ssl block, changes nothing (assumptions).
 */
export const PatchCustomHostnameRequestSchema = HostnameEditBody.extend({
  ssl: CustomHostnameSslRequestSchema.nullable().optional(),
});
export type PatchCustomHostnameRequest = z.infer<typeof PatchCustomHostnameRequestSchema>;

/** The create body (not in the contract): the edit's fields beside `hostname` (assumptions). */
export const CreateCustomHostnameRequestSchema = PatchCustomHostnameRequestSchema.extend({
  hostname: HostnameSchema,
});
export type CreateCustomHostnameRequest = z.infer<typeof CreateCustomHostnameRequestSchema>;

/**
 * As returned: `id` and `hostname` always (contract); everything else when the service has it. The
 * metadata is read as the map of strings it is written as (api.md:102, 247), so it can be written back.
 */
export const CustomHostnameSchema = G.CustomHostnameForAZoneCustomHostnameDetailsResult.extend({
  custom_metadata: z.record(z.string(), z.string()).optional(),
});
export type CustomHostname = z.infer<typeof CustomHostnameSchema>;

/** The contract leaves `id` optional; the sdk's deleteCustomHostname promises it (the emulator sends it). */
export const DeletedSchema = G.DeleteZonesCustomhostnamesResult.extend({ id: z.string() });
