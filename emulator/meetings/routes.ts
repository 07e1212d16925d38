/**
 * HTTP layer of the meetings area: one thin handler per operation over ./state and ./live. Success
 * bodies are `{ success, data }` (listings add `paging`); errors are the contract's
 * `{ success: false, error: { code, message } }` (./errors), every status and injected fault alike.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  MeetingCreateSchema,
  MeetingListQuerySchema,
  MeetingReplaceSchema,
  MeetingSchema,
  MeetingUpdateSchema,
  VORBIS_VIDEO_CODECS,
  meetingRuleIssues,
} from "../../sdk/schemas/meetings";
import type { AreaContext, AreaModule } from "../area";
import type { Permission } from "../auth";
import { answer, defineArea, defineControl, orEmpty } from "../define";
import { DomainError, GENERIC_CODES } from "../http";
import * as G from "../../sdk/generated/meetings";
import { BASE, REALTIME, models, type Meetings, type MeetingsArea } from "./context";
import { appRoutes } from "./apps-routes";
import { meetingsErrorBody, missing } from "./errors";
import { liveRoutes } from "./live-routes";
import { PageQuery, pageOf } from "./paging";
import { view, type StoredMeeting } from "./state";

/**
 * With VP8 or VP9 video the service sets the audio codec to vorbis itself (spec D), so a codec the
 * body asks for is set aside before the sdk's schema (which refuses one) sees the body.
 */
const ForcedAudio = z.looseObject({
  recording_config: z.looseObject({
    video_config: z.looseObject({ codec: z.string().refine((c) => VORBIS_VIDEO_CODECS.includes(c)) }),
    audio_config: z.looseObject({ codec: z.unknown() }),
  }),
});

function withoutForcedAudioCodec(body: unknown): unknown {
  const forced = ForcedAudio.safeParse(body);
  if (!forced.success) return body;
  const { recording_config: rec, ...rest } = forced.data;
  const { codec: _vorbis, ...audio } = rec.audio_config;
  return { ...rest, recording_config: { ...rec, audio_config: audio } };
}

const CreateBody = z.preprocess(withoutForcedAudioCodec, orEmpty(MeetingCreateSchema));
const ReplaceBody = z.preprocess(withoutForcedAudioCodec, orEmpty(MeetingReplaceSchema));
const UpdateBody = orEmpty(MeetingUpdateSchema);
const ListQuery = PageQuery.extend(MeetingListQuerySchema.omit({ page_no: true, per_page: true }).shape);

function meetingRoutes(area: MeetingsArea, { model, live, find }: Meetings): void {
  const spec = { response: MeetingSchema, permissions: REALTIME };

  area.post(
    BASE,
    { params: G.CreateMeetingPath, body: CreateBody, response: MeetingSchema, permissions: REALTIME },
    ({ params, body }) => answer(view(model.create(params.account_id, params.app_id, body)), { status: 201 }),
  );

  area.get(
    BASE,
    {
      params: G.GetAllMeetingsPath,
      querystring: ListQuery,
      response: z.array(MeetingSchema),
      permissions: REALTIME,
    },
    ({ params, query }) => {
      const { items, paging } = pageOf(model.find(params.account_id, params.app_id, query), query);
      return answer(items.map(view), { extra: { paging } });
    },
  );

  area.get(`${BASE}/:meeting_id`, { ...spec, params: G.GetMeetingPath }, ({ params }) => view(find(params)));

  area.put(
    `${BASE}/:meeting_id`,
    { ...spec, params: G.ReplaceMeetingPath, body: ReplaceBody },
    ({ params, body }) => view(model.replace(find(params), body)),
  );

  area.patch(
    `${BASE}/:meeting_id`,
    { ...spec, params: G.UpdateMeetingPath, body: UpdateBody },
    ({ params, body: patch }) => {
      const m = find(params);
      const rules = meetingRuleIssues(model.merged(m, patch));
      if (rules.length) throw area.invalid(rules.map((i) => `${i.path.join(".")}: ${i.message}`));
      const updated = model.update(m, patch);
      if (updated.status === "INACTIVE") live.deactivated(params.account_id, updated);
      return view(updated);
    },
  );
}

function apiRoutes(app: FastifyInstance, ctx: AreaContext, meetings: Meetings): void {
  const area: MeetingsArea = defineArea(app, {
    envelope: "data",
    invalidCode: GENERIC_CODES.badRequest,
    errorBody: meetingsErrorBody,
    auth: (req, any: readonly Permission[], params: { account_id: string }) => {
      ctx.auth.require(req, { accountId: params.account_id, any });
    },
  });
  appRoutes(area, meetings);
  meetingRoutes(area, meetings);
  liveRoutes(area, meetings);
}

const Stored = z.object({ account_id: z.string(), app_id: z.string(), meeting_id: z.string() });
const TokenBody = z.strictObject({ token: z.string().min(1, "must not be empty") });

const AppAt = z.object({ account_id: z.string(), app_id: z.string() });

function controlRoutes(
  app: FastifyInstance,
  ctx: AreaContext,
  { model, live, find: stored }: Meetings,
): void {
  const control = defineControl(app);
  /** A meeting's session for the console: who is in it by name, never a participant's token. */
  const sessionOf = (accountId: string, m: StoredMeeting) => {
    const snap = live.snapshot(accountId, m);
    const s = snap.session;
    if (!s) return null;
    let active: ReturnType<typeof live.activeSession> | undefined;
    try {
      active = live.activeSession(accountId, m);
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
    }
    const who = (id: string) => {
      const p = snap.participants[id];
      return { id, name: p?.name ?? null, custom_participant_id: p?.custom_participant_id ?? null };
    };
    return {
      id: s.id,
      status: active?.status ?? "ENDED",
      started_at: s.started_at,
      ended_at: s.ended_at ?? null,
      live_participants: active ? s.live.map(who) : [],
      max_concurrent_participants: s.max_concurrent,
      minutes_consumed: active?.minutes_consumed ?? null,
    };
  };
  // The console's meetings page: the account's apps, their meetings and each meeting's session.
  control.get("/overview", { params: z.object({}), permissions: undefined }, () => {
    const accountId = ctx.store.accountId;
    return model.apps(accountId).map((a) => ({
      ...a,
      meetings: model.list(accountId, a.id).map((m) => ({
        ...view(m),
        participants: live.participants(accountId, m).length,
        session: sessionOf(accountId, m),
      })),
    }));
  });
  // An app deleted in the dashboard (the API has no delete of an app), with its meetings.
  control.delete(
    "/accounts/:account_id/apps/:app_id",
    { params: AppAt, permissions: undefined },
    ({ params }) => {
      if (!model.removeApp(params.account_id, params.app_id)) throw missing(`app ${params.app_id}`);
      return null;
    },
  );
  const none = { params: Stored, permissions: undefined };
  const at = "/accounts/:account_id/apps/:app_id/meetings/:meeting_id";
  // The stored meeting, write-only storage fields included: lets a test see what reached the service.
  control.get(at, none, ({ params }) => stored(params));
  // Participants, the session (who is in it, muted, polls) and livestreams, as stored.
  control.get(`${at}/live`, none, ({ params }) => live.snapshot(params.account_id, stored(params)));
  // A client joining with a participant's token (the real one joins over WebRTC): starts the session.
  control.post(`${at}/join`, { ...none, body: TokenBody }, ({ params, body }) => {
    live.join(params.account_id, stored(params), body.token);
    return live.activeSession(params.account_id, stored(params));
  });
  control.post(`${at}/leave`, { ...none, body: TokenBody }, ({ params, body }) => {
    live.leave(params.account_id, stored(params), body.token);
    return null;
  });
}

export const meetingsArea: AreaModule = {
  name: "meetings",
  api: (app, ctx) => apiRoutes(app, ctx, models(ctx)),
  control: (app, ctx) => controlRoutes(app, ctx, models(ctx)),
};
