/** What the kinds table knows of ConfigRule (core/room.ts). */
import type { KindRoom } from "../../core/room";
import { ConfigRuleSpec } from "./spec";

export const room: KindRoom = {
  spec: ConfigRuleSpec,
  handler: () => require("./handler").handler,
  // Read never shows the zone of a rule.
  importForm: { form: "<zoneId>/<ref>", parts: ["zoneId", "ref"], id: "whole" },
  lister: {
    in: "zone",
    list: async (zone, walk) => {
      const scope = { zoneId: zone.id, zoneName: zone.name };
      const ruleset = await walk.api.content.configRuleset.get({ zoneId: zone.id });
      return (ruleset?.rules ?? []).map((rule) => {
        const ref = rule.ref ?? rule.id;
        const label = `${zone.name}/${rule.description || ref}`;
        const settings = { ...rule, ruleset_id: ruleset?.id };
        return walk.object(
          "ConfigRule",
          { id: ref, resourceId: `${zone.id}/${ref}` },
          label,
          scope,
          settings,
        );
      });
    },
  },
};
