import { strict as assert } from "node:assert";
import { MEETING_DEFAULTS, view, type StoredMeeting } from "../../emulator/meetings/state";
import {
  MEETING_LIMITS,
  MeetingCreateSchema,
  MeetingSchema,
  MeetingUpdateSchema,
  WRITE_ONLY_STORAGE_FIELDS,
  meetingRuleIssues,
} from "../../sdk/schemas/meetings";

function stored(fields: StoredMeeting["fields"]): StoredMeeting {
  return {
    id: "11111111-1111-4111-8111-111111111111",
    app_id: "app",
    status: "ACTIVE",
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    fields,
  };
}

describe("meetings rules (pure)", () => {
  it("states the spec's limits", () => {
    assert.deepEqual(MEETING_LIMITS.keepAliveSeconds, { min: 60, max: 600 });
    assert.deepEqual(MEETING_LIMITS.wordLimit, { min: 150, max: 1000 });
    assert.deepEqual(MEETING_LIMITS.maxSeconds, { min: 60, max: 86_400 });
    assert.deepEqual(MEETING_LIMITS.videoPixels, { min: 1, max: 1920 });
    assert.deepEqual([...WRITE_ONLY_STORAGE_FIELDS], ["access_key", "secret", "password", "private_key"]);
  });

  it("checks each limit at and beyond its bounds", () => {
    const table: [Record<string, unknown>, boolean][] = [
      [{ session_keep_alive_time_in_secs: 60 }, true],
      [{ session_keep_alive_time_in_secs: 600 }, true],
      [{ session_keep_alive_time_in_secs: 59.9 }, false],
      [{ session_keep_alive_time_in_secs: 600.1 }, false],
      [{ ai_config: { summarization: { word_limit: 150 } } }, true],
      [{ ai_config: { summarization: { word_limit: 1000 } } }, true],
      [{ ai_config: { summarization: { word_limit: 1000.5 } } }, false],
      [{ recording_config: { max_seconds: 86_400 } }, true],
      [{ recording_config: { max_seconds: 86_400.5 } }, false],
      [{ recording_config: { video_config: { width: 1920, height: 1920 } } }, true],
      [{ recording_config: { video_config: { watermark: { size: { width: 1, height: 4000 } } } } }, true],
      [{ recording_config: { video_config: { watermark: { size: { width: 0.99 } } } } }, false],
      [{ recording_config: { video_config: { codec: "VP8" }, audio_config: { channel: "mono" } } }, true],
      [{ recording_config: { video_config: { codec: "H264" }, audio_config: { codec: "MP3" } } }, true],
      [{ recording_config: { storage_config: { type: "gcs" } } }, true],
      [{ recording_config: { storage_config: { type: "aws", access_key: "k" } } }, true],
      [
        {
          recording_config: {
            storage_config: {
              type: "sftp",
              host: "h",
              username: "u",
              auth_method: "PASSWORD",
              password: "p",
            },
          },
        },
        true,
      ],
      [{ summarize_on_end: true, transcribe_on_end: true }, true],
      [{ summarize_on_end: false }, true],
      [{}, true],
    ];
    for (const [body, ok] of table) {
      assert.equal(MeetingCreateSchema.safeParse(body).success, ok, JSON.stringify(body));
    }
  });

  it("defines transcription enabled as transcribe_on_end: true", () => {
    assert.deepEqual(meetingRuleIssues({ summarize_on_end: true, transcribe_on_end: true }), []);
    assert.equal(meetingRuleIssues({ summarize_on_end: true }).length, 1);
    assert.deepEqual(meetingRuleIssues({ summarize_on_end: false, transcribe_on_end: false }), []);
  });

  it("leaves the summarize rule of an update to the server, and keeps replace-only fields out of it", () => {
    assert.equal(MeetingUpdateSchema.safeParse({ summarize_on_end: true }).success, true);
    for (const body of [{ transcribe_on_end: false }, { recording_config: {} }]) {
      const res = MeetingUpdateSchema.safeParse(body);
      assert.equal(res.success, false);
      assert.match(
        res.error?.issues[0]?.message ?? "",
        /not taken by an update \(PATCH\): replace the meeting/,
      );
    }
    // An unknown key beside them is simply unknown.
    assert.equal(
      MeetingUpdateSchema.safeParse({ recording_config: {}, colour: 1 }).error?.issues[0]?.message,
      "is not a known field",
    );
    assert.equal(MeetingUpdateSchema.safeParse({ status: "INACTIVE" }).success, true);
    assert.equal(MeetingUpdateSchema.safeParse({ status: "CLOSED" }).success, false);
  });

  it("views a meeting: defaults filled, write-only fields dropped, vorbis forced, store untouched", () => {
    const m = stored({
      title: "t",
      recording_config: {
        video_config: { codec: "VP8" },
        storage_config: {
          type: "sftp",
          host: "h",
          username: "u",
          auth_method: "KEY",
          private_key: "k",
          password: "p",
        },
      },
    });
    const v = view(m);
    assert.deepEqual(v, {
      id: m.id,
      ...MEETING_DEFAULTS,
      title: "t",
      recording_config: {
        video_config: { codec: "VP8" },
        audio_config: { codec: "vorbis" },
        storage_config: { type: "sftp", host: "h", username: "u", auth_method: "KEY" },
      },
      status: "ACTIVE",
      created_at: m.created_at,
      updated_at: m.updated_at,
    });
    assert.equal(m.fields.recording_config?.storage_config?.private_key, "k");
    assert.ok(MeetingSchema.safeParse(v).success);
  });

  it("keeps unknown response fields (loose)", () => {
    const parsed = MeetingSchema.parse({
      id: "x",
      created_at: "a",
      updated_at: "b",
      status: "ACTIVE",
      extra: 1,
    });
    assert.equal((parsed as Record<string, unknown>).extra, 1);
  });
});
