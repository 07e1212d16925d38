/**
 * zod schemas of what lives inside a meeting (the public contract; api.md does not show them):
 * participants, the active session (kick, mute, polls) and livestreams. Request schemas are strict;
 * response schemas are loose and require only what the contract requires.
 */
import { z } from "zod";
import { strictShape } from "./common";
import { bool, str, strings, uri, whole } from "./meetings-builders";

const looseStr = z.string().nullable().optional();
const looseNum = z.number().nullable().optional();
const looseBool = z.boolean().nullable().optional();

// ---- participants ----

/** The contract's default preset of a participant (the field is required all the same). */
export const DEFAULT_PRESET_NAME = "group_call_host";

/** `add_participant`: who may join, under the app's preset that sets what they may do. */
export const ParticipantCreateSchema = strictShape({
  custom_participant_id: str(),
  preset_name: str(),
  name: str().nullable().optional(),
  picture: uri().nullable().optional(),
});
export type ParticipantCreate = z.infer<typeof ParticipantCreateSchema>;

/** `edit_participant`: each field given replaces the stored one. */
export const ParticipantUpdateSchema = strictShape({
  name: str().nullable().optional(),
  picture: uri().nullable().optional(),
  preset_name: str().nullable().optional(),
});
export type ParticipantUpdate = z.infer<typeof ParticipantUpdateSchema>;

export const ParticipantSchema = z.looseObject({
  id: z.string(),
  custom_participant_id: z.string(),
  preset_name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  name: looseStr,
  picture: looseStr,
  /** Sent by add and edit: what the participant joins with. */
  token: z.string().optional(),
});
export type Participant = z.infer<typeof ParticipantSchema>;

/** What `delete_meeting_participant` answers: the participant as it was, with its preset's id. */
export const DeletedParticipantSchema = z.looseObject({
  custom_participant_id: z.string(),
  preset_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DeletedParticipant = z.infer<typeof DeletedParticipantSchema>;

export const ParticipantTokenSchema = z.looseObject({ token: z.string() });
export type ParticipantToken = z.infer<typeof ParticipantTokenSchema>;

// ---- the active session ----

export const SESSION_STATUSES = ["LIVE", "ENDED"] as const;
export const SESSION_TYPES = ["meeting", "livestream", "participant"] as const;

export const ActiveSessionSchema = z.looseObject({
  id: z.string(),
  associated_id: z.string(),
  meeting_display_name: z.string(),
  type: z.string(),
  status: z.string(),
  live_participants: z.number(),
  max_concurrent_participants: z.number(),
  minutes_consumed: z.number(),
  organization_id: z.string(),
  started_at: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  ended_at: looseStr,
  meta: z.record(z.string(), z.unknown()).nullable().optional(),
  breakout_rooms: z.array(z.unknown()).nullable().optional(),
});
export type ActiveSession = z.infer<typeof ActiveSessionSchema>;

/** `kick` and `mute` on the wire: participants named by id or by custom id; both lists are required. */
export const SessionParticipantsWireSchema = strictShape({
  participant_ids: strings(),
  custom_participant_ids: strings(),
});

/** The same for a caller, who may leave a list out: it is sent empty. */
export const SessionParticipantsSchema = strictShape({
  participant_ids: strings().default([]),
  custom_participant_ids: strings().default([]),
});
export type SessionParticipants = z.input<typeof SessionParticipantsSchema>;

/** A participant as kick and mute answer it. */
export const SessionParticipantSchema = z.looseObject({
  id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  name: looseStr,
  email: looseStr,
  picture: looseStr,
});
export type SessionParticipant = z.infer<typeof SessionParticipantSchema>;

export const SessionActionSchema = z.looseObject({
  action: looseStr,
  participants: z.array(SessionParticipantSchema).nullable().optional(),
});
export type SessionAction = z.infer<typeof SessionActionSchema>;

export const KickAllResultSchema = z.looseObject({ action: looseStr, kicked_participants_count: looseNum });
export type KickAllResult = z.infer<typeof KickAllResultSchema>;

export const MuteAllSchema = strictShape({ allow_unmute: bool() });
export type MuteAll = z.infer<typeof MuteAllSchema>;

export const MuteAllResultSchema = z.looseObject({ action: looseStr, muted_participants_count: looseNum });
export type MuteAllResult = z.infer<typeof MuteAllResultSchema>;

export const PollCreateSchema = strictShape({
  question: str(),
  options: strings(),
  anonymous: bool().optional(),
  hide_votes: bool().optional(),
});
export type PollCreate = z.infer<typeof PollCreateSchema>;

export const PollSchema = z.looseObject({
  id: z.string(),
  question: z.string(),
  options: z.array(
    z.looseObject({
      text: z.string(),
      count: z.number(),
      votes: z.array(z.looseObject({ id: z.string(), name: z.string() })),
    }),
  ),
  anonymous: looseBool,
  hide_votes: looseBool,
  created_by: looseStr,
  voted: z.array(z.string()).nullable().optional(),
});
export type Poll = z.infer<typeof PollSchema>;

export const PollResultSchema = z.looseObject({ action: looseStr, poll: PollSchema });
export type PollResult = z.infer<typeof PollResultSchema>;

// ---- livestreams ----

export const LIVESTREAM_STATUSES = ["LIVE", "IDLE", "ERRORED", "INVOKED"] as const;

export const LivestreamStartSchema = strictShape({
  name: str().nullable().optional(),
  video_config: strictShape({ height: whole().optional(), width: whole().optional() }).optional(),
});
export type LivestreamStart = z.infer<typeof LivestreamStartSchema>;

/** What a start answers: where to send the stream and where to watch it. */
export const LivestreamStartedSchema = z.looseObject({
  id: looseStr,
  status: looseStr,
  ingest_server: looseStr,
  stream_key: looseStr,
  playback_url: looseStr,
});
export type LivestreamStarted = z.infer<typeof LivestreamStartedSchema>;

/** A livestream of a meeting (`disabled` is a string in one operation and a boolean in the other). */
export const LivestreamSchema = z.looseObject({
  id: looseStr,
  name: looseStr,
  meeting_id: looseStr,
  status: looseStr,
  ingest_server: looseStr,
  stream_key: looseStr,
  playback_url: looseStr,
  disabled: z.union([z.boolean(), z.string()]).nullable().optional(),
  created_at: looseStr,
  updated_at: looseStr,
});
export type Livestream = z.infer<typeof LivestreamSchema>;

export const LivestreamStoppedSchema = z.looseObject({ message: looseStr });
export type LivestreamStopped = z.infer<typeof LivestreamStoppedSchema>;

/** One run of a livestream: invoked, started, stopped. */
export const LivestreamSessionSchema = z.looseObject({
  id: looseStr,
  livestream_id: looseStr,
  err_message: looseStr,
  ingest_seconds: z.union([z.string(), z.number()]).nullable().optional(),
  invoked_time: looseStr,
  started_time: looseStr,
  stopped_time: looseStr,
  created_at: looseStr,
  updated_at: looseStr,
});
export type LivestreamSession = z.infer<typeof LivestreamSessionSchema>;

/** `livestream-session-details`: a page of the meeting's livestreams and the latest run. */
export const LivestreamDetailsSchema = z.looseObject({
  livestreams: z.array(LivestreamSchema).nullable().optional(),
  paging: z
    .looseObject({ total_count: looseNum, start_offset: looseNum, end_offset: looseNum })
    .nullable()
    .optional(),
  sessions: LivestreamSessionSchema.nullable().optional(),
});
export type LivestreamDetails = z.infer<typeof LivestreamDetailsSchema>;
