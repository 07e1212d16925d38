/** What the kinds table knows of SearchInstance (core/room.ts). */
import type { DiscoveredObject } from "../../discovery/types";
import type { KindRoom } from "../../core/room";
import { DEFAULT_NAMESPACE } from "./hooks";
import { SearchInstanceSpec } from "./spec";

export const room: KindRoom = {
  spec: SearchInstanceSpec,
  handler: () => require("./handler").handler,
  lister: {
    in: "account",
    list: async (walk) => {
      const { api, accountId } = walk;
      const out: DiscoveredObject[] = [];
      for await (const ns of api.search.namespaces.list({ accountId })) {
        const namespace = ns.name === DEFAULT_NAMESPACE ? undefined : ns.name;
        for await (const inst of api.search.instances.list({ accountId, namespace })) {
          const resourceId = `${ns.name}/${inst.id}`;
          const scope = namespace === undefined ? {} : { namespace };
          out.push(walk.object("SearchInstance", { id: inst.id, resourceId }, resourceId, scope, inst));
        }
      }
      return out;
    },
  },
  adoption: {
    // A named namespace: a read by id alone does not give it back.
    identity: (object): Record<string, string> =>
      object.scope.namespace === undefined ? {} : { namespace: object.scope.namespace },
  },
};
