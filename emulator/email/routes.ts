/**
 * HTTP layer of the email area: one thin handler per operation over ./state.
 *
 * Order of checks on a send (first failure wins), chosen so that nothing about the body is looked at
 * before the caller is known and admitted:
 *   forced upstream outage (10100) → credentials (10103, 10101) → account and permission (10102) →
 *   forced internal / not-implemented (10002, 10003) → entitlement (10105) → account switch (10203) →
 *   throttle (10004) → Content-Length present (10201) → size (10200) → content type and JSON (10001) →
 *   shape (10001) → content (10202) → sender domain known (10000) → domain switch (10203) → delivery.
 * Everything up to the size check runs before the body is read (the area's auth, then `beforeBody`).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  EMAIL_MAX_BYTES,
  SendEmailResultSchema,
  SendEmailShapeSchema,
  SendRawEmailShapeSchema,
  emailContentIssues,
  rawContentIssues,
  type ContentIssue,
  type EmailErrorCode,
} from "../../sdk/schemas/email";
import type { AreaContext, AreaModule } from "../area";
import * as G from "../../sdk/generated/email";
import { AccountParams, defineArea, defineControl, orEmpty } from "../define";
import { ContentModel } from "../content/state";
import { DomainError, notFound, parseJsonBody } from "../http";
import { listedEntry, outboxRoutes } from "./outbox-routes";
import { subdomainRoutes, suppressionRoutes, type EmailWording } from "./family-routes";
import {
  EmailFailure,
  EmailModel,
  type EmailAccountState,
  type OutboxEntry,
  type SubdomainRecord,
} from "./state";

const SEND_PATH = "/accounts/:account_id/email/sending/send";
const SEND_RAW_PATH = "/accounts/:account_id/email/sending/send_raw";
/** Every route needs email:send; only a send may meet a forced upstream outage. */
type Operation = "send" | "refuse";

function fail(code: EmailErrorCode, ...details: string[]): EmailFailure {
  return new EmailFailure(code, details);
}

/** Forced upstream outage, then credentials, account and permission: every failure from the email table. */
function authenticate(
  req: FastifyRequest,
  ctx: AreaContext,
  model: EmailModel,
  op: Operation,
  accountId?: string,
): void {
  if (op === "send" && accountId !== undefined) model.takeForced(accountId, ["upstream_auth"]);
  const header = req.headers.authorization;
  if (!header && (req.headers["x-auth-key"] !== undefined || req.headers["x-auth-email"] !== undefined)) {
    throw fail(
      10103,
      "authorization: a global API key is not accepted here; send an API token as a Bearer token",
    );
  }
  if (header !== undefined && !/^Bearer\s/i.test(header)) {
    throw fail(10103, "authorization: must be a Bearer API token");
  }
  ctx.auth.require(req, {
    ...(accountId !== undefined ? { accountId } : {}),
    all: ["email:send"],
    errors: {
      missing: () => fail(10101, "authorization: token missing"),
      invalid: () => fail(10101, "authorization: token invalid"),
      bad_scope: () => fail(10103, "authorization: wrong token type"),
      wrong_account: () => fail(10102, "account: the token does not belong to this account"),
      forbidden: () => fail(10102, "authorization: the token lacks the email:send permission"),
    },
  });
}

function sendRoutes(app: FastifyInstance, ctx: AreaContext, model: EmailModel): void {
  // The size rule counts the body's bytes as sent, so this scope reads JSON as a buffer itself.
  const sizes = new WeakMap<FastifyRequest, number>();
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (req, body, done) => {
    const size = Buffer.byteLength(body);
    sizes.set(req, size);
    if (size > EMAIL_MAX_BYTES) {
      return done(
        fail(10200, `body: must be at most ${EMAIL_MAX_BYTES} bytes; it is ${size} bytes`),
        undefined,
      );
    }
    try {
      return done(null, parseJsonBody(body.toString("utf8")));
    } catch (e) {
      return done(e instanceof Error ? e : new Error(String(e)), undefined);
    }
  });

  const wording: EmailWording = {
    envelope: "result",
    invalid: (lines) => fail(10001, ...lines),
    // An injected 429 or 5xx speaks the email table too (its status stays the injected one).
    fault: (status) =>
      new DomainError(status, fail(status === 429 ? 10004 : status === 503 ? 10100 : 10002).errors),
  };
  const familyAuth = (req: FastifyRequest, accountId?: string): void =>
    authenticate(req, ctx, model, "refuse", accountId);
  subdomainRoutes(app, ctx, model, wording, familyAuth);
  suppressionRoutes(app, model, wording, familyAuth);
  const area = defineArea(app, {
    ...wording,
    auth: (req, op: Operation, params: { account_id: string }) =>
      authenticate(req, ctx, model, op, params.account_id),
  });

  /** Everything up to the size check is decided before the body is read. */
  const beforeBody = (req: FastifyRequest, { account_id: accountId }: { account_id: string }): void => {
    model.takeForced(accountId, ["internal", "not_implemented"]);
    model.admit(accountId);
    const length = req.headers["content-length"];
    if (length === undefined)
      throw fail(10201, "content-length: header required (chunked bodies are refused)");
    if (Number(length) > EMAIL_MAX_BYTES) {
      throw fail(10200, `body: must be at most ${EMAIL_MAX_BYTES} bytes; it is ${length} bytes`);
    }
    const type = req.headers["content-type"] ?? "";
    if (Number(length) > 0 && !/^application\/json\s*(;|$)/i.test(type)) {
      throw fail(10001, "content-type: must be application/json");
    }
  };
  const contentFailure = (issues: readonly ContentIssue[]): void => {
    if (issues.length) throw fail(10202, ...issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`));
  };
  const bytesOf = (req: FastifyRequest): number =>
    sizes.get(req) ?? Number(req.headers["content-length"] ?? 0);
  // `suppressed_recipients` (the public client's field): those a dropping sending subdomain left out.
  const answerOf = (entry: OutboxEntry) => ({
    ...entry.result,
    suppressed_recipients: entry.result.suppressed_recipients ?? [],
    message_id: entry.message_id,
  });

  const sending = { response: SendEmailResultSchema, permissions: "send", beforeBody } as const;
  const send = { ...sending, params: G.EmailSendingAccountSendBuilderPath, body: SendEmailShapeSchema };
  // A sending subdomain of one of the account's zones is a sender domain too (issue 26).
  const zones = new ContentModel(ctx.store, ctx.clock);
  const subdomainsOf = (accountId: string): SubdomainRecord[] =>
    model.subdomainsOf(zones.listZones(accountId).map((z) => z.id));
  area.post(SEND_PATH, send, ({ params, body, req }) => {
    contentFailure(emailContentIssues(body));
    return answerOf(model.send(params.account_id, body, bytesOf(req), subdomainsOf(params.account_id)));
  });
  const sendRaw = {
    ...sending,
    params: G.EmailSendingAccountSendRawMessagePath,
    body: SendRawEmailShapeSchema,
  };
  area.post(SEND_RAW_PATH, sendRaw, ({ params, body, req }) => {
    contentFailure(rawContentIssues(body));
    return answerOf(model.sendRaw(params.account_id, body, bytesOf(req), subdomainsOf(params.account_id)));
  });

  // The send paths answer only POST; other methods are an operation the service does not implement.
  for (const [url, params] of [
    [SEND_PATH, G.EmailSendingAccountSendBuilderPath],
    [SEND_RAW_PATH, G.EmailSendingAccountSendRawMessagePath],
  ] as const)
    area.route(["GET", "PUT", "PATCH", "DELETE"], url, { params, permissions: "refuse" }, ({ req }) => {
      throw fail(10003, `${req.method}: only POST is implemented on this path`);
    });

  // Anything else under email/sending is a resource the service does not have (the path's `*` is a
  // parameter too, so the account's own schema, which passes other keys over, reads it).
  area.route(
    ["GET", "POST", "PUT", "PATCH", "DELETE"],
    "/accounts/:account_id/email/sending/*",
    { params: AccountParams, permissions: "refuse" },
    ({ req }) => {
      throw fail(10000, `path: no such email resource ${req.url.split("?")[0]}`);
    },
  );
}

const DomainNameSchema = z
  .string()
  .max(253, "must be at most 253 characters")
  .regex(
    /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/,
    "must be a domain name (label.tld)",
  );

const AccountPatchSchema = z.strictObject({
  entitled: z.boolean().optional(),
  sending_disabled: z.boolean().optional(),
  throttle: z
    .strictObject({
      limit: z.number().int().min(1, "must be at least 1"),
      window_ms: z.number().int().min(1, "must be at least 1"),
    })
    .nullable()
    .optional(),
  forced_failure: z
    .strictObject({
      kind: z.enum(["internal", "not_implemented", "upstream_auth"]),
      /** How many sends fail; omitted means every send until cleared. */
      times: z.number().int().min(1, "must be at least 1").optional(),
    })
    .nullable()
    .optional(),
});

const DomainBodySchema = z.strictObject({ sending_disabled: z.boolean().optional() }).optional();

function publicAccount(a: EmailAccountState): Omit<EmailAccountState, "outbox" | "recent_sends"> {
  const { outbox: _outbox, recent_sends: _recent, ...rest } = a;
  return rest;
}

function controlRoutes(app: FastifyInstance, model: EmailModel): void {
  const control = defineControl(app);
  const Account = z.object({ account_id: z.string() });
  const Domain = Account.extend({ domain: z.string() });
  control.get("/accounts/:account_id", { params: Account, permissions: undefined }, ({ params }) =>
    publicAccount(model.account(params.account_id)),
  );
  control.patch(
    "/accounts/:account_id",
    { params: Account, body: orEmpty(AccountPatchSchema), permissions: undefined },
    ({ params, body: patch }) => {
      const acct = model.account(params.account_id);
      if (patch.entitled !== undefined) acct.entitled = patch.entitled;
      if (patch.sending_disabled !== undefined) acct.sending_disabled = patch.sending_disabled;
      if (patch.throttle !== undefined) {
        acct.throttle = patch.throttle;
        acct.recent_sends = [];
      }
      if (patch.forced_failure !== undefined) {
        acct.forced_failure = patch.forced_failure
          ? { kind: patch.forced_failure.kind, remaining: patch.forced_failure.times ?? null }
          : null;
      }
      return publicAccount(acct);
    },
  );
  control.put(
    "/accounts/:account_id/domains/:domain",
    { params: Account.extend({ domain: DomainNameSchema }), body: DomainBodySchema, permissions: undefined },
    ({ params, body }) => model.putDomain(params.account_id, params.domain, body?.sending_disabled ?? false),
  );
  control.delete(
    "/accounts/:account_id/domains/:domain",
    { params: Domain, permissions: undefined },
    ({ params }) => {
      if (!model.deleteDomain(params.account_id, params.domain)) throw notFound(`domain ${params.domain}`);
      return null;
    },
  );
  control.get("/accounts/:account_id/outbox", { params: Account, permissions: undefined }, ({ params }) =>
    model.account(params.account_id).outbox.map(listedEntry),
  );
  control.delete(
    "/accounts/:account_id/outbox",
    { params: Account, permissions: undefined },
    ({ params }) => {
      model.account(params.account_id).outbox = [];
      return null;
    },
  );
  outboxRoutes(app, model);
}

export const emailArea: AreaModule = {
  name: "email",
  api: (app, ctx) => sendRoutes(app, ctx, new EmailModel(ctx.store, () => ctx.clock.now())),
  control: (app, ctx) => controlRoutes(app, new EmailModel(ctx.store, () => ctx.clock.now())),
};
