/** The MeetingApp class, for programs. */
import type { StateOf } from "../../core/define";
import { describedResource } from "../../core/class";
import type { ArgsOf } from "../../core/resource-types";
import { MeetingAppSpec } from "./spec";

export { MeetingAppSpec } from "./spec";
export * from "./hooks"; // the capabilities, and the <Kind>Inputs type
export { handler } from "./handler";

export const MeetingApp = describedResource(MeetingAppSpec);
export type MeetingApp = InstanceType<typeof MeetingApp>;
export type MeetingAppArgs = ArgsOf<typeof MeetingAppSpec>;
export type MeetingAppOutputs = StateOf<typeof MeetingAppSpec>;
