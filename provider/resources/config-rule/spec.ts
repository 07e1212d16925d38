/**
 * ConfigRule: one `set_config` rule in a zone's `http_config_settings` entrypoint (spec C), matching a
 * host, a path prefix, custom-hostname metadata, or a raw expression. Every settable field of the
 * contract's rule is an input in camelCase (`actionParameters.contentConverter`, `logging`,
 * `categories`, `exposedCredentialCheck`, `ratelimit`, …), each read back for drift.
 *
 * The entrypoint is one document shared by every rule of the zone, and the API can only replace it
 * whole. So each write is a read-modify-write that keeps every rule this resource does not own (its
 * rule is the one with its `ref`; the others are written back as read, every `set_config` parameter
 * included), serialised per zone inside the provider process, and checked against the ruleset
 * version: re-read just before the PUT (someone wrote → start over after a backoff) and after it (the
 * version moved by more than one → start over on fresh state). Several ConfigRules of one zone thus
 * run in parallel without losing each other's rules.
 *
 * Where the rule matches custom-hostname metadata, `customHostnameIds` opts those hostnames in by
 * setting `custom_metadata.content_converter = "enabled"` (other keys kept); delete removes that key.
 *
 * Identity: `zoneId` and `ref` (generated when not given, then kept) force replacement. The resource id
 * is `<zoneId>/<ref>`. Import: `importId` is the id or ref of an existing rule (or `<zoneId>/<ref>`),
 * which is taken over in place (it keeps its id and position and gets this resource's ref).
 */
import { z } from "zod";
import {
  ConfigRuleRequestSchema,
  ExposedCredentialCheckSchema,
  HostnameSchema,
  RuleLoggingSchema,
  RuleRatelimitSchema,
  SetConfigParametersStrictSchema,
  ZoneIdSchema,
} from "../../../sdk/schemas/content";
import { defineResource, local, output, requiredString } from "../../core/define";
import { contractInputs } from "../../core/from-contract";

const W = ConfigRuleRequestSchema.shape;

const boolean = () => z.boolean({ error: "must be a boolean" });

/**
 * The rule as a program gives it: the contract's rule with its nested objects strict (a parameter or
 * field the sdk does not know is a typo until typed; the sdk itself writes back whatever it read).
 */
const PROGRAM_RULE = ConfigRuleRequestSchema.extend({
  action_parameters: SetConfigParametersStrictSchema,
  logging: RuleLoggingSchema.optional(),
  exposed_credential_check: ExposedCredentialCheckSchema.optional(),
  ratelimit: RuleRatelimitSchema.optional(),
}).shape;

/** The service's values of a rule's description and switch when left out (stored, so refresh shows no drift). */
export const RULE_DEFAULTS = { description: "", enabled: true } as const;

/**
 * An input of an earlier release that has a new name: refused at check with a message that names the
 * new one (the stored state is moved over by the `upgrade` hook, so nothing is replaced).
 */
const renamed = (to: string, example: string) =>
  local(z.undefined({ error: `was renamed to ${to} (write ${example})` }).optional());

export const ConfigRuleSpec = defineResource({
  kind: "ConfigRule",
  // The generated ref (checks.normalize).
  filledAtCheck: ["ref"],
  fields: {
    /** The zone (at most 32 characters). */
    zoneId: local(requiredString(ZoneIdSchema), { identity: true }),
    /** Match requests for this host (`http.host eq "…"`). Combines with `pathPrefix` (and). */
    host: local(HostnameSchema.optional()),
    /** Match paths starting with this (`starts_with(http.request.uri.path, "…")`). */
    pathPrefix: local(
      z.string({ error: 'must start with "/"' }).startsWith("/", 'must start with "/"').optional(),
    ),
    /** Match custom hostnames whose metadata has `content_converter: "enabled"`. */
    customHostnameMetadata: local(boolean().optional()),
    /** Any other expression, instead of host / pathPrefix / customHostnameMetadata. */
    expression: local(W.expression.optional()),
    /**
     * Every settable field of the contract's rule, in camelCase, with the service's defaults. Only
     * the exceptions are written here.
     */
    ...contractInputs(
      PROGRAM_RULE,
      {
        /**
         * The `set_config` parameters, in camelCase: `contentConverter` (true converts, false keeps
         * the original) and any other the service takes (`polish`, `rocketLoader`, `securityLevel`,
         * …). Default `{ contentConverter: true }`.
         */
        action_parameters: { default: { contentConverter: true } },
        /** The rule's identity in the entrypoint; generated when absent, then kept. */
        ref: { flags: { identity: true } },
        /** `{ enabled }`: log the requests the rule matches. */
        logging: {},
        /** `{ usernameExpression, passwordExpression }`. */
        exposed_credential_check: {},
        /** `{ characteristics, period, requestsPerPeriod?, mitigationTimeout?, … }`. */
        ratelimit: {},
        // The service's names: sent as given.
        categories: { asGiven: true },
        // Declared above: made from the matchers, or given.
        expression: { omit: true },
        // Always set_config: the entrypoint of configuration rules takes no other.
        action: { omit: true },
        // The server's: the rule's id, version and last update are outputs.
        id: { omit: true },
        version: { omit: true },
        last_updated: { omit: true },
      },
      RULE_DEFAULTS,
    ),
    /** @deprecated Renamed to `actionParameters.contentConverter`. */
    contentConverter: renamed(
      "actionParameters.contentConverter",
      "actionParameters: { contentConverter: … }",
    ),
    /** Custom hostnames (ids in this zone) to opt in through metadata; needs customHostnameMetadata. */
    customHostnameIds: local(
      z
        .array(ZoneIdSchema, { error: "must be a list of custom hostname ids" })
        .refine((ids) => new Set(ids).size === ids.length, "must not repeat an id")
        .optional(),
    ),
    ruleId: output("id", z.string()),
    rulesetId: output("ruleset_id", z.string()),
    ruleVersion: output("version", z.string()),
    lastUpdated: output("last_updated", z.string()),
    /** The expression the rule carries (generated from host / pathPrefix / metadata, or as given). */
    ruleExpression: output("expression", z.string()),
  },
});
