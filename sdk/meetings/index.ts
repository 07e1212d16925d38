/**
 * Client for the meetings area, one sub-resource per path of the contract: `apps` (the account's
 * apps: list and create, no delete), `meetings` (an app's meetings), `participants`, `activeSession` (the session while someone is in it) and
 * `livestreams`. Every method takes `(ids, params, options?)`. There is no delete of a meeting: it
 * is retired by setting `status: "INACTIVE"`.
 */
import type { ApiClient } from "../client";
import type { CallOptions } from "../core";
import type { PagedGenerator } from "../paging";
import type {
  Meeting,
  MeetingCreate,
  MeetingListQuery,
  MeetingReplace,
  MeetingUpdate,
} from "../schemas/meetings";
import type {
  ActiveSession,
  DeletedParticipant,
  KickAllResult,
  Livestream,
  LivestreamDetails,
  LivestreamStart,
  LivestreamStarted,
  LivestreamStopped,
  MuteAll,
  MuteAllResult,
  Participant,
  ParticipantCreate,
  ParticipantToken,
  ParticipantUpdate,
  PollCreate,
  PollResult,
  SessionAction,
  SessionParticipants,
} from "../schemas/meetings-live";
import { ActiveSessions } from "./active-session";
import { Apps } from "./apps";
import { Livestreams, type LivestreamDetailsQuery } from "./livestreams";
import { Meetings, type MeetingListParams } from "./meetings";
import { Participants } from "./participants";
import {
  splitApp,
  splitMeeting,
  splitParticipant,
  type AppIds,
  type MeetingIds,
  type ParticipantIds,
} from "./paths";

export {
  MEETING_LIMITS,
  WRITE_ONLY_STORAGE_FIELDS,
  type Meeting,
  type MeetingCreate,
  type MeetingReplace,
  type MeetingUpdate,
  type AiConfigOut,
  type App,
  type AppCreate,
  type RecordingConfigOut,
} from "../schemas/meetings";
export type {
  ActiveSession,
  DeletedParticipant,
  KickAllResult,
  Livestream,
  LivestreamDetails,
  LivestreamStarted,
  LivestreamStopped,
  MuteAllResult,
  Participant,
  ParticipantToken,
  Poll,
  PollResult,
  SessionAction,
  SessionParticipant,
} from "../schemas/meetings-live";
export type { CallOptions } from "../core";
export type { AppIds, MeetingIds, ParticipantIds } from "./paths";
export type { AccountIds } from "./apps";
export type { MeetingListParams } from "./meetings";
export type { ParticipantListParams } from "./participants";
export type { LivestreamDetailsQuery } from "./livestreams";
export { ActiveSessions, Apps, Livestreams, Meetings, Participants };

// ---- the 0.1.0 flat arguments: ids and body in one object ----

export type MeetingParams = MeetingIds;
export type ParticipantParams = ParticipantIds;
export type CreateMeetingParams = AppIds & MeetingCreate;
export type GetMeetingParams = MeetingParams;
export type ReplaceMeetingParams = MeetingParams & MeetingReplace;
export type UpdateMeetingParams = MeetingParams & MeetingUpdate;
export type ListMeetingsParams = AppIds & {
  perPage?: number;
  search?: string;
  /** Meetings created at or after this ISO 8601 date-time. */
  startTime?: string;
  /** Meetings created at or before this ISO 8601 date-time. */
  endTime?: string;
  status?: MeetingListQuery["status"];
};
export type ListParticipantsParams = MeetingParams & { perPage?: number };
export type AddParticipantParams = MeetingParams & ParticipantCreate;
export type UpdateParticipantParams = ParticipantParams & ParticipantUpdate;
export type SessionParticipantsParams = MeetingParams & SessionParticipants;
export type MuteAllParams = MeetingParams & MuteAll;
export type CreatePollParams = MeetingParams & PollCreate;
export type StartLivestreamParams = MeetingParams & LivestreamStart;
export type LivestreamDetailsParams = MeetingParams & { pageNo?: number; perPage?: number };

/** A 0.1.0 listing argument in the new convention: the filters under their wire names. */
function meetingListing(p: ListMeetingsParams): [AppIds, MeetingListParams] {
  const filters = { search: p.search, start_time: p.startTime, end_time: p.endTime, status: p.status };
  return [
    { accountId: p.accountId, appId: p.appId },
    { perPage: p.perPage, ...filters },
  ];
}

function detailsPage(p: LivestreamDetailsParams): [MeetingIds, LivestreamDetailsQuery] {
  return [
    { accountId: p.accountId, appId: p.appId, meetingId: p.meetingId },
    { page_no: p.pageNo, per_page: p.perPage },
  ];
}

/** Each flat method of 0.1.0 and the sub-resource method it delegates to (removed in 0.3.0). */
export const DEPRECATED_MEETINGS_METHODS: Readonly<Record<string, string>> = Object.freeze({
  createMeeting: "meetings.create",
  getMeeting: "meetings.get",
  replaceMeeting: "meetings.replace",
  updateMeeting: "meetings.update",
  listMeetings: "meetings.list",
  listAllMeetings: "meetings.listAll",
  addParticipant: "participants.add",
  listParticipants: "participants.list",
  listAllParticipants: "participants.listAll",
  getParticipant: "participants.get",
  updateParticipant: "participants.update",
  deleteParticipant: "participants.delete",
  regenerateParticipantToken: "participants.regenerateToken",
  getActiveSession: "activeSession.get",
  kickParticipants: "activeSession.kick",
  kickAllParticipants: "activeSession.kickAll",
  muteParticipants: "activeSession.mute",
  muteAllParticipants: "activeSession.muteAll",
  createPoll: "activeSession.createPoll",
  startLivestream: "livestreams.start",
  getActiveLivestream: "livestreams.getActive",
  stopLivestream: "livestreams.stop",
  getLivestreamDetails: "livestreams.getDetails",
});

export class MeetingsApi {
  readonly apps: Apps;
  readonly meetings: Meetings;
  readonly participants: Participants;
  readonly activeSession: ActiveSessions;
  readonly livestreams: Livestreams;

  constructor(readonly client: ApiClient) {
    this.apps = new Apps(client);
    this.meetings = new Meetings(client);
    this.participants = new Participants(client);
    this.activeSession = new ActiveSessions(client);
    this.livestreams = new Livestreams(client);
  }

  // ---- deprecated: the flat methods of 0.1.0, each one delegation ----

  /** @deprecated Since 0.2.0: use `api.meetings.meetings.create(ids, params)`; removed in 0.3.0. */
  async createMeeting(params: CreateMeetingParams, options?: CallOptions): Promise<Meeting> {
    return this.meetings.create(...splitApp(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.meetings.get(ids)`; removed in 0.3.0. */
  async getMeeting(params: GetMeetingParams, options?: CallOptions): Promise<Meeting> {
    return this.meetings.get(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.meetings.replace(ids, params)`; removed in 0.3.0. */
  async replaceMeeting(params: ReplaceMeetingParams, options?: CallOptions): Promise<Meeting> {
    return this.meetings.replace(...splitMeeting(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.meetings.update(ids, params)`; removed in 0.3.0. */
  async updateMeeting(params: UpdateMeetingParams, options?: CallOptions): Promise<Meeting> {
    return this.meetings.update(...splitMeeting(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.meetings.list(ids, params)`; removed in 0.3.0. */
  listMeetings(params: ListMeetingsParams, options?: CallOptions): PagedGenerator<Meeting> {
    return this.meetings.list(...meetingListing(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.meetings.listAll(ids, params)`; removed in 0.3.0. */
  async listAllMeetings(params: ListMeetingsParams, options?: CallOptions): Promise<Meeting[]> {
    return this.meetings.listAll(...meetingListing(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.participants.add(ids, params)`; removed in 0.3.0. */
  async addParticipant(params: AddParticipantParams, options?: CallOptions): Promise<Participant> {
    return this.participants.add(...splitMeeting(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.participants.list(ids, params)`; removed in 0.3.0. */
  listParticipants(params: ListParticipantsParams, options?: CallOptions): PagedGenerator<Participant> {
    return this.participants.list(params, { perPage: params.perPage }, options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.participants.listAll(ids, params)`; removed in 0.3.0. */
  async listAllParticipants(params: ListParticipantsParams, options?: CallOptions): Promise<Participant[]> {
    return this.participants.listAll(params, { perPage: params.perPage }, options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.participants.get(ids)`; removed in 0.3.0. */
  async getParticipant(params: ParticipantParams, options?: CallOptions): Promise<Participant> {
    return this.participants.get(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.participants.update(ids, params)`; removed in 0.3.0. */
  async updateParticipant(params: UpdateParticipantParams, options?: CallOptions): Promise<Participant> {
    return this.participants.update(...splitParticipant(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.participants.delete(ids)`; removed in 0.3.0. */
  async deleteParticipant(params: ParticipantParams, options?: CallOptions): Promise<DeletedParticipant> {
    return this.participants.delete(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.participants.regenerateToken(ids)`; removed in 0.3.0. */
  async regenerateParticipantToken(
    params: ParticipantParams,
    options?: CallOptions,
  ): Promise<ParticipantToken> {
    return this.participants.regenerateToken(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.activeSession.get(ids)`; removed in 0.3.0. */
  async getActiveSession(params: MeetingParams, options?: CallOptions): Promise<ActiveSession> {
    return this.activeSession.get(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.activeSession.kick(ids, params)`; removed in 0.3.0. */
  async kickParticipants(params: SessionParticipantsParams, options?: CallOptions): Promise<SessionAction> {
    return this.activeSession.kick(...splitMeeting(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.activeSession.kickAll(ids)`; removed in 0.3.0. */
  async kickAllParticipants(params: MeetingParams, options?: CallOptions): Promise<KickAllResult> {
    return this.activeSession.kickAll(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.activeSession.mute(ids, params)`; removed in 0.3.0. */
  async muteParticipants(params: SessionParticipantsParams, options?: CallOptions): Promise<SessionAction> {
    return this.activeSession.mute(...splitMeeting(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.activeSession.muteAll(ids, params)`; removed in 0.3.0. */
  async muteAllParticipants(params: MuteAllParams, options?: CallOptions): Promise<MuteAllResult> {
    return this.activeSession.muteAll(...splitMeeting(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.activeSession.createPoll(ids, params)`; removed in 0.3.0. */
  async createPoll(params: CreatePollParams, options?: CallOptions): Promise<PollResult> {
    return this.activeSession.createPoll(...splitMeeting(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.livestreams.start(ids, params)`; removed in 0.3.0. */
  async startLivestream(params: StartLivestreamParams, options?: CallOptions): Promise<LivestreamStarted> {
    return this.livestreams.start(...splitMeeting(params), options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.livestreams.getActive(ids)`; removed in 0.3.0. */
  async getActiveLivestream(params: MeetingParams, options?: CallOptions): Promise<Livestream> {
    return this.livestreams.getActive(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.livestreams.stop(ids)`; removed in 0.3.0. */
  async stopLivestream(params: MeetingParams, options?: CallOptions): Promise<LivestreamStopped> {
    return this.livestreams.stop(params, options);
  }

  /** @deprecated Since 0.2.0: use `api.meetings.livestreams.getDetails(ids, params)`; removed in 0.3.0. */
  async getLivestreamDetails(
    params: LivestreamDetailsParams,
    options?: CallOptions,
  ): Promise<LivestreamDetails> {
    return this.livestreams.getDetails(...detailsPage(params), options);
  }
}
