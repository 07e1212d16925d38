/** What the kinds table knows of the EmailSend run (core/room.ts). */
import type { KindRoom } from "../../core/room";
import { EmailSendSpec } from "./spec";

export const room: KindRoom = {
  spec: EmailSendSpec,
  handler: () => require("./handler").handler,
  runFunction: "sendEmail",
};
