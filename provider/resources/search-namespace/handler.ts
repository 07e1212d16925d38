/** The only file of SearchNamespace the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { remote, checks, key, adoption, reading } from "./hooks";
import { SearchNamespaceSpec } from "./spec";

export const handler = handlerFrom(SearchNamespaceSpec, { remote, checks, key, adoption, reading });
