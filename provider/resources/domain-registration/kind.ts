/** What the kinds table knows of DomainRegistration (core/room.ts). */
import type { DiscoveredObject } from "../../discovery/types";
import type { KindRoom } from "../../core/room";
import { DomainRegistrationSpec } from "./spec";

export const room: KindRoom = {
  spec: DomainRegistrationSpec,
  handler: () => require("./handler").handler,
  lister: {
    in: "account",
    list: async (walk) => {
      const out: DiscoveredObject[] = [];
      for await (const r of walk.api.registrar.registrations.list({ accountId: walk.accountId })) {
        const id = r.domain_name;
        out.push(walk.object("DomainRegistration", { id, resourceId: id }, id, {}, r));
      }
      return out;
    },
  },
};
