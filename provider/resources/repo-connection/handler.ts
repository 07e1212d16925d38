/** The only file of RepoConnection the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { hooks } from "./hooks";
import { RepoConnectionSpec } from "./spec";

export const handler = handlerFrom(RepoConnectionSpec, hooks);
