/** The only file of SearchInstance the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { remote, checks, key, adoption, reading, history } from "./hooks";
import { SearchInstanceSpec } from "./spec";

export const handler = handlerFrom(SearchInstanceSpec, { remote, checks, key, adoption, reading, history });
