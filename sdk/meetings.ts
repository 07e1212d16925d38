/**
 * Client for the meetings area. Responses are `{ success, data }` (no `result` envelope), so every
 * call unwraps `data`. There is no delete: a meeting is retired by setting `status: "INACTIVE"`.
 */
import { z } from "zod";
import { path, type ApiClient } from "./client";
import type { CallOptions } from "./core";
import { collect, pageStyle } from "./paging";
import {
  AppIdSchema,
  MeetingCreateSchema,
  MeetingSchema,
  MeetingUpdateSchema,
  type Meeting,
  type MeetingCreate,
  type MeetingUpdate,
} from "./schemas/meetings";
import { validate } from "./validate";

export {
  MEETING_LIMITS,
  WRITE_ONLY_STORAGE_FIELDS,
  type Meeting,
  type MeetingCreate,
  type MeetingUpdate,
  type AiConfigOut,
  type RecordingConfigOut,
} from "./schemas/meetings";

export type { CallOptions } from "./core";

interface AppParams {
  accountId?: string;
  appId: string;
}

export type CreateMeetingParams = AppParams & MeetingCreate;
export type GetMeetingParams = AppParams & { meetingId: string };
export type UpdateMeetingParams = AppParams & { meetingId: string } & MeetingUpdate;
export type ListMeetingsParams = AppParams & { perPage?: number };

/** Path parameters, validated as named fields so an error says which one. */
const AppParamsSchema = z.object({ appId: AppIdSchema });
const MeetingParamsSchema = z.object({
  appId: AppIdSchema,
  meetingId: z.string().min(1, "must not be empty"),
});
const ListParamsSchema = z.object({
  appId: AppIdSchema,
  perPage: z
    .number()
    .int("must be a whole number")
    .min(1, "must be between 1 and 100")
    .max(100, "must be between 1 and 100")
    .optional(),
});

export class MeetingsApi {
  constructor(readonly client: ApiClient) {}

  /** Creates a meeting in an app; every body field is optional (`{}` is valid). Not retried. */
  async createMeeting(params: CreateMeetingParams, options: CallOptions = {}): Promise<Meeting> {
    const { accountId, appId, ...rest } = params;
    const { appId: app } = validate(AppParamsSchema, { appId }, "createMeeting");
    const body = validate(MeetingCreateSchema, rest, "createMeeting");
    return this.client.request({
      method: "POST",
      path: path`/accounts/${this.client.account(accountId)}/realtime/kit/${app}/meetings`,
      body,
      schema: MeetingSchema,
      unwrap: "data",
      idempotent: false,
      ...options,
    });
  }

  async getMeeting(params: GetMeetingParams, options: CallOptions = {}): Promise<Meeting> {
    const { app, meetingId } = this.#ids(params, "getMeeting");
    return this.client.request({
      method: "GET",
      path: path`/accounts/${this.client.account(params.accountId)}/realtime/kit/${app}/meetings/${meetingId}`,
      schema: MeetingSchema,
      unwrap: "data",
      ...options,
    });
  }

  /**
   * Changes some fields; a top-level field replaces the stored one whole. `status: "INACTIVE"` closes
   * the meeting to participants. A PATCH sets values, so a retry is harmless.
   */
  async updateMeeting(params: UpdateMeetingParams, options: CallOptions = {}): Promise<Meeting> {
    const { accountId, appId: _appId, meetingId: _meetingId, ...rest } = params;
    const { app, meetingId } = this.#ids(params, "updateMeeting");
    const body = validate(MeetingUpdateSchema, rest, "updateMeeting");
    return this.client.request({
      method: "PATCH",
      path: path`/accounts/${this.client.account(accountId)}/realtime/kit/${app}/meetings/${meetingId}`,
      body,
      schema: MeetingSchema,
      unwrap: "data",
      ...options,
    });
  }

  /** Every meeting of an app, page by page (`page`, `per_page`, `result_info`). */
  async *listMeetings(params: ListMeetingsParams, options: CallOptions = {}): AsyncGenerator<Meeting> {
    const { appId: app, perPage } = validate(
      ListParamsSchema,
      { appId: params.appId, perPage: params.perPage },
      "listMeetings",
    );
    const account = this.client.account(params.accountId);
    yield* pageStyle(async (page, per_page) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: path`/accounts/${account}/realtime/kit/${app}/meetings`,
        query: { page, per_page },
        schema: z.array(MeetingSchema),
        unwrap: "data",
        ...options,
      });
      return { items: res.value, info: res.resultInfo };
    }, perPage ?? 50);
  }

  /** `listMeetings` collected into an array. */
  listAllMeetings(params: ListMeetingsParams, options: CallOptions = {}): Promise<Meeting[]> {
    return collect(this.listMeetings(params, options));
  }

  #ids(params: { appId: string; meetingId: string }, context: string): { app: string; meetingId: string } {
    const ids = validate(MeetingParamsSchema, { appId: params.appId, meetingId: params.meetingId }, context);
    return { app: ids.appId, meetingId: ids.meetingId };
  }
}
