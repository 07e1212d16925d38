/** What the kinds table knows of BuildTrigger (core/room.ts). */
import type { KindRoom } from "../../core/room";
import { isRecord } from "../../core/values";
import { BuildTriggerSpec } from "./spec";

export const room: KindRoom = {
  spec: BuildTriggerSpec,
  handler: () => require("./handler").handler,
  // Read never shows the script a trigger belongs to.
  importForm: { form: "<scriptName>/<triggerUuid>", parts: ["scriptName", undefined], id: "last" },
  lister: {
    in: "trigger",
    list: async (script, t, walk) => {
      const uuid = t.trigger_uuid;
      const label = `${script.id}/${t.trigger_name ?? uuid}`;
      return [
        walk.object("BuildTrigger", { id: uuid, resourceId: uuid }, label, { scriptName: script.id }, t),
      ];
    },
  },
  adoption: {
    // The trigger's repository connection: a read by id alone does not give it back.
    identity: (object): Record<string, string> => {
      const connection = object.settings.repo_connection;
      const uuid = isRecord(connection) ? connection.repo_connection_uuid : undefined;
      return typeof uuid === "string" ? { repoConnectionUuid: uuid } : {};
    },
  },
};
