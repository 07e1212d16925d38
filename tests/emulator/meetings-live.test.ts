/**
 * What lives inside a meeting, on the emulator through the sdk: participants (add, list, get, edit,
 * delete, new token), the session a token joins (kick, kick-all, mute, mute-all, polls, the
 * keep-alive on the emulator's clock), livestreams (start, active, stop, details), and an INACTIVE
 * meeting refusing all of them in the contract's error body.
 */
import { strict as assert } from "node:assert";
import { ApiError, BadRequestError, ConflictError, ValidationError } from "../../sdk";
import type { Meeting } from "../../sdk/meetings";
import { useEmulator } from "../helpers/emulator";

const APP = "app-live";

/** Fails with an ApiError of this status whose message says `said`. */
async function refused(call: Promise<unknown>, status: number, said: RegExp): Promise<void> {
  await assert.rejects(call, (e: unknown) => {
    assert.ok(e instanceof ApiError, String(e));
    assert.equal(e.status, status, e.message);
    assert.equal(e.apiCode, status);
    assert.match(e.message, said);
    return true;
  });
}

describe("meetings: participants, sessions and livestreams", () => {
  const fx = useEmulator();
  let meeting: Meeting;
  const at = () => ({ appId: APP, meetingId: meeting.id });

  beforeEach(async () => {
    meeting = await fx.api.meetings.meetings.create(
      { appId: APP },
      { title: "Standup", session_keep_alive_time_in_secs: 120 },
    );
  });

  /** A client joining with a participant's token (the control API stands in for the WebRTC client). */
  async function join(token: string, what = "join"): Promise<{ status: number; json: unknown }> {
    return fx.http(
      "POST",
      `/__emulator/meetings/accounts/${fx.em.accountId}/apps/${APP}/meetings/${meeting.id}/${what}`,
      {
        body: { token },
      },
    );
  }

  async function addAndJoin(custom: string, name = custom): Promise<string> {
    const p = await fx.api.meetings.participants.add(at(), {
      custom_participant_id: custom,
      preset_name: "host",
      name,
    });
    assert.equal((await join(p.token!)).status, 200);
    return p.id;
  }

  describe("participants", () => {
    it("adds, lists page by page, gets, edits, renews the token and deletes", async () => {
      fx.clock.advance(1_000);
      const alice = await fx.api.meetings.participants.add(at(), {
        custom_participant_id: "alice",
        preset_name: "group_call_host",
        name: "Alice",
        picture: "https://example.com/a.png",
      });
      assert.match(alice.id, /^[0-9a-f-]{36}$/);
      assert.ok(alice.token && alice.token.length >= 20, "add answers the token");
      assert.equal(alice.created_at, "2026-01-01T00:00:01.000Z");
      for (const c of ["bob", "carol"])
        await fx.api.meetings.participants.add(at(), { custom_participant_id: c, preset_name: "guest" });

      const page = await fx.http(
        "GET",
        `/accounts/${fx.em.accountId}/realtime/kit/${APP}/meetings/${meeting.id}/participants?page_no=2&per_page=2`,
      );
      assert.deepEqual((page.json as { paging: unknown }).paging, {
        total_count: 3,
        start_offset: 2,
        end_offset: 3,
      });
      const all = await fx.api.meetings.participants.listAll(at(), { perPage: 2 });
      assert.deepEqual(
        all.map((p) => p.custom_participant_id),
        ["alice", "bob", "carol"],
      );
      assert.equal(all[0]!.token, undefined, "a listing does not hand out tokens");

      const got = await fx.api.meetings.participants.get({ ...at(), participantId: alice.id });
      assert.equal(got.name, "Alice");
      fx.clock.advance(1_000);
      const edited = await fx.api.meetings.participants.update(
        { ...at(), participantId: alice.id },
        { name: null, preset_name: "viewer" },
      );
      assert.equal(edited.name, null);
      assert.equal(edited.preset_name, "viewer");
      assert.equal(edited.picture, "https://example.com/a.png");
      assert.equal(edited.updated_at, "2026-01-01T00:00:02.000Z");

      const renewed = await fx.api.meetings.participants.regenerateToken({
        ...at(),
        participantId: alice.id,
      });
      assert.notEqual(renewed.token, alice.token);
      assert.equal((await join(alice.token!)).status, 404, "the old token no longer joins");
      assert.equal((await join(renewed.token)).status, 200);

      const gone = await fx.api.meetings.participants.delete({ ...at(), participantId: alice.id });
      assert.equal(gone.custom_participant_id, "alice");
      assert.match(gone.preset_id, /^[0-9a-f-]{36}$/);
      const viewerAgain = await fx.api.meetings.participants.add(at(), {
        custom_participant_id: "dave",
        preset_name: "viewer",
      });
      const daveGone = await fx.api.meetings.participants.delete({ ...at(), participantId: viewerAgain.id });
      assert.equal(daveGone.preset_id, gone.preset_id, "one id per preset of the app");
      await refused(
        fx.api.meetings.participants.get({ ...at(), participantId: alice.id }),
        404,
        /participant .* not found/,
      );
      const session = await fx.api.meetings.activeSession.get(at());
      assert.equal(session.live_participants, 0, "the deleted participant left the session");
    });

    it("refuses a second participant with the same custom id, and a body the contract refuses", async () => {
      await fx.api.meetings.participants.add(at(), { custom_participant_id: "x", preset_name: "host" });
      await assert.rejects(
        fx.api.meetings.participants.add(at(), { custom_participant_id: "x", preset_name: "host" }),
        ConflictError,
      );
      const before = fx.em.requestLog.length;
      await assert.rejects(
        fx.api.meetings.participants.add(at(), { custom_participant_id: "y" } as Parameters<
          typeof fx.api.meetings.participants.add
        >[1]),
        (e: unknown) =>
          e instanceof ValidationError &&
          e.issues.some((i) => i.field === "preset_name" && i.rule === "is required"),
      );
      await assert.rejects(
        fx.api.meetings.participants.add(at(), {
          custom_participant_id: "y",
          preset_name: "p",
          picture: "not a uri",
        }),
        (e: unknown) => e instanceof ValidationError && /picture: must be an absolute URI/.test(e.message),
      );
      assert.equal(fx.em.requestLog.length, before, "refused before any request");
      const raw = await fx.http(
        "POST",
        `/accounts/${fx.em.accountId}/realtime/kit/${APP}/meetings/${meeting.id}/participants`,
        {
          body: { preset_name: "host" },
        },
      );
      assert.equal(raw.status, 400);
      assert.deepEqual(raw.json, {
        success: false,
        error: { code: 400, message: "custom_participant_id: is required" },
      });
    });
  });

  describe("the active session", () => {
    it("starts when a participant joins, and ends a keep-alive after the last one left", async () => {
      await refused(fx.api.meetings.activeSession.get(at()), 404, /no active session for meeting/);
      const a = await addAndJoin("a");
      fx.clock.advance(30_000);
      await addAndJoin("b");
      const s = await fx.api.meetings.activeSession.get(at());
      assert.equal(s.associated_id, meeting.id);
      assert.equal(s.meeting_display_name, "Standup");
      assert.equal(s.status, "LIVE");
      assert.equal(s.type, "meeting");
      assert.equal(s.live_participants, 2);
      assert.equal(s.max_concurrent_participants, 2);
      assert.equal(s.minutes_consumed, 0.5);
      assert.equal(s.organization_id, APP);

      const kicked = await fx.api.meetings.activeSession.kick(at(), { participant_ids: [a] });
      assert.deepEqual(
        kicked.participants?.map((p) => p.id),
        [a],
      );
      assert.equal(kicked.action, "kick");
      assert.equal(
        (await fx.api.meetings.activeSession.get(at())).live_participants,
        1,
        "the kicked one is gone",
      );
      await refused(
        fx.api.meetings.activeSession.kick(at(), { participant_ids: [a] }),
        404,
        /none of the participants named/,
      );

      const all = await fx.api.meetings.activeSession.kickAll(at());
      assert.equal(all.kicked_participants_count, 1);
      // Empty now: the session lives on for the meeting's keep-alive (120 s), then ends.
      fx.clock.advance(119_000);
      const lingering = await fx.api.meetings.activeSession.get(at());
      assert.equal(lingering.live_participants, 0);
      assert.equal(lingering.max_concurrent_participants, 2);
      fx.clock.advance(1_000);
      await refused(fx.api.meetings.activeSession.get(at()), 404, /no active session/);
      await refused(fx.api.meetings.activeSession.kickAll(at()), 404, /no active session/);
      await refused(
        fx.api.meetings.activeSession.createPoll(at(), { question: "q", options: ["a"] }),
        404,
        /no active session/,
      );
    });

    it("mutes by id and by custom id, mutes all, and creates polls", async () => {
      const a = await addAndJoin("a", "Ann");
      const b = await addAndJoin("b");
      const muted = await fx.api.meetings.activeSession.mute(at(), { custom_participant_ids: ["b"] });
      assert.deepEqual(
        muted.participants?.map((p) => p.id),
        [b],
      );
      const live = async () =>
        (
          await fx.http(
            "GET",
            `/__emulator/meetings/accounts/${fx.em.accountId}/apps/${APP}/meetings/${meeting.id}/live`,
          )
        ).json as {
          result: { session: { muted: string[]; allow_unmute?: boolean; polls: unknown[] } };
        };
      assert.deepEqual((await live()).result.session.muted, [b]);
      const everyone = await fx.api.meetings.activeSession.muteAll(at(), { allow_unmute: false });
      assert.equal(everyone.muted_participants_count, 2);
      assert.deepEqual((await live()).result.session.muted.sort(), [a, b].sort());
      assert.equal((await live()).result.session.allow_unmute, false);
      await assert.rejects(
        fx.api.meetings.activeSession.muteAll(
          at(),
          {} as Parameters<typeof fx.api.meetings.activeSession.muteAll>[1],
        ),
        (e: unknown) => e instanceof ValidationError && /allow_unmute: is required/.test(e.message),
      );

      const poll = await fx.api.meetings.activeSession.createPoll(at(), {
        question: "Lunch?",
        options: ["yes", "no"],
        hide_votes: true,
      });
      assert.equal(poll.action, "poll");
      assert.ok(poll.poll, "the poll is answered");
      assert.deepEqual(poll.poll.options, [
        { text: "yes", count: 0, votes: [] },
        { text: "no", count: 0, votes: [] },
      ]);
      assert.equal(poll.poll.hide_votes, true);
      assert.equal(poll.poll.anonymous, false);
      assert.equal((await live()).result.session.polls.length, 1);
      const bad = await fx.http(
        "POST",
        `/accounts/${fx.em.accountId}/realtime/kit/${APP}/meetings/${meeting.id}/active-session/poll`,
        {
          body: { question: "q" },
        },
      );
      assert.equal(bad.status, 400);
      assert.match((bad.json as { error: { message: string } }).error.message, /^options: is required$/);
    });
  });

  describe("livestreams", () => {
    it("starts one, shows it active, refuses a second, stops it, and keeps the history", async () => {
      await refused(fx.api.meetings.livestreams.getActive(at()), 404, /no active livestream/);
      const started = await fx.api.meetings.livestreams.start(at(), {
        name: "town hall",
        video_config: { width: 1280, height: 720 },
      });
      assert.equal(started.status, "LIVE");
      assert.ok(started.stream_key && started.ingest_server && started.playback_url);
      await assert.rejects(fx.api.meetings.livestreams.start(at(), {}), ConflictError);

      const active = await fx.api.meetings.livestreams.getActive(at());
      assert.equal(active.id, started.id);
      assert.equal(active.meeting_id, meeting.id);
      assert.equal(active.name, "town hall");

      fx.clock.advance(90_000);
      const stopped = await fx.api.meetings.livestreams.stop(at());
      assert.equal(stopped.message, "livestream stopped");
      await refused(fx.api.meetings.livestreams.getActive(at()), 404, /no active livestream/);
      await refused(fx.api.meetings.livestreams.stop(at()), 404, /no active livestream/);

      await fx.api.meetings.livestreams.start(at(), {});
      const details = await fx.api.meetings.livestreams.getDetails(at(), { page_no: 1, per_page: 1 });
      assert.equal(details.livestreams?.length, 1);
      assert.equal(details.livestreams?.[0]?.id, started.id);
      assert.equal(details.livestreams?.[0]?.status, "IDLE");
      assert.deepEqual(details.paging, { total_count: 2, start_offset: 0, end_offset: 1 });
      assert.equal(details.sessions?.stopped_time, undefined, "the latest run is still going");
      const first = await fx.http(
        "GET",
        `/__emulator/meetings/accounts/${fx.em.accountId}/apps/${APP}/meetings/${meeting.id}/live`,
      );
      const runs = (first.json as { result: { runs: { stopped_time?: string }[] } }).result.runs;
      assert.equal(runs[0]!.stopped_time, "2026-01-01T00:01:30.000Z");
    });
  });

  describe("an INACTIVE meeting", () => {
    it("ends its session, stops its livestream, and refuses participants until it is ACTIVE again", async () => {
      const a = await addAndJoin("a");
      await fx.api.meetings.livestreams.start(at(), {});
      await fx.api.meetings.meetings.update(at(), { status: "INACTIVE" });

      await refused(fx.api.meetings.activeSession.get(at()), 404, /no active session/);
      await refused(fx.api.meetings.livestreams.getActive(at()), 404, /no active livestream/);
      for (const call of [
        fx.api.meetings.participants.listAll(at()),
        fx.api.meetings.participants.add(at(), { custom_participant_id: "b", preset_name: "host" }),
        fx.api.meetings.participants.get({ ...at(), participantId: a }),
        fx.api.meetings.participants.regenerateToken({ ...at(), participantId: a }),
        fx.api.meetings.livestreams.start(at(), {}),
      ])
        await refused(call, 400, /meeting .* is INACTIVE: set its status to ACTIVE first/);
      await assert.rejects(
        fx.api.meetings.participants.add(at(), { custom_participant_id: "b", preset_name: "host" }),
        BadRequestError,
      );

      await fx.api.meetings.meetings.update(at(), { status: "ACTIVE" });
      const back = await fx.api.meetings.participants.get({ ...at(), participantId: a });
      assert.equal(back.custom_participant_id, "a", "its participants are there again");
      await refused(fx.api.meetings.activeSession.get(at()), 404, /no active session/);
    });

    it("404s every operation of a meeting that does not exist", async () => {
      const none = { appId: APP, meetingId: "00000000-0000-4000-8000-000000000000" };
      for (const call of [
        fx.api.meetings.activeSession.get(none),
        fx.api.meetings.activeSession.kickAll(none),
        fx.api.meetings.participants.listAll(none),
        fx.api.meetings.livestreams.getActive(none),
        fx.api.meetings.livestreams.getDetails(none),
      ])
        await refused(call, 404, /meeting 0{8}-.* in app app-live not found/);
    });
  });
});
