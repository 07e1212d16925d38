/** The only file of BuildRun the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { remote, checks, reading } from "./hooks";
import { BuildRunSpec } from "./spec";

export const handler = handlerFrom(BuildRunSpec, { remote, checks, reading });
