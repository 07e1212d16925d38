/** The only file of ConfigRule the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { remote, checks, key, adoption, reading, history } from "./hooks";
import { ConfigRuleSpec } from "./spec";

export const handler = handlerFrom(ConfigRuleSpec, { remote, checks, key, adoption, reading, history });
