/** HTTP layer of the content area: one thin handler per operation over ./state. */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AreaContext, AreaModule } from "../area";
import type { AuthRequirement } from "../auth";
import { NoParams, answer, defineArea, defineControl } from "../define";
import { pageOf, pageQuery } from "../paging";
import type { StoredToken } from "../store";
import {
  CONTENT_CONVERTER_SETTING,
  CreateCustomHostnameRequestSchema,
  CreateZoneRequestSchema,
  CustomHostnameSchema,
  DeletedSchema,
  EditZoneSettingRequestSchema,
  PatchCustomHostnameRequestSchema,
  PutConfigRulesetRequestSchema,
  RulesetSchema,
  ZoneSchema,
  ZoneSettingSchema,
} from "../../sdk/schemas/content";
import * as G from "../../sdk/generated/content";
import { serveEdge } from "./edge";
import { rulesetRoutes } from "./rulesets";
import { CONTENT_CODES, ContentModel, type ZoneRecord } from "./state";

/** `/zones/{zone_id}` and its custom-hostname collection: paths outside the contract's subset. */
const Zone = z.object({ zone_id: z.string() });

const READ_ZONE: AuthRequirement = { any: ["zone:read", "zone:edit"] };
const EDIT_ZONE: AuthRequirement = { all: ["zone:edit"] };
const READ_SETTING: AuthRequirement = { any: ["zone:settings:edit", "zone:read"] };
const EDIT_SETTING: AuthRequirement = { all: ["zone:settings:edit"] };
const READ_RULES: AuthRequirement = { any: ["rulesets:edit", "zone:read"] };
const EDIT_RULES: AuthRequirement = { all: ["rulesets:edit"] };
const READ_HOSTNAMES: AuthRequirement = { any: ["custom_hostnames:edit", "zone:read"] };
const EDIT_HOSTNAMES: AuthRequirement = { all: ["custom_hostnames:edit"] };

const OriginRequestSchema = z.strictObject({
  url: z.string().refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === "http:" || u.protocol === "https:") && !u.search && !u.hash;
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL without query or fragment"),
});

function api(app: FastifyInstance, ctx: AreaContext): void {
  const model = new ContentModel(ctx.store, ctx.clock);
  const common = { envelope: "result", invalidCode: CONTENT_CODES.badRequest } as const;
  /** Routes on the token's account (`/zones`). */
  const area = defineArea(app, {
    ...common,
    auth: (req, need: AuthRequirement): StoredToken => ctx.auth.require(req, need),
  });
  /** Routes on one zone: authenticates, finds the zone, then checks that the token's account owns it. */
  const zoneArea = defineArea(app, {
    ...common,
    auth: (req, need: AuthRequirement, params: { zone_id: string }): ZoneRecord => {
      ctx.auth.require(req, need);
      const zone = model.getZone(params.zone_id);
      ctx.auth.require(req, { ...need, accountId: zone.account.id });
      return zone;
    },
  });

  area.post(
    "/zones",
    { params: NoParams, body: CreateZoneRequestSchema, response: ZoneSchema, permissions: EDIT_ZONE },
    ({ req, body }) => {
      ctx.auth.require(req, { ...EDIT_ZONE, accountId: body.account.id });
      return model.createZone(body.account.id, body.name);
    },
  );

  area.get(
    "/zones",
    {
      params: NoParams,
      querystring: pageQuery().extend({ name: z.string().optional() }),
      response: z.array(ZoneSchema),
      permissions: READ_ZONE,
    },
    ({ auth, query }) => {
      const { items, resultInfo } = pageOf(model.listZones(auth.accountId, query.name), query);
      return answer(items, { resultInfo });
    },
  );

  zoneArea.get(
    "/zones/:zone_id",
    { params: Zone, response: ZoneSchema, permissions: READ_ZONE },
    ({ auth: zone }) => zone,
  );

  zoneArea.get(
    "/zones/:zone_id/settings/:setting_id",
    { params: G.ZoneSettingsGetSingleSettingPath, response: ZoneSettingSchema, permissions: READ_SETTING },
    ({ auth: zone, params }) => model.getSetting(zone.id, params.setting_id),
  );

  zoneArea.patch(
    "/zones/:zone_id/settings/:setting_id",
    {
      params: G.ZoneSettingsEditSingleSettingPath,
      // The body's shape is the same for every setting; its value is judged per setting by the model,
      // after the setting id (an unknown id is a 404 whatever the body says).
      body: EditZoneSettingRequestSchema,
      response: ZoneSettingSchema,
      permissions: EDIT_SETTING,
    },
    ({ auth: zone, params, body }) => model.patchSetting(zone.id, params.setting_id, body),
  );

  zoneArea.get(
    "/zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint",
    // The phase is any string here (a rule row takes the contract's enum away): the model answers for
    // a phase other than http_config_settings, after the zone.
    {
      params: G.GetZonesZoneIdRulesetsPhasesRulesetPhaseEntrypointPath,
      response: RulesetSchema,
      permissions: READ_RULES,
    },
    ({ auth: zone, params }) => model.getEntrypoint(zone.id, params.ruleset_phase),
  );

  zoneArea.put(
    "/zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint",
    {
      params: G.PutZonesZoneIdRulesetsPhasesRulesetPhaseEntrypointPath,
      querystring: G.PutZonesZoneIdRulesetsPhasesRulesetPhaseEntrypointQuery,
      body: PutConfigRulesetRequestSchema,
      response: RulesetSchema.nullable(),
      permissions: EDIT_RULES,
    },
    ({ auth: zone, params, query, body }) => {
      // Public API: `dry_run=true` validates everything and answers `result: null`, persisting nothing.
      if (query.dry_run === true) {
        model.checkEntrypoint(zone.id, params.ruleset_phase, body);
        return null;
      }
      return model.putEntrypoint(zone.id, params.ruleset_phase, body);
    },
  );

  // The collection and by-id routes, on the entrypoint's state (./rulesets).
  rulesetRoutes(zoneArea, model, { read: READ_RULES, edit: EDIT_RULES });

  zoneArea.post(
    "/zones/:zone_id/custom_hostnames",
    {
      params: Zone,
      body: CreateCustomHostnameRequestSchema,
      response: CustomHostnameSchema,
      permissions: EDIT_HOSTNAMES,
    },
    ({ auth: zone, body }) => model.createCustomHostname(zone.id, body),
  );

  zoneArea.get(
    "/zones/:zone_id/custom_hostnames",
    {
      params: Zone,
      querystring: pageQuery(),
      response: z.array(CustomHostnameSchema),
      permissions: READ_HOSTNAMES,
    },
    ({ auth: zone, query: q }) => {
      const text = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
      // The public client sends the filter as `hostname.exact` / `hostname.contain` /
      // `hostname.startsWith` (dotted keys); a plain `hostname` is the exact form.
      const filter = {
        exact: text(q["hostname.exact"]) ?? text(q.hostname),
        contain: text(q["hostname.contain"]),
        startsWith: text(q["hostname.startsWith"]),
        id: text(q.id),
      };
      const { items, resultInfo } = pageOf(model.listCustomHostnames(zone.id, filter), q);
      return answer(items, { resultInfo });
    },
  );

  zoneArea.get(
    "/zones/:zone_id/custom_hostnames/:custom_hostname_id",
    {
      params: G.CustomHostnameForAZoneCustomHostnameDetailsPath,
      response: CustomHostnameSchema,
      permissions: READ_HOSTNAMES,
    },
    ({ auth: zone, params }) => model.getCustomHostname(zone.id, params.custom_hostname_id),
  );

  zoneArea.patch(
    "/zones/:zone_id/custom_hostnames/:custom_hostname_id",
    {
      params: G.CustomHostnameForAZoneEditCustomHostnamePath,
      body: PatchCustomHostnameRequestSchema,
      response: CustomHostnameSchema,
      permissions: EDIT_HOSTNAMES,
    },
    ({ auth: zone, params, body }) => model.patchCustomHostname(zone.id, params.custom_hostname_id, body),
  );

  zoneArea.delete(
    "/zones/:zone_id/custom_hostnames/:custom_hostname_id",
    { params: G.DeleteZonesCustomhostnamesPath, response: DeletedSchema, permissions: EDIT_HOSTNAMES },
    ({ auth: zone, params }) => {
      const deleted = model.deleteCustomHostname(zone.id, params.custom_hostname_id);
      // The public API answers this one with a bare `{ id }` (its client reads `id` at the top); the
      // envelope stays for every other reader, so the id is in both places.
      return answer(deleted, { extra: { id: deleted.id } });
    },
  );
}

/** Control routes: register the origin a zone's pages come from; the console's view of every zone. */
function control(app: FastifyInstance, ctx: AreaContext): void {
  const model = new ContentModel(ctx.store, ctx.clock);
  const area = defineControl(app, CONTENT_CODES.badRequest);
  const set = { params: Zone, body: OriginRequestSchema, permissions: undefined };
  for (const method of ["put", "post"] as const)
    area[method]("/zones/:zone_id/origin", set, ({ params, body }) =>
      model.setOrigin(params.zone_id, body.url),
    );
  // The console's markdown page: each zone of the account with its content_converter setting, the
  // rules of its configuration entrypoint (in order) and the origin its pages come from.
  area.get("/zones", { params: NoParams, permissions: undefined }, () =>
    model.listZones(ctx.store.accountId).map((zone) => ({
      zone,
      content_converter: model.getSetting(zone.id, CONTENT_CONVERTER_SETTING),
      rules: model.findEntrypoint(zone.id)?.rules ?? [],
      origin: model.getOrigin(zone.id) ?? null,
    })),
  );
  area.get("/zones/:zone_id/origin", { params: Zone, permissions: undefined }, ({ params }) => ({
    zone_id: params.zone_id,
    url: model.getOrigin(params.zone_id) ?? null,
  }));
}

function edge(app: FastifyInstance, ctx: AreaContext): void {
  const model = new ContentModel(ctx.store, ctx.clock);
  app.get("/__edge/:hostname", async (req, reply) => serveEdge(model, req, reply));
  app.get("/__edge/:hostname/*", async (req, reply) => serveEdge(model, req, reply));
}

export const contentArea: AreaModule = { name: "content", api, control, edge };
