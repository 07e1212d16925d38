/**
 * The zone's configuration rules: the `http_config_settings` entrypoint ruleset,
 * `GET` and `PUT /zones/{zone_id}/rulesets/phases/{ruleset_phase}/entrypoint` with the phase fixed.
 */
import { orGone, type CallOptions } from "../core";
import { path, type ApiClient } from "../client";
import {
  CONFIG_PHASE,
  PutConfigRulesetRequestSchema,
  RulesetSchema,
  type ConfigRuleRequest,
  type PutConfigRulesetRequest,
  type Ruleset,
} from "../schemas/content";
import { validate } from "../validate";
import { ZoneIdsSchema, type ZoneIds } from "./paths";

/** The PUT body: `rules` may be a readonly array; `name` and `description` are optional. */
export type PutConfigRulesetParams = { rules: readonly ConfigRuleRequest[] } & Omit<
  PutConfigRulesetRequest,
  "rules"
>;

export class ConfigRuleset {
  constructor(private readonly client: ApiClient) {}

  /** The zone's http_config_settings entrypoint, or undefined while it has none (the API's 404). */
  async get(ids: ZoneIds, options: CallOptions = {}): Promise<Ruleset | undefined> {
    const { zoneId } = validate(ZoneIdsSchema, ids, "getConfigRuleset");
    // The API answers 404 for a phase with no entrypoint yet (public-api-notes); an unknown zone
    // answers 404 too and surfaces on the next write.
    return orGone(
      this.client.request({
        method: "GET",
        path: path`/zones/${zoneId}/rulesets/phases/${CONFIG_PHASE}/entrypoint`,
        schema: RulesetSchema,
        ...options,
      }),
    );
  }

  /**
   * Replaces every rule of the entrypoint; rules named by `id` or `ref` keep their identity. `name`
   * and `description` of the entrypoint are kept when left out.
   */
  async put(ids: ZoneIds, params: PutConfigRulesetParams, options: CallOptions = {}): Promise<Ruleset> {
    const { zoneId } = validate(ZoneIdsSchema, ids, "putConfigRuleset");
    const body = validate(PutConfigRulesetRequestSchema, params, "putConfigRuleset");
    return this.client.request({
      method: "PUT",
      path: path`/zones/${zoneId}/rulesets/phases/${CONFIG_PHASE}/entrypoint`,
      body,
      schema: RulesetSchema,
      ...options,
    });
  }
}
