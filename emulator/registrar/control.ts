/**
 * Control routes under /__emulator/registrar: seed registrations, simulate changes made outside the
 * program (the public PATCH only changes auto_renew), steer workflows into any state of the table,
 * resolve an action_required, and mark names taken. Unauthenticated, like the rest of the control API.
 */
import { z } from "zod";
import type { AreaPlugin } from "../area";
import { ok, parseWith } from "../http";
import {
  ContactsSchema,
  DomainNameSchema,
  PRIVACY_MODES,
  REGISTRATION_STATUSES,
  WORKFLOW_KINDS,
  WORKFLOW_STATES,
  YearsSchema,
  type WorkflowKind,
} from "../../sdk/schemas/registrar";
import {
  DEFAULT_SEARCH_EXTENSIONS,
  EXTENSIONS,
  PREMIUM_NAMES,
  RECENTLY_TAKEN_NAMES,
  TAKEN_NAMES,
  UNSUPPORTED,
} from "./catalogue";
import { REGISTRAR_CODES, invalid } from "./errors";
import { Registrar } from "./state";
import { renderRegistration, renderWorkflow } from "./views";
import { SCENARIOS } from "./workflow";

const SeedSchema = z.strictObject({
  domain_name: DomainNameSchema,
  years: YearsSchema.optional(),
  auto_renew: z.boolean().optional(),
  privacy_mode: z.enum(PRIVACY_MODES).optional(),
  locked: z.boolean().optional(),
  contacts: ContactsSchema.optional(),
});

const BulkSeedSchema = z.strictObject({
  count: z.number().int().min(1, "must be between 1 and 1000").max(1000, "must be between 1 and 1000"),
  prefix: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,40}$/, "must be a label start: letters, digits, hyphens")
    .optional(),
  extension: z
    .string()
    .regex(/^[a-z]{2,63}$/, "must be an extension such as com")
    .optional(),
});

const OutOfBandSchema = z.strictObject({
  auto_renew: z.boolean().optional(),
  locked: z.boolean().optional(),
  privacy_mode: z.enum(PRIVACY_MODES).optional(),
  status: z.enum(REGISTRATION_STATUSES).optional(),
  expires_at: z.iso.datetime("must be an ISO 8601 date-time").nullable().optional(),
});

const ForceSchema = z.strictObject({
  state: z.enum(WORKFLOW_STATES),
  action: z.string().min(1, "must not be empty").optional(),
  error: z.strictObject({ code: z.string().min(1), message: z.string().min(1) }).optional(),
});

const ArmSchema = z.strictObject({
  domain_name: DomainNameSchema,
  kind: z.enum(WORKFLOW_KINDS),
  scenario: z.enum(SCENARIOS),
});

const TakenSchema = z.strictObject({ domain_name: DomainNameSchema });

type DomainParams = { Params: { domain_name: string } };
type WorkflowParams = { Params: { domain_name: string; kind: string } };

function kindOf(value: string): WorkflowKind {
  if (!(WORKFLOW_KINDS as readonly string[]).includes(value)) {
    throw invalid(`kind: must be one of ${WORKFLOW_KINDS.map((k) => `"${k}"`).join(", ")}`);
  }
  return value as WorkflowKind;
}

export const registrarControl: AreaPlugin = (app, ctx) => {
  const model = new Registrar(ctx.store, ctx.clock);
  const code = REGISTRAR_CODES.invalidRequest;
  const renderWf = (kind: WorkflowKind, domain: string) => {
    const w = model.workflow(kind, domain);
    const self =
      `${ctx.origin()}/client/v4/accounts/${encodeURIComponent(ctx.store.accountId)}/registrar/registrations/` +
      `${encodeURIComponent(w.domain_name)}/${kind === "registration" ? "registration-status" : "update-status"}`;
    return renderWorkflow(w, model.now(), self, () =>
      model.isRegistered(w.domain_name) ? model.get(w.domain_name) : undefined,
    );
  };

  app.get("/catalogue", async (_req, reply) =>
    ok(reply, {
      extensions: EXTENSIONS,
      default_search_extensions: DEFAULT_SEARCH_EXTENSIONS,
      unsupported: UNSUPPORTED,
      premium: PREMIUM_NAMES,
      taken: [...TAKEN_NAMES, ...model.data.taken],
      recently_taken: RECENTLY_TAKEN_NAMES,
      name_patterns: {
        "premium-*": "premium",
        "taken-*": "taken elsewhere",
        "stale-*": "search says registrable, check says domain_unavailable",
        "action-*": "registration workflow stops at action_required",
        "blocked-*": "registration workflow is blocked for a while, then succeeds",
        "fail-*": "registration workflow fails",
      },
    }),
  );

  app.post("/registrations", async (req, reply) => {
    const body = parseWith(SeedSchema, req.body, code);
    return ok(reply, renderRegistration(model.seed(body)), { status: 201 });
  });

  app.post("/seed", async (req, reply) => {
    const body = parseWith(BulkSeedSchema, req.body, code);
    const names: string[] = [];
    for (let i = 0; names.length < body.count; i++) {
      const name = `${body.prefix ?? "seeded"}-${i}.${body.extension ?? "com"}`;
      if (model.isRegistered(name)) continue;
      model.seed({ domain_name: name });
      names.push(name);
    }
    return ok(reply, { registered: names.length, total: model.count() }, { status: 201 });
  });

  app.patch<DomainParams>("/registrations/:domain_name", async (req, reply) => {
    const body = parseWith(OutOfBandSchema, req.body, code);
    return ok(reply, renderRegistration(model.outOfBand(req.params.domain_name, body)));
  });

  app.delete<DomainParams>("/registrations/:domain_name", async (req, reply) => {
    model.release(req.params.domain_name);
    return ok(reply, null);
  });

  app.post<WorkflowParams>("/workflows/:domain_name/:kind/state", async (req, reply) => {
    const kind = kindOf(req.params.kind);
    const body = parseWith(ForceSchema, req.body, code);
    model.forceState(kind, req.params.domain_name, body.state, body);
    return ok(reply, renderWf(kind, req.params.domain_name));
  });

  app.post<WorkflowParams>("/workflows/:domain_name/:kind/resolve", async (req, reply) => {
    const kind = kindOf(req.params.kind);
    model.resolveAction(kind, req.params.domain_name);
    return ok(reply, renderWf(kind, req.params.domain_name));
  });

  app.post("/scenarios", async (req, reply) => {
    const body = parseWith(ArmSchema, req.body, code);
    model.arm(body.kind, body.domain_name, body.scenario);
    return ok(reply, body);
  });

  app.post("/taken", async (req, reply) => {
    const body = parseWith(TakenSchema, req.body, code);
    model.markTaken(body.domain_name);
    return ok(reply, body);
  });
};
