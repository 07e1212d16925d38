/** The only file of DomainRegistration the provider host loads. */
import type { InputsOf, StateOf } from "../../core/define";
import { handlerFrom } from "../../core/pipeline";
import type { ResourceHandler } from "../../types";
import { remote, checks, key, reading, history } from "./hooks";
import { DomainRegistrationSpec as Spec } from "./spec";

/** Status, lock and expiry are the server's, yet their change outside the program is drift. */
export const handler: ResourceHandler<InputsOf<typeof Spec>, StateOf<typeof Spec>> = {
  ...handlerFrom(Spec, { remote, checks, key, reading, history }),
  driftOutputs: ["status", "locked", "expiresAt"],
};
