/** What the kinds table knows of MeetingApp (core/room.ts). */
import type { KindRoom } from "../../core/room";
import { MeetingAppSpec } from "./spec";

export const room: KindRoom = {
  spec: MeetingAppSpec,
  handler: () => require("./handler").handler,
  lister: {
    in: "app",
    // An app the listing shows without a name (one that only its meetings made) cannot be declared.
    list: (app, walk) =>
      Promise.resolve(
        app.name === undefined
          ? []
          : [walk.object("MeetingApp", { id: app.id, resourceId: app.id }, app.name, {}, { ...app })],
      ),
  },
};
