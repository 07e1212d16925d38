/** The only file of BuildTrigger the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { hooks } from "./hooks";
import { BuildTriggerSpec } from "./spec";

export const handler = handlerFrom(BuildTriggerSpec, hooks);
