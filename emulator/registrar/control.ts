/**
 * Control routes under /__emulator/registrar: seed registrations, simulate changes made outside the
 * program (the public PATCH only changes auto_renew), steer workflows into any state of the table,
 * resolve an action_required, and mark names taken. Unauthenticated, like the rest of the control API.
 */
import { z } from "zod";
import type { AreaPlugin } from "../area";
import { NoParams, answer, defineControl } from "../define";
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

import { REGISTRAR_CODES, Registrar } from "./state";
import { renderRegistration, renderWorkflow, workflowLinks } from "./views";
import { CONSOLE_MOVES, SCENARIOS, waitingOn } from "./workflow";

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

const MoveSchema = z.strictObject({
  state: z.enum(CONSOLE_MOVES, { error: `must be one of ${CONSOLE_MOVES.map((s) => `"${s}"`).join(", ")}` }),
});

const TakenSchema = z.strictObject({ domain_name: DomainNameSchema });

const Domain = z.object({ domain_name: z.string() });
const Workflow = Domain.extend({
  kind: z.enum(WORKFLOW_KINDS, { error: `must be one of ${WORKFLOW_KINDS.map((k) => `"${k}"`).join(", ")}` }),
});

export const registrarControl: AreaPlugin = (app, ctx) => {
  // The control API acts on the emulator's own account.
  const model = new Registrar(ctx.store, ctx.clock, ctx.store.accountId);
  const control = defineControl(app, REGISTRAR_CODES.invalidRequest);
  const none = { params: NoParams, permissions: undefined };
  const renderWf = (kind: WorkflowKind, domain: string) => {
    const w = model.workflow(kind, domain);
    return renderWorkflow(w, model.now(), workflowLinks(ctx.origin(), ctx.store.accountId, w), () =>
      model.isRegistered(w.domain_name) ? model.get(w.domain_name) : undefined,
    );
  };

  control.get("/catalogue", none, () => ({
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
  }));

  // The console's registrar page: the account's registrations, and every workflow with what it waits on.
  control.get("/registrations", none, () => model.list().map(renderRegistration));

  control.get("/workflows", none, () =>
    model.workflows().map((w) => ({
      kind: w.kind,
      ...renderWf(w.kind, w.domain_name),
      waiting_on: waitingOn(w, model.now()) ?? null,
    })),
  );

  // A move from the console's buttons: only the ones the workflow's rules allow (a 409 otherwise).
  control.post(
    "/workflows/:domain_name/:kind/move",
    { params: Workflow, body: MoveSchema, permissions: undefined },
    ({ params, body }) => {
      model.move(params.kind, params.domain_name, body.state);
      return renderWf(params.kind, params.domain_name);
    },
  );

  control.post("/registrations", { ...none, body: SeedSchema }, ({ body }) =>
    answer(renderRegistration(model.seed(body)), { status: 201 }),
  );

  control.post("/seed", { ...none, body: BulkSeedSchema }, ({ body }) => {
    const names: string[] = [];
    for (let i = 0; names.length < body.count; i++) {
      const name = `${body.prefix ?? "seeded"}-${i}.${body.extension ?? "com"}`;
      if (model.isRegistered(name)) continue;
      model.seed({ domain_name: name });
      names.push(name);
    }
    return answer({ registered: names.length, total: model.count() }, { status: 201 });
  });

  control.patch(
    "/registrations/:domain_name",
    { params: Domain, body: OutOfBandSchema, permissions: undefined },
    ({ params, body }) => renderRegistration(model.outOfBand(params.domain_name, body)),
  );

  control.delete("/registrations/:domain_name", { params: Domain, permissions: undefined }, ({ params }) => {
    model.release(params.domain_name);
    return null;
  });

  control.post(
    "/workflows/:domain_name/:kind/state",
    { params: Workflow, body: ForceSchema, permissions: undefined },
    ({ params, body }) => {
      model.forceState(params.kind, params.domain_name, body.state, body);
      return renderWf(params.kind, params.domain_name);
    },
  );

  control.post(
    "/workflows/:domain_name/:kind/resolve",
    { params: Workflow, permissions: undefined },
    ({ params }) => {
      model.resolveAction(params.kind, params.domain_name);
      return renderWf(params.kind, params.domain_name);
    },
  );

  control.post("/scenarios", { ...none, body: ArmSchema }, ({ body }) => {
    model.arm(body.kind, body.domain_name, body.scenario);
    return body;
  });

  control.post("/taken", { ...none, body: TakenSchema }, ({ body }) => {
    model.markTaken(body.domain_name);
    return body;
  });
};
