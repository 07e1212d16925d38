/** The only file of TriggerEnvVars the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { hooks } from "./hooks";
import { TriggerEnvVarsSpec } from "./spec";

export const handler = handlerFrom(TriggerEnvVarsSpec, hooks);
