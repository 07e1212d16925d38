/** The only file of MeetingTemplate the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { remote, checks, key, adoption, reading, history } from "./hooks";
import { MeetingTemplateSpec } from "./spec";

export const handler = handlerFrom(MeetingTemplateSpec, { remote, checks, key, adoption, reading, history });
