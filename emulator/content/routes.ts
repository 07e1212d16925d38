/** HTTP layer of the content area: one thin handler per operation over ./state. */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AreaContext, AreaModule } from "../area";
import type { AuthRequirement } from "../auth";
import { envelope, ok, paginate, parseWith } from "../http";
import {
  CreateCustomHostnameRequestSchema,
  CreateZoneRequestSchema,
  PatchCustomHostnameRequestSchema,
  PatchZoneSettingRequestSchema,
  PutConfigRulesetRequestSchema,
} from "../../sdk/schemas/content";
import { serveEdge } from "./edge";
import { ContentModel, type ZoneRecord } from "./state";

type ZoneParams = { Params: { zone_id: string } };
type SettingParams = { Params: { zone_id: string; setting_id: string } };
type PhaseParams = { Params: { zone_id: string; phase: string } };
type HostnameParams = { Params: { zone_id: string; custom_hostname_id: string } };
type ListQuery = { page?: string; per_page?: string };

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

  /** Authenticates, finds the zone, then checks that the token's account owns it. */
  const zoneFor = (req: FastifyRequest<ZoneParams>, need: AuthRequirement): ZoneRecord => {
    ctx.auth.require(req, need);
    const zone = model.getZone(req.params.zone_id);
    ctx.auth.require(req, { ...need, accountId: zone.account.id });
    return zone;
  };

  app.post("/zones", async (req, reply) => {
    ctx.auth.require(req, EDIT_ZONE);
    const body = parseWith(CreateZoneRequestSchema, req.body);
    ctx.auth.require(req, { ...EDIT_ZONE, accountId: body.account.id });
    return ok(reply, model.createZone(body.account.id, body.name));
  });

  app.get<{ Querystring: ListQuery & { name?: string } }>("/zones", async (req, reply) => {
    const token = ctx.auth.require(req, READ_ZONE);
    const { items, resultInfo } = paginate(model.listZones(token.accountId, req.query.name), req.query);
    return ok(reply, items, { resultInfo });
  });

  app.get<ZoneParams>("/zones/:zone_id", async (req, reply) => ok(reply, zoneFor(req, READ_ZONE)));

  app.get<SettingParams>("/zones/:zone_id/settings/:setting_id", async (req, reply) => {
    const zone = zoneFor(req, READ_SETTING);
    return ok(reply, model.getSetting(zone.id, req.params.setting_id));
  });

  app.patch<SettingParams>("/zones/:zone_id/settings/:setting_id", async (req, reply) => {
    const zone = zoneFor(req, EDIT_SETTING);
    const { value } = parseWith(PatchZoneSettingRequestSchema, req.body);
    return ok(reply, model.patchSetting(zone.id, req.params.setting_id, value));
  });

  app.get<PhaseParams>("/zones/:zone_id/rulesets/phases/:phase/entrypoint", async (req, reply) => {
    const zone = zoneFor(req, READ_RULES);
    return ok(reply, model.getEntrypoint(zone.id, req.params.phase));
  });

  app.put<PhaseParams & { Querystring: { dry_run?: string } }>(
    "/zones/:zone_id/rulesets/phases/:phase/entrypoint",
    async (req, reply) => {
      const zone = zoneFor(req, EDIT_RULES);
      const { rules } = parseWith(PutConfigRulesetRequestSchema, req.body);
      // Public API: `dry_run=true` validates everything and answers `result: null`, persisting nothing.
      if (req.query.dry_run === "true") {
        model.checkEntrypoint(zone.id, req.params.phase, rules);
        return ok(reply, null);
      }
      return ok(reply, model.putEntrypoint(zone.id, req.params.phase, rules));
    },
  );

  app.post<ZoneParams>("/zones/:zone_id/custom_hostnames", async (req, reply) => {
    const zone = zoneFor(req, EDIT_HOSTNAMES);
    const body = parseWith(CreateCustomHostnameRequestSchema, req.body);
    return ok(reply, model.createCustomHostname(zone.id, body));
  });

  app.get<ZoneParams & { Querystring: ListQuery & Record<string, string | undefined> }>(
    "/zones/:zone_id/custom_hostnames",
    async (req, reply) => {
      const zone = zoneFor(req, READ_HOSTNAMES);
      const q = req.query;
      // The public client sends the filter as `hostname.exact` / `hostname.contain` /
      // `hostname.startsWith` (dotted keys); a plain `hostname` is the exact form.
      const filter = {
        exact: q["hostname.exact"] ?? q.hostname,
        contain: q["hostname.contain"],
        startsWith: q["hostname.startsWith"],
        id: q.id,
      };
      const { items, resultInfo } = paginate(model.listCustomHostnames(zone.id, filter), q);
      return ok(reply, items, { resultInfo });
    },
  );

  app.get<HostnameParams>("/zones/:zone_id/custom_hostnames/:custom_hostname_id", async (req, reply) => {
    const zone = zoneFor(req, READ_HOSTNAMES);
    return ok(reply, model.getCustomHostname(zone.id, req.params.custom_hostname_id));
  });

  app.patch<HostnameParams>("/zones/:zone_id/custom_hostnames/:custom_hostname_id", async (req, reply) => {
    const zone = zoneFor(req, EDIT_HOSTNAMES);
    const patch = parseWith(PatchCustomHostnameRequestSchema, req.body);
    return ok(reply, model.patchCustomHostname(zone.id, req.params.custom_hostname_id, patch));
  });

  app.delete<HostnameParams>("/zones/:zone_id/custom_hostnames/:custom_hostname_id", async (req, reply) => {
    const zone = zoneFor(req, EDIT_HOSTNAMES);
    const deleted = model.deleteCustomHostname(zone.id, req.params.custom_hostname_id);
    // The public API answers this one with a bare `{ id }` (its client reads `id` at the top); the
    // envelope stays for every other reader, so the id is in both places.
    return reply.code(200).send({ ...envelope(deleted), id: deleted.id });
  });
}

/** Control routes: register the origin a zone's pages come from. */
function control(app: FastifyInstance, ctx: AreaContext): void {
  const model = new ContentModel(ctx.store, ctx.clock);
  const setOrigin = async (req: FastifyRequest<ZoneParams>): Promise<{ zone_id: string; url: string }> =>
    model.setOrigin(req.params.zone_id, parseWith(OriginRequestSchema, req.body).url);
  app.put<ZoneParams>("/zones/:zone_id/origin", async (req, reply) => ok(reply, await setOrigin(req)));
  app.post<ZoneParams>("/zones/:zone_id/origin", async (req, reply) => ok(reply, await setOrigin(req)));
  app.get<ZoneParams>("/zones/:zone_id/origin", async (req, reply) =>
    ok(reply, { zone_id: req.params.zone_id, url: model.getOrigin(req.params.zone_id) ?? null }),
  );
}

function edge(app: FastifyInstance, ctx: AreaContext): void {
  const model = new ContentModel(ctx.store, ctx.clock);
  app.get("/__edge/:hostname", async (req, reply) => serveEdge(model, req, reply));
  app.get("/__edge/:hostname/*", async (req, reply) => serveEdge(model, req, reply));
}

export const contentArea: AreaModule = { name: "content", api, control, edge };
