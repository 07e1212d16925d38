/** The only file of SendingDomain the provider host loads. */
import { handlerFrom } from "../../core/pipeline";
import { remote, checks, key, reading } from "./hooks";
import { SendingDomainSpec } from "./spec";

export const handler = handlerFrom(SendingDomainSpec, { remote, checks, key, reading });
