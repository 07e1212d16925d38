/** What the kinds table knows of the SyncJobRun run (core/room.ts). */
import type { KindRoom } from "../../core/room";
import { SyncJobRunSpec } from "./spec";

export const room: KindRoom = {
  spec: SyncJobRunSpec,
  handler: () => require("./handler").handler,
  runFunction: "triggerSyncJob",
};
