import { strict as assert } from "node:assert";
import { UNKNOWN } from "../../provider/inputs";
import {
  checkInputs,
  credentialsHash,
  handler,
  patchBody,
  project,
  withDefaults,
  type MeetingTemplateInputs,
  type MeetingTemplateOutputs,
} from "../../provider/resources/meeting-template";
import type { HandlerContext } from "../../provider/types";
import { useEmulator } from "../helpers/emulator";
import { providerContext } from "../helpers/provider-context";

const APP = "app-1";

const INPUTS: MeetingTemplateInputs = withDefaults({
  appId: APP,
  title: "Standup",
  transcribeOnEnd: true,
  summarizeOnEnd: true,
  aiConfig: { summarization: { summaryType: "daily_standup", wordLimit: 300 } },
  recordingConfig: {
    maxSeconds: 3600,
    videoConfig: { codec: "VP8", width: 1280, height: 720 },
    storageConfig: {
      type: "aws",
      accessKey: "AK-ONE",
      secret: "SECRET-ONE",
      bucket: "rec",
      region: "eu-west-1",
    },
  },
});

describe("MeetingTemplate: check (pure, at preview)", () => {
  const failing: [string, Record<string, unknown>, string, RegExp][] = [
    ["appId too long", { appId: "x".repeat(33) }, "appId", /^appId: must be at most 32 characters$/],
    ["accountId too long", { accountId: "x".repeat(33) }, "accountId", /at most 32 characters/],
    [
      "keep-alive",
      { sessionKeepAliveTimeInSecs: 601 },
      "sessionKeepAliveTimeInSecs",
      /^sessionKeepAliveTimeInSecs: must be between 60 and 600$/,
    ],
    [
      "word limit",
      { aiConfig: { summarization: { wordLimit: 100 } } },
      "aiConfig.summarization.wordLimit",
      /between 150 and 1000/,
    ],
    [
      "summary type",
      { aiConfig: { summarization: { summaryType: "retro" } } },
      "aiConfig.summarization.summaryType",
      /one of general/,
    ],
    [
      "language",
      { aiConfig: { transcription: { language: "it" } } },
      "aiConfig.transcription.language",
      /one of en-US/,
    ],
    [
      "max seconds",
      { recordingConfig: { maxSeconds: 100_000 } },
      "recordingConfig.maxSeconds",
      /between 60 and 86400/,
    ],
    [
      "video width",
      { recordingConfig: { videoConfig: { width: 2000 } } },
      "recordingConfig.videoConfig.width",
      /between 1 and 1920/,
    ],
    [
      "video height",
      { recordingConfig: { videoConfig: { height: 0 } } },
      "recordingConfig.videoConfig.height",
      /between 1 and 1920/,
    ],
    [
      "watermark size",
      { recordingConfig: { videoConfig: { watermark: { size: { height: 0 } } } } },
      "recordingConfig.videoConfig.watermark.size.height",
      /at least 1/,
    ],
    [
      "watermark position",
      { recordingConfig: { videoConfig: { watermark: { position: "middle" } } } },
      "recordingConfig.videoConfig.watermark.position",
      /one of left top/,
    ],
    [
      "video codec",
      { recordingConfig: { videoConfig: { codec: "AV1" } } },
      "recordingConfig.videoConfig.codec",
      /one of H264, VP8/,
    ],
    [
      "audio channel",
      { recordingConfig: { audioConfig: { channel: "5.1" } } },
      "recordingConfig.audioConfig.channel",
      /one of mono, stereo/,
    ],
    [
      "audio codec with VP8",
      { recordingConfig: { videoConfig: { codec: "VP8" }, audioConfig: { codec: "AAC" } } },
      "recordingConfig.audioConfig.codec",
      /^recordingConfig\.audioConfig\.codec: cannot be set when videoConfig\.codec is VP8/,
    ],
    [
      "summarize without transcription",
      { summarizeOnEnd: true },
      "summarizeOnEnd",
      /^summarizeOnEnd: requires transcription enabled \(transcribeOnEnd: true\)/,
    ],
    [
      "storage type missing",
      { recordingConfig: { storageConfig: { bucket: "b" } } },
      "recordingConfig.storageConfig.type",
      /is required/,
    ],
    [
      "aws access key missing",
      { recordingConfig: { storageConfig: { type: "aws" } } },
      "recordingConfig.storageConfig.accessKey",
      /is required for type aws/,
    ],
    [
      "sftp password missing",
      {
        recordingConfig: {
          storageConfig: { type: "sftp", host: "h", username: "u", authMethod: "PASSWORD" },
        },
      },
      "recordingConfig.storageConfig.password",
      /is required when authMethod is PASSWORD/,
    ],
    [
      "media bucket enabled missing",
      { recordingConfig: { mediaBucketConfig: {} } },
      "recordingConfig.mediaBucketConfig.enabled",
      /is required/,
    ],
    [
      "rtmp url",
      { recordingConfig: { liveStreamingConfig: { rtmpUrl: "nope" } } },
      "recordingConfig.liveStreamingConfig.rtmpUrl",
      /URI/,
    ],
    ["unknown input", { colour: "red" }, "colour", /^colour: is not a known field$/],
    ["wrong type", { persistChat: "yes" }, "persistChat", /boolean/],
  ];
  for (const [name, patch, property, reason] of failing) {
    it(`fails ${name}, naming ${property}`, async () => {
      const res = await handler.check(undefined, { appId: APP, ...patch }, {} as HandlerContext);
      assert.equal(res.inputs, undefined);
      const failure = res.failures?.find((f) => f.property === property);
      assert.ok(failure, JSON.stringify(res.failures));
      assert.match(failure.reason, reason);
    });
  }

  it("passes gcs without an access key and every bound", async () => {
    const res = await handler.check(
      undefined,
      {
        appId: "a".repeat(32),
        sessionKeepAliveTimeInSecs: 600,
        recordingConfig: {
          maxSeconds: 86_400,
          storageConfig: { type: "gcs", secret: "{}" },
          videoConfig: { width: 1920, height: 1, watermark: { size: { width: 1, height: 1 } } },
          mediaBucketConfig: { enabled: true },
        },
      },
      {} as HandlerContext,
    );
    assert.deepEqual(res.failures ?? [], []);
  });

  it("leaves values unknown at preview for the real run, and still checks the rest", () => {
    assert.deepEqual(
      checkInputs({ appId: UNKNOWN, sessionKeepAliveTimeInSecs: UNKNOWN, recordingConfig: UNKNOWN }),
      [],
    );
    const failures = checkInputs({
      appId: APP,
      title: UNKNOWN,
      recordingConfig: { maxSeconds: 10, fileNamePrefix: UNKNOWN },
    });
    assert.deepEqual(
      failures.map((f) => f.property),
      ["recordingConfig.maxSeconds"],
    );
  });

  it("fills the service's defaults so an absent field is stable", async () => {
    const res = await handler.check(undefined, { appId: APP }, {} as HandlerContext);
    assert.deepEqual(res.inputs, {
      appId: APP,
      liveStreamOnStart: false,
      persistChat: false,
      recordOnStart: false,
      sessionKeepAliveTimeInSecs: 60,
      summarizeOnEnd: false,
      transcribeOnEnd: false,
    });
    const kept = await handler.check(undefined, { appId: APP, persistChat: true }, {} as HandlerContext);
    assert.equal(kept.inputs?.persistChat, true);
  });
});

describe("MeetingTemplate: diff and planning (pure)", () => {
  const outs: MeetingTemplateOutputs = {
    ...INPUTS,
    recordingConfig: {
      maxSeconds: 3600,
      videoConfig: { codec: "VP8", width: 1280, height: 720 },
      storageConfig: { type: "aws", bucket: "rec", region: "eu-west-1" },
    },
    meetingId: "m-1",
    status: "ACTIVE",
    createdAt: "t0",
    updatedAt: "t0",
    storageCredentials: { accessKey: "AK-ONE", secret: "SECRET-ONE" },
    storageCredentialsHash: credentialsHash({ accessKey: "AK-ONE", secret: "SECRET-ONE" }),
  };

  it("sees no change for the same inputs (credentials compared by hash)", async () => {
    assert.deepEqual(await handler.diff("m-1", outs, INPUTS, {} as HandlerContext), {
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("updates in place for a field, and ignores importId", async () => {
    const d = await handler.diff(
      "m-1",
      outs,
      { ...INPUTS, title: "Retro", importId: "x" },
      {} as HandlerContext,
    );
    assert.equal(d.changes, true);
    assert.deepEqual(d.replaces, []);
    const same = await handler.diff(
      "m-1",
      { ...outs, importId: "a" },
      { ...INPUTS, importId: "b" },
      {} as HandlerContext,
    );
    assert.equal(same.changes, false);
  });

  it("replaces on a new app or account", async () => {
    assert.deepEqual(
      (await handler.diff("m-1", outs, { ...INPUTS, appId: "app-2" }, {} as HandlerContext)).replaces,
      ["appId"],
    );
    assert.deepEqual(
      (await handler.diff("m-1", outs, { ...INPUTS, accountId: "acct-2" }, {} as HandlerContext)).replaces,
      ["accountId"],
    );
  });

  it("shows a rotated credential as a change without revealing it", async () => {
    const rotated = structuredClone(INPUTS);
    rotated.recordingConfig!.storageConfig!.secret = "SECRET-TWO";
    const d = await handler.diff("m-1", outs, rotated, {} as HandlerContext);
    assert.equal(d.changes, true);
    assert.ok(!JSON.stringify(d).includes("SECRET"));
    assert.notEqual(
      credentialsHash({ accessKey: "AK-ONE", secret: "SECRET-TWO" }),
      outs.storageCredentialsHash,
    );
    assert.ok(!String(outs.storageCredentialsHash).includes("SECRET-ONE"));
  });

  it("resets what the program dropped, since a PATCH cannot remove a field", () => {
    assert.deepEqual(
      patchBody(["title", "recordingConfig", "persistChat", "sessionKeepAliveTimeInSecs"], {
        persistChat: true,
      }),
      {
        title: "",
        recording_config: {},
        persist_chat: true,
        session_keep_alive_time_in_secs: 60,
      },
    );
    assert.deepEqual(patchBody(["aiConfig"], { aiConfig: { transcription: { profanityFilter: true } } }), {
      ai_config: { transcription: { profanity_filter: true } },
    });
  });

  it("projects live values onto what the program manages", () => {
    const live = {
      audioConfig: { codec: "vorbis" },
      videoConfig: { codec: "VP8", width: 1 },
      storageConfig: { type: "aws" },
    };
    assert.deepEqual(
      project(live, { videoConfig: { codec: "VP8" }, storageConfig: { type: "aws", secret: "s" } }),
      {
        videoConfig: { codec: "VP8" },
        storageConfig: { type: "aws" },
      },
    );
    assert.deepEqual(project({ keywords: ["b", "a"] }, { keywords: ["a"] }), { keywords: ["b", "a"] });
  });
});

describe("MeetingTemplate: handler on the emulator", () => {
  const fx = useEmulator();

  async function stored(id: string): Promise<Record<string, unknown>> {
    const res = await fx.http(
      "GET",
      `/__emulator/meetings/accounts/${fx.em.accountId}/apps/${APP}/meetings/${id}`,
    );
    return (res.json as { result: { fields: Record<string, unknown> } }).result.fields;
  }

  it("creates, reads back exactly the inputs, detects drift, updates, rotates a secret, and deletes", async () => {
    const logs: string[] = [];
    const ctx = providerContext(fx, logs);
    const { id, outs } = await handler.create(INPUTS, ctx);
    assert.equal(outs.meetingId, id);
    assert.equal(outs.status, "ACTIVE");
    assert.deepEqual(outs.recordingConfig?.storageConfig, {
      type: "aws",
      bucket: "rec",
      region: "eu-west-1",
    });
    assert.deepEqual(outs.storageCredentials, { accessKey: "AK-ONE", secret: "SECRET-ONE" });
    assert.match(String(outs.storageCredentialsHash), /^sha256:[0-9a-f]{64}$/);
    // the VP8 rule's vorbis codec is the server's business, not a managed field
    assert.equal(outs.recordingConfig?.audioConfig, undefined);

    const read = await handler.read(id, outs, ctx);
    assert.ok(read);
    assert.deepEqual(read.inputs, INPUTS);
    assert.deepEqual(read.props, outs);
    assert.equal((await handler.diff(id, read.props, INPUTS, ctx)).changes, false);

    // out of band
    await fx.api.meetings.updateMeeting({ appId: APP, meetingId: id, title: "Changed", persist_chat: true });
    const drifted = await handler.read(id, outs, ctx);
    assert.equal(drifted!.inputs.title, "Changed");
    assert.equal(drifted!.inputs.persistChat, true);
    assert.equal((await handler.diff(id, drifted!.props, INPUTS, ctx)).changes, true);

    const fixed = await handler.update(id, drifted!.props, INPUTS, ctx);
    assert.equal(fixed.outs.title, "Standup");
    assert.equal(fixed.outs.persistChat, false);
    assert.equal((await handler.diff(id, fixed.outs, INPUTS, ctx)).changes, false);

    const rotated = structuredClone(INPUTS);
    rotated.recordingConfig!.storageConfig!.secret = "SECRET-TWO";
    const after = await handler.update(id, fixed.outs, rotated, ctx);
    const storage = (await stored(id)).recording_config as { storage_config: Record<string, unknown> };
    assert.equal(storage.storage_config.secret, "SECRET-TWO");
    assert.notEqual(after.outs.storageCredentialsHash, fixed.outs.storageCredentialsHash);

    await handler.delete(id, after.outs, ctx);
    assert.equal((await fx.api.meetings.getMeeting({ appId: APP, meetingId: id })).status, "INACTIVE");
    assert.ok(
      logs.some((l) => l.includes("set INACTIVE")),
      String(logs),
    );
    // What delete leaves is an INACTIVE meeting, not a missing one: read still finds it.
    assert.equal((await handler.read(id, after.outs, ctx))?.props.status, "INACTIVE");
  });

  it("treats a meeting deactivated outside the program as drift and reactivates the same meeting", async () => {
    const ctx = providerContext(fx);
    const { id, outs } = await handler.create(INPUTS, ctx);
    await fx.api.meetings.updateMeeting({ appId: APP, meetingId: id, status: "INACTIVE" });
    const refreshed = await handler.read(id, outs, ctx);
    assert.equal(refreshed?.props.status, "INACTIVE");
    assert.deepEqual(refreshed?.inputs, (await handler.read(id, outs, ctx))?.inputs);
    assert.equal((await handler.diff(id, refreshed!.props, INPUTS, ctx)).changes, true);
    const fixed = await handler.update(id, refreshed!.props, INPUTS, ctx);
    assert.equal(fixed.outs.status, "ACTIVE");
    assert.equal((await fx.api.meetings.getMeeting({ appId: APP, meetingId: id })).status, "ACTIVE");
    assert.equal((await fx.api.meetings.listAllMeetings({ appId: APP })).length, 1, "no second meeting");
    assert.equal((await handler.diff(id, fixed.outs, INPUTS, ctx)).changes, false);
  });

  it("drops a field removed from the program by resetting it", async () => {
    const ctx = providerContext(fx);
    const first = withDefaults({ appId: APP, title: "T", recordingConfig: { maxSeconds: 600 } });
    const { id, outs } = await handler.create(first, ctx);
    const next = withDefaults({ appId: APP });
    const res = await handler.update(id, outs, next, ctx);
    assert.equal(res.outs.title, undefined);
    assert.equal(res.outs.recordingConfig, undefined);
    const live = await fx.api.meetings.getMeeting({ appId: APP, meetingId: id });
    assert.equal(live.title, "");
    assert.deepEqual(live.recording_config, {});
  });

  it("adopts an existing meeting with importId, and fails clearly when there is none", async () => {
    const ctx = providerContext(fx);
    const existing = await fx.api.meetings.createMeeting({ appId: APP, title: "Old", persist_chat: true });
    await fx.api.meetings.updateMeeting({ appId: APP, meetingId: existing.id, status: "INACTIVE" });
    const { id, outs } = await handler.create({ ...INPUTS, importId: existing.id }, ctx);
    assert.equal(id, existing.id);
    assert.equal(outs.title, "Standup");
    assert.equal(outs.status, "ACTIVE");
    assert.equal(outs.persistChat, false);

    await assert.rejects(
      handler.create({ ...INPUTS, importId: "00000000-0000-4000-8000-000000000000" }, ctx),
      /importId: meeting 00000000-0000-4000-8000-000000000000 not found in app app-1/,
    );
  });

  it("reads a vanished meeting as gone, and deletes one quietly", async () => {
    const ctx = providerContext(fx);
    const outs = { ...INPUTS, meetingId: "nope", status: "ACTIVE", createdAt: "", updatedAt: "" };
    assert.equal(await handler.read("nope", outs, ctx), undefined);
    await handler.delete("nope", outs, ctx);
  });
});
