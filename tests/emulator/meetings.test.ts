import { strict as assert } from "node:assert";
import {
  AuthenticationError,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
  BadRequestError,
} from "../../sdk";
import type { MeetingCreate, MeetingListParams } from "../../sdk/meetings";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";
import { EVERY_MEETING_FIELD } from "../helpers/meetings";

type Envelope = {
  success: boolean;
  data?: Record<string, unknown>;
  error?: { code: number; message: string };
};

/** The problems of an error answer: the contract's one `error`, its message one `field: rule` per problem. */
function problems(res: { json: unknown }): string[] {
  return ((res.json as Envelope).error?.message ?? "").split("; ");
}

const APP = "app-1";
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function base(fx: EmulatorFixture, app = APP, account = fx.em.accountId): string {
  return `/accounts/${account}/realtime/kit/${app}/meetings`;
}

function meetingRequests(fx: EmulatorFixture): number {
  return fx.em.requestLog.filter((r) => r.url.includes("/realtime/kit/")).length;
}

const FULL = EVERY_MEETING_FIELD;

/** Every rule: a create body (merged onto `{}`), the field it names, and the rule's words. */
const REJECTED: [string, Record<string, unknown>, string, RegExp][] = [
  [
    "keep-alive below 60",
    { session_keep_alive_time_in_secs: 59 },
    "session_keep_alive_time_in_secs",
    /between 60 and 600/,
  ],
  [
    "keep-alive above 600",
    { session_keep_alive_time_in_secs: 601 },
    "session_keep_alive_time_in_secs",
    /between 60 and 600/,
  ],
  [
    "keep-alive not a number",
    { session_keep_alive_time_in_secs: "60" },
    "session_keep_alive_time_in_secs",
    /a number/,
  ],
  ["title not a string", { title: 5 }, "title", /must be a string/],
  ["persist_chat not a boolean", { persist_chat: "yes" }, "persist_chat", /boolean/],
  ["live_stream_on_start not a boolean", { live_stream_on_start: 1 }, "live_stream_on_start", /boolean/],
  ["record_on_start not a boolean", { record_on_start: "no" }, "record_on_start", /boolean/],
  ["transcribe_on_end not a boolean", { transcribe_on_end: "true" }, "transcribe_on_end", /boolean/],
  ["unknown field", { colour: "red" }, "colour", /is not a known field/],
  [
    "summarize_on_end without transcription",
    { summarize_on_end: true },
    "summarize_on_end",
    /requires transcription enabled \(transcribe_on_end: true\)/,
  ],
  [
    "summarize_on_end with transcription off",
    { summarize_on_end: true, transcribe_on_end: false, ai_config: { transcription: { language: "de" } } },
    "summarize_on_end",
    /requires transcription enabled/,
  ],
  [
    "word_limit below 150",
    { ai_config: { summarization: { word_limit: 149 } } },
    "ai_config.summarization.word_limit",
    /between 150 and 1000/,
  ],
  [
    "word_limit above 1000",
    { ai_config: { summarization: { word_limit: 1001 } } },
    "ai_config.summarization.word_limit",
    /between 150 and 1000/,
  ],
  [
    "summary_type",
    { ai_config: { summarization: { summary_type: "standup" } } },
    "ai_config.summarization.summary_type",
    /one of general, team_meeting, .*code_review/,
  ],
  [
    "text_format",
    { ai_config: { summarization: { text_format: "html" } } },
    "ai_config.summarization.text_format",
    /one of plain_text, markdown/,
  ],
  [
    "language",
    { ai_config: { transcription: { language: "es" } } },
    "ai_config.transcription.language",
    /one of en-US, en-IN, de, hi, sv, ru, pl, el, fr, nl/,
  ],
  [
    "keywords not strings",
    { ai_config: { transcription: { keywords: [1] } } },
    "ai_config.transcription.keywords.0",
    /must be a string/,
  ],
  [
    "profanity_filter",
    { ai_config: { transcription: { profanity_filter: "no" } } },
    "ai_config.transcription.profanity_filter",
    /boolean/,
  ],
  [
    "unknown ai_config field",
    { ai_config: { translation: {} } },
    "ai_config.translation",
    /is not a known field/,
  ],
  [
    "audio channel",
    { recording_config: { audio_config: { channel: "quad" } } },
    "recording_config.audio_config.channel",
    /one of mono, stereo/,
  ],
  [
    "audio codec",
    { recording_config: { audio_config: { codec: "OGG" } } },
    "recording_config.audio_config.codec",
    /one of MP3, AAC/,
  ],
  [
    "video codec",
    { recording_config: { video_config: { codec: "VP9" } } },
    "recording_config.video_config.codec",
    /one of H264, VP8/,
  ],
  [
    "max_seconds below 60",
    { recording_config: { max_seconds: 59 } },
    "recording_config.max_seconds",
    /between 60 and 86400/,
  ],
  [
    "max_seconds above 86400",
    { recording_config: { max_seconds: 86_401 } },
    "recording_config.max_seconds",
    /between 60 and 86400/,
  ],
  [
    "video width 0",
    { recording_config: { video_config: { width: 0 } } },
    "recording_config.video_config.width",
    /between 1 and 1920/,
  ],
  [
    "video width 1921",
    { recording_config: { video_config: { width: 1921 } } },
    "recording_config.video_config.width",
    /between 1 and 1920/,
  ],
  [
    "video height 0",
    { recording_config: { video_config: { height: 0 } } },
    "recording_config.video_config.height",
    /between 1 and 1920/,
  ],
  [
    "video height 1921",
    { recording_config: { video_config: { height: 1921 } } },
    "recording_config.video_config.height",
    /between 1 and 1920/,
  ],
  [
    "watermark width 0",
    { recording_config: { video_config: { watermark: { size: { width: 0 } } } } },
    "recording_config.video_config.watermark.size.width",
    /at least 1/,
  ],
  [
    "watermark height 0.5",
    { recording_config: { video_config: { watermark: { size: { height: 0.5 } } } } },
    "recording_config.video_config.watermark.size.height",
    /must be an integer/,
  ],
  [
    "watermark position",
    { recording_config: { video_config: { watermark: { position: "center" } } } },
    "recording_config.video_config.watermark.position",
    /one of left top, right top, left bottom, right bottom/,
  ],
  [
    "watermark url",
    { recording_config: { video_config: { watermark: { url: "logo.png" } } } },
    "recording_config.video_config.watermark.url",
    /must be an absolute URI/,
  ],
  [
    "rtmp_url",
    { recording_config: { live_streaming_config: { rtmp_url: "not a uri" } } },
    "recording_config.live_streaming_config.rtmp_url",
    /must be an absolute URI/,
  ],
  [
    "realtimekit_bucket_config without enabled",
    { recording_config: { realtimekit_bucket_config: {} } },
    "recording_config.realtimekit_bucket_config.enabled",
    /is required/,
  ],
  [
    "media_bucket_config, the old name",
    { recording_config: { media_bucket_config: { enabled: false } } },
    "recording_config.media_bucket_config",
    /^renamed to realtimekit_bucket_config$/,
  ],
  [
    "word_limit not a whole number",
    { ai_config: { summarization: { word_limit: 150.5 } } },
    "ai_config.summarization.word_limit",
    /must be an integer/,
  ],
  [
    "video width not a whole number",
    { recording_config: { video_config: { width: 640.5 } } },
    "recording_config.video_config.width",
    /must be an integer/,
  ],
  [
    "storage_config not an object",
    { recording_config: { storage_config: "aws" } },
    "recording_config.storage_config",
    /must be an object/,
  ],
  [
    "storage_config without type",
    { recording_config: { storage_config: { bucket: "b" } } },
    "recording_config.storage_config.type",
    /is required/,
  ],
  [
    "storage type",
    { recording_config: { storage_config: { type: "s3" } } },
    "recording_config.storage_config.type",
    /one of aws, azure, digitalocean, gcs, sftp/,
  ],
  [
    "aws without access_key",
    { recording_config: { storage_config: { type: "aws", secret: "x" } } },
    "recording_config.storage_config.access_key",
    /is required for type aws/,
  ],
  [
    "azure without access_key",
    { recording_config: { storage_config: { type: "azure" } } },
    "recording_config.storage_config.access_key",
    /is required for type azure/,
  ],
  [
    "digitalocean without access_key",
    { recording_config: { storage_config: { type: "digitalocean" } } },
    "recording_config.storage_config.access_key",
    /is required for type digitalocean/,
  ],
  [
    "sftp without host",
    {
      recording_config: {
        storage_config: { type: "sftp", username: "u", auth_method: "PASSWORD", password: "p" },
      },
    },
    "recording_config.storage_config.host",
    /is required for type sftp/,
  ],
  [
    "sftp without username",
    {
      recording_config: {
        storage_config: { type: "sftp", host: "h", auth_method: "PASSWORD", password: "p" },
      },
    },
    "recording_config.storage_config.username",
    /is required for type sftp/,
  ],
  [
    "sftp without auth_method",
    { recording_config: { storage_config: { type: "sftp", host: "h", username: "u" } } },
    "recording_config.storage_config.auth_method",
    /is required for type sftp/,
  ],
  [
    "sftp PASSWORD without password",
    {
      recording_config: {
        storage_config: { type: "sftp", host: "h", username: "u", auth_method: "PASSWORD" },
      },
    },
    "recording_config.storage_config.password",
    /is required when auth_method is PASSWORD/,
  ],
  [
    "sftp KEY without private_key",
    { recording_config: { storage_config: { type: "sftp", host: "h", username: "u", auth_method: "KEY" } } },
    "recording_config.storage_config.private_key",
    /is required when auth_method is KEY/,
  ],
  [
    "sftp auth_method",
    { recording_config: { storage_config: { type: "sftp", auth_method: "TOKEN" } } },
    "recording_config.storage_config.auth_method",
    /one of KEY, PASSWORD/,
  ],
  [
    "sftp port out of range",
    { recording_config: { storage_config: { type: "gcs", port: 70_000 } } },
    "recording_config.storage_config.port",
    /between 1 and 65535/,
  ],
  [
    "unknown recording field",
    { recording_config: { format: "mp4" } },
    "recording_config.format",
    /is not a known field/,
  ],
];

describe("meetings", () => {
  const fx = useEmulator();

  describe("create", () => {
    it("accepts an empty object and answers { success, data } with the server's fields and defaults", async () => {
      const res = await fx.http("POST", base(fx), { body: {} });
      assert.equal(res.status, 201);
      const body = res.json as Envelope;
      assert.deepEqual(Object.keys(body).sort(), ["data", "success"]);
      assert.equal(body.success, true);
      const m = body.data!;
      assert.match(String(m.id), UUID_RE);
      assert.equal(m.status, "ACTIVE");
      assert.equal(m.created_at, "2026-01-01T00:00:00.000Z");
      assert.equal(m.updated_at, m.created_at);
      assert.equal(m.session_keep_alive_time_in_secs, 60);
      assert.equal(m.persist_chat, false);
      assert.equal(m.summarize_on_end, false);
    });

    it("creates through the sdk with every field and never returns write-only storage fields", async () => {
      const m = await fx.api.meetings.meetings.create({ appId: APP }, FULL);
      assert.equal(m.title, "Weekly sync");
      assert.equal(m.session_keep_alive_time_in_secs, 600);
      assert.deepEqual(m.ai_config, FULL.ai_config);
      const storage = m.recording_config?.storage_config as Record<string, unknown>;
      assert.deepEqual(storage, {
        type: "sftp",
        auth_method: "KEY",
        bucket: "recordings",
        region: "us-east-1",
        path: "meetings/",
        host: "sftp.example.com",
        port: 22,
        username: "rec",
      });
      assert.equal(m.recording_config?.video_config?.watermark?.position, "right bottom");

      const raw = await fx.http("GET", `${base(fx)}/${m.id}`);
      assert.ok(!raw.text.includes("AKIA-SECRET-ACCESS"));
      assert.ok(!raw.text.includes("s3cr3t-value"));
      const list = await fx.http("GET", base(fx));
      assert.ok(!list.text.includes("s3cr3t-value"));

      // ...but they reached the service
      const stored = await fx.http(
        "GET",
        `/__emulator/meetings/accounts/${fx.em.accountId}/apps/${APP}/meetings/${m.id}`,
      );
      const fields = (stored.json as { result: { fields: MeetingCreate } }).result.fields;
      assert.equal(fields.recording_config?.storage_config?.secret, "s3cr3t-value");
    });

    it("never returns sftp password or private key", async () => {
      const m = await fx.api.meetings.meetings.create(
        { appId: APP },
        {
          recording_config: {
            storage_config: {
              type: "sftp",
              host: "sftp.example.com",
              port: 22,
              username: "rec",
              auth_method: "KEY",
              private_key: "-----BEGIN KEY-----",
              password: "passphrase-1",
            },
          },
        },
      );
      assert.deepEqual(m.recording_config?.storage_config, {
        type: "sftp",
        host: "sftp.example.com",
        port: 22,
        username: "rec",
        auth_method: "KEY",
      });
    });

    it("sets the audio codec to vorbis with VP8 video", async () => {
      const m = await fx.api.meetings.meetings.create(
        { appId: APP },
        { recording_config: { video_config: { codec: "VP8" }, audio_config: { channel: "mono" } } },
      );
      assert.deepEqual(m.recording_config?.audio_config, { channel: "mono", codec: "vorbis" });
    });

    it("accepts every limit at its bound and gcs without an access key", async () => {
      const m = await fx.api.meetings.meetings.create(
        { appId: APP },
        {
          session_keep_alive_time_in_secs: 60,
          ai_config: { summarization: { word_limit: 150 } },
          recording_config: {
            max_seconds: 60,
            video_config: { width: 1, height: 1 },
            storage_config: { type: "gcs", secret: "{json}", bucket: "b" },
            realtimekit_bucket_config: { enabled: true },
          },
        },
      );
      assert.equal(m.session_keep_alive_time_in_secs, 60);
      assert.equal(m.recording_config?.max_seconds, 60);
    });
  });

  describe("every rule, locally and on the emulator", () => {
    for (const [name, body, field, rule] of REJECTED) {
      it(`rejects ${name}`, async () => {
        await assert.rejects(
          fx.api.meetings.meetings.create({ appId: APP }, body as MeetingCreate),
          (e: unknown) => {
            assert.ok(e instanceof ValidationError, String(e));
            assert.ok(
              e.issues.some((i) => i.field === field && rule.test(i.rule)),
              `expected ${field}: ${String(rule)}, got ${JSON.stringify(e.issues)}`,
            );
            return true;
          },
        );
        assert.equal(meetingRequests(fx), 0);

        const res = await fx.http("POST", base(fx), { body });
        assert.equal(res.status, 400);
        assert.equal((res.json as Envelope).error?.code, 400);
        const said = problems(res);
        assert.ok(
          said.some((m) => m.startsWith(`${field}: `) && rule.test(m.slice(field.length + 2))),
          `expected ${field}: ${String(rule)}, got ${JSON.stringify(said)}`,
        );
        const list = await fx.http("GET", base(fx));
        assert.deepEqual((list.json as { data: unknown[] }).data, []);
      });
    }

    it("rejects an app id over 32 characters", async () => {
      const appId = "a".repeat(33);
      await assert.rejects(fx.api.meetings.meetings.create({ appId }, {}), (e: unknown) => {
        assert.ok(e instanceof ValidationError);
        assert.deepEqual(e.issues, [{ field: "appId", rule: "must be at most 32 characters" }]);
        return true;
      });
      await assert.rejects(fx.api.meetings.meetings.get({ appId, meetingId: "x" }), ValidationError);
      await assert.rejects(fx.api.meetings.meetings.listAll({ appId }), ValidationError);
      assert.equal(meetingRequests(fx), 0);
      const res = await fx.http("POST", base(fx, appId), { body: {} });
      assert.equal(res.status, 400);
      assert.deepEqual(problems(res), ["app_id: must be at most 32 characters"]);
    });

    it("rejects a status on create (it is response-only there)", async () => {
      const res = await fx.http("POST", base(fx), { body: { status: "INACTIVE" } });
      assert.equal(res.status, 400);
      assert.deepEqual(problems(res), ["status: is not a known field"]);
    });
  });

  describe("read and list", () => {
    it("gets a meeting by id and 404s an unknown one, or one of another app", async () => {
      const made = await fx.api.meetings.meetings.create({ appId: APP }, { title: "A" });
      const got = await fx.api.meetings.meetings.get({ appId: APP, meetingId: made.id });
      assert.deepEqual(got, made);
      await assert.rejects(
        fx.api.meetings.meetings.get({ appId: APP, meetingId: "00000000-0000-4000-8000-000000000000" }),
        NotFoundError,
      );
      await assert.rejects(
        fx.api.meetings.meetings.get({ appId: "other-app", meetingId: made.id }),
        NotFoundError,
      );
      const raw = await fx.http("GET", `${base(fx)}/nope`);
      assert.equal(raw.status, 404);
      assert.deepEqual(raw.json, {
        success: false,
        error: { code: 404, message: "meeting nope in app app-1 not found" },
      });
    });

    it("lists page by page with page_no and paging, and the iterator walks every page", async () => {
      for (let i = 1; i <= 5; i++) await fx.api.meetings.meetings.create({ appId: APP }, { title: `m${i}` });
      await fx.api.meetings.meetings.create({ appId: "other-app" }, { title: "elsewhere" });
      const page2 = await fx.http("GET", `${base(fx)}?page_no=2&per_page=2`);
      const body = page2.json as { success: boolean; data: { title: string }[]; paging: unknown };
      assert.deepEqual(Object.keys(body).sort(), ["data", "paging", "success"]);
      assert.deepEqual(
        body.data.map((m) => m.title),
        ["m3", "m4"],
      );
      assert.deepEqual(body.paging, { total_count: 5, start_offset: 2, end_offset: 4 });
      const past = await fx.http("GET", `${base(fx)}?page_no=9&per_page=2`);
      assert.deepEqual(past.json, {
        success: true,
        data: [],
        paging: { total_count: 5, start_offset: 5, end_offset: 5 },
      });
      const bad = await fx.http("GET", `${base(fx)}?page_no=-1`);
      assert.equal(bad.status, 400);
      assert.match(problems(bad)[0]!, /^page_no: /);

      fx.em.requestLog.length = 0;
      const all = await fx.api.meetings.meetings.listAll({ appId: APP }, { perPage: 2 });
      assert.deepEqual(
        all.map((m) => m.title),
        ["m1", "m2", "m3", "m4", "m5"],
      );
      assert.equal(meetingRequests(fx), 3);
      assert.ok(
        fx.em.requestLog.every((r) => /[?&]page_no=\d+&per_page=2$/.test(r.url)),
        "page_no on the wire",
      );
    });

    it("filters by search (id or title), status and creation time", async () => {
      const a = await fx.api.meetings.meetings.create({ appId: APP }, { title: "Weekly Standup" });
      fx.clock.advance(60_000);
      const b = await fx.api.meetings.meetings.create({ appId: APP }, { title: "Retro" });
      await fx.api.meetings.meetings.update({ appId: APP, meetingId: b.id }, { status: "INACTIVE" });
      const titles = async (q: MeetingListParams) =>
        (await fx.api.meetings.meetings.listAll({ appId: APP }, q)).map((m) => m.title);
      assert.deepEqual(await titles({ search: "standup" }), ["Weekly Standup"]);
      assert.deepEqual(await titles({ search: b.id.slice(0, 8) }), ["Retro"]);
      assert.deepEqual(await titles({ status: "INACTIVE" }), ["Retro"]);
      assert.deepEqual(await titles({ start_time: b.created_at }), ["Retro"]);
      assert.deepEqual(await titles({ end_time: a.created_at }), ["Weekly Standup"]);
      await assert.rejects(
        fx.api.meetings.meetings.listAll({ appId: APP }, { start_time: "yesterday" }),
        (e: unknown) => {
          assert.ok(e instanceof ValidationError);
          assert.deepEqual(e.issues, [{ field: "start_time", rule: "must be an ISO 8601 date-time" }]);
          return true;
        },
      );
    });
  });

  describe("update (PATCH) and replace (PUT)", () => {
    it("patches fields, replaces a top-level object whole, and bumps updated_at", async () => {
      const made = await fx.api.meetings.meetings.create(
        { appId: APP },
        { title: "Old", ai_config: { summarization: { word_limit: 300, text_format: "plain_text" } } },
      );
      fx.clock.advance(5_000);
      const res = await fx.http("PATCH", `${base(fx)}/${made.id}`, {
        body: { title: "New", ai_config: { summarization: { word_limit: 400 } } },
      });
      assert.equal(res.status, 200);
      const m = (res.json as Envelope).data!;
      assert.equal(m.title, "New");
      assert.deepEqual(m.ai_config, { summarization: { word_limit: 400 } });
      assert.equal(m.created_at, "2026-01-01T00:00:00.000Z");
      assert.equal(m.updated_at, "2026-01-01T00:00:05.000Z");
      const again = await fx.api.meetings.meetings.get({ appId: APP, meetingId: made.id });
      assert.equal(again.title, "New");
    });

    it("refuses recording_config and transcribe_on_end in a PATCH, naming the replace", async () => {
      const made = await fx.api.meetings.meetings.create({ appId: APP }, {});
      const patch = { recording_config: { max_seconds: 900 } };
      await assert.rejects(
        fx.api.meetings.meetings.update({ appId: APP, meetingId: made.id }, patch as object),
        (e: unknown) => e instanceof ValidationError && /recording_config: .*replaceMeeting/.test(e.message),
      );
      const res = await fx.http("PATCH", `${base(fx)}/${made.id}`, { body: { transcribe_on_end: true } });
      assert.equal(res.status, 400);
      assert.match(problems(res)[0]!, /^transcribe_on_end: is not taken by an update \(PATCH\)/);
    });

    it("replaces the whole meeting: what the body leaves out is back to the default, status stays", async () => {
      const made = await fx.api.meetings.meetings.create({ appId: APP }, FULL);
      await fx.api.meetings.meetings.update({ appId: APP, meetingId: made.id }, { status: "INACTIVE" });
      fx.clock.advance(1_000);
      const replaced = await fx.api.meetings.meetings.replace(
        { appId: APP, meetingId: made.id },
        {
          title: "Replaced",
          recording_config: { realtimekit_bucket_config: { enabled: true }, video_config: { codec: "VP8" } },
        },
      );
      assert.equal(replaced.id, made.id);
      assert.equal(replaced.title, "Replaced");
      assert.equal(replaced.status, "INACTIVE");
      assert.equal(replaced.persist_chat, false);
      assert.equal(replaced.ai_config, undefined);
      assert.deepEqual(replaced.recording_config, {
        realtimekit_bucket_config: { enabled: true },
        video_config: { codec: "VP8" },
        audio_config: { codec: "vorbis" },
      });
      assert.equal(replaced.updated_at, "2026-01-01T00:00:01.000Z");
      const stored = await fx.http(
        "GET",
        `/__emulator/meetings/accounts/${fx.em.accountId}/apps/${APP}/meetings/${made.id}`,
      );
      const fields = (stored.json as { result: { fields: MeetingCreate } }).result.fields;
      assert.equal(fields.recording_config?.storage_config, undefined, "the old credentials are gone");
      await assert.rejects(
        fx.api.meetings.meetings.replace({ appId: APP, meetingId: "missing" }, { title: "x" }),
        NotFoundError,
      );
    });

    it("takes null where the contract does, as the default", async () => {
      const m = await fx.api.meetings.meetings.create(
        { appId: APP },
        { title: null, record_on_start: null, recording_config: { storage_config: null } },
      );
      assert.equal(m.title, undefined);
      assert.equal(m.record_on_start, false);
      assert.deepEqual(m.recording_config, {});
    });

    it("sets status INACTIVE and back", async () => {
      const made = await fx.api.meetings.meetings.create({ appId: APP }, {});
      const off = await fx.api.meetings.meetings.update(
        { appId: APP, meetingId: made.id },
        { status: "INACTIVE" },
      );
      assert.equal(off.status, "INACTIVE");
      assert.equal(
        (await fx.api.meetings.meetings.get({ appId: APP, meetingId: made.id })).status,
        "INACTIVE",
      );
      const on = await fx.api.meetings.meetings.update(
        { appId: APP, meetingId: made.id },
        { status: "ACTIVE" },
      );
      assert.equal(on.status, "ACTIVE");
    });

    it("checks the summarize rule on the meeting the patch would leave, and on a replace", async () => {
      const withTranscripts = await fx.api.meetings.meetings.create(
        { appId: APP },
        { transcribe_on_end: true },
      );
      const ok = await fx.api.meetings.meetings.update(
        { appId: APP, meetingId: withTranscripts.id },
        { summarize_on_end: true },
      );
      assert.equal(ok.summarize_on_end, true);

      const plain = await fx.api.meetings.meetings.create({ appId: APP }, {});
      await assert.rejects(
        fx.api.meetings.meetings.update({ appId: APP, meetingId: plain.id }, { summarize_on_end: true }),
        (e: unknown) =>
          e instanceof BadRequestError && /summarize_on_end: requires transcription/.test(e.message),
      );
      // a replace says both, so the sdk refuses it locally; the emulator refuses it too
      const before = meetingRequests(fx);
      await assert.rejects(
        fx.api.meetings.meetings.replace({ appId: APP, meetingId: plain.id }, { summarize_on_end: true }),
        ValidationError,
      );
      assert.equal(meetingRequests(fx), before);
      const res = await fx.http("PUT", `${base(fx)}/${plain.id}`, { body: { summarize_on_end: true } });
      assert.equal(res.status, 400);
      assert.match(problems(res)[0]!, /^summarize_on_end: requires transcription enabled/);
    });

    it("validates a patch locally and on the emulator", async () => {
      const made = await fx.api.meetings.meetings.create({ appId: APP }, {});
      await assert.rejects(
        fx.api.meetings.meetings.update(
          { appId: APP, meetingId: made.id },
          { status: "DELETED" as "ACTIVE" },
        ),
        (e: unknown) =>
          e instanceof ValidationError &&
          e.issues[0]!.field === "status" &&
          /one of ACTIVE, INACTIVE/.test(e.issues[0]!.rule),
      );
      const res = await fx.http("PATCH", `${base(fx)}/${made.id}`, {
        body: { session_keep_alive_time_in_secs: 30, id: "x" },
      });
      assert.equal(res.status, 400);
      const messages = problems(res);
      assert.ok(
        messages.includes("session_keep_alive_time_in_secs: must be between 60 and 600 seconds"),
        String(messages),
      );
      assert.ok(messages.includes("id: is not a known field"), String(messages));
    });

    it("404s a patch of an unknown meeting", async () => {
      await assert.rejects(
        fx.api.meetings.meetings.update({ appId: APP, meetingId: "missing" }, { title: "x" }),
        NotFoundError,
      );
    });
  });

  describe("auth", () => {
    it("accepts either realtime permission", async () => {
      for (const perm of ["realtime", "realtime:admin"]) {
        const api = fx.client({ token: fx.token("account", [perm]) });
        const m = await api.meetings.meetings.create({ appId: APP }, {});
        assert.equal(m.status, "ACTIVE");
      }
    });

    it("refuses a missing token, an unknown token, a token without the permission, another account", async () => {
      const anonymous = await fx.http("POST", base(fx), { body: {}, token: null });
      assert.equal(anonymous.status, 401);
      assert.deepEqual(anonymous.json, {
        success: false,
        error: { code: 401, message: "Authentication error" },
      });
      await assert.rejects(
        fx.client({ token: "bogus" }).meetings.meetings.create({ appId: APP }, {}),
        AuthenticationError,
      );
      const noPerm = fx.client({ token: fx.token("user", ["email:send"]) });
      await assert.rejects(noPerm.meetings.meetings.listAll({ appId: APP }), PermissionDeniedError);
      await assert.rejects(
        fx.api.meetings.meetings.get({ accountId: "someone-else", appId: APP, meetingId: "x" }),
        PermissionDeniedError,
      );
      const res = await fx.http("PATCH", `${base(fx, APP, "someone-else")}/x`, { body: {} });
      assert.equal(res.status, 403);
    });
  });
});
