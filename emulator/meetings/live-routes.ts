/**
 * HTTP layer of what lives inside a meeting: participants, the active session (kick, mute, polls)
 * and livestreams; one thin handler per operation over ./live.
 */
import { z } from "zod";
import {
  ActiveSessionSchema,
  DeletedParticipantSchema,
  KickAllResultSchema,
  LivestreamDetailsSchema,
  LivestreamSchema,
  LivestreamStartSchema,
  LivestreamStartedSchema,
  LivestreamStoppedSchema,
  MuteAllResultSchema,
  MuteAllSchema,
  ParticipantCreateSchema,
  ParticipantSchema,
  ParticipantTokenSchema,
  ParticipantUpdateSchema,
  PollCreateSchema,
  PollResultSchema,
  SessionActionSchema,
  SessionParticipantsWireSchema,
} from "../../sdk/schemas/meetings-live";
import { answer, orEmpty } from "../define";
import * as G from "../../sdk/generated/meetings";
import { BASE, REALTIME, type MeetingPath, type Meetings, type MeetingsArea } from "./context";
import { participantView } from "./live";
import { PageQuery, pageOf } from "./paging";

const AT = `${BASE}/:meeting_id`;

export function liveRoutes(area: MeetingsArea, { live, find }: Meetings): void {
  // Each route reads its path with its operation's schema: the meeting's, or a participant's in it.
  const on = <P extends MeetingPath>(params: P) => ({ params, permissions: REALTIME });

  // ---- participants ----

  area.get(
    `${AT}/participants`,
    { ...on(G.GetMeetingParticipantsPath), querystring: PageQuery, response: z.array(ParticipantSchema) },
    ({ params, query }) => {
      const { items, paging } = pageOf(live.participants(params.account_id, find(params)), query);
      return answer(
        items.map((p) => participantView(p, false)),
        { extra: { paging } },
      );
    },
  );

  area.post(
    `${AT}/participants`,
    { ...on(G.AddParticipantPath), body: ParticipantCreateSchema, response: ParticipantSchema },
    ({ params, body }) =>
      answer(participantView(live.add(params.account_id, find(params), body), true), { status: 201 }),
  );

  area.get(
    `${AT}/participants/:participant_id`,
    { ...on(G.GetMeetingParticipantPath), response: ParticipantSchema },
    ({ params }) =>
      participantView(live.participant(params.account_id, find(params), params.participant_id), false),
  );

  area.patch(
    `${AT}/participants/:participant_id`,
    { ...on(G.EditParticipantPath), body: orEmpty(ParticipantUpdateSchema), response: ParticipantSchema },
    ({ params, body }) =>
      participantView(live.edit(params.account_id, find(params), params.participant_id, body), true),
  );

  area.delete(
    `${AT}/participants/:participant_id`,
    { ...on(G.DeleteMeetingParticipantPath), response: DeletedParticipantSchema },
    ({ params }) => live.remove(params.account_id, find(params), params.participant_id),
  );

  area.post(
    `${AT}/participants/:participant_id/token`,
    { ...on(G.RegenerateTokenPath), response: ParticipantTokenSchema },
    ({ params }) => ({ token: live.regenerateToken(params.account_id, find(params), params.participant_id) }),
  );

  // ---- the active session ----

  area.get(
    `${AT}/active-session`,
    { ...on(G.GetActiveSessionPath), response: ActiveSessionSchema },
    ({ params }) => live.activeSession(params.account_id, find(params)),
  );

  area.post(
    `${AT}/active-session/kick`,
    { ...on(G.KickPartcipantsPath), body: SessionParticipantsWireSchema, response: SessionActionSchema },
    ({ params, body }) => ({
      action: "kick",
      participants: live.kick(params.account_id, find(params), body),
    }),
  );

  area.post(
    `${AT}/active-session/kick-all`,
    { ...on(G.KickAllParticipantsPath), response: KickAllResultSchema },
    ({ params }) => ({
      action: "kick-all",
      kicked_participants_count: live.kickAll(params.account_id, find(params)),
    }),
  );

  area.post(
    `${AT}/active-session/mute`,
    { ...on(G.MuteParticipantsPath), body: SessionParticipantsWireSchema, response: SessionActionSchema },
    ({ params, body }) => ({
      action: "mute",
      participants: live.mute(params.account_id, find(params), body),
    }),
  );

  area.post(
    `${AT}/active-session/mute-all`,
    { ...on(G.MuteAllParticipantsPath), body: MuteAllSchema, response: MuteAllResultSchema },
    ({ params, body }) => ({
      action: "mute-all",
      muted_participants_count: live.muteAll(params.account_id, find(params), body.allow_unmute),
    }),
  );

  area.post(
    `${AT}/active-session/poll`,
    { ...on(G.CreatePollPath), body: PollCreateSchema, response: PollResultSchema },
    ({ params, body }) =>
      answer({ action: "poll", poll: live.poll(params.account_id, find(params), body) }, { status: 201 }),
  );

  // ---- livestreams ----

  area.post(
    `${AT}/livestreams`,
    {
      ...on(G.StartLivestreamingPath),
      body: orEmpty(LivestreamStartSchema),
      response: LivestreamStartedSchema,
    },
    ({ params, body }) => {
      const l = live.startLivestream(params.account_id, find(params), body);
      const started = {
        id: l.id,
        status: l.status,
        ingest_server: l.ingest_server,
        stream_key: l.stream_key,
        playback_url: l.playback_url,
      };
      return answer(started, { status: 201 });
    },
  );

  area.get(
    `${AT}/active-livestream`,
    { ...on(G.GetV2MeetingsMeetingIdActiveLivestreamPath), response: LivestreamSchema },
    ({ params }) => live.activeLivestream(params.account_id, find(params)),
  );

  area.post(
    `${AT}/active-livestream/stop`,
    { ...on(G.StopLivestreamingPath), response: LivestreamStoppedSchema },
    ({ params }) => {
      live.stopLivestream(params.account_id, find(params));
      return { message: "livestream stopped" };
    },
  );

  area.get(
    `${AT}/livestream`,
    { ...on(G.LivestreamSessionDetailsPath), querystring: PageQuery, response: LivestreamDetailsSchema },
    ({ params, query }) => {
      const { streams, latest } = live.livestreams(params.account_id, find(params));
      const { items, paging } = pageOf(streams, query);
      return { livestreams: items, paging, ...(latest ? { sessions: latest } : {}) };
    },
  );
}
