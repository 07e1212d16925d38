/**
 * `/meetings/{meeting_id}/active-session`: the session while someone is in it, and what can be
 * done to it (kick, kick-all, mute, mute-all, poll).
 */
import type { ApiClient } from "../client";
import type { CallOptions } from "../core";
import {
  ActiveSessionSchema,
  KickAllResultSchema,
  MuteAllResultSchema,
  MuteAllSchema,
  PollCreateSchema,
  PollResultSchema,
  SessionActionSchema,
  SessionParticipantsSchema,
  type ActiveSession,
  type KickAllResult,
  type MuteAll,
  type MuteAllResult,
  type PollCreate,
  type PollResult,
  type SessionAction,
  type SessionParticipants,
} from "../schemas/meetings-live";
import { validate } from "../validate";
import { meetingPath, type MeetingIds } from "./paths";
import { call } from "./request";

/** The meeting's active session (a class apart from the `ActiveSession` it answers with). */
export class ActiveSessions {
  constructor(private readonly client: ApiClient) {}

  /** The meeting's session while someone is in it (or within its keep-alive); a 404 otherwise. */
  async get(ids: MeetingIds, options: CallOptions = {}): Promise<ActiveSession> {
    const m = meetingPath(this.client, ids, "getActiveSession");
    const c = { method: "GET", path: `${m.path}/active-session`, schema: ActiveSessionSchema } as const;
    return call(this.client, m.app, c, options);
  }

  /** Kicks participants by id or custom id; a 404 when none of them is in the session. Not retried. */
  async kick(
    ids: MeetingIds,
    params: SessionParticipants,
    options: CallOptions = {},
  ): Promise<SessionAction> {
    return this.#act(ids, params, "kick", "kickParticipants", false, options);
  }

  async kickAll(ids: MeetingIds, options: CallOptions = {}): Promise<KickAllResult> {
    const m = meetingPath(this.client, ids, "kickAllParticipants");
    const path = `${m.path}/active-session/kick-all`;
    const c = { method: "POST", path, schema: KickAllResultSchema, idempotent: true } as const;
    return call(this.client, m.app, c, options);
  }

  /** Mutes participants by id or custom id; muting twice leaves them muted, so it is retried. */
  async mute(
    ids: MeetingIds,
    params: SessionParticipants,
    options: CallOptions = {},
  ): Promise<SessionAction> {
    return this.#act(ids, params, "mute", "muteParticipants", true, options);
  }

  /** Mutes everyone in the session; `allow_unmute` says whether they may unmute themselves. */
  async muteAll(ids: MeetingIds, params: MuteAll, options: CallOptions = {}): Promise<MuteAllResult> {
    const m = meetingPath(this.client, ids, "muteAllParticipants");
    const body = validate(MuteAllSchema, params, "muteAllParticipants");
    const path = `${m.path}/active-session/mute-all`;
    const c = { method: "POST", path, body, schema: MuteAllResultSchema, idempotent: true } as const;
    return call(this.client, m.app, c, options);
  }

  /** Creates a poll in the active session. Not retried (a second poll would be made). */
  async createPoll(ids: MeetingIds, params: PollCreate, options: CallOptions = {}): Promise<PollResult> {
    const m = meetingPath(this.client, ids, "createPoll");
    const body = validate(PollCreateSchema, params, "createPoll");
    const c = {
      method: "POST",
      path: `${m.path}/active-session/poll`,
      body,
      schema: PollResultSchema,
    } as const;
    return call(this.client, m.app, c, options);
  }

  #act(
    ids: MeetingIds,
    params: SessionParticipants,
    verb: "kick" | "mute",
    context: string,
    idempotent: boolean,
    options: CallOptions,
  ): Promise<SessionAction> {
    const m = meetingPath(this.client, ids, context);
    const body = validate(SessionParticipantsSchema, params, context);
    const path = `${m.path}/active-session/${verb}`;
    const c = { method: "POST", path, body, schema: SessionActionSchema, idempotent } as const;
    return call(this.client, m.app, c, options);
  }
}
