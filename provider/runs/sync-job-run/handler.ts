/** The only file of SyncJobRun the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { remote, reading } from "./hooks";
import { SyncJobRunSpec } from "./spec";

export const handler = handlerFrom(SyncJobRunSpec, { remote, reading });
