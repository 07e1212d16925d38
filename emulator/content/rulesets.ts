/**
 * A zone's rulesets through the collection (`/zones/{zone_id}/rulesets`, by id), as the official
 * Terraform provider manages them: on the same state as the phase entrypoint that ConfigRule edits.
 * A zone ruleset of an entrypoint phase is that phase's entrypoint, so the collection holds at most one
 * per phase, and the emulator serves one phase (http_config_settings): a ruleset made here is the
 * entrypoint ConfigRule reads and writes, and the other way round.
 */
import { z } from "zod";
import type { AuthRequirement } from "../auth";
import type { Area } from "../define";
import { answer } from "../define";
import { DomainError, notFound } from "../http";
import * as G from "../../sdk/generated/content";
import { ConfigRuleRequestSchema, RulesetSchema } from "../../sdk/schemas/content";
import { list } from "../../sdk/wire/rules";
import { CONTENT_CODES, type ContentModel, type RulesetRecord, type ZoneRecord } from "./state";

const Entrypoint = G.PutZonesZoneIdRulesetsPhasesRulesetPhaseEntrypointBody.shape;

/** At zone level every ruleset is of kind `zone` (custom and managed rulesets are the account's). */
const Kind = z.enum(["zone"], { error: "must be zone (the only kind of a zone's ruleset)" });

/** cloudflare@7.3.0's create body (`RulesetCreateParams`): kind, name and phase optional there too. */
const CreateRulesetBody = z.strictObject({
  kind: Kind.optional(),
  name: Entrypoint.name,
  description: Entrypoint.description,
  phase: z.string({ error: "must be a ruleset phase" }),
  rules: list(ConfigRuleRequestSchema).optional(),
});

/** cloudflare@7.3.0's update body (`RulesetUpdateParams`): the whole ruleset again; kind and phase cannot change. */
const UpdateRulesetBody = CreateRulesetBody.extend({ phase: CreateRulesetBody.shape.phase.optional() });

const RulesetPath = z.strictObject({ zone_id: z.string(), ruleset_id: z.string() });
const ZonePath = z.strictObject({ zone_id: z.string() });

/** A listing entry: the ruleset without its rules (cloudflare@7.3.0's `RulesetListResponse`). */
const RulesetSummary = RulesetSchema.omit({ rules: true });

export interface RulesetPermissions {
  read: AuthRequirement;
  edit: AuthRequirement;
}

type ZoneArea = Area<AuthRequirement, ZoneRecord, { zone_id: string }>;

/** The rulesets of a zone, over the content state (a view: it keeps nothing of its own). */
export class ZoneRulesets {
  constructor(
    private readonly model: ContentModel,
    private readonly zoneId: string,
  ) {}

  list(): Omit<RulesetRecord, "rules">[] {
    const rs = this.model.findEntrypoint(this.zoneId);
    if (!rs) return [];
    const { rules: _rules, ...summary } = rs;
    return [summary];
  }

  get(id: string): RulesetRecord {
    const rs = this.model.findEntrypoint(this.zoneId);
    if (!rs || rs.id !== id) throw notFound(`ruleset ${id}`, CONTENT_CODES.notFound);
    return rs;
  }

  /** As the service does: a second zone ruleset of an entrypoint phase is refused (PUT the entrypoint). */
  create(body: z.output<typeof CreateRulesetBody>): RulesetRecord {
    this.model.checkPhase(body.phase);
    if (this.model.findEntrypoint(this.zoneId, body.phase))
      throw new DomainError(400, {
        code: CONTENT_CODES.entrypointExists,
        message:
          "A similar configuration with rules already exists and overwriting will have unintended " +
          `consequences. If you are trying to create a new zone ruleset with phase ${body.phase}, ` +
          "update the existing one (PUT the entrypoint or the ruleset by id) or delete it first",
      });
    return this.model.putEntrypoint(this.zoneId, body.phase, rulesetBody(body));
  }

  update(id: string, body: z.output<typeof UpdateRulesetBody>): RulesetRecord {
    const rs = this.get(id);
    if (body.phase !== undefined && body.phase !== rs.phase)
      throw new DomainError(400, {
        code: CONTENT_CODES.badRequest,
        message: `phase: a ruleset's phase cannot change (it is ${rs.phase})`,
      });
    return this.model.putEntrypoint(this.zoneId, rs.phase, rulesetBody(body));
  }

  delete(id: string): void {
    this.get(id);
    this.model.deleteEntrypoint(this.zoneId);
  }
}

/** The entrypoint PUT's body: rules left out are none (a create or a PUT gives the whole ruleset). */
function rulesetBody(body: z.output<typeof UpdateRulesetBody>): Parameters<ContentModel["putEntrypoint"]>[2] {
  return {
    rules: body.rules ?? [],
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
  };
}

export function rulesetRoutes(
  zoneArea: ZoneArea,
  model: ContentModel,
  permissions: RulesetPermissions,
): void {
  const RULESETS = "/zones/:zone_id/rulesets";
  const rulesets = (zone: ZoneRecord): ZoneRulesets => new ZoneRulesets(model, zone.id);

  zoneArea.get(
    RULESETS,
    { params: ZonePath, response: z.array(RulesetSummary), permissions: permissions.read },
    ({ auth: zone }) => rulesets(zone).list(),
  );

  zoneArea.post(
    RULESETS,
    { params: ZonePath, body: CreateRulesetBody, response: RulesetSchema, permissions: permissions.edit },
    ({ auth: zone, body }) => rulesets(zone).create(body),
  );

  zoneArea.get(
    `${RULESETS}/:ruleset_id`,
    { params: RulesetPath, response: RulesetSchema, permissions: permissions.read },
    ({ auth: zone, params }) => rulesets(zone).get(params.ruleset_id),
  );

  zoneArea.put(
    `${RULESETS}/:ruleset_id`,
    { params: RulesetPath, body: UpdateRulesetBody, response: RulesetSchema, permissions: permissions.edit },
    ({ auth: zone, params, body }) => rulesets(zone).update(params.ruleset_id, body),
  );

  // The service answers 204 with no body (the public client's delete resolves to nothing).
  zoneArea.delete(
    `${RULESETS}/:ruleset_id`,
    { params: RulesetPath, permissions: permissions.edit },
    ({ auth: zone, params }) => {
      rulesets(zone).delete(params.ruleset_id);
      return answer(null, { status: 204 });
    },
  );
}
