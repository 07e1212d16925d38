/** The only file of RepoConnection the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { remote, key, adoption, reading } from "./hooks";
import { RepoConnectionSpec } from "./spec";

export const handler = handlerFrom(RepoConnectionSpec, { remote, key, adoption, reading });
