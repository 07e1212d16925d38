/** The only file of SearchToken the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { remote, key, reading } from "./hooks";
import { SearchTokenSpec } from "./spec";

export const handler = handlerFrom(SearchTokenSpec, { remote, key, reading });
