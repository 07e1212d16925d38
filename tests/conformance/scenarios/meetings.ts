/**
 * The meetings area against the public contract: all 21 operations through the sdk, each body once
 * with every field the contract takes, the documented 4xx (404 of the active session and of a kick,
 * 400 of a poll), and a session started the way a client starts one: a participant joining with its
 * token (the emulator's control API stands in for the WebRTC client).
 */
import { strict as assert } from "node:assert";
import { request } from "undici";
import { EVERY_MEETING_FIELD } from "../../helpers/meetings";
import type { AreaScenario, ConformanceKit } from "../kit";

const APP = "conformance-app";

/** A participant joins with its token: the session starts (control API, not part of the contract). */
async function join(kit: ConformanceKit, meetingId: string, token: string): Promise<void> {
  const at = `/__emulator/meetings/accounts/${kit.accountId}/apps/${APP}/meetings/${meetingId}/join`;
  const res = await request(`${kit.emulator.origin}${at}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token }),
  });
  await res.body.text();
  assert.equal(res.statusCode, 200, `join: ${res.statusCode}`);
}

export const scenario: AreaScenario = {
  area: "meetings",
  async run(kit) {
    const m = kit.api.meetings;
    const base = `/accounts/${kit.accountId}/realtime/kit/${APP}/meetings`;

    // ---- meetings ----
    const meeting = await m.meetings.create({ appId: APP }, EVERY_MEETING_FIELD);
    const at = { appId: APP, meetingId: meeting.id };
    // api.md's own rule: with VP8 the service answers the vorbis codec, outside the contract's enum.
    const vp8 = await m.meetings.create(
      { appId: APP },
      { recording_config: { video_config: { codec: "VP8" } } },
    );
    assert.equal(vp8.recording_config?.audio_config?.codec, "vorbis");
    await m.meetings.get(at);
    await kit.expectStatus(m.meetings.get({ ...at, meetingId: "00000000-0000-4000-8000-000000000000" }), 404);
    assert.equal((await m.meetings.listAll({ appId: APP }, { perPage: 1 })).length, 2);
    await m.meetings.listAll(
      { appId: APP },
      { search: "weekly", start_time: "2020-01-01T00:00:00Z", end_time: "2100-01-01T00:00:00Z" },
    );
    await m.meetings.replace(at, { ...EVERY_MEETING_FIELD, title: "Replaced" });
    await m.meetings.update(at, {
      title: "Patched",
      live_stream_on_start: true,
      persist_chat: false,
      record_on_start: false,
      session_keep_alive_time_in_secs: 120,
      summarize_on_end: true,
      status: "ACTIVE",
      ai_config: { summarization: { word_limit: 300 }, transcription: { language: "de" } },
    });
    const badCreate = await kit.raw("POST", base, { session_keep_alive_time_in_secs: 5 });
    assert.equal(badCreate.status, 400);

    // ---- participants ----
    const alice = await m.participants.add(at, {
      custom_participant_id: "alice",
      preset_name: "group_call_host",
      name: "Alice",
      picture: "https://example.com/alice.png",
    });
    const bob = await m.participants.add(at, {
      custom_participant_id: "bob",
      preset_name: "group_call_host",
    });
    await m.participants.listAll(at, { perPage: 1 });
    await m.participants.get({ ...at, participantId: alice.id });
    await m.participants.update(
      { ...at, participantId: alice.id },
      { name: "Alice A.", picture: "https://example.com/a.png", preset_name: "webinar_viewer" },
    );
    const token = await m.participants.regenerateToken({ ...at, participantId: bob.id });

    // ---- the active session ----
    await kit.expectStatus(m.activeSession.get(at), 404);
    await kit.expectStatus(m.activeSession.kick(at, { participant_ids: [alice.id] }), 404);
    await join(kit, meeting.id, alice.token!);
    await join(kit, meeting.id, token.token);
    await m.activeSession.get(at);
    await m.activeSession.mute(at, { participant_ids: [alice.id], custom_participant_ids: ["bob"] });
    await m.activeSession.muteAll(at, { allow_unmute: true });
    await m.activeSession.createPoll(at, {
      question: "Lunch?",
      options: ["yes", "no"],
      anonymous: true,
      hide_votes: false,
    });
    const badPoll = await kit.raw("POST", `${base}/${meeting.id}/active-session/poll`, {
      question: "no options",
    });
    assert.equal(badPoll.status, 400);
    await m.activeSession.kick(at, { participant_ids: [alice.id], custom_participant_ids: [] });
    assert.equal((await m.activeSession.kickAll(at)).kicked_participants_count, 1);

    // ---- livestreams ----
    await m.livestreams.start(at, { name: "town hall", video_config: { height: 720, width: 1280 } });
    await m.livestreams.getActive(at);
    await m.livestreams.getDetails(at, { page_no: 1, per_page: 10 });
    await m.livestreams.stop(at);
    await kit.expectStatus(m.livestreams.getActive(at), 404);

    // ---- the end of a participant, and of the meeting's openness ----
    await m.participants.delete({ ...at, participantId: bob.id });
    await m.meetings.update(at, { status: "INACTIVE" });
    await kit.expectStatus(m.participants.add(at, { custom_participant_id: "late", preset_name: "p" }), 400);
  },
};
