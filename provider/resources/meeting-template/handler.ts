/** The only file of MeetingTemplate the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { hooks } from "./hooks";
import { MeetingTemplateSpec } from "./spec";

export const handler = handlerFrom(MeetingTemplateSpec, hooks);
