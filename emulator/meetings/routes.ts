/**
 * HTTP layer of the meetings area: one thin handler per operation over ./state. Success bodies are
 * `{ success, data }` (listings add `result_info`); errors use the standard envelope with the
 * emulator's generic codes, one `errors[]` entry per issue naming the field.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { IdentifierSchema } from "../../sdk/schemas/common";
import {
  MeetingCreateSchema,
  MeetingSchema,
  MeetingUpdateSchema,
  VORBIS_VIDEO_CODECS,
  meetingRuleIssues,
} from "../../sdk/schemas/meetings";
import type { AreaContext, AreaModule } from "../area";
import type { Permission } from "../auth";
import { AccountParams, answer, defineArea, defineControl, orEmpty } from "../define";
import { GENERIC_CODES, notFound, paginate } from "../http";
import { MeetingsModel, view, type StoredMeeting } from "./state";

const BASE = "/accounts/:account_id/realtime/kit/:app_id/meetings";
const App = AccountParams.extend({ app_id: IdentifierSchema });
const Meeting = App.extend({ meeting_id: z.string() });
const REALTIME: readonly Permission[] = ["realtime:admin", "realtime"];

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
const UpdateBody = z.preprocess(withoutForcedAudioCodec, orEmpty(MeetingUpdateSchema));

const ListQuery = z.looseObject({
  status: z.enum(["ACTIVE", "INACTIVE"], { error: 'must be "ACTIVE" or "INACTIVE"' }).optional(),
  search: z.string().optional(),
  page_no: z.unknown().optional(),
  page: z.unknown().optional(),
  per_page: z.unknown().optional(),
});

function apiRoutes(app: FastifyInstance, ctx: AreaContext, model: MeetingsModel): void {
  const area = defineArea(app, {
    envelope: "data",
    invalidCode: GENERIC_CODES.badRequest,
    auth: (req, any: readonly Permission[], params: { account_id: string }) => {
      ctx.auth.require(req, { accountId: params.account_id, any });
    },
  });
  const find = (p: z.output<typeof Meeting>): StoredMeeting => {
    const m = model.get(p.account_id, p.app_id, p.meeting_id);
    if (!m) throw notFound(`meeting ${p.meeting_id} in app ${p.app_id}`);
    return m;
  };

  area.post(
    BASE,
    { params: App, body: CreateBody, response: MeetingSchema, permissions: REALTIME },
    ({ params, body }) => answer(view(model.create(params.account_id, params.app_id, body)), { status: 201 }),
  );

  area.get(
    BASE,
    { params: App, querystring: ListQuery, response: z.array(MeetingSchema), permissions: REALTIME },
    ({ params, query: q }) => {
      const search = q.search?.toLowerCase();
      const meetings = model
        .list(params.account_id, params.app_id)
        .filter((m) => q.status === undefined || m.status === q.status)
        .filter((m) => search === undefined || (m.fields.title ?? "").toLowerCase().includes(search));
      // The public API pages with `page_no`; `page` is the emulator's own (sdk) spelling of the same.
      const page = paginate(meetings, { page: q.page_no ?? q.page, per_page: q.per_page });
      const start = (page.resultInfo.page - 1) * page.resultInfo.per_page;
      // Listings carry both `paging` (the public API's) and `result_info` (the emulator's page-style info).
      return answer(page.items.map(view), {
        resultInfo: page.resultInfo,
        extra: {
          paging: {
            total_count: meetings.length,
            start_offset: start,
            end_offset: start + page.items.length,
          },
        },
      });
    },
  );

  area.get(
    `${BASE}/:meeting_id`,
    { params: Meeting, response: MeetingSchema, permissions: REALTIME },
    ({ params }) => view(find(params)),
  );

  area.patch(
    `${BASE}/:meeting_id`,
    { params: Meeting, body: UpdateBody, response: MeetingSchema, permissions: REALTIME },
    ({ params, body: patch }) => {
      const m = find(params);
      const rules = meetingRuleIssues(model.merged(m, patch));
      if (rules.length) throw area.invalid(rules.map((i) => `${i.path.join(".")}: ${i.message}`));
      return view(model.update(m, patch));
    },
  );
}

function controlRoutes(app: FastifyInstance, model: MeetingsModel): void {
  const control = defineControl(app);
  const Stored = z.object({ account_id: z.string(), app_id: z.string(), meeting_id: z.string() });
  // The stored meeting, write-only storage fields included: lets a test see what reached the service.
  control.get(
    "/accounts/:account_id/apps/:app_id/meetings/:meeting_id",
    { params: Stored, permissions: undefined },
    ({ params: { account_id, app_id, meeting_id } }) => {
      const m = model.get(account_id, app_id, meeting_id);
      if (!m) throw notFound(`meeting ${meeting_id} in app ${app_id}`);
      return m;
    },
  );
}

export const meetingsArea: AreaModule = {
  name: "meetings",
  api: (app, ctx) => apiRoutes(app, ctx, new MeetingsModel(ctx.store, () => ctx.clock.now())),
  control: (app, ctx) => controlRoutes(app, new MeetingsModel(ctx.store, () => ctx.clock.now())),
};
