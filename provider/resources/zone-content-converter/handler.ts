/** The only file of ZoneContentConverter the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { remote, checks } from "./hooks";
import { ZoneContentConverterSpec } from "./spec";

export const handler = handlerFrom(ZoneContentConverterSpec, { remote, checks });
