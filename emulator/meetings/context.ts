/** What both route files of the area share: the paths' parameters, the permissions, the models. */
import { z } from "zod";
import * as G from "../../sdk/generated/meetings";
import type { AreaContext } from "../area";
import type { Permission } from "../auth";
import type { Area } from "../define";
import { missing } from "./errors";
import { LiveModel } from "./live";
import { MeetingsModel, type StoredMeeting } from "./state";

export const BASE = "/accounts/:account_id/realtime/kit/:app_id/meetings";
/** The schema of a path below one meeting (each operation's own, from sdk/generated/meetings.ts). */
export type MeetingPath = z.ZodType<MeetingParamsOut>;
export type MeetingParamsOut = z.output<typeof G.GetMeetingPath>;
export const REALTIME: readonly Permission[] = ["realtime:admin", "realtime"];

/** The area's routes: auth by the realtime permissions, the contract's error body. */
export type MeetingsArea = Area<readonly Permission[], void, { account_id: string }>;

/** The models of one server, and how a handler finds a meeting (404 when it is not in this app). */
export interface Meetings {
  model: MeetingsModel;
  live: LiveModel;
  find(p: MeetingParamsOut): StoredMeeting;
}

export function models(ctx: AreaContext): Meetings {
  const now = () => ctx.clock.now();
  const model = new MeetingsModel(ctx.store, now);
  return {
    model,
    live: new LiveModel(ctx.store, now),
    find: (p) => {
      const m = model.get(p.account_id, p.app_id, p.meeting_id);
      if (!m) throw missing(`meeting ${p.meeting_id} in app ${p.app_id}`);
      return m;
    },
  };
}
