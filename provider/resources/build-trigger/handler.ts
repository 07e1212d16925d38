/** The only file of BuildTrigger the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { remote, checks, key, reading } from "./hooks";
import { BuildTriggerSpec } from "./spec";

export const handler = handlerFrom(BuildTriggerSpec, { remote, checks, key, reading });
