/**
 * The schemas of what lives inside a meeting (the public contract; api.md does not show them):
 * participants, the active session (kick, mute, polls) and livestreams. All of them are the
 * generated wire schemas (sdk/generated/meetings.ts); this module names them for the sdk and the
 * emulator and adds the caller's defaults of kick and mute.
 */
import type { z } from "zod";
import * as G from "../generated/meetings";

// ---- participants ----

/** The contract's default preset of a participant (the field is required all the same). */
export const DEFAULT_PRESET_NAME = G.AddParticipantBodyDefaults.preset_name;

/** `add_participant`: who may join, under the app's preset that sets what they may do. */
export const ParticipantCreateSchema = G.AddParticipantBody;
export type ParticipantCreate = z.infer<typeof ParticipantCreateSchema>;

/** `edit_participant`: each field given replaces the stored one. */
export const ParticipantUpdateSchema = G.EditParticipantBody;
export type ParticipantUpdate = z.infer<typeof ParticipantUpdateSchema>;

/** A participant; add and edit also send the `token` it joins with, get and the listing do not. */
export const ParticipantSchema = G.AddParticipantResult.shape.data.unwrap().partial({ token: true });
export type Participant = z.infer<typeof ParticipantSchema>;

/** A listing of participants: `paging` beside `data`. */
export const ParticipantListingSchema = G.GetMeetingParticipantsResult;

/** What `delete_meeting_participant` answers: the participant as it was, with its preset's id. */
export const DeletedParticipantSchema = G.DeleteMeetingParticipantResult.shape.data.unwrap();
export type DeletedParticipant = z.infer<typeof DeletedParticipantSchema>;

export const ParticipantTokenSchema = G.RegenerateTokenResult.shape.data;
export type ParticipantToken = z.infer<typeof ParticipantTokenSchema>;

// ---- the active session ----

export const SESSION_STATUSES = ["LIVE", "ENDED"] as const;
export const SESSION_TYPES = ["meeting", "livestream", "participant"] as const;

export const ActiveSessionSchema = G.GetActiveSessionResult.shape.data.unwrap();
export type ActiveSession = z.infer<typeof ActiveSessionSchema>;

/** `kick` and `mute` on the wire: participants named by id or by custom id; both lists are required. */
export const SessionParticipantsWireSchema = G.KickPartcipantsBody;

/** The same for a caller, who may leave a list out: it is sent empty. */
export const SessionParticipantsSchema = G.KickPartcipantsBody.extend({
  participant_ids: G.KickPartcipantsBody.shape.participant_ids.default([]),
  custom_participant_ids: G.KickPartcipantsBody.shape.custom_participant_ids.default([]),
});
export type SessionParticipants = z.input<typeof SessionParticipantsSchema>;

export const SessionActionSchema = G.KickPartcipantsResult.shape.data.unwrap();
export type SessionAction = z.infer<typeof SessionActionSchema>;

/** A participant as kick and mute answer it. */
export const SessionParticipantSchema = SessionActionSchema.shape.participants.unwrap().element;
export type SessionParticipant = z.infer<typeof SessionParticipantSchema>;

export const KickAllResultSchema = G.KickAllParticipantsResult.shape.data.unwrap();
export type KickAllResult = z.infer<typeof KickAllResultSchema>;

export const MuteAllSchema = G.MuteAllParticipantsBody;
export type MuteAll = z.infer<typeof MuteAllSchema>;

export const MuteAllResultSchema = G.MuteAllParticipantsResult.shape.data.unwrap();
export type MuteAllResult = z.infer<typeof MuteAllResultSchema>;

export const PollCreateSchema = G.CreatePollBody;
export type PollCreate = z.infer<typeof PollCreateSchema>;

export const PollResultSchema = G.CreatePollResult.shape.data.unwrap();
export type PollResult = z.infer<typeof PollResultSchema>;

export const PollSchema = PollResultSchema.shape.poll.unwrap();
export type Poll = z.infer<typeof PollSchema>;

// ---- livestreams ----

export const LIVESTREAM_STATUSES = ["LIVE", "IDLE", "ERRORED", "INVOKED"] as const;

export const LivestreamStartSchema = G.StartLivestreamingBody;
export type LivestreamStart = z.infer<typeof LivestreamStartSchema>;

/** What a start answers: where to send the stream and where to watch it. */
export const LivestreamStartedSchema = G.StartLivestreamingResult.shape.data.unwrap();
export type LivestreamStarted = z.infer<typeof LivestreamStartedSchema>;

/** The running livestream (`disabled` is a string here, a boolean in the details' list). */
export const LivestreamSchema = G.GetV2MeetingsMeetingIdActiveLivestreamResult.shape.data.unwrap();
export type Livestream = z.infer<typeof LivestreamSchema>;

export const LivestreamStoppedSchema = G.StopLivestreamingResult.shape.data.unwrap();
export type LivestreamStopped = z.infer<typeof LivestreamStoppedSchema>;

/** `livestream-session-details`: a page of the meeting's livestreams and the latest run. */
export const LivestreamDetailsSchema = G.LivestreamSessionDetailsResult.shape.data.unwrap();
export type LivestreamDetails = z.infer<typeof LivestreamDetailsSchema>;

/** A livestream as the details list it. */
export const ListedLivestreamSchema = LivestreamDetailsSchema.shape.livestreams.unwrap().element;

/** One run of a livestream: invoked, started, stopped. */
export const LivestreamSessionSchema = LivestreamDetailsSchema.shape.sessions.unwrap();
export type LivestreamSession = z.infer<typeof LivestreamSessionSchema>;
