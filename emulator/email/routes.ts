/**
 * HTTP layer of the email area: one thin handler per operation over ./state.
 *
 * Order of checks on a send (first failure wins), chosen so that nothing about the body is looked at
 * before the caller is known and admitted:
 *   forced upstream outage (10100) → credentials (10103, 10101) → account and permission (10102) →
 *   forced internal / not-implemented (10002, 10003) → entitlement (10105) → account switch (10203) →
 *   throttle (10004) → Content-Length present (10201) → size (10200) → content type and JSON (10001) →
 *   shape (10001) → content (10202) → sender domain known (10000) → domain switch (10203) → delivery.
 * Everything up to the size check runs in `preParsing`, before the body is read.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  EMAIL_ERRORS,
  EMAIL_MAX_BYTES,
  SendEmailShapeSchema,
  emailContentIssues,
} from "../../sdk/schemas/email";
import type { AreaContext, AreaModule } from "../area";
import { EmulatorError, envelope, notFound, ok, parseWith } from "../http";
import { EmailFailure, EmailModel, type EmailAccountState } from "./state";

type AccountParams = { Params: { account_id: string } };

const SEND_PATH = "/accounts/:account_id/email/sending/send";

/** Renders a table failure: one `errors[]` entry per detail, each with the table's exact message. */
function httpError(f: EmailFailure): EmulatorError {
  const row = EMAIL_ERRORS[f.code];
  const items = f.details.length
    ? f.details.map((detail) => ({ code: f.code, message: row.message, detail }))
    : [{ code: f.code, message: row.message }];
  return new EmulatorError(row.status, items, f.retryAfterS ? { "retry-after": String(f.retryAfterS) } : {});
}

function fail(code: EmailFailure["code"], ...details: string[]): EmulatorError {
  return httpError(new EmailFailure(code, details));
}

/** Runs a model call, turning its table failures into HTTP errors. */
function run<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw err instanceof EmailFailure ? httpError(err) : err;
  }
}

/** One line per issue, `field: rule`; an unknown key is named as the field itself. */
function issueLines(
  issues: readonly {
    path: readonly PropertyKey[];
    message: string;
    code?: string;
    keys?: readonly string[];
  }[],
): string[] {
  return issues.flatMap((i) => {
    const base = i.path.map(String);
    const fields = i.code === "unrecognized_keys" && i.keys ? i.keys.map((k) => [...base, k]) : [base];
    return fields.map((f) => `${f.join(".") || "body"}: ${i.message}`);
  });
}

/** Credentials, account and permission: every failure mapped to the email table. */
function authenticate(req: FastifyRequest<AccountParams>, ctx: AreaContext): void {
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
    accountId: req.params.account_id,
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
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (req, body, done) => {
    const buf = body as Buffer;
    (req as { emailBytes?: number }).emailBytes = buf.length;
    if (buf.length > EMAIL_MAX_BYTES) {
      return done(
        fail(10200, `body: must be at most ${EMAIL_MAX_BYTES} bytes; it is ${buf.length} bytes`),
        undefined,
      );
    }
    const text = buf.toString("utf8");
    if (text.trim() === "") return done(null, undefined);
    try {
      return done(null, JSON.parse(text));
    } catch {
      return done(fail(10001, "body: malformed JSON"), undefined);
    }
  });

  app.post<AccountParams>(SEND_PATH, {
    preParsing: async (req, _reply, payload) => {
      const accountId = req.params.account_id;
      run(() => model.takeForced(accountId, ["upstream_auth"]));
      authenticate(req, ctx);
      run(() => model.takeForced(accountId, ["internal", "not_implemented"]));
      run(() => model.admit(accountId));
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
      return payload;
    },
    handler: async (req, reply) => {
      const shape = SendEmailShapeSchema.safeParse(req.body);
      if (!shape.success) throw fail(10001, ...issueLines(shape.error.issues));
      const content = emailContentIssues(shape.data);
      if (content.length) throw fail(10202, ...issueLines(content));
      const bytes = (req as { emailBytes?: number }).emailBytes ?? Number(req.headers["content-length"] ?? 0);
      const entry = run(() => model.send(req.params.account_id, shape.data, bytes));
      // The emulator keeps no suppression list, so `suppressed_recipients` (public client's field) is empty.
      return reply
        .code(200)
        .send(envelope({ ...entry.result, suppressed_recipients: [], message_id: entry.message_id }));
    },
  });

  // The send path answers only POST; other methods are an operation the service does not implement.
  app.route<AccountParams>({
    method: ["GET", "PUT", "PATCH", "DELETE"],
    url: SEND_PATH,
    handler: async (req) => {
      authenticate(req, ctx);
      throw fail(10003, `${req.method}: only POST is implemented on this path`);
    },
  });

  // Anything else under email/sending is a resource the service does not have.
  app.route<AccountParams>({
    method: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    url: "/accounts/:account_id/email/sending/*",
    handler: async (req) => {
      authenticate(req, ctx);
      throw fail(10000, `path: no such email resource ${req.url.split("?")[0]}`);
    },
  });
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

type DomainParams = { Params: { account_id: string; domain: string } };

function controlRoutes(app: FastifyInstance, model: EmailModel): void {
  app.get<AccountParams>("/accounts/:account_id", async (req, reply) =>
    ok(reply, publicAccount(model.account(req.params.account_id))),
  );
  app.patch<AccountParams>("/accounts/:account_id", async (req, reply) => {
    const patch = parseWith(AccountPatchSchema, req.body ?? {});
    const acct = model.account(req.params.account_id);
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
    return ok(reply, publicAccount(acct));
  });
  app.put<DomainParams>("/accounts/:account_id/domains/:domain", async (req, reply) => {
    const domain = parseWith(DomainNameSchema, req.params.domain);
    const body = parseWith(DomainBodySchema, req.body);
    return ok(reply, model.putDomain(req.params.account_id, domain, body?.sending_disabled ?? false));
  });
  app.delete<DomainParams>("/accounts/:account_id/domains/:domain", async (req, reply) => {
    if (!model.deleteDomain(req.params.account_id, req.params.domain))
      throw notFound(`domain ${req.params.domain}`);
    return ok(reply, null);
  });
  app.get<AccountParams>("/accounts/:account_id/outbox", async (req, reply) =>
    ok(reply, model.account(req.params.account_id).outbox),
  );
  app.delete<AccountParams>("/accounts/:account_id/outbox", async (req, reply) => {
    model.account(req.params.account_id).outbox = [];
    return ok(reply, null);
  });
}

export const emailArea: AreaModule = {
  name: "email",
  api: (app, ctx) => sendRoutes(app, ctx, new EmailModel(ctx.store, () => ctx.clock.now())),
  control: (app, ctx) => controlRoutes(app, new EmailModel(ctx.store, () => ctx.clock.now())),
};
