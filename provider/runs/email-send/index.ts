/** The EmailSend class, for programs. */
import { describedResource } from "../../core/class";
import type { InputsOf, StateOf } from "../../core/define";
import type { ArgsOf } from "../../core/resource-types";
import { EmailSendSpec } from "./spec";

export { EmailSendSpec } from "./spec";
export { remote, checks, reading } from "./hooks";
export { handler } from "./handler";

export const EmailSend = describedResource(EmailSendSpec);
export type EmailSend = InstanceType<typeof EmailSend>;
export type EmailSendArgs = ArgsOf<typeof EmailSendSpec>;
export type EmailSendInputs = InputsOf<typeof EmailSendSpec>;
export type EmailSendOutputs = StateOf<typeof EmailSendSpec>;
