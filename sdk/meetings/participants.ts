/**
 * `/meetings/{meeting_id}/participants` and `/participants/{participant_id}`: add, list, get,
 * update, delete, and a participant's new token.
 */
import type { ApiClient } from "../client";
import type { CallOptions } from "../core";
import { paged, type PagedGenerator } from "../paging";
import {
  DeletedParticipantSchema,
  ParticipantCreateSchema,
  ParticipantListingSchema,
  ParticipantSchema,
  ParticipantTokenSchema,
  ParticipantUpdateSchema,
  type DeletedParticipant,
  type Participant,
  type ParticipantCreate,
  type ParticipantToken,
  type ParticipantUpdate,
} from "../schemas/meetings-live";
import { validate } from "../validate";
import { meetingPath, participantPath, perPage, type MeetingIds, type ParticipantIds } from "./paths";
import { call, pagedListing } from "./request";

/** The pages are walked for you; `perPage` sets their size. */
export interface ParticipantListParams {
  perPage?: number;
}

export class Participants {
  constructor(private readonly client: ApiClient) {}

  /** Adds a participant (the meeting must be ACTIVE); the answer carries the token it joins with. */
  async add(ids: MeetingIds, params: ParticipantCreate, options: CallOptions = {}): Promise<Participant> {
    const m = meetingPath(this.client, ids, "addParticipant");
    const body = validate(ParticipantCreateSchema, params, "addParticipant");
    const c = { method: "POST", path: `${m.path}/participants`, body, schema: ParticipantSchema } as const;
    return call(this.client, m.app, c, options);
  }

  list(
    ids: MeetingIds,
    params: ParticipantListParams = {},
    options: CallOptions = {},
  ): PagedGenerator<Participant> {
    return paged(this.#list(ids, params, options));
  }

  async *#list(
    ids: MeetingIds,
    params: ParticipantListParams,
    options: CallOptions,
  ): AsyncGenerator<Participant> {
    const m = meetingPath(this.client, ids, "listParticipants");
    const per = validate(perPage, params.perPage, "listParticipants: perPage");
    const listPath = `${m.path}/participants`;
    yield* pagedListing(this.client, m.app, listPath, ParticipantListingSchema, {}, per, options);
  }

  /** `list` collected into an array. */
  listAll(
    ids: MeetingIds,
    params: ParticipantListParams = {},
    options: CallOptions = {},
  ): Promise<Participant[]> {
    return this.list(ids, params, options).toArray();
  }

  async get(ids: ParticipantIds, options: CallOptions = {}): Promise<Participant> {
    const p = participantPath(this.client, ids, "getParticipant");
    return call(this.client, p.app, { method: "GET", path: p.path, schema: ParticipantSchema }, options);
  }

  /** Changes a participant's name, picture or preset (PATCH). */
  async update(
    ids: ParticipantIds,
    params: ParticipantUpdate,
    options: CallOptions = {},
  ): Promise<Participant> {
    const p = participantPath(this.client, ids, "updateParticipant");
    const body = validate(ParticipantUpdateSchema, params, "updateParticipant");
    const c = { method: "PATCH", path: p.path, body, schema: ParticipantSchema } as const;
    return call(this.client, p.app, c, options);
  }

  /** Removes a participant (and from the session, if it is in one). */
  async delete(ids: ParticipantIds, options: CallOptions = {}): Promise<DeletedParticipant> {
    const p = participantPath(this.client, ids, "deleteParticipant");
    const c = { method: "DELETE", path: p.path, schema: DeletedParticipantSchema } as const;
    return call(this.client, p.app, c, options);
  }

  /** A new token for the participant; the previous one no longer joins. Not retried. */
  async regenerateToken(ids: ParticipantIds, options: CallOptions = {}): Promise<ParticipantToken> {
    const p = participantPath(this.client, ids, "regenerateParticipantToken");
    const c = { method: "POST", path: `${p.path}/token`, schema: ParticipantTokenSchema } as const;
    return call(this.client, p.app, c, options);
  }
}
