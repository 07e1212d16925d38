/**
 * Client for the meetings area: meetings, their participants, the active session and livestreams.
 * Responses are `{ success, data }` (no `result` envelope), so every call unwraps `data`; listings
 * page with `page_no`/`per_page` and a `paging` beside `data`. There is no delete of a meeting: it is
 * retired by setting `status: "INACTIVE"`.
 */
import { z } from "zod";
import { path, type ApiClient, type HttpMethod } from "./client";
import type { CallOptions } from "./core";
import { pageStyle, paged, type PagedGenerator } from "./paging";
import {
  AppIdSchema,
  MeetingCreateSchema,
  MeetingListQuerySchema,
  MeetingListingSchema,
  MeetingReplaceSchema,
  MeetingSchema,
  MeetingUpdateSchema,
  type Meeting,
  type MeetingCreate,
  type MeetingListQuery,
  type MeetingReplace,
  type MeetingUpdate,
} from "./schemas/meetings";
import {
  ActiveSessionSchema,
  DeletedParticipantSchema,
  KickAllResultSchema,
  LivestreamDetailsSchema,
  LivestreamSchema,
  LivestreamStartSchema,
  LivestreamStartedSchema,
  LivestreamStoppedSchema,
  MuteAllResultSchema,
  MuteAllSchema,
  ParticipantCreateSchema,
  ParticipantListingSchema,
  ParticipantSchema,
  ParticipantTokenSchema,
  ParticipantUpdateSchema,
  PollCreateSchema,
  PollResultSchema,
  SessionActionSchema,
  SessionParticipantsSchema,
  type ActiveSession,
  type DeletedParticipant,
  type KickAllResult,
  type Livestream,
  type LivestreamDetails,
  type LivestreamStart,
  type LivestreamStarted,
  type LivestreamStopped,
  type MuteAll,
  type MuteAllResult,
  type Participant,
  type ParticipantCreate,
  type ParticipantToken,
  type ParticipantUpdate,
  type PollCreate,
  type PollResult,
  type SessionAction,
  type SessionParticipants,
} from "./schemas/meetings-live";
import { validate } from "./validate";

export {
  MEETING_LIMITS,
  WRITE_ONLY_STORAGE_FIELDS,
  type Meeting,
  type MeetingCreate,
  type MeetingReplace,
  type MeetingUpdate,
  type AiConfigOut,
  type RecordingConfigOut,
} from "./schemas/meetings";
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
} from "./schemas/meetings-live";

export type { CallOptions } from "./core";

interface AppParams {
  accountId?: string;
  appId: string;
}
export type MeetingParams = AppParams & { meetingId: string };
export type ParticipantParams = MeetingParams & { participantId: string };

export type CreateMeetingParams = AppParams & MeetingCreate;
export type GetMeetingParams = MeetingParams;
export type ReplaceMeetingParams = MeetingParams & MeetingReplace;
export type UpdateMeetingParams = MeetingParams & MeetingUpdate;
export type ListMeetingsParams = AppParams & {
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

/** Path parameters, validated as named fields so an error says which one. */
const id = () => z.string().min(1, "must not be empty");
const AppParamsSchema = z.object({ appId: AppIdSchema });
const MeetingParamsSchema = AppParamsSchema.extend({ meetingId: id() });
const ParticipantParamsSchema = MeetingParamsSchema.extend({ participantId: id() });
const perPage = z
  .number()
  .int("must be a whole number")
  .min(1, "must be between 1 and 100")
  .max(100, "must be between 1 and 100")
  .optional();
const pageNo = z.number().int("must be a whole number").min(1, "must be at least 1").optional();

/** One call of the area: method, path below the app, body schema and the `data` it answers. */
interface Call<T> {
  method: HttpMethod;
  path: string;
  schema: z.ZodType<T>;
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Whether a repeat leaves the same outcome (a POST that sets a state, not one that makes one). */
  idempotent?: boolean;
}

export class MeetingsApi {
  constructor(readonly client: ApiClient) {}

  // ---- meetings ----

  /** Creates a meeting in an app; every body field is optional (`{}` is valid). Not retried. */
  async createMeeting(params: CreateMeetingParams, options: CallOptions = {}): Promise<Meeting> {
    const { accountId, appId, ...rest } = params;
    const app = this.#app({ accountId, appId }, "createMeeting");
    const body = validate(MeetingCreateSchema, rest, "createMeeting");
    return this.#call(app, { method: "POST", path: "/meetings", body, schema: MeetingSchema }, options);
  }

  async getMeeting(params: GetMeetingParams, options: CallOptions = {}): Promise<Meeting> {
    const m = this.#meeting(params, "getMeeting");
    return this.#call(m.app, { method: "GET", path: m.path, schema: MeetingSchema }, options);
  }

  /**
   * Replaces the whole meeting (PUT): what the body leaves out goes back to the service's default.
   * The only way to change `recording_config` or `transcribe_on_end`; `status` stays as it is.
   */
  async replaceMeeting(params: ReplaceMeetingParams, options: CallOptions = {}): Promise<Meeting> {
    const { accountId: _a, appId: _p, meetingId: _m, ...rest } = params;
    const m = this.#meeting(params, "replaceMeeting");
    const body = validate(MeetingReplaceSchema, rest, "replaceMeeting");
    return this.#call(m.app, { method: "PUT", path: m.path, body, schema: MeetingSchema }, options);
  }

  /**
   * Changes some top-level settings (PATCH); each replaces the stored one whole. `status: "INACTIVE"`
   * closes the meeting to participants. A PATCH sets values, so a retry is harmless.
   */
  async updateMeeting(params: UpdateMeetingParams, options: CallOptions = {}): Promise<Meeting> {
    const { accountId: _a, appId: _p, meetingId: _m, ...rest } = params;
    const m = this.#meeting(params, "updateMeeting");
    const body = validate(MeetingUpdateSchema, rest, "updateMeeting");
    return this.#call(m.app, { method: "PATCH", path: m.path, body, schema: MeetingSchema }, options);
  }

  /** Every meeting of an app, page by page, oldest first; `search` matches the id or the title. */
  listMeetings(params: ListMeetingsParams, options: CallOptions = {}): PagedGenerator<Meeting> {
    return paged(this.#meetings(params, options));
  }

  // Validated when the first page is asked for, as every call of the area fails: by rejecting.
  async *#meetings(params: ListMeetingsParams, options: CallOptions): AsyncGenerator<Meeting> {
    const app = this.#app(params, "listMeetings");
    const per = validate(perPage, params.perPage, "listMeetings: perPage");
    const filters = validate(
      MeetingListQuerySchema.omit({ page_no: true, per_page: true }),
      {
        search: params.search,
        start_time: params.startTime,
        end_time: params.endTime,
        status: params.status,
      },
      "listMeetings",
    );
    yield* this.#paged(app, "/meetings", MeetingListingSchema, filters, per, options);
  }

  /** `listMeetings` collected into an array. */
  listAllMeetings(params: ListMeetingsParams, options: CallOptions = {}): Promise<Meeting[]> {
    return this.listMeetings(params, options).toArray();
  }

  // ---- participants ----

  /** Adds a participant (the meeting must be ACTIVE); the answer carries the token it joins with. */
  async addParticipant(params: AddParticipantParams, options: CallOptions = {}): Promise<Participant> {
    const { accountId: _a, appId: _p, meetingId: _m, ...rest } = params;
    const m = this.#meeting(params, "addParticipant");
    const body = validate(ParticipantCreateSchema, rest, "addParticipant");
    const call = { method: "POST", path: `${m.path}/participants`, body, schema: ParticipantSchema } as const;
    return this.#call(m.app, call, options);
  }

  listParticipants(params: ListParticipantsParams, options: CallOptions = {}): PagedGenerator<Participant> {
    return paged(this.#participants(params, options));
  }

  async *#participants(params: ListParticipantsParams, options: CallOptions): AsyncGenerator<Participant> {
    const m = this.#meeting(params, "listParticipants");
    const per = validate(perPage, params.perPage, "listParticipants: perPage");
    yield* this.#paged(m.app, `${m.path}/participants`, ParticipantListingSchema, {}, per, options);
  }

  listAllParticipants(params: ListParticipantsParams, options: CallOptions = {}): Promise<Participant[]> {
    return this.listParticipants(params, options).toArray();
  }

  async getParticipant(params: ParticipantParams, options: CallOptions = {}): Promise<Participant> {
    const p = this.#participant(params, "getParticipant");
    return this.#call(p.app, { method: "GET", path: p.path, schema: ParticipantSchema }, options);
  }

  /** Changes a participant's name, picture or preset (PATCH). */
  async updateParticipant(params: UpdateParticipantParams, options: CallOptions = {}): Promise<Participant> {
    const { accountId: _a, appId: _p, meetingId: _m, participantId: _i, ...rest } = params;
    const p = this.#participant(params, "updateParticipant");
    const body = validate(ParticipantUpdateSchema, rest, "updateParticipant");
    return this.#call(p.app, { method: "PATCH", path: p.path, body, schema: ParticipantSchema }, options);
  }

  /** Removes a participant (and from the session, if it is in one). */
  async deleteParticipant(params: ParticipantParams, options: CallOptions = {}): Promise<DeletedParticipant> {
    const p = this.#participant(params, "deleteParticipant");
    return this.#call(p.app, { method: "DELETE", path: p.path, schema: DeletedParticipantSchema }, options);
  }

  /** A new token for the participant; the previous one no longer joins. Not retried. */
  async regenerateParticipantToken(
    params: ParticipantParams,
    options: CallOptions = {},
  ): Promise<ParticipantToken> {
    const p = this.#participant(params, "regenerateParticipantToken");
    const call = { method: "POST", path: `${p.path}/token`, schema: ParticipantTokenSchema } as const;
    return this.#call(p.app, call, options);
  }

  // ---- the active session ----

  /** The meeting's session while someone is in it (or within its keep-alive); a 404 otherwise. */
  async getActiveSession(params: MeetingParams, options: CallOptions = {}): Promise<ActiveSession> {
    const m = this.#meeting(params, "getActiveSession");
    const call = { method: "GET", path: `${m.path}/active-session`, schema: ActiveSessionSchema } as const;
    return this.#call(m.app, call, options);
  }

  /** Kicks participants by id or custom id; a 404 when none of them is in the session. Not retried. */
  async kickParticipants(
    params: SessionParticipantsParams,
    options: CallOptions = {},
  ): Promise<SessionAction> {
    return this.#sessionAction(params, "kick", "kickParticipants", false, options);
  }

  async kickAllParticipants(params: MeetingParams, options: CallOptions = {}): Promise<KickAllResult> {
    const m = this.#meeting(params, "kickAllParticipants");
    const path = `${m.path}/active-session/kick-all`;
    return this.#call(
      m.app,
      { method: "POST", path, schema: KickAllResultSchema, idempotent: true },
      options,
    );
  }

  /** Mutes participants by id or custom id; muting twice leaves them muted, so it is retried. */
  async muteParticipants(
    params: SessionParticipantsParams,
    options: CallOptions = {},
  ): Promise<SessionAction> {
    return this.#sessionAction(params, "mute", "muteParticipants", true, options);
  }

  /** Mutes everyone in the session; `allow_unmute` says whether they may unmute themselves. */
  async muteAllParticipants(params: MuteAllParams, options: CallOptions = {}): Promise<MuteAllResult> {
    const { accountId: _a, appId: _p, meetingId: _m, ...rest } = params;
    const m = this.#meeting(params, "muteAllParticipants");
    const body = validate(MuteAllSchema, rest, "muteAllParticipants");
    const path = `${m.path}/active-session/mute-all`;
    const call = { method: "POST", path, body, schema: MuteAllResultSchema, idempotent: true } as const;
    return this.#call(m.app, call, options);
  }

  /** Creates a poll in the active session. Not retried (a second poll would be made). */
  async createPoll(params: CreatePollParams, options: CallOptions = {}): Promise<PollResult> {
    const { accountId: _a, appId: _p, meetingId: _m, ...rest } = params;
    const m = this.#meeting(params, "createPoll");
    const body = validate(PollCreateSchema, rest, "createPoll");
    const call = {
      method: "POST",
      path: `${m.path}/active-session/poll`,
      body,
      schema: PollResultSchema,
    } as const;
    return this.#call(m.app, call, options);
  }

  // ---- livestreams ----

  /** Starts livestreaming the meeting (it must be ACTIVE, with no livestream running). Not retried. */
  async startLivestream(
    params: StartLivestreamParams,
    options: CallOptions = {},
  ): Promise<LivestreamStarted> {
    const { accountId: _a, appId: _p, meetingId: _m, ...rest } = params;
    const m = this.#meeting(params, "startLivestream");
    const body = validate(LivestreamStartSchema, rest, "startLivestream");
    const call = {
      method: "POST",
      path: `${m.path}/livestreams`,
      body,
      schema: LivestreamStartedSchema,
    } as const;
    return this.#call(m.app, call, options);
  }

  /** The livestream running now; a 404 when none is. */
  async getActiveLivestream(params: MeetingParams, options: CallOptions = {}): Promise<Livestream> {
    const m = this.#meeting(params, "getActiveLivestream");
    const call = { method: "GET", path: `${m.path}/active-livestream`, schema: LivestreamSchema } as const;
    return this.#call(m.app, call, options);
  }

  /** Stops the running livestream; a 404 when none is. Not retried. */
  async stopLivestream(params: MeetingParams, options: CallOptions = {}): Promise<LivestreamStopped> {
    const m = this.#meeting(params, "stopLivestream");
    const path = `${m.path}/active-livestream/stop`;
    return this.#call(m.app, { method: "POST", path, schema: LivestreamStoppedSchema }, options);
  }

  /** One page of the meeting's livestreams (newest run in `sessions`). */
  async getLivestreamDetails(
    params: LivestreamDetailsParams,
    options: CallOptions = {},
  ): Promise<LivestreamDetails> {
    const m = this.#meeting(params, "getLivestreamDetails");
    const query = validate(
      z.object({ page_no: pageNo, per_page: perPage }),
      { page_no: params.pageNo, per_page: params.perPage },
      "getLivestreamDetails",
    );
    const call = {
      method: "GET",
      path: `${m.path}/livestream`,
      query,
      schema: LivestreamDetailsSchema,
    } as const;
    return this.#call(m.app, call, options);
  }

  // ---- shared ----

  #sessionAction(
    params: SessionParticipantsParams,
    verb: "kick" | "mute",
    context: string,
    idempotent: boolean,
    options: CallOptions,
  ): Promise<SessionAction> {
    const { accountId: _a, appId: _p, meetingId: _m, ...rest } = params;
    const m = this.#meeting(params, context);
    const body = validate(SessionParticipantsSchema, rest, context);
    const path = `${m.path}/active-session/${verb}`;
    return this.#call(
      m.app,
      { method: "POST", path, body, schema: SessionActionSchema, idempotent },
      options,
    );
  }

  /** `/accounts/{account}/realtime/kit/{app}`: every path of the area starts here. */
  #app(params: AppParams, context: string): string {
    const { appId } = validate(AppParamsSchema, { appId: params.appId }, context);
    return path`/accounts/${this.client.account(params.accountId)}/realtime/kit/${appId}`;
  }

  #meeting(params: MeetingParams, context: string): { app: string; path: string } {
    const ids = validate(MeetingParamsSchema, { appId: params.appId, meetingId: params.meetingId }, context);
    return { app: this.#app(params, context), path: path`/meetings/${ids.meetingId}` };
  }

  #participant(params: ParticipantParams, context: string): { app: string; path: string } {
    const ids = validate(
      ParticipantParamsSchema,
      { appId: params.appId, meetingId: params.meetingId, participantId: params.participantId },
      context,
    );
    const m = this.#meeting(params, context);
    return { app: m.app, path: `${m.path}${path`/participants/${ids.participantId}`}` };
  }

  #call<T>(app: string, c: Call<T>, options: CallOptions): Promise<T> {
    return this.client.request({
      method: c.method,
      path: app + c.path,
      schema: c.schema,
      unwrap: "data",
      ...(c.body !== undefined ? { body: c.body } : {}),
      ...(c.query ? { query: c.query } : {}),
      ...(c.idempotent !== undefined ? { idempotent: c.idempotent } : {}),
      ...options,
    });
  }

  /** A listing walked with `page_no`; `paging.total_count` (or a short page) ends it. */
  #paged<T>(
    app: string,
    listPath: string,
    listing: z.ZodType<{ data: T[]; paging: { total_count: number } }>,
    filters: Record<string, string | undefined>,
    per: number | undefined,
    options: CallOptions,
  ): PagedGenerator<T> {
    return pageStyle(async (page, per_page) => {
      const body = await this.client.request({
        method: "GET",
        path: app + listPath,
        query: { ...filters, page_no: page, per_page },
        schema: listing,
        unwrap: "body",
        ...options,
      });
      return { items: body.data, info: { total_count: body.paging.total_count, per_page } };
    }, per ?? 50);
  }
}
