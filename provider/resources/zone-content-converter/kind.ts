/** What the kinds table knows of ZoneContentConverter (core/room.ts). */
import { orGone } from "../../../sdk/core";
import type { KindRoom } from "../../core/room";
import { ZoneContentConverterSpec } from "./spec";

/** The setting's initial value, which a ZoneContentConverter's delete sets back: not listed. */
const CONVERTER_INITIAL = "off";

export const room: KindRoom = {
  spec: ZoneContentConverterSpec,
  handler: () => require("./handler").handler,
  // Read never shows the zone of a setting.
  importForm: { form: "<zoneId>", parts: ["zoneId"], id: "whole" },
  lister: {
    in: "zone",
    list: async (zone, walk) => {
      const converter = await orGone(walk.api.content.contentConverter.get({ zoneId: zone.id }));
      if (!converter || converter.value === CONVERTER_INITIAL) return [];
      const scope = { zoneId: zone.id, zoneName: zone.name };
      const label = `content converter of ${zone.name}`;
      return [
        walk.object("ZoneContentConverter", { id: zone.id, resourceId: zone.id }, label, scope, converter),
      ];
    },
  },
  adoption: {
    // The setting's zone: a read by id alone does not give it back.
    identity: (object): Record<string, string> =>
      object.scope.zoneId === undefined ? {} : { zoneId: object.scope.zoneId },
  },
};
