/** What the kinds table knows of SendingDomain (core/room.ts). */
import type { KindRoom } from "../../core/room";
import { SendingDomainSpec } from "./spec";

export const room: KindRoom = {
  spec: SendingDomainSpec,
  handler: () => require("./handler").handler,
  // Read never shows the zone of a subdomain.
  importForm: { form: "<zoneId>/<subdomainId>", parts: ["zoneId", undefined], id: "last" },
  lister: {
    in: "zone",
    list: async (zone, walk) => {
      const all = await walk.api.email.subdomains.list({ zoneId: zone.id });
      const scope = { zoneId: zone.id, zoneName: zone.name };
      return all.map((s) => walk.object("SendingDomain", { id: s.tag, resourceId: s.tag }, s.name, scope, s));
    },
  },
  adoption: {
    // The subdomain's zone: a read by id alone does not give it back.
    identity: (object): Record<string, string> =>
      object.scope.zoneId === undefined ? {} : { zoneId: object.scope.zoneId },
  },
};
