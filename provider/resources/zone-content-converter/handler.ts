/** The only file of ZoneContentConverter the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { hooks } from "./hooks";
import { ZoneContentConverterSpec } from "./spec";

export const handler = handlerFrom(ZoneContentConverterSpec, hooks);
