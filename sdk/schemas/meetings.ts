/**
 * The meetings area's schemas: the generated wire schemas (sdk/generated/meetings.ts, from the
 * contract, api.md D and contract/rules/meetings.json) and what data cannot say beside them.
 * Request schemas are strict and carry every enum and limit; responses are the contract's, open.
 *
 * Cross-field rules, decided where the spec leaves room (docs/assumptions.md, Meetings):
 * - `summarize_on_end: true` needs transcription enabled, which means `transcribe_on_end: true`
 *   (summaries are made from the transcripts generated at the end).
 * - With `video_config.codec` VP8 (or VP9) the audio codec is vorbis and cannot be chosen: an
 *   `audio_config.codec` is refused.
 * - `storage_config`: `type` is required; `access_key` is required for aws, azure and digitalocean
 *   (not for gcs, and sftp signs in with username and password or key); sftp needs `host`,
 *   `username` and `auth_method`, then `password` for PASSWORD or `private_key` for KEY.
 *
 * Bodies: a create (POST) and a replace (PUT) take the whole meeting; an update (PATCH) takes only
 * the top-level settings and `status` (the contract's PATCH has no `recording_config`, and api.md
 * names `transcribe_on_end` for the create body only), so those two are changed with a replace.
 */
import { z } from "zod";
import * as G from "../generated/meetings";
import { strictWithHint } from "./meetings-builders";

export const MEETING_STATUSES = ["ACTIVE", "INACTIVE"] as const;
/** Video codecs that force the vorbis audio codec (VP9 is named by the rule, though not by the enum). */
export const VORBIS_VIDEO_CODECS: readonly string[] = ["VP8", "VP9"];
/** Storage fields the API accepts and never returns. */
export const WRITE_ONLY_STORAGE_FIELDS = ["access_key", "secret", "password", "private_key"] as const;
export type WriteOnlyStorageField = (typeof WRITE_ONLY_STORAGE_FIELDS)[number];

const Body = G.CreateMeetingBody.shape;
const WireRecording = Body.recording_config.unwrap();
const WireVideo = WireRecording.shape.video_config.unwrap().shape;

/** A bound the generated schema carries (the contract's, with the overlay's rules); lost, it is a bug. */
function bound(value: number | null): number {
  if (value === null) throw new Error("a meetings limit of the contract has lost its bound");
  return value;
}
const bounds = (n: z.ZodNumber) => ({ min: bound(n.minValue), max: bound(n.maxValue) });

/** api.md's Limits, for readers of the sdk: read from the schemas that check them. */
export const MEETING_LIMITS = {
  keepAliveSeconds: bounds(Body.session_keep_alive_time_in_secs.unwrap()),
  wordLimit: bounds(Body.ai_config.unwrap().shape.summarization.unwrap().shape.word_limit.unwrap()),
  maxSeconds: bounds(WireRecording.shape.max_seconds.unwrap()),
  videoPixels: bounds(WireVideo.width.unwrap()),
  watermarkPixels: {
    min: bound(WireVideo.watermark.unwrap().shape.size.unwrap().shape.width.unwrap().minValue),
  },
} as const;

/** `{app_id}`: at most 32 characters (api.md D). */
export const AppIdSchema = G.GetAllMeetingsPath.shape.app_id;

/** Old wire name of `realtimekit_bucket_config` (api.md writes the neutral word in the brand's place). */
export const RENAMED_RECORDING_FIELDS = { media_bucket_config: "realtimekit_bucket_config" } as const;

// ---- recording_config: the storage and codec rules ----

type WireStorage = z.infer<ReturnType<typeof WireRecording.shape.storage_config.unwrap>>;

function storageIssues(s: NonNullable<WireStorage>, ctx: z.RefinementCtx): void {
  const need = (field: keyof typeof s, why: string): void => {
    if (s[field] === undefined)
      ctx.addIssue({ code: "custom", message: `is required ${why}`, path: [field] });
  };
  if (s.type === "aws" || s.type === "azure" || s.type === "digitalocean")
    need("access_key", `for type ${s.type}`);
  if (s.type === "sftp") {
    need("host", "for type sftp");
    need("username", "for type sftp");
    need("auth_method", "for type sftp");
    if (s.auth_method === "PASSWORD") need("password", "when auth_method is PASSWORD");
    if (s.auth_method === "KEY") need("private_key", "when auth_method is KEY");
  }
}

/** A body's `recording_config`: the old bucket name refused by name, the cross-field rules checked. */
function recordingConfig(wire: typeof WireRecording) {
  const storage = wire.shape.storage_config.unwrap().unwrap().superRefine(storageIssues);
  return strictWithHint(
    { ...wire.shape, storage_config: storage.nullable().optional() },
    {
      keys: Object.keys(RENAMED_RECORDING_FIELDS),
      message: `renamed to ${RENAMED_RECORDING_FIELDS.media_bucket_config}`,
    },
  ).superRefine((r, ctx) => {
    const video = r.video_config?.codec;
    if (video !== undefined && VORBIS_VIDEO_CODECS.includes(video) && r.audio_config?.codec !== undefined) {
      ctx.addIssue({
        code: "custom",
        message: `cannot be set when video_config.codec is ${video}: the audio codec is vorbis with VP8 or VP9`,
        path: ["audio_config", "codec"],
      });
    }
  });
}

export const RecordingConfigSchema = recordingConfig(WireRecording);

// ---- meeting bodies ----

/** Fields a PATCH does not take: they change with a replace (PUT). */
export const REPLACE_ONLY_FIELDS = ["recording_config", "transcribe_on_end"] as const;

const PatchShape = G.UpdateMeetingBody.omit({ recording_config: true, transcribe_on_end: true }).shape;

/**
 * Every setting of a meeting, whichever body takes it (the create's, and `status` of the update's):
 * the provider's inputs, as the contract types them, with the recording config's own rules.
 */
export const MeetingFields = {
  ...G.UpdateMeetingBody.shape,
  ...G.CreateMeetingBody.shape,
  recording_config: RecordingConfigSchema.optional(),
};

export interface MeetingRuleIssue {
  path: (string | number)[];
  message: string;
}

/**
 * Rules across top-level fields, applied to a whole meeting: a create or replace body, or the state
 * a PATCH would leave (the emulator checks the merged meeting).
 */
export function meetingRuleIssues(m: {
  summarize_on_end?: boolean | null;
  transcribe_on_end?: boolean | null;
}): MeetingRuleIssue[] {
  if (m.summarize_on_end === true && m.transcribe_on_end !== true) {
    return [
      {
        path: ["summarize_on_end"],
        message:
          "requires transcription enabled (transcribe_on_end: true): summaries are made from transcripts",
      },
    ];
  }
  return [];
}

const meetingRules = (m: Parameters<typeof meetingRuleIssues>[0], ctx: z.RefinementCtx): void => {
  for (const issue of meetingRuleIssues(m)) ctx.addIssue({ code: "custom", ...issue });
};

/** POST body: every field optional; `{}` is a valid meeting. */
export const MeetingCreateSchema = G.CreateMeetingBody.extend({
  recording_config: RecordingConfigSchema.optional(),
}).superRefine(meetingRules);
export type MeetingCreate = z.infer<typeof MeetingCreateSchema>;

/** PUT body: the whole meeting, as a create takes it; what it leaves out goes back to the default. */
export const MeetingReplaceSchema = G.ReplaceMeetingBody.extend({
  recording_config: recordingConfig(G.ReplaceMeetingBody.shape.recording_config.unwrap()).optional(),
}).superRefine(meetingRules);
export type MeetingReplace = z.infer<typeof MeetingReplaceSchema>;

/**
 * PATCH body: the contract's `update_meeting` fields, each replacing the stored value whole (a
 * nested object is not merged), plus `status`. The summarize rule is checked by the service on the
 * meeting the PATCH would leave (the body cannot name `transcribe_on_end`).
 */
export const MeetingUpdateSchema = strictWithHint(PatchShape, {
  keys: REPLACE_ONLY_FIELDS,
  message: "is not taken by an update (PATCH): replace the meeting (PUT, replaceMeeting) to change it",
});
export type MeetingUpdate = z.infer<typeof MeetingUpdateSchema>;

/**
 * Query of `get_all_meetings`. The contract's `date-time` format is not one the generator checks,
 * so the two bounds are checked here.
 */
const isoDateTime = () => z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time" });
export const MeetingListQuerySchema = G.GetAllMeetingsQuery.extend({
  start_time: isoDateTime().optional(),
  end_time: isoDateTime().optional(),
});
export type MeetingListQuery = z.infer<typeof MeetingListQuerySchema>;

// ---- responses: the contract's, open ----

/** A meeting as returned in `data` (the contract requires only `id`, `created_at` and `updated_at`). */
export const MeetingSchema = G.GetMeetingResult.shape.data.unwrap();
export type Meeting = z.infer<typeof MeetingSchema>;

/** `recording_config` as returned (the service leaves out the write-only storage fields). */
export const RecordingConfigOutSchema = MeetingSchema.shape.recording_config.unwrap();
export type RecordingConfigOut = z.infer<typeof RecordingConfigOutSchema>;

export const AiConfigOutSchema = MeetingSchema.shape.ai_config.unwrap();
export type AiConfigOut = z.infer<typeof AiConfigOutSchema>;

/** A listing's whole body (`paging` sits beside `data`, not inside it). */
export const MeetingListingSchema = G.GetAllMeetingsResult;

/** `paging` of the meetings listings: offsets of the page within `total_count`. */
export const PagingSchema = G.GetAllMeetingsResult.shape.paging;
export type Paging = z.infer<typeof PagingSchema>;

// ---- apps: `get_apps` and `create_app` (public-families.json) ----

/** `create_app`: an app has only its name (names need not be unique). */
export const AppCreateSchema = G.CreateAppBody;
export type AppCreate = z.infer<typeof AppCreateSchema>;

/** An app as `get_apps` lists it: the contract marks every field optional. */
export const AppSchema = G.GetAppsResult.shape.data.unwrap().element;
export type App = z.infer<typeof AppSchema>;

/** What `get_apps` answers in `data` (the contract has no paging: one answer holds every app). */
export const AppListSchema = G.GetAppsResult.shape.data.unwrap();

/** What `create_app` answers in `data`: the new app under `app` (an answer without it is malformed). */
export const CreatedAppSchema = G.CreateAppResult.shape.data.unwrap().required({ app: true });
