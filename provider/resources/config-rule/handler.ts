/** The only file of ConfigRule the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { hooks } from "./hooks";
import { ConfigRuleSpec } from "./spec";

export const handler = handlerFrom(ConfigRuleSpec, hooks);
