/** What the kinds table knows of RepoConnection (core/room.ts). */
import { orGone } from "../../../sdk/core";
import type { KindRoom } from "../../core/room";
import { RepoConnectionSpec } from "./spec";

export const room: KindRoom = {
  spec: RepoConnectionSpec,
  handler: () => require("./handler").handler,
  lister: {
    in: "account",
    list: async (walk) => {
      const all = await orGone(walk.api.builds.repos.connections.list({ accountId: walk.accountId }));
      if (all === undefined) {
        walk.gap("RepoConnection", "the API has no listing of repository connections (it answered 404)");
        return [];
      }
      return all.map((c) => {
        const id = c.repo_connection_uuid;
        const label = `${c.provider_type ?? "repo"}/${c.provider_account_name ?? ""}/${c.repo_name ?? c.repo_id ?? ""}`;
        return walk.object("RepoConnection", { id, resourceId: id }, label, {}, c);
      });
    },
  },
};
