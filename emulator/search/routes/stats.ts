/** An instance's stats (both bases) and the purge of its cache (the namespaced base only). */
import { z } from "zod";
import { SearchStatsSchema } from "../../../sdk/schemas/search";
import { statsView } from "../views";
import * as G from "../../../sdk/generated/search";
import { NAMED_BASE, under, type SearchArea } from "./context";

export function statsRoute(area: SearchArea, base: string): void {
  area.get(
    `${base}/:id/stats`,
    {
      params: under(base, G.AiSearchStatsPath, G.AiSearchNamespaceStatsPath),
      response: SearchStatsSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns }, params }) => statsView(model, model.instance(ns, params.id)),
  );
}

export function purgeCacheRoute(area: SearchArea): void {
  area.post(
    `${NAMED_BASE}/:id/purge_cache`,
    { params: G.AiSearchNamespacePurgeInstanceCachePath, response: z.null(), permissions: "instances" },
    ({ auth: { model, ns }, params }) => {
      model.purgeCache(model.instance(ns, params.id));
      return null;
    },
  );
}
