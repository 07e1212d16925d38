/**
 * MeetingApp: a realtime app of the account, the container its meetings (MeetingTemplate's `appId`)
 * live in. The contract has only a list and a create of apps (no read, update or delete), which
 * decides the rest (docs/assumptions.md, Families (issue 26), meetings):
 *
 * - `name` is the app's only setting and its natural key: a create first looks for an app of the
 *   account with this name and adopts it (the oldest, where several share it) instead of making a
 *   second one the API would take without complaint.
 * - A name change is refused at preview: with no rename and no delete, a replace would make a second
 *   app and leave the first behind.
 * - Destroy leaves the app in place and says so; an app deleted in the dashboard is gone on refresh,
 *   and the next `up` makes it again (a new id).
 */
import { z } from "zod";
import { AppSchema } from "../../../sdk/schemas/meetings";
import * as G from "../../../sdk/generated/meetings";
import { defineResource, output } from "../../core/define";
import { contractInputs } from "../../core/from-contract";

const A = AppSchema.shape;

export const MeetingAppSpec = defineResource({
  kind: "MeetingApp",
  /** The app's id is the resource id: known while an update is previewed, so meetings see no change. */
  idOutput: "appId",
  fields: {
    ...contractInputs(G.CreateAppBody.shape, {
      /** The app's name, also how an existing app is found (names need not be unique). */
      name: { flags: { identity: true } },
    }),
    /** The app's id (what MeetingTemplate's `appId` takes), also the resource id. */
    appId: output("id", z.string()),
    createdAt: output("created_at", A.created_at),
  },
});
