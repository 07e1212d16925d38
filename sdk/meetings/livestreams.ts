/**
 * A meeting's livestreams: `/livestreams` (start), `/active-livestream` (the running one, and its
 * stop) and `/livestream` (the details, page by page).
 */
import { z } from "zod";
import type { ApiClient } from "../client";
import type { CallOptions } from "../core";
import {
  LivestreamDetailsSchema,
  LivestreamSchema,
  LivestreamStartSchema,
  LivestreamStartedSchema,
  LivestreamStoppedSchema,
  type Livestream,
  type LivestreamDetails,
  type LivestreamStart,
  type LivestreamStarted,
  type LivestreamStopped,
} from "../schemas/meetings-live";
import { validate } from "../validate";
import { meetingPath, pageNo, perPage, type MeetingIds } from "./paths";
import { call } from "./request";

const DetailsQuerySchema = z.object({ page_no: pageNo, per_page: perPage });
/** One page of the details, as the contract's query names it. */
export type LivestreamDetailsQuery = z.input<typeof DetailsQuerySchema>;

export class Livestreams {
  constructor(private readonly client: ApiClient) {}

  /** Starts livestreaming the meeting (it must be ACTIVE, with no livestream running). Not retried. */
  async start(
    ids: MeetingIds,
    params: LivestreamStart,
    options: CallOptions = {},
  ): Promise<LivestreamStarted> {
    const m = meetingPath(this.client, ids, "startLivestream");
    const body = validate(LivestreamStartSchema, params, "startLivestream");
    const c = {
      method: "POST",
      path: `${m.path}/livestreams`,
      body,
      schema: LivestreamStartedSchema,
    } as const;
    return call(this.client, m.app, c, options);
  }

  /** The livestream running now; a 404 when none is. */
  async getActive(ids: MeetingIds, options: CallOptions = {}): Promise<Livestream> {
    const m = meetingPath(this.client, ids, "getActiveLivestream");
    const c = { method: "GET", path: `${m.path}/active-livestream`, schema: LivestreamSchema } as const;
    return call(this.client, m.app, c, options);
  }

  /** Stops the running livestream; a 404 when none is. Not retried. */
  async stop(ids: MeetingIds, options: CallOptions = {}): Promise<LivestreamStopped> {
    const m = meetingPath(this.client, ids, "stopLivestream");
    const path = `${m.path}/active-livestream/stop`;
    return call(this.client, m.app, { method: "POST", path, schema: LivestreamStoppedSchema }, options);
  }

  /** One page of the meeting's livestreams (newest run in `sessions`). */
  async getDetails(
    ids: MeetingIds,
    params: LivestreamDetailsQuery = {},
    options: CallOptions = {},
  ): Promise<LivestreamDetails> {
    const m = meetingPath(this.client, ids, "getLivestreamDetails");
    const query = validate(
      DetailsQuerySchema,
      { page_no: params.page_no, per_page: params.per_page },
      "getLivestreamDetails",
    );
    const c = {
      method: "GET",
      path: `${m.path}/livestream`,
      query,
      schema: LivestreamDetailsSchema,
    } as const;
    return call(this.client, m.app, c, options);
  }
}
