/** The only file of MeetingApp the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { remote, checks, key, adoption } from "./hooks";
import { MeetingAppSpec } from "./spec";

export const handler = handlerFrom(MeetingAppSpec, { remote, checks, key, adoption });
