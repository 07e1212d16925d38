/** What the kinds table knows of SearchToken (core/room.ts). */
import type { KindRoom } from "../../core/room";
import { SearchTokenSpec } from "./spec";

export const room: KindRoom = {
  spec: SearchTokenSpec,
  handler: () => require("./handler").handler,
  lister: {
    in: "account",
    list: async (walk) => {
      const out = [];
      for await (const t of walk.api.search.tokens.list({ accountId: walk.accountId }, { perPage: 100 }))
        out.push(walk.object("SearchToken", { id: t.id, resourceId: t.id }, t.name, {}, t));
      return out;
    },
  },
  adoption: {
    // Read keeps a write-only input from the state it is handed, and the API never returns the
    // secret: a stand-in gives the written program the place its configuration placeholder fills.
    seedState: async () => ({ cfApiKey: "" }),
    // The written program takes the secret from configuration.
    unreadSecrets: (object) => [
      {
        path: ["cfApiKey"],
        name: "cfApiKey",
        about: `the secret of search token ${object.resourceId} (cf_api_key; the API never returns it)`,
      },
    ],
  },
};
