/** The only file of TriggerEnvVars the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { remote, checks, reading, history } from "./hooks";
import { TriggerEnvVarsSpec } from "./spec";

export const handler = handlerFrom(TriggerEnvVarsSpec, { remote, checks, reading, history });
