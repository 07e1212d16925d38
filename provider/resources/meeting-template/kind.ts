/** What the kinds table knows of MeetingTemplate (core/room.ts). */
import type { DiscoveredObject } from "../../discovery/types";
import type { KindRoom, SecretLeaves } from "../../core/room";
import { isRecord } from "../../core/values";
import { secret } from "../../native/secrets";
import { CREDENTIAL_FIELDS, MeetingTemplateSpec } from "./spec";

/** The status a MeetingTemplate's delete leaves (the API has no delete): not listed. */
const GONE_MEETING_STATUS = "INACTIVE";

/** Each credential of `recordingConfig.storageConfig`: no field flag can say them. */
const storageCredentials: SecretLeaves = (values) => {
  const rc = values.recordingConfig;
  const sc = isRecord(rc) ? rc.storageConfig : undefined;
  if (!isRecord(rc) || !isRecord(sc)) return values;
  const storage = Object.fromEntries(
    Object.entries(sc).map(([k, v]) => [k, CREDENTIAL_FIELDS.some((f) => f === k) ? secret(v) : v]),
  );
  return { ...values, recordingConfig: { ...rc, storageConfig: storage } };
};

export const room: KindRoom = {
  spec: MeetingTemplateSpec,
  handler: () => require("./handler").handler,
  // Read never shows the app a meeting belongs to.
  importForm: { form: "<appId>/<meetingId>", parts: ["appId", undefined], id: "last" },
  secretLeaves: storageCredentials,
  lister: {
    in: "app",
    list: async ({ id: appId }, walk) => {
      const out: DiscoveredObject[] = [];
      for await (const m of walk.api.meetings.meetings.list({ accountId: walk.accountId, appId })) {
        if (m.status === GONE_MEETING_STATUS) continue;
        const label = `${appId}/${m.title ?? m.id}`;
        out.push(walk.object("MeetingTemplate", { id: m.id, resourceId: m.id }, label, { appId }, m));
      }
      return out;
    },
  },
};
