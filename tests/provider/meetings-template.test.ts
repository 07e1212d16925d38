import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import { keyOfUrn } from "../../provider/core/urn-key";
import { UNKNOWN, isRecord } from "../../provider/core/values";
import * as mt from "../../provider/resources/meeting-template";
import { useEmulator } from "../helpers/emulator";
import { offlineContext as offline, providerContext } from "../helpers/provider-context";

const APP = "app-1";

const RAW = {
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
};

async function checked(news: Record<string, unknown>): Promise<mt.MeetingTemplateInputs> {
  const r = await mt.handler.check(undefined, news, offline);
  assert.deepEqual(r.failures ?? [], []);
  return r.inputs!;
}

const rotate = (i: mt.MeetingTemplateInputs, secret: string): mt.MeetingTemplateInputs => {
  const next = structuredClone(i);
  next.recordingConfig!.storageConfig!.secret = secret;
  return next;
};

describe("MeetingTemplate: check without the API", () => {
  const failing: [string, Record<string, unknown>, string][] = [
    ["appId too long", { appId: "x".repeat(33) }, "appId: must be at most 32 characters"],
    ["accountId too long", { accountId: "x".repeat(33) }, "accountId: must be at most 32 characters"],
    [
      "keep-alive",
      { sessionKeepAliveTimeInSecs: 601 },
      "sessionKeepAliveTimeInSecs: must be between 60 and 600 seconds",
    ],
    [
      "word limit",
      { aiConfig: { summarization: { wordLimit: 100 } } },
      "aiConfig.summarization.wordLimit: must be between 150 and 1000",
    ],
    [
      "summary type",
      { aiConfig: { summarization: { summaryType: "retro" } } },
      "aiConfig.summarization.summaryType: must be one of general, team_meeting, sales_call, client_check_in, interview, daily_standup, one_on_one_meeting, lecture, code_review",
    ],
    [
      "language",
      { aiConfig: { transcription: { language: "it" } } },
      "aiConfig.transcription.language: must be one of en-US, en-IN, de, hi, sv, ru, pl, el, fr, nl",
    ],
    [
      "max seconds",
      { recordingConfig: { maxSeconds: 100_000 } },
      "recordingConfig.maxSeconds: must be between 60 and 86400",
    ],
    [
      "video width",
      { recordingConfig: { videoConfig: { width: 2000 } } },
      "recordingConfig.videoConfig.width: must be between 1 and 1920 pixels",
    ],
    [
      "watermark size",
      { recordingConfig: { videoConfig: { watermark: { size: { height: 0 } } } } },
      "recordingConfig.videoConfig.watermark.size.height: must be at least 1 pixel",
    ],
    [
      "watermark position",
      { recordingConfig: { videoConfig: { watermark: { position: "middle" } } } },
      "recordingConfig.videoConfig.watermark.position: must be one of left top, right top, left bottom, right bottom",
    ],
    [
      "audio codec with VP8",
      { recordingConfig: { videoConfig: { codec: "VP8" }, audioConfig: { codec: "AAC" } } },
      "recordingConfig.audioConfig.codec: cannot be set when videoConfig.codec is VP8: the audio codec is vorbis with VP8 or VP9",
    ],
    [
      "summarize without transcription",
      { summarizeOnEnd: true },
      "summarizeOnEnd: requires transcription enabled (transcribeOnEnd: true): summaries are made from transcripts",
    ],
    [
      "storage type missing",
      { recordingConfig: { storageConfig: { bucket: "b" } } },
      "recordingConfig.storageConfig.type: is required",
    ],
    [
      "aws access key missing",
      { recordingConfig: { storageConfig: { type: "aws" } } },
      "recordingConfig.storageConfig.accessKey: is required for type aws",
    ],
    [
      "sftp password missing",
      {
        recordingConfig: {
          storageConfig: { type: "sftp", host: "h", username: "u", authMethod: "PASSWORD" },
        },
      },
      "recordingConfig.storageConfig.password: is required when authMethod is PASSWORD",
    ],
    [
      "realtimekit bucket enabled missing",
      { recordingConfig: { realtimekitBucketConfig: {} } },
      "recordingConfig.realtimekitBucketConfig.enabled: is required",
    ],
    [
      "the 0.1.0 name of the realtimekit bucket",
      { recordingConfig: { mediaBucketConfig: { enabled: false } } },
      "recordingConfig.mediaBucketConfig: renamed to realtimekitBucketConfig",
    ],
    [
      "a word limit that is not a whole number",
      { aiConfig: { summarization: { wordLimit: 200.5 } } },
      "aiConfig.summarization.wordLimit: must be an integer",
    ],
    ["status", { status: "DELETED" }, "status: must be one of ACTIVE, INACTIVE"],
    [
      "rtmp url",
      { recordingConfig: { liveStreamingConfig: { rtmpUrl: "nope" } } },
      "recordingConfig.liveStreamingConfig.rtmpUrl: must be an absolute URI",
    ],
    ["unknown input", { colour: "red" }, "colour: is not a known field"],
    [
      "unknown nested input",
      { recordingConfig: { videoConfig: { colour: "red" } } },
      "recordingConfig.videoConfig.colour: is not a known field",
    ],
    ["wrong type", { persistChat: "yes" }, "persistChat: must be a boolean"],
  ];
  for (const [name, patch, reason] of failing) {
    it(`refuses ${name}, naming the field and the rule`, async () => {
      const res = await mt.handler.check(undefined, { appId: APP, ...patch }, offline);
      assert.deepEqual(
        (res.failures ?? []).map((f) => f.reason),
        [reason],
      );
    });
  }

  it("reports every failure of one input at once", async () => {
    const res = await mt.handler.check(
      undefined,
      { appId: "", sessionKeepAliveTimeInSecs: 5, recordingConfig: { maxSeconds: 1, extra: 1 } },
      offline,
    );
    assert.deepEqual((res.failures ?? []).map((f) => f.reason).sort(), [
      "appId: must not be empty",
      "recordingConfig.extra: is not a known field",
      "recordingConfig.maxSeconds: must be between 60 and 86400",
      "sessionKeepAliveTimeInSecs: must be between 60 and 600 seconds",
    ]);
  });

  it("passes gcs without an access key and every bound", async () => {
    await checked({
      appId: "a".repeat(32),
      sessionKeepAliveTimeInSecs: 600,
      recordingConfig: {
        maxSeconds: 86_400,
        storageConfig: { type: "gcs", secret: "{}" },
        videoConfig: { width: 1920, height: 1, watermark: { size: { width: 1, height: 1 } } },
        realtimekitBucketConfig: { enabled: true },
      },
    });
  });

  it("leaves what is unknown at preview for the real run, and still checks the rest", async () => {
    await checked({ appId: UNKNOWN, sessionKeepAliveTimeInSecs: UNKNOWN, recordingConfig: UNKNOWN });
    await checked({ appId: APP, summarizeOnEnd: true, transcribeOnEnd: UNKNOWN });
    const res = await mt.handler.check(
      undefined,
      {
        appId: APP,
        title: UNKNOWN,
        aiConfig: { summarization: { wordLimit: 10 } },
        recordingConfig: { maxSeconds: 10, fileNamePrefix: UNKNOWN },
      },
      offline,
    );
    assert.deepEqual(
      (res.failures ?? []).map((f) => f.property),
      ["aiConfig"],
    );
  });

  it("fills the service's defaults so an absent field is stable, and marks the meeting as ours", async () => {
    const { aiConfig, ...rest } = await checked({ appId: APP });
    // No natural key: a generated keyword recognises our own meeting after a lost answer.
    assert.match(String(aiConfig?.transcription?.keywords?.[0]), /^pulumi-mt-[0-9a-f]{16}$/);
    assert.deepEqual(rest, {
      appId: APP,
      liveStreamOnStart: false,
      persistChat: false,
      recordOnStart: false,
      sessionKeepAliveTimeInSecs: 60,
      summarizeOnEnd: false,
      transcribeOnEnd: false,
      status: "ACTIVE",
    });
    assert.equal((await checked({ appId: APP, persistChat: true })).persistChat, true);
  });
});

describe("MeetingTemplate: hooks and diff", () => {
  let INPUTS: mt.MeetingTemplateInputs;
  let outs: mt.MeetingTemplateOutputs;
  before(async () => {
    INPUTS = await checked(RAW);
    outs = {
      ...INPUTS,
      recordingConfig: mt.withoutCredentials(INPUTS.recordingConfig!),
      meetingId: "m-1",
      status: "ACTIVE",
      createdAt: "t0",
      updatedAt: "t0",
      storageCredentials: { accessKey: "AK-ONE", secret: "SECRET-ONE" },
      storageCredentialsHash: mt.credentialsHash({ accessKey: "AK-ONE", secret: "SECRET-ONE" }),
    };
  });

  it("keeps the credentials out of the recordingConfig output, and puts stored ones back", () => {
    assert.deepEqual(outs.recordingConfig!.storageConfig, {
      type: "aws",
      bucket: "rec",
      region: "eu-west-1",
    });
    assert.deepEqual(mt.credentialsOf(INPUTS.recordingConfig), { accessKey: "AK-ONE", secret: "SECRET-ONE" });
    assert.equal(mt.credentialsOf({ maxSeconds: 60 }), undefined);
    assert.deepEqual(mt.restoreCredentials(outs).recordingConfig, INPUTS.recordingConfig);
    const none = { appId: APP, recordingConfig: { maxSeconds: 60 } };
    assert.deepEqual(mt.restoreCredentials(none), none);
  });

  it("sees no change for the same inputs, and a change for a field, ignoring importId", async () => {
    const d = await mt.handler.diff("m-1", outs, INPUTS, offline);
    assert.deepEqual(d, { changes: false, replaces: [], deleteBeforeReplace: false });
    const titled = await mt.handler.diff("m-1", outs, { ...INPUTS, title: "Retro", importId: "x" }, offline);
    assert.deepEqual(titled, { changes: true, replaces: [], deleteBeforeReplace: false });
    const adopted = await mt.handler.diff(
      "m-1",
      { ...outs, importId: "a" },
      { ...INPUTS, importId: "b" },
      offline,
    );
    assert.equal(adopted.changes, false);
  });

  it("replaces on a new app or account", async () => {
    assert.deepEqual((await mt.handler.diff("m-1", outs, { ...INPUTS, appId: "app-2" }, offline)).replaces, [
      "appId",
    ]);
    assert.deepEqual(
      (await mt.handler.diff("m-1", outs, { ...INPUTS, accountId: "acct-2" }, offline)).replaces,
      ["accountId"],
    );
  });

  it("shows a rotated credential as a change without revealing it", async () => {
    const d = await mt.handler.diff("m-1", outs, rotate(INPUTS, "SECRET-TWO"), offline);
    assert.equal(d.changes, true);
    assert.ok(!JSON.stringify(d).includes("SECRET"));
    assert.notEqual(
      mt.credentialsHash({ accessKey: "AK-ONE", secret: "SECRET-TWO" }),
      outs.storageCredentialsHash,
    );
    assert.ok(!String(outs.storageCredentialsHash).includes("SECRET-ONE"));
  });

  it("shows a meeting deactivated outside the program as a change", async () => {
    assert.equal(
      (await mt.handler.diff("m-1", { ...outs, status: "INACTIVE" }, INPUTS, offline)).changes,
      true,
    );
  });

  it("resets what the program dropped, since a PATCH cannot remove a field", async () => {
    const kept = await checked({ appId: APP, persistChat: true });
    assert.deepEqual(mt.patchBody(["title", "persistChat", "sessionKeepAliveTimeInSecs", "status"], kept), {
      title: "",
      persist_chat: true,
      session_keep_alive_time_in_secs: 60,
      status: "ACTIVE",
    });
    const ai = await checked({ appId: APP, aiConfig: { transcription: { profanityFilter: true } } });
    const marker = ai.aiConfig?.transcription?.keywords ?? [];
    assert.equal(marker.length, 1);
    assert.deepEqual(mt.patchBody(["aiConfig"], ai), {
      ai_config: { transcription: { keywords: marker, profanity_filter: true } },
    });
  });

  it("updates with a PATCH where it takes every changed input, else with a PUT of the whole meeting", async () => {
    assert.equal(mt.updateVerb(["title", "aiConfig", "status"]), "PATCH");
    assert.equal(mt.updateVerb(["title", "recordingConfig"]), "PUT");
    assert.equal(mt.updateVerb(["transcribeOnEnd"]), "PUT");
    // A create or a PUT carries every setting but the status (a PATCH sets it after them).
    const body = mt.meetingBody(INPUTS);
    assert.equal("status" in body, false);
    assert.equal(body.recording_config?.storage_config?.secret, "SECRET-ONE");
    assert.equal(body.transcribe_on_end, true);
  });

  it("upgrades a state stored by 0.1.0: the bucket under its new name, no replace, no diff", async () => {
    const { realtimekitBucketConfig: _none, ...rc } = outs.recordingConfig!;
    const now = { ...outs, recordingConfig: { ...rc, realtimekitBucketConfig: { enabled: false } } };
    const inputs = {
      ...INPUTS,
      recordingConfig: { ...INPUTS.recordingConfig!, realtimekitBucketConfig: { enabled: false } },
    };
    // 0.1.0 stored the bucket as mediaBucketConfig and the status as an output.
    const oldRecording = { ...rc, mediaBucketConfig: { enabled: false } };
    const old: mt.MeetingTemplateOutputs = { ...outs, recordingConfig: oldRecording };
    assert.deepEqual(mt.upgrade(old).recordingConfig, inputs.recordingConfig);
    assert.deepEqual(mt.upgrade(now), mt.restoreCredentials(now), "today's state is left as it is");
    const d = await mt.handler.diff("m-1", old, inputs, offline);
    assert.deepEqual(d, { changes: false, replaces: [], deleteBeforeReplace: false });
    // The program still saying mediaBucketConfig is told the new name at preview.
    const res = await mt.handler.check(
      old,
      { ...RAW, recordingConfig: { ...RAW.recordingConfig, mediaBucketConfig: { enabled: false } } },
      offline,
    );
    assert.deepEqual(
      (res.failures ?? []).map((f) => f.reason),
      ["recordingConfig.mediaBucketConfig: renamed to realtimekitBucketConfig"],
    );
  });

  it("projects live values onto what the program manages", () => {
    const live = {
      audioConfig: { codec: "vorbis" },
      videoConfig: { codec: "VP8", width: 1, height: null },
      storageConfig: { type: "aws" },
    };
    assert.deepEqual(
      mt.projectOnto(live, {
        videoConfig: { codec: "VP8", height: 2 },
        storageConfig: { type: "aws", secret: "s" },
      }),
      { videoConfig: { codec: "VP8" }, storageConfig: { type: "aws" } },
    );
    assert.deepEqual(mt.projectOnto({ keywords: ["b", "a"] }, { keywords: ["a"] }), { keywords: ["b", "a"] });
  });

  it("makes each credential leaf a secret and leaves its neighbours plain", () => {
    const arg = mt.recordingConfigArg({
      maxSeconds: 60,
      storageConfig: { type: "aws", accessKey: "AK", bucket: "b" },
    });
    const sc = isRecord(arg) ? arg.storageConfig : undefined;
    assert.ok(isRecord(sc));
    assert.ok(pulumi.Output.isInstance(sc.accessKey));
    assert.equal(sc.bucket, "b");
    assert.equal(sc.type, "aws");
    assert.deepEqual(mt.recordingConfigArg({ maxSeconds: 60 }), { maxSeconds: 60 });
    assert.ok(pulumi.Output.isInstance(mt.recordingConfigArg(pulumi.output({ maxSeconds: 60 }))));
    // The secret output holds only the credentials; no input is secret as a whole.
    assert.deepEqual(mt.MeetingTemplateSpec.secretOutputs, ["storageCredentials"]);
    assert.deepEqual(mt.MeetingTemplateSpec.secretInputs, []);
  });
});

describe("MeetingTemplate: handler on the emulator", () => {
  const fx = useEmulator();
  let INPUTS: mt.MeetingTemplateInputs;
  before(async () => {
    INPUTS = await checked(RAW);
  });

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
    const { id, outs } = await mt.handler.create(INPUTS, ctx);
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

    const read = await mt.handler.read(id, outs, ctx);
    assert.ok(read);
    assert.deepEqual(read.inputs, INPUTS);
    assert.deepEqual(read.props, outs);
    assert.equal((await mt.handler.diff(id, read.props, INPUTS, ctx)).changes, false);

    // out of band
    await fx.api.meetings.meetings.update(
      { appId: APP, meetingId: id },
      { title: "Changed", persist_chat: true },
    );
    const drifted = (await mt.handler.read(id, outs, ctx))!;
    assert.equal(drifted.inputs.title, "Changed");
    assert.equal(drifted.inputs.persistChat, true);
    assert.equal((await mt.handler.diff(id, drifted.props, INPUTS, ctx)).changes, true);

    const fixed = await mt.handler.update(id, drifted.props, INPUTS, ctx);
    assert.equal(fixed.outs.title, "Standup");
    assert.equal(fixed.outs.persistChat, false);
    assert.equal((await mt.handler.diff(id, fixed.outs, INPUTS, ctx)).changes, false);

    const rotated = rotate(INPUTS, "SECRET-TWO");
    const after = await mt.handler.update(id, fixed.outs, rotated, ctx);
    const storage = (await stored(id)).recording_config as { storage_config: Record<string, unknown> };
    assert.equal(storage.storage_config.secret, "SECRET-TWO");
    assert.notEqual(after.outs.storageCredentialsHash, fixed.outs.storageCredentialsHash);

    await mt.handler.delete(id, after.outs, ctx);
    assert.equal((await fx.api.meetings.meetings.get({ appId: APP, meetingId: id })).status, "INACTIVE");
    assert.ok(
      logs.some((l) => l.includes(`meeting ${id} in app ${APP} set INACTIVE`)),
      String(logs),
    );
    // What delete leaves is an INACTIVE meeting, not a missing one: read still finds it.
    assert.equal((await mt.handler.read(id, after.outs, ctx))?.props.status, "INACTIVE");
  });

  it("treats a meeting deactivated outside the program as drift and reactivates the same meeting", async () => {
    const ctx = providerContext(fx);
    const { id, outs } = await mt.handler.create(INPUTS, ctx);
    await fx.api.meetings.meetings.update({ appId: APP, meetingId: id }, { status: "INACTIVE" });
    const refreshed = (await mt.handler.read(id, outs, ctx))!;
    assert.equal(refreshed.props.status, "INACTIVE");
    assert.deepEqual(refreshed.inputs, { ...INPUTS, status: "INACTIVE" });
    assert.equal((await mt.handler.diff(id, refreshed.props, INPUTS, ctx)).changes, true);
    const fixed = await mt.handler.update(id, refreshed.props, INPUTS, ctx);
    assert.equal(fixed.outs.status, "ACTIVE");
    assert.equal((await fx.api.meetings.meetings.get({ appId: APP, meetingId: id })).status, "ACTIVE");
    assert.equal((await fx.api.meetings.meetings.listAll({ appId: APP })).length, 1, "no second meeting");
    assert.equal((await mt.handler.diff(id, fixed.outs, INPUTS, ctx)).changes, false);
  });

  it("a create that a killed engine made is found by the marker the URN gives again: adopted, no second meeting", async () => {
    const urn = "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/account-api:MeetingTemplate::standup";
    const first = (await mt.handler.check(undefined, { ...RAW, __urn: urn }, offline)).inputs!;
    assert.equal("__urn" in first, false, "the URN is never stored");
    assert.deepEqual(first.aiConfig?.transcription?.keywords, [`pulumi-mt-${keyOfUrn(urn)}`]);
    const lost = await mt.handler.create(first, providerContext(fx));
    // State lost (`pulumi refresh --clear-pending-creates`): check starts again from no previous inputs.
    const again = (await mt.handler.check(undefined, { ...RAW, __urn: urn }, offline)).inputs!;
    assert.deepEqual(again, first);
    fx.em.requestLog.length = 0;
    const adopted = await mt.handler.create(again, providerContext(fx));
    assert.equal(adopted.id, lost.id);
    assert.deepEqual(
      fx.em.requestLog.map((r) => r.method),
      ["GET", "PUT"],
      "the look-up, then the meeting written whole (its credentials are unknown)",
    );
    assert.equal((await fx.api.meetings.meetings.listAll({ appId: APP })).length, 1, "no second meeting");
    // Another resource of the same program (another URN) makes its own.
    const other = await checked({ ...RAW, __urn: `${urn}-2` });
    assert.notEqual((await mt.handler.create(other, providerContext(fx))).id, lost.id);
    assert.equal((await fx.api.meetings.meetings.listAll({ appId: APP })).length, 2);
  });

  it("drops a field removed from the program: reset by a PATCH, or left out of a PUT", async () => {
    const ctx = providerContext(fx);
    const first = await checked({ appId: APP, title: "T", recordingConfig: { maxSeconds: 600 } });
    const { id, outs } = await mt.handler.create(first, ctx);
    const untitled = await mt.handler.update(
      id,
      outs,
      await checked({ appId: APP, recordingConfig: { maxSeconds: 600 } }),
      ctx,
    );
    assert.equal(untitled.outs.title, undefined);
    assert.equal((await fx.api.meetings.meetings.get({ appId: APP, meetingId: id })).title, "");
    const bare = await checked({ appId: APP });
    const res = await mt.handler.update(id, untitled.outs, bare, ctx);
    assert.equal(res.outs.recordingConfig, undefined);
    const live = await fx.api.meetings.meetings.get({ appId: APP, meetingId: id });
    assert.equal(live.recording_config, undefined);
    assert.equal((await mt.handler.diff(id, res.outs, bare, ctx)).changes, false);
  });

  it("changes the recording with a PUT, sees the bucket drift, and puts it back", async () => {
    const ctx = providerContext(fx);
    const inputs = await checked({
      appId: APP,
      title: "Rec",
      recordingConfig: { realtimekitBucketConfig: { enabled: false } },
    });
    const { id, outs } = await mt.handler.create(inputs, ctx);
    assert.deepEqual(outs.recordingConfig, { realtimekitBucketConfig: { enabled: false } });
    const live = await fx.api.meetings.meetings.get({ appId: APP, meetingId: id });
    assert.deepEqual(live.recording_config, { realtimekit_bucket_config: { enabled: false } });

    // out of band: the whole meeting replaced with the bucket on
    const { id: _i, created_at: _c, updated_at: _u, status: _s, ...settings } = live;
    await fx.api.meetings.meetings.replace(
      { appId: APP, meetingId: id },
      { ...(settings as object), recording_config: { realtimekit_bucket_config: { enabled: true } } },
    );
    const drifted = (await mt.handler.read(id, outs, ctx))!;
    assert.deepEqual(drifted.inputs.recordingConfig, { realtimekitBucketConfig: { enabled: true } });
    assert.equal((await mt.handler.diff(id, drifted.props, inputs, ctx)).changes, true);

    fx.em.requestLog.length = 0;
    const fixed = await mt.handler.update(id, drifted.props, inputs, ctx);
    assert.deepEqual(
      fx.em.requestLog.map((r) => r.method),
      ["PUT"],
      "one PUT: the status was already ACTIVE",
    );
    assert.deepEqual(fixed.outs.recordingConfig, { realtimekitBucketConfig: { enabled: false } });
    const back = await fx.api.meetings.meetings.get({ appId: APP, meetingId: id });
    assert.deepEqual(back.recording_config, { realtimekit_bucket_config: { enabled: false } });
    assert.equal(back.title, "Rec");
  });

  it("keeps a meeting the program says is INACTIVE closed, through a create and a PUT", async () => {
    const ctx = providerContext(fx);
    const closed = await checked({ appId: APP, status: "INACTIVE", recordingConfig: { maxSeconds: 60 } });
    const { id, outs } = await mt.handler.create(closed, ctx);
    assert.equal(outs.status, "INACTIVE");
    assert.equal((await fx.api.meetings.meetings.get({ appId: APP, meetingId: id })).status, "INACTIVE");
    const reopened = await checked({ appId: APP, recordingConfig: { maxSeconds: 120 } });
    const res = await mt.handler.update(id, outs, reopened, ctx);
    assert.equal(res.outs.status, "ACTIVE");
    assert.equal((await fx.api.meetings.meetings.get({ appId: APP, meetingId: id })).status, "ACTIVE");
  });

  it("adopts an existing meeting with importId, writing it whole and ACTIVE, and fails clearly when there is none", async () => {
    const ctx = providerContext(fx);
    const existing = await fx.api.meetings.meetings.create(
      { appId: APP },
      { title: "Old", persist_chat: true },
    );
    await fx.api.meetings.meetings.update({ appId: APP, meetingId: existing.id }, { status: "INACTIVE" });
    const { id, outs } = await mt.handler.create({ ...INPUTS, importId: existing.id }, ctx);
    assert.equal(id, existing.id);
    assert.equal(outs.title, "Standup");
    assert.equal(outs.status, "ACTIVE");
    assert.equal(outs.persistChat, false);
    const storage = (await stored(id)).recording_config as { storage_config: Record<string, unknown> };
    assert.equal(storage.storage_config.secret, "SECRET-ONE");
    assert.equal((await mt.handler.diff(id, outs, INPUTS, ctx)).changes, false);

    await assert.rejects(
      mt.handler.create({ ...INPUTS, importId: "00000000-0000-4000-8000-000000000000" }, ctx),
      /^ResourceInputError: importId: meeting 00000000-0000-4000-8000-000000000000 not found; nothing to adopt$/,
    );
  });

  it("reads a vanished meeting as gone, keeps the resource on any other failure, and deletes one quietly", async () => {
    const ctx = providerContext(fx);
    const { id, outs } = await mt.handler.create(INPUTS, ctx);
    fx.em.faults.add({ method: "GET", path: `/meetings/${id}$`, status: 500 });
    await assert.rejects(mt.handler.read(id, outs, ctx), (e: Error) => e.name !== "NotFoundError");
    fx.em.faults.clear();
    assert.equal((await mt.handler.read(id, outs, ctx))?.id, id);

    const ghost = { ...outs, meetingId: "nope" };
    assert.equal(await mt.handler.read("nope", ghost, ctx), undefined);
    await mt.handler.delete("nope", ghost, ctx);
  });
});
