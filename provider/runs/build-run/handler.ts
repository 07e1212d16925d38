/** The only file of BuildRun the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { hooks } from "./hooks";
import { BuildRunSpec } from "./spec";

export const handler = handlerFrom(BuildRunSpec, hooks);
