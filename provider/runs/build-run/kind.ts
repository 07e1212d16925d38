/** What the kinds table knows of the BuildRun run (core/room.ts). */
import type { KindRoom } from "../../core/room";
import { BuildRunSpec } from "./spec";

export const room: KindRoom = {
  spec: BuildRunSpec,
  handler: () => require("./handler").handler,
  runFunction: "triggerBuild",
};
