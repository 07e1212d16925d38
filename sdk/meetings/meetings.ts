/**
 * `/meetings` and `/meetings/{meeting_id}` of an app: create, list, get, replace and update. There
 * is no delete of a meeting: it is retired by setting `status: "INACTIVE"`.
 */
import type { z } from "zod";
import type { ApiClient } from "../client";
import type { CallOptions } from "../core";
import { paged, type PagedGenerator } from "../paging";
import {
  MeetingCreateSchema,
  MeetingListQuerySchema,
  MeetingListingSchema,
  MeetingReplaceSchema,
  MeetingSchema,
  MeetingUpdateSchema,
  type Meeting,
  type MeetingCreate,
  type MeetingReplace,
  type MeetingUpdate,
} from "../schemas/meetings";
import { validate } from "../validate";
import { appPath, meetingPath, perPage, type AppIds, type MeetingIds } from "./paths";
import { call, pagedListing } from "./request";

/** The listing's filters as the contract names them; the pages are walked for you (`perPage`). */
export type MeetingListParams = Omit<z.input<typeof MeetingListQuerySchema>, "page_no" | "per_page"> & {
  perPage?: number;
};

const MeetingFiltersSchema = MeetingListQuerySchema.omit({ page_no: true, per_page: true });

export class Meetings {
  constructor(private readonly client: ApiClient) {}

  /** Creates a meeting in an app; every body field is optional (`{}` is valid). Not retried. */
  async create(ids: AppIds, params: MeetingCreate, options: CallOptions = {}): Promise<Meeting> {
    const app = appPath(this.client, ids, "createMeeting");
    const body = validate(MeetingCreateSchema, params, "createMeeting");
    return call(
      this.client,
      app,
      { method: "POST", path: "/meetings", body, schema: MeetingSchema },
      options,
    );
  }

  async get(ids: MeetingIds, options: CallOptions = {}): Promise<Meeting> {
    const m = meetingPath(this.client, ids, "getMeeting");
    return call(this.client, m.app, { method: "GET", path: m.path, schema: MeetingSchema }, options);
  }

  /**
   * Replaces the whole meeting (PUT): what the body leaves out goes back to the service's default.
   * The only way to change `recording_config` or `transcribe_on_end`; `status` stays as it is.
   */
  async replace(ids: MeetingIds, params: MeetingReplace, options: CallOptions = {}): Promise<Meeting> {
    const m = meetingPath(this.client, ids, "replaceMeeting");
    const body = validate(MeetingReplaceSchema, params, "replaceMeeting");
    return call(this.client, m.app, { method: "PUT", path: m.path, body, schema: MeetingSchema }, options);
  }

  /**
   * Changes some top-level settings (PATCH); each replaces the stored one whole. `status: "INACTIVE"`
   * closes the meeting to participants. A PATCH sets values, so a retry is harmless.
   */
  async update(ids: MeetingIds, params: MeetingUpdate, options: CallOptions = {}): Promise<Meeting> {
    const m = meetingPath(this.client, ids, "updateMeeting");
    const body = validate(MeetingUpdateSchema, params, "updateMeeting");
    return call(this.client, m.app, { method: "PATCH", path: m.path, body, schema: MeetingSchema }, options);
  }

  /** Every meeting of an app, page by page, oldest first; `search` matches the id or the title. */
  list(ids: AppIds, params: MeetingListParams = {}, options: CallOptions = {}): PagedGenerator<Meeting> {
    return paged(this.#list(ids, params, options));
  }

  // Validated when the first page is asked for, as every call of the area fails: by rejecting.
  async *#list(ids: AppIds, params: MeetingListParams, options: CallOptions): AsyncGenerator<Meeting> {
    const app = appPath(this.client, ids, "listMeetings");
    const { perPage: size, ...query } = params;
    const per = validate(perPage, size, "listMeetings: perPage");
    const filters = validate(MeetingFiltersSchema, query, "listMeetings");
    yield* pagedListing(this.client, app, "/meetings", MeetingListingSchema, filters, per, options);
  }

  /** `list` collected into an array. */
  listAll(ids: AppIds, params: MeetingListParams = {}, options: CallOptions = {}): Promise<Meeting[]> {
    return this.list(ids, params, options).toArray();
  }
}
