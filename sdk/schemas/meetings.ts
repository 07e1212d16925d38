/**
 * zod schemas of the meetings area (spec D; public-api-notes "Meetings"). Request schemas are strict
 * and carry every enum, limit and cross-field rule of the spec; the response schema is loose.
 *
 * Cross-field rules, decided where the spec leaves room (docs/areas/meetings.md):
 * - `summarize_on_end: true` needs transcription enabled, which means `transcribe_on_end: true`
 *   (summaries are made from the transcripts generated at the end).
 * - With `video_config.codec` VP8 (or VP9) the audio codec is vorbis and cannot be chosen: an
 *   `audio_config.codec` is refused.
 * - `storage_config`: `type` is required; `access_key` is required for aws, azure and digitalocean
 *   (not for gcs, and sftp signs in with username and password or key); sftp needs `host`,
 *   `username` and `auth_method`, then `password` for PASSWORD or `private_key` for KEY.
 */
import { z } from "zod";
import { IdentifierSchema, noDefaults, strictShape } from "./common";

// ---- small builders whose messages say the rule ----

function required(what: string) {
  return (iss: { input?: unknown }): string => (iss.input === undefined ? "is required" : `must be ${what}`);
}

const str = () => z.string({ error: required("a string") });
const bool = () => z.boolean({ error: required("a boolean (true or false)") });

function between(min: number, max: number) {
  const rule = `must be between ${min} and ${max}`;
  return z
    .number({ error: required(`a number between ${min} and ${max}`) })
    .min(min, rule)
    .max(max, rule);
}

function atLeast(min: number) {
  return z.number({ error: required(`a number of at least ${min}`) }).min(min, `must be at least ${min}`);
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: required(`one of ${values.join(", ")}`) });
}

const uri = () =>
  str().refine((s) => {
    try {
      return new URL(s).protocol.length > 1;
    } catch {
      return false;
    }
  }, "must be a URI (scheme://...)");

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

// ---- ai_config ----

export const SummarizationSchema = strictShape({
  summary_type: oneOf(SUMMARY_TYPES).optional(),
  text_format: oneOf(TEXT_FORMATS).optional(),
  word_limit: between(MEETING_LIMITS.wordLimit.min, MEETING_LIMITS.wordLimit.max).optional(),
});

export const TranscriptionSchema = strictShape({
  keywords: z.array(str(), { error: "must be an array of strings" }).optional(),
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
    height: atLeast(MEETING_LIMITS.watermarkPixels.min).optional(),
    width: atLeast(MEETING_LIMITS.watermarkPixels.min).optional(),
  }).optional(),
  url: uri().optional(),
});

const pixels = () => between(MEETING_LIMITS.videoPixels.min, MEETING_LIMITS.videoPixels.max);

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
  port: z
    .number({ error: required("a port number (1 to 65535)") })
    .int("must be a whole number")
    .min(1, "must be between 1 and 65535")
    .max(65_535, "must be between 1 and 65535")
    .optional(),
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

export const MediaBucketConfigSchema = strictShape({ enabled: bool() });

export const RecordingConfigSchema = strictShape({
  audio_config: AudioConfigSchema.optional(),
  file_name_prefix: str().optional(),
  live_streaming_config: strictShape({ rtmp_url: uri().optional() }).optional(),
  max_seconds: between(MEETING_LIMITS.maxSeconds.min, MEETING_LIMITS.maxSeconds.max).optional(),
  media_bucket_config: MediaBucketConfigSchema.optional(),
  storage_config: StorageConfigSchema.optional(),
  video_config: VideoConfigSchema.optional(),
}).superRefine((r, ctx) => {
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

/** A meeting's wire fields a program sets; the API defaults none of them in a way the spec states. */
export const MeetingFields = {
  title: str().optional(),
  live_stream_on_start: bool().optional(),
  persist_chat: bool().optional(),
  record_on_start: bool().optional(),
  session_keep_alive_time_in_secs: between(
    MEETING_LIMITS.keepAliveSeconds.min,
    MEETING_LIMITS.keepAliveSeconds.max,
  ).optional(),
  summarize_on_end: bool().optional(),
  transcribe_on_end: bool().optional(),
  ai_config: AiConfigSchema.optional(),
  recording_config: RecordingConfigSchema.optional(),
};

export interface MeetingRuleIssue {
  path: (string | number)[];
  message: string;
}

/**
 * Rules across top-level fields, applied to a whole meeting: a create body, or the state an update
 * would leave (the emulator checks the merged meeting; the sdk checks what an update body says).
 */
export function meetingRuleIssues(m: {
  summarize_on_end?: boolean;
  transcribe_on_end?: boolean;
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
export const MeetingCreateSchema = strictShape(MeetingFields).superRefine((m, ctx) => {
  for (const issue of meetingRuleIssues(m)) ctx.addIssue({ code: "custom", ...issue });
});
export type MeetingCreate = z.infer<typeof MeetingCreateSchema>;

/**
 * PATCH body: any subset of the create fields plus `status`. Top-level fields replace the stored
 * ones whole (a nested object is not merged). The summarize rule is checked here only when the body
 * names both fields; otherwise the server checks it on the merged meeting.
 */
export const MeetingUpdateSchema = strictShape({
  ...noDefaults(MeetingFields),
  status: oneOf(MEETING_STATUSES).optional(),
}).superRefine((m, ctx) => {
  if (m.summarize_on_end === true && m.transcribe_on_end !== undefined) {
    for (const issue of meetingRuleIssues(m)) ctx.addIssue({ code: "custom", ...issue });
  }
});
export type MeetingUpdate = z.infer<typeof MeetingUpdateSchema>;

// ---- response ----

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
  media_bucket_config: z.looseObject({ enabled: looseBool }).nullable().optional(),
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
 * write-only storage fields and the request's cross-field rules.
 */
export const MeetingSchema = z.looseObject({
  id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  status: z.string(),
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
