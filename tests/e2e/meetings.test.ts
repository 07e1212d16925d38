/**
 * MeetingTemplate on the real engine: up, no-op preview, out-of-band drift seen by refresh and
 * reconciled by up, credentials never in plaintext in state, destroy leaving the meeting INACTIVE,
 * adoption through importId, and a disabled realtimekit bucket: a state of the 0.1.0 shape
 * (`mediaBucketConfig`) upgraded with no diff, drift of the bucket shown by refresh and put back by
 * `up --refresh`.
 */
import { strict as assert } from "node:assert";
import { MeetingTemplate } from "../../provider/resources/meeting-template";
import type { AccountApi } from "../../sdk";
import { isRecord } from "../../provider/core/values";
import { useE2E } from "./harness";

const APP = "app-e2e";

describe("MeetingTemplate end to end", function () {
  this.timeout(600_000);
  const e2e = useE2E("meetings");
  let api: AccountApi;

  before(() => {
    api = e2e.api;
  });

  it("goes up, detects and reconciles drift, keeps credentials secret, and destroys to INACTIVE", async () => {
    const stack = await e2e.stack(async () => {
      const m = new MeetingTemplate("standup", {
        appId: APP,
        title: "Standup",
        transcribeOnEnd: true,
        summarizeOnEnd: true,
        aiConfig: { summarization: { summaryType: "daily_standup", wordLimit: 200 } },
        recordingConfig: {
          maxSeconds: 3600,
          videoConfig: { codec: "VP8", width: 1280, height: 720 },
          storageConfig: {
            type: "aws",
            accessKey: "AK-E2E-PLAIN",
            secret: "SECRET-E2E-PLAIN",
            bucket: "rec",
          },
        },
      });
      return { id: m.id, status: m.status, hash: m.storageCredentialsHash, recording: m.recordingConfig };
    });

    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    assert.equal(up.summary.resourceChanges?.create, 2);
    const id = String(up.outputs.id?.value);
    assert.equal(up.outputs.status?.value, "ACTIVE");
    assert.match(String(up.outputs.hash?.value), /^sha256:/);
    const live = await api.meetings.meetings.get({ appId: APP, meetingId: id });
    assert.equal(live.title, "Standup");

    const state = stack.rawState();
    assert.ok(!state.includes("AK-E2E-PLAIN"), "access key in plaintext in state");
    assert.ok(!state.includes("SECRET-E2E-PLAIN"), "secret in plaintext in state");

    await stack.preview({ expectNoChanges: true });

    await api.meetings.meetings.update(
      { appId: APP, meetingId: id },
      { title: "Hijacked", record_on_start: true },
    );
    const refresh = await stack.refresh();
    assert.ok(
      (refresh.summary.resourceChanges?.update ?? 0) >= 1,
      JSON.stringify(refresh.summary.resourceChanges),
    );

    const refreshed = stack.rawState();
    assert.ok(!refreshed.includes("AK-E2E-PLAIN"), "access key in plaintext in state after refresh");
    assert.ok(!refreshed.includes("SECRET-E2E-PLAIN"), "secret in plaintext in state after refresh");

    const fix = await stack.up();
    assert.equal(fix.summary.resourceChanges?.update, 1);
    const fixed = await api.meetings.meetings.get({ appId: APP, meetingId: id });
    assert.equal(fixed.title, "Standup");
    assert.equal(fixed.record_on_start, false);

    await stack.preview({ expectNoChanges: true });

    // Deactivated by hand: refresh records it, preview shows an update, up reactivates the same meeting.
    await api.meetings.meetings.update({ appId: APP, meetingId: id }, { status: "INACTIVE" });
    await stack.refresh();
    const pending = await stack.preview();
    assert.equal(pending.changeSummary.update, 1);
    await stack.up();
    assert.equal((await api.meetings.meetings.get({ appId: APP, meetingId: id })).status, "ACTIVE");
    assert.equal((await api.meetings.meetings.listAll({ appId: APP })).length, 1, "still one meeting");
    await stack.preview({ expectNoChanges: true });

    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
    assert.equal((await api.meetings.meetings.get({ appId: APP, meetingId: id })).status, "INACTIVE");
    assert.ok(
      stack.output.some((l) => l.includes("set INACTIVE")),
      "the destroy output says the meeting was set INACTIVE",
    );
  });

  it("adopts an existing meeting through importId", async () => {
    const existing = await api.meetings.meetings.create(
      { appId: APP },
      { title: "Made by hand", persist_chat: true },
    );
    const stack = await e2e.stack(async () => {
      const m = new MeetingTemplate("adopted", { appId: APP, importId: existing.id, title: "Managed now" });
      return { id: m.id };
    });
    const up = await stack.up();
    assert.equal(up.outputs.id?.value, existing.id);
    const live = await api.meetings.meetings.get({ appId: APP, meetingId: existing.id });
    assert.equal(live.title, "Managed now");
    assert.equal(live.persist_chat, false);
    await stack.preview({ expectNoChanges: true });
    await stack.destroy();
    assert.equal(
      (await api.meetings.meetings.get({ appId: APP, meetingId: existing.id })).status,
      "INACTIVE",
    );
  });

  it("keeps a disabled realtimekit bucket: upgrades a 0.1.0 state, refreshes clean, shows drift, up --refresh restores it", async () => {
    const stack = await e2e.stack(async () => {
      const m = new MeetingTemplate("recorded", {
        appId: APP,
        title: "Recorded",
        recordingConfig: { maxSeconds: 600, realtimekitBucketConfig: { enabled: false } },
      });
      return { id: m.id, recording: m.recordingConfig };
    });
    const up = await stack.up();
    assert.equal(up.summary.resourceChanges?.create, 2);
    const id = String(up.outputs.id?.value);
    const bucket = async () =>
      (await api.meetings.meetings.get({ appId: APP, meetingId: id })).recording_config
        ?.realtimekit_bucket_config;
    assert.deepEqual(await bucket(), { enabled: false });
    await stack.refresh({ expectNoChanges: true });

    // The state as 0.1.0 wrote it: the bucket as mediaBucketConfig, status an output only.
    const exported = await stack.stack.exportStack();
    let rewritten = 0;
    for (const r of exported.deployment.resources as {
      type: string;
      inputs?: Record<string, unknown>;
      outputs?: Record<string, unknown>;
    }[]) {
      if (!r.type.endsWith(":MeetingTemplate")) continue;
      for (const where of [r.inputs, r.outputs]) {
        const rc = where?.recordingConfig;
        if (!where || !isRecord(rc)) continue;
        const { realtimekitBucketConfig, ...rest } = rc;
        where.recordingConfig = { ...rest, mediaBucketConfig: realtimekitBucketConfig };
        rewritten++;
      }
      if (r.inputs) delete r.inputs.status;
    }
    assert.equal(rewritten, 2, "inputs and outputs of the meeting rewritten");
    await stack.stack.importStack(exported);
    assert.ok(stack.rawState().includes("mediaBucketConfig"), "the state now has the 0.1.0 shape");
    // No replace, no diff: the stored state is read under today's name.
    await stack.preview({ expectNoChanges: true });
    const again = await stack.up();
    assert.deepEqual(again.summary.resourceChanges, { same: 2 });

    // Out of band: the whole meeting replaced with the bucket on.
    const live = await api.meetings.meetings.get({ appId: APP, meetingId: id });
    await api.meetings.meetings.replace(
      { appId: APP, meetingId: id },
      {
        title: live.title ?? "",
        ai_config: { transcription: { keywords: live.ai_config?.transcription?.keywords ?? [] } },
        recording_config: { max_seconds: 600, realtimekit_bucket_config: { enabled: true } },
      },
    );
    const drift = await stack.refresh();
    assert.equal(drift.summary.resourceChanges?.update, 1, JSON.stringify(drift.summary.resourceChanges));

    await stack.stack.up({ refresh: true, onOutput: (l) => stack.output.push(l) });
    assert.deepEqual(await bucket(), { enabled: false });
    await stack.preview({ expectNoChanges: true });

    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
    assert.equal((await api.meetings.meetings.get({ appId: APP, meetingId: id })).status, "INACTIVE");
  });
});
