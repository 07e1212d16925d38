/** The only file of EmailSend the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { hooks } from "./hooks";
import { EmailSendSpec } from "./spec";

export const handler = handlerFrom(EmailSendSpec, hooks);
