/** The only file of EmailSend the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { remote, checks, reading } from "./hooks";
import { EmailSendSpec } from "./spec";

export const handler = handlerFrom(EmailSendSpec, { remote, checks, reading });
