/** What the kinds table knows of SearchNamespace (core/room.ts). */
import type { DiscoveredObject } from "../../discovery/types";
import type { KindRoom } from "../../core/room";
import { DEFAULT_NAMESPACE } from "./hooks";
import { SearchNamespaceSpec } from "./spec";

export const room: KindRoom = {
  spec: SearchNamespaceSpec,
  handler: () => require("./handler").handler,
  lister: {
    in: "account",
    list: async (walk) => {
      const { api, accountId } = walk;
      const out: DiscoveredObject[] = [];
      for await (const ns of api.search.namespaces.list({ accountId })) {
        // `default` always exists and is no resource.
        if (ns.name === DEFAULT_NAMESPACE) continue;
        out.push(walk.object("SearchNamespace", { id: ns.name, resourceId: ns.name }, ns.name, {}, ns));
      }
      return out;
    },
  },
};
