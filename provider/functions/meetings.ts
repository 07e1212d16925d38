/**
 * Meetings functions for programs: the account's realtime apps, to find the id of an app made
 * elsewhere (MeetingTemplate's `appId`). They run only on `up` (on preview their outputs are
 * unknown); the logic over a client is meetings-logic.ts.
 */
import type * as pulumi from "@pulumi/pulumi";
import { runListApps, type ListAppsParams, type MeetingAppInfo } from "./meetings-logic";
import { onUp } from "./common";

export * from "./meetings-logic";

/** Every realtime app of the account: id, name and creation time (unknown on preview). */
export function listApps(
  args: pulumi.Input<ListAppsParams> = {},
): pulumi.Output<MeetingAppInfo[] | undefined> {
  return onUp(args, runListApps);
}
