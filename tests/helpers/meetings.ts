/** A meeting body with every field the service takes, within every limit (sftp sets every storage field). */
import type { MeetingCreate } from "../../sdk/meetings";

export const EVERY_MEETING_FIELD: MeetingCreate = {
  title: "Weekly sync",
  live_stream_on_start: false,
  persist_chat: true,
  record_on_start: true,
  session_keep_alive_time_in_secs: 600,
  summarize_on_end: true,
  transcribe_on_end: true,
  ai_config: {
    summarization: { summary_type: "team_meeting", text_format: "markdown", word_limit: 1000 },
    transcription: { keywords: ["Pulumi", "RTMP"], language: "en-US", profanity_filter: true },
  },
  recording_config: {
    audio_config: { channel: "stereo", codec: "AAC", export_file: true },
    file_name_prefix: "sync-",
    live_streaming_config: { rtmp_url: "rtmp://live.example.com/app/key" },
    max_seconds: 86_400,
    realtimekit_bucket_config: { enabled: false },
    storage_config: {
      type: "sftp",
      access_key: "AKIA-SECRET-ACCESS",
      secret: "s3cr3t-value",
      auth_method: "KEY",
      bucket: "recordings",
      region: "us-east-1",
      path: "meetings/",
      host: "sftp.example.com",
      port: 22,
      username: "rec",
      password: "key-passphrase",
      private_key: "-----BEGIN KEY-----",
    },
    video_config: {
      codec: "H264",
      export_file: false,
      height: 1080,
      width: 1920,
      watermark: {
        position: "right bottom",
        size: { height: 1, width: 1 },
        url: "https://example.com/logo.png",
      },
    },
  },
};
