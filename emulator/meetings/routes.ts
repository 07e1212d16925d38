/**
 * HTTP layer of the meetings area: one thin handler per operation over ./state. Success bodies are
 * `{ success, data }` (listings add `result_info`); errors use the standard envelope with the
 * emulator's generic codes, one `errors[]` entry per issue naming the field.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { IdentifierSchema } from "../../sdk/schemas/common";
import { MeetingCreateSchema, MeetingUpdateSchema, meetingRuleIssues } from "../../sdk/schemas/meetings";
import type { AreaContext, AreaModule } from "../area";
import { EmulatorError, GENERIC_CODES, notFound, ok, paginate } from "../http";
import { MeetingsModel, view, type StoredMeeting } from "./state";

type AppRoute = { Params: { account_id: string; app_id: string } };
type MeetingRoute = { Params: { account_id: string; app_id: string; meeting_id: string } };

const BASE = "/accounts/:account_id/realtime/kit/:app_id/meetings";

type Issue = { path: readonly PropertyKey[]; message: string; code?: string; keys?: readonly string[] };

/** 400 with one entry per issue, `field: rule`; an unknown key is named as the field itself. */
function invalid(issues: readonly Issue[], prefix: readonly string[] = []): EmulatorError {
  return new EmulatorError(
    400,
    issues.flatMap((i) => {
      const base = [...prefix, ...i.path.map(String)];
      const fields = i.code === "unrecognized_keys" && i.keys ? i.keys.map((k) => [...base, k]) : [base];
      return fields.map((f) => ({
        code: GENERIC_CODES.badRequest,
        message: `${f.join(".") || "body"}: ${i.message}`,
      }));
    }),
  );
}

function parse<S extends z.ZodType>(schema: S, value: unknown, prefix: readonly string[] = []): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw invalid(r.error.issues, prefix);
  return r.data;
}

/** Listings carry both `paging` (the public API's) and `result_info` (the emulator's page-style info). */
function data(
  reply: FastifyReply,
  value: unknown,
  status = 200,
  resultInfo?: Record<string, unknown>,
  paging?: { total_count: number; start_offset: number; end_offset: number },
): FastifyReply {
  return reply.code(status).send({
    success: true,
    data: value,
    ...(paging ? { paging } : {}),
    ...(resultInfo ? { result_info: resultInfo } : {}),
  });
}

const ListStatusSchema = z
  .enum(["ACTIVE", "INACTIVE"], { error: 'must be "ACTIVE" or "INACTIVE"' })
  .optional();

function authorize(req: FastifyRequest<AppRoute>, ctx: AreaContext): void {
  ctx.auth.require(req, { accountId: req.params.account_id, any: ["realtime:admin", "realtime"] });
  parse(IdentifierSchema, req.params.app_id, ["app_id"]);
}

function apiRoutes(app: FastifyInstance, ctx: AreaContext, model: MeetingsModel): void {
  const find = (req: FastifyRequest<MeetingRoute>): StoredMeeting => {
    const { account_id, app_id, meeting_id } = req.params;
    const m = model.get(account_id, app_id, meeting_id);
    if (!m) throw notFound(`meeting ${meeting_id} in app ${app_id}`);
    return m;
  };

  app.post<AppRoute>(BASE, async (req, reply) => {
    authorize(req, ctx);
    const body = parse(MeetingCreateSchema, req.body ?? {});
    return data(reply, view(model.create(req.params.account_id, req.params.app_id, body)), 201);
  });

  app.get<AppRoute>(BASE, async (req, reply) => {
    authorize(req, ctx);
    const q = req.query as Record<string, string | undefined>;
    const status = parse(ListStatusSchema, q.status, ["status"]);
    const search = q.search?.toLowerCase();
    const meetings = model
      .list(req.params.account_id, req.params.app_id)
      .filter((m) => status === undefined || m.status === status)
      .filter((m) => search === undefined || (m.fields.title ?? "").toLowerCase().includes(search));
    // The public API pages with `page_no`; `page` is the emulator's own (sdk) spelling of the same.
    const page = paginate(meetings, { page: q.page_no ?? q.page, per_page: q.per_page });
    const start = (page.resultInfo.page! - 1) * page.resultInfo.per_page!;
    return data(reply, page.items.map(view), 200, page.resultInfo, {
      total_count: meetings.length,
      start_offset: start,
      end_offset: start + page.items.length,
    });
  });

  app.get<MeetingRoute>(`${BASE}/:meeting_id`, async (req, reply) => {
    authorize(req, ctx);
    return data(reply, view(find(req)));
  });

  app.patch<MeetingRoute>(`${BASE}/:meeting_id`, async (req, reply) => {
    authorize(req, ctx);
    const patch = parse(MeetingUpdateSchema, req.body ?? {});
    const m = find(req);
    const rules = meetingRuleIssues(model.merged(m, patch));
    if (rules.length) throw invalid(rules);
    return data(reply, view(model.update(m, patch)));
  });
}

function controlRoutes(app: FastifyInstance, model: MeetingsModel): void {
  // The stored meeting, write-only storage fields included: lets a test see what reached the service.
  app.get<MeetingRoute>("/accounts/:account_id/apps/:app_id/meetings/:meeting_id", async (req, reply) => {
    const { account_id, app_id, meeting_id } = req.params;
    const m = model.get(account_id, app_id, meeting_id);
    if (!m) throw notFound(`meeting ${meeting_id} in app ${app_id}`);
    return ok(reply, m);
  });
}

export const meetingsArea: AreaModule = {
  name: "meetings",
  api: (app, ctx) => apiRoutes(app, ctx, new MeetingsModel(ctx.store, () => ctx.clock.now())),
  control: (app, ctx) => controlRoutes(app, new MeetingsModel(ctx.store, () => ctx.clock.now())),
};
