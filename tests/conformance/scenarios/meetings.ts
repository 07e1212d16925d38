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
    const meeting = await m.createMeeting({ appId: APP, ...EVERY_MEETING_FIELD });
    const at = { appId: APP, meetingId: meeting.id };
    // api.md's own rule: with VP8 the service answers the vorbis codec, outside the contract's enum.
    const vp8 = await m.createMeeting({ appId: APP, recording_config: { video_config: { codec: "VP8" } } });
    assert.equal(vp8.recording_config?.audio_config?.codec, "vorbis");
    await m.getMeeting(at);
    await kit.expectStatus(m.getMeeting({ ...at, meetingId: "00000000-0000-4000-8000-000000000000" }), 404);
    assert.equal((await m.listAllMeetings({ appId: APP, perPage: 1 })).length, 2);
    await m.listAllMeetings({
      appId: APP,
      search: "weekly",
      startTime: "2020-01-01T00:00:00Z",
      endTime: "2100-01-01T00:00:00Z",
    });
    await m.replaceMeeting({ ...at, ...EVERY_MEETING_FIELD, title: "Replaced" });
    await m.updateMeeting({
      ...at,
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
    const alice = await m.addParticipant({
      ...at,
      custom_participant_id: "alice",
      preset_name: "group_call_host",
      name: "Alice",
      picture: "https://example.com/alice.png",
    });
    const bob = await m.addParticipant({
      ...at,
      custom_participant_id: "bob",
      preset_name: "group_call_host",
    });
    await m.listAllParticipants({ ...at, perPage: 1 });
    await m.getParticipant({ ...at, participantId: alice.id });
    await m.updateParticipant({
      ...at,
      participantId: alice.id,
      name: "Alice A.",
      picture: "https://example.com/a.png",
      preset_name: "webinar_viewer",
    });
    const token = await m.regenerateParticipantToken({ ...at, participantId: bob.id });

    // ---- the active session ----
    await kit.expectStatus(m.getActiveSession(at), 404);
    await kit.expectStatus(m.kickParticipants({ ...at, participant_ids: [alice.id] }), 404);
    await join(kit, meeting.id, alice.token!);
    await join(kit, meeting.id, token.token);
    await m.getActiveSession(at);
    await m.muteParticipants({ ...at, participant_ids: [alice.id], custom_participant_ids: ["bob"] });
    await m.muteAllParticipants({ ...at, allow_unmute: true });
    await m.createPoll({
      ...at,
      question: "Lunch?",
      options: ["yes", "no"],
      anonymous: true,
      hide_votes: false,
    });
    const badPoll = await kit.raw("POST", `${base}/${meeting.id}/active-session/poll`, {
      question: "no options",
    });
    assert.equal(badPoll.status, 400);
    await m.kickParticipants({ ...at, participant_ids: [alice.id], custom_participant_ids: [] });
    assert.equal((await m.kickAllParticipants(at)).kicked_participants_count, 1);

    // ---- livestreams ----
    await m.startLivestream({ ...at, name: "town hall", video_config: { height: 720, width: 1280 } });
    await m.getActiveLivestream(at);
    await m.getLivestreamDetails({ ...at, pageNo: 1, perPage: 10 });
    await m.stopLivestream(at);
    await kit.expectStatus(m.getActiveLivestream(at), 404);

    // ---- the end of a participant, and of the meeting's openness ----
    await m.deleteParticipant({ ...at, participantId: bob.id });
    await m.updateMeeting({ ...at, status: "INACTIVE" });
    await kit.expectStatus(m.addParticipant({ ...at, custom_participant_id: "late", preset_name: "p" }), 400);
  },
};
