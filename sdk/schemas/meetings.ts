/**
 * zod schemas of the meetings area: api.md D, and the public contract where api.md says nothing
 * (`create_meeting`, `replace_meeting`, `update_meeting`, `get_meeting`, `get_all_meetings`). Request
 * schemas are strict and carry every enum, limit and cross-field rule; response schemas are loose.
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
import { IdentifierSchema, strictShape } from "./common";
import {
  between,
  bool,
  oneOf,
  str,
  strictWithHint,
  strings,
  uri,
  whole,
  wholeAtLeast,
  wholeBetween,
} from "./meetings-builders";

// ---- enums and limits (spec D; Limits) ----

export const MEETING_STATUSES = ["ACTIVE", "INACTIVE"] as const;
export const SUMMARY_TYPES = [
  "general",
  "team_meeting",
  "sales_call",
  "client_check_in",
  "interview",
  "daily_standup",
  "one_on_one_meeting",
  "lecture",
  "code_review",
] as const;
export const TEXT_FORMATS = ["plain_text", "markdown"] as const;
export const TRANSCRIPTION_LANGUAGES = [
  "en-US",
  "en-IN",
  "de",
  "hi",
  "sv",
  "ru",
  "pl",
  "el",
  "fr",
  "nl",
] as const;
export const AUDIO_CHANNELS = ["mono", "stereo"] as const;
export const AUDIO_CODECS = ["MP3", "AAC"] as const;
export const VIDEO_CODECS = ["H264", "VP8"] as const;
/** Video codecs that force the vorbis audio codec (VP9 is named by the rule, though not by the enum). */
export const VORBIS_VIDEO_CODECS: readonly string[] = ["VP8", "VP9"];
export const WATERMARK_POSITIONS = ["left top", "right top", "left bottom", "right bottom"] as const;
export const STORAGE_TYPES = ["aws", "azure", "digitalocean", "gcs", "sftp"] as const;
export const SFTP_AUTH_METHODS = ["KEY", "PASSWORD"] as const;
/** Storage fields the API accepts and never returns. */
export const WRITE_ONLY_STORAGE_FIELDS = ["access_key", "secret", "password", "private_key"] as const;
export type WriteOnlyStorageField = (typeof WRITE_ONLY_STORAGE_FIELDS)[number];

export const MEETING_LIMITS = {
  keepAliveSeconds: { min: 60, max: 600 },
  wordLimit: { min: 150, max: 1000 },
  maxSeconds: { min: 60, max: 86_400 },
  videoPixels: { min: 1, max: 1920 },
  watermarkPixels: { min: 1 },
} as const;

/** `{app_id}`: at most 32 characters (spec, Limits). */
export const AppIdSchema = IdentifierSchema;

/** Old wire name of `realtimekit_bucket_config` (api.md writes the neutral word in the brand's place). */
export const RENAMED_RECORDING_FIELDS = { media_bucket_config: "realtimekit_bucket_config" } as const;

// ---- ai_config ----

export const SummarizationSchema = strictShape({
  summary_type: oneOf(SUMMARY_TYPES).optional(),
  text_format: oneOf(TEXT_FORMATS).optional(),
  word_limit: wholeBetween(MEETING_LIMITS.wordLimit.min, MEETING_LIMITS.wordLimit.max).optional(),
});

export const TranscriptionSchema = strictShape({
  keywords: strings().optional(),
  language: oneOf(TRANSCRIPTION_LANGUAGES).optional(),
  profanity_filter: bool().optional(),
});

export const AiConfigSchema = strictShape({
  summarization: SummarizationSchema.optional(),
  transcription: TranscriptionSchema.optional(),
});

// ---- recording_config ----

export const AudioConfigSchema = strictShape({
  channel: oneOf(AUDIO_CHANNELS).optional(),
  codec: oneOf(AUDIO_CODECS).optional(),
  export_file: bool().optional(),
});

export const WatermarkSchema = strictShape({
  position: oneOf(WATERMARK_POSITIONS).optional(),
  size: strictShape({
    height: wholeAtLeast(MEETING_LIMITS.watermarkPixels.min).optional(),
    width: wholeAtLeast(MEETING_LIMITS.watermarkPixels.min).optional(),
  }).optional(),
  url: uri().optional(),
});

const pixels = () => wholeBetween(MEETING_LIMITS.videoPixels.min, MEETING_LIMITS.videoPixels.max);

export const VideoConfigSchema = strictShape({
  codec: oneOf(VIDEO_CODECS).optional(),
  export_file: bool().optional(),
  height: pixels().optional(),
  width: pixels().optional(),
  watermark: WatermarkSchema.optional(),
});

export const StorageConfigSchema = strictShape({
  type: oneOf(STORAGE_TYPES),
  access_key: str().min(1, "must not be empty").optional(),
  secret: str().min(1, "must not be empty").optional(),
  auth_method: oneOf(SFTP_AUTH_METHODS).optional(),
  bucket: str().optional(),
  region: str().optional(),
  path: str().optional(),
  host: str().min(1, "must not be empty").optional(),
  port: whole().min(1, "must be between 1 and 65535").max(65_535, "must be between 1 and 65535").optional(),
  username: str().min(1, "must not be empty").optional(),
  password: str().min(1, "must not be empty").optional(),
  private_key: str().min(1, "must not be empty").optional(),
}).superRefine((s, ctx) => {
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
});

/** `enabled: false`: no download URLs are generated for a recording. */
export const RealtimekitBucketConfigSchema = strictShape({ enabled: bool() });

export const RecordingConfigSchema = strictWithHint(
  {
    audio_config: AudioConfigSchema.optional(),
    file_name_prefix: str().optional(),
    live_streaming_config: strictShape({ rtmp_url: uri().optional() }).optional(),
    max_seconds: between(MEETING_LIMITS.maxSeconds.min, MEETING_LIMITS.maxSeconds.max).optional(),
    realtimekit_bucket_config: RealtimekitBucketConfigSchema.optional(),
    // The contract lets a body say "no storage" with null.
    storage_config: StorageConfigSchema.nullable().optional(),
    video_config: VideoConfigSchema.optional(),
  },
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

// ---- meeting bodies ----

const keepAlive = () => between(MEETING_LIMITS.keepAliveSeconds.min, MEETING_LIMITS.keepAliveSeconds.max);

/**
 * A meeting's settings as a program sets them (never null): the provider's fields. The bodies below
 * add what the contract also takes (null for some of them, `status` on a PATCH).
 */
export const MeetingFields = {
  title: str().optional(),
  live_stream_on_start: bool().optional(),
  persist_chat: bool().optional(),
  record_on_start: bool().optional(),
  session_keep_alive_time_in_secs: keepAlive().optional(),
  summarize_on_end: bool().optional(),
  transcribe_on_end: bool().optional(),
  ai_config: AiConfigSchema.optional(),
  recording_config: RecordingConfigSchema.optional(),
};

/** What a create or replace body may send as null (the contract's nullable fields): the default. */
const NULLABLE_ON_WRITE = {
  title: str().nullable().optional(),
  live_stream_on_start: bool().nullable().optional(),
  record_on_start: bool().nullable().optional(),
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

/** POST body: every field optional; `{}` is a valid meeting. */
export const MeetingCreateSchema = strictShape({ ...MeetingFields, ...NULLABLE_ON_WRITE }).superRefine(
  (m, ctx) => {
    for (const issue of meetingRuleIssues(m)) ctx.addIssue({ code: "custom", ...issue });
  },
);
export type MeetingCreate = z.infer<typeof MeetingCreateSchema>;

/** PUT body: the whole meeting, as a create takes it; what it leaves out goes back to the default. */
export const MeetingReplaceSchema = MeetingCreateSchema;
export type MeetingReplace = MeetingCreate;

/** Fields a PATCH does not take: they change with a replace (PUT). */
export const REPLACE_ONLY_FIELDS = ["recording_config", "transcribe_on_end"] as const;

/**
 * PATCH body: the contract's `update_meeting` fields, each replacing the stored value whole (a
 * nested object is not merged), plus `status`. The summarize rule is checked by the service on the
 * meeting the PATCH would leave (the body cannot name `transcribe_on_end`).
 */
export const MeetingUpdateSchema = strictWithHint(
  {
    title: MeetingFields.title,
    live_stream_on_start: MeetingFields.live_stream_on_start,
    persist_chat: MeetingFields.persist_chat,
    record_on_start: MeetingFields.record_on_start,
    session_keep_alive_time_in_secs: MeetingFields.session_keep_alive_time_in_secs,
    summarize_on_end: MeetingFields.summarize_on_end,
    ai_config: MeetingFields.ai_config,
    status: oneOf(MEETING_STATUSES).optional(),
  },
  {
    keys: REPLACE_ONLY_FIELDS,
    message: "is not taken by an update (PATCH): replace the meeting (PUT, replaceMeeting) to change it",
  },
);
export type MeetingUpdate = z.infer<typeof MeetingUpdateSchema>;

/** Page parameters of the area's listings (`page_no` counts from 1). */
export const PageParamsSchema = z.object({
  page_no: z.number().int("must be a whole number").min(1, "must be at least 1").optional(),
  per_page: z.number().int("must be a whole number").min(1, "must be at least 1").optional(),
});

/** Query of `get_all_meetings` (`status` is the public client's filter, beside the contract's). */
export const MeetingListQuerySchema = PageParamsSchema.extend({
  start_time: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time" }).optional(),
  end_time: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time" }).optional(),
  search: z.string().optional(),
  status: oneOf(MEETING_STATUSES).optional(),
});
export type MeetingListQuery = z.infer<typeof MeetingListQuerySchema>;

// ---- responses ----

const looseStr = z.string().nullable().optional();
const looseNum = z.number().nullable().optional();
const looseBool = z.boolean().nullable().optional();

/** `recording_config` as returned: the write-only storage fields never come back. */
export const RecordingConfigOutSchema = z.looseObject({
  audio_config: z
    .looseObject({ channel: looseStr, codec: looseStr, export_file: looseBool })
    .nullable()
    .optional(),
  file_name_prefix: looseStr,
  live_streaming_config: z.looseObject({ rtmp_url: looseStr }).nullable().optional(),
  max_seconds: looseNum,
  realtimekit_bucket_config: z.looseObject({ enabled: looseBool }).nullable().optional(),
  storage_config: z
    .looseObject({
      type: looseStr,
      auth_method: looseStr,
      bucket: looseStr,
      region: looseStr,
      path: looseStr,
      host: looseStr,
      port: looseNum,
      username: looseStr,
    })
    .nullable()
    .optional(),
  video_config: z
    .looseObject({
      codec: looseStr,
      export_file: looseBool,
      height: looseNum,
      width: looseNum,
      watermark: z
        .looseObject({
          position: looseStr,
          size: z.looseObject({ height: looseNum, width: looseNum }).nullable().optional(),
          url: looseStr,
        })
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
});
export type RecordingConfigOut = z.infer<typeof RecordingConfigOutSchema>;

export const AiConfigOutSchema = z.looseObject({
  summarization: z
    .looseObject({ summary_type: looseStr, text_format: looseStr, word_limit: looseNum })
    .nullable()
    .optional(),
  transcription: z
    .looseObject({
      keywords: z.array(z.string()).nullable().optional(),
      language: looseStr,
      profanity_filter: looseBool,
    })
    .nullable()
    .optional(),
});
export type AiConfigOut = z.infer<typeof AiConfigOutSchema>;

/**
 * A meeting as returned in `data`; loose, so fields the service adds pass through. Written out rather
 * than derived from MeetingFields: every field may come back null, and the nested objects lack the
 * write-only storage fields and the request's cross-field rules. The contract requires only `id`,
 * `created_at` and `updated_at`.
 */
export const MeetingSchema = z.looseObject({
  id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  status: z.enum(MEETING_STATUSES).optional(),
  title: looseStr,
  live_stream_on_start: looseBool,
  persist_chat: looseBool,
  record_on_start: looseBool,
  session_keep_alive_time_in_secs: looseNum,
  summarize_on_end: looseBool,
  transcribe_on_end: looseBool,
  ai_config: AiConfigOutSchema.nullable().optional(),
  recording_config: RecordingConfigOutSchema.nullable().optional(),
});
export type Meeting = z.infer<typeof MeetingSchema>;

/** `paging` of the meetings listings: offsets of the page within `total_count`. */
export const PagingSchema = z.looseObject({
  total_count: z.number(),
  start_offset: z.number(),
  end_offset: z.number(),
});
export type Paging = z.infer<typeof PagingSchema>;

/** A listing's whole body (`paging` sits beside `data`, not inside it). */
export function listingOf<T extends z.ZodType>(item: T) {
  return z.looseObject({ success: z.boolean().optional(), data: z.array(item), paging: PagingSchema });
}
