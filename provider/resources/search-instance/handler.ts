/** The only file of SearchInstance the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { hooks } from "./hooks";
import { SearchInstanceSpec } from "./spec";

export const handler = handlerFrom(SearchInstanceSpec, hooks);
