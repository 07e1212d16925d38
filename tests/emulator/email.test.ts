import { strict as assert } from "node:assert";
import { Readable } from "node:stream";
import { request } from "undici";
import {
  AuthenticationError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ValidationError,
} from "../../sdk";
import {
  EMAIL_ERRORS,
  EMAIL_MAX_BYTES,
  EmailErrorCode,
  emailError,
  type SendEmailBody,
} from "../../sdk/email";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

type Envelope = {
  success: boolean;
  errors: { code: number; message: string; detail?: string }[];
  messages: unknown[];
  result: unknown;
};

const BASE: SendEmailBody = {
  from: "news@example.com",
  to: "ada@dest.test",
  subject: "Hello",
  text: "Hi there",
};

function sendPath(fx: EmulatorFixture, account = fx.em.accountId): string {
  return `/accounts/${account}/email/sending/send`;
}

function control(fx: EmulatorFixture, suffix = ""): string {
  return `/__emulator/email/accounts/${fx.em.accountId}${suffix}`;
}

async function addDomain(
  fx: EmulatorFixture,
  domain = "example.com",
  sendingDisabled = false,
): Promise<void> {
  const res = await fx.http("PUT", control(fx, `/domains/${domain}`), {
    body: { sending_disabled: sendingDisabled },
  });
  assert.equal(res.status, 200, res.text);
}

async function setAccount(fx: EmulatorFixture, patch: Record<string, unknown>): Promise<void> {
  const res = await fx.http("PATCH", control(fx), { body: patch });
  assert.equal(res.status, 200, res.text);
}

function emailRequests(fx: EmulatorFixture): number {
  return fx.em.requestLog.filter((r) => r.url.includes("/email/sending/")).length;
}

/** Asserts the exact table row: HTTP status, code, message; and that some detail mentions `detail`. */
function assertRow(
  res: { status: number; json: unknown },
  code: EmailErrorCode,
  detail?: string | RegExp,
): Envelope["errors"] {
  const body = res.json as Envelope;
  const row = EMAIL_ERRORS[code];
  assert.equal(res.status, row.status, JSON.stringify(body));
  assert.equal(body.success, false);
  assert.equal(body.result, null);
  assert.ok(body.errors.length >= 1);
  for (const e of body.errors) {
    assert.equal(e.code, code);
    assert.equal(e.message, row.message);
  }
  if (detail !== undefined) {
    const details = body.errors.map((e) => e.detail ?? "");
    assert.ok(
      details.some((d) => (typeof detail === "string" ? d.includes(detail) : detail.test(d))),
      `no detail matching ${String(detail)} in ${JSON.stringify(details)}`,
    );
  }
  return body.errors;
}

/** A body whose JSON is exactly `bytes` long, padding the text part. */
function bodyOfSize(bytes: number): Record<string, unknown> {
  const base = { from: "news@example.com", to: "ada@dest.test", subject: "Big", text: "" };
  const overhead = Buffer.byteLength(JSON.stringify(base));
  return { ...base, text: "a".repeat(bytes - overhead) };
}

async function expectValidation(p: Promise<unknown>, field: string, rule: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof ValidationError, String(e));
    assert.ok(
      e.issues.some((i) => i.field === field && rule.test(i.rule)),
      `expected ${field}: ${String(rule)}, got ${JSON.stringify(e.issues)}`,
    );
    return true;
  });
}

describe("email: sending", () => {
  const fx = useEmulator();

  describe("success", () => {
    beforeEach(() => addDomain(fx));

    it("delivers, bounces and queues each recipient by its local part and returns a message id", async () => {
      const res = await fx.api.email.sending.send(
        {},
        {
          from: { address: "news@example.com", name: "News" },
          to: ["ada@dest.test", "bounce-1@dest.test"],
          cc: "queue.me@dest.test",
          bcc: ["BOUNCE@dest.test"],
          reply_to: "replies@example.com",
          subject: "Launch",
          html: "<p>hi</p>",
        },
      );
      assert.deepEqual(res.delivered, ["ada@dest.test"]);
      assert.deepEqual(res.permanentBounces, ["bounce-1@dest.test", "BOUNCE@dest.test"]);
      assert.deepEqual(res.queued, ["queue.me@dest.test"]);
      assert.match(res.messageId ?? "", /^<\d+\.emulator@example\.com>$/);
    });

    it("speaks the standard envelope on the wire and records the message in the outbox", async () => {
      const body = {
        ...BASE,
        to: ["ada@dest.test", "ADA@dest.test"],
        headers: { "In-Reply-To": "<1@x.test>", "X-Campaign": "spring" },
        attachments: [
          {
            content: Buffer.from("hello").toString("base64"),
            filename: "a.txt",
            type: "text/plain",
            disposition: "attachment",
          },
          {
            content: "iVBORw==",
            filename: "logo.png",
            type: "image/png",
            disposition: "inline",
            content_id: "logo",
          },
        ],
      };
      const res = await fx.http("POST", sendPath(fx), { body });
      assert.equal(res.status, 200);
      const env = res.json as Envelope & { result: Record<string, unknown> };
      assert.equal(env.success, true);
      assert.deepEqual(env.errors, []);
      assert.deepEqual(env.messages, []);
      // the same address twice is one recipient, reported as first written
      assert.deepEqual(env.result.delivered, ["ada@dest.test"]);
      assert.deepEqual(env.result.permanent_bounces, []);
      assert.deepEqual(env.result.queued, []);
      assert.equal(typeof env.result.message_id, "string");

      const outbox = await fx.http("GET", control(fx, "/outbox"));
      const entries = (outbox.json as { result: Record<string, unknown>[] }).result;
      assert.equal(entries.length, 1);
      const entry = entries[0]!;
      assert.equal(entry.message_id, env.result.message_id);
      assert.equal(entry.from, "news@example.com");
      assert.equal(entry.bytes, Buffer.byteLength(JSON.stringify(body)));
      assert.equal(entry.accepted_at, "2026-01-01T00:00:00.000Z");
      const msg = entry.message as { attachments: { size: number; filename: string }[]; headers: unknown };
      assert.deepEqual(
        msg.attachments.map((a) => [a.filename, a.size]),
        [
          ["a.txt", 5],
          ["logo.png", 4],
        ],
      );
      assert.deepEqual(msg.headers, body.headers);

      const cleared = await fx.http("DELETE", control(fx, "/outbox"));
      assert.equal(cleared.status, 200);
      const after = await fx.http("GET", control(fx, "/outbox"));
      assert.deepEqual((after.json as { result: unknown[] }).result, []);
    });

    it("takes named recipients ({ address, name? }) in to, cc and bcc, alone or in a list, end to end", async () => {
      const res = await fx.api.email.sending.send(
        {},
        {
          ...BASE,
          to: [{ address: "ada@dest.test", name: "Ada" }, "grace@dest.test"],
          cc: { address: "queue.cc@dest.test" },
          bcc: [{ address: "bounce.bcc@dest.test", name: "Hidden" }],
        },
      );
      assert.deepEqual(res.delivered, ["ada@dest.test", "grace@dest.test"]);
      assert.deepEqual(res.queued, ["queue.cc@dest.test"]);
      assert.deepEqual(res.permanentBounces, ["bounce.bcc@dest.test"]);
      const outbox = await fx.http("GET", control(fx, "/outbox"));
      const [entry] = (outbox.json as { result: { to: string[]; cc: string[]; bcc: string[] }[] }).result;
      assert.deepEqual(
        [entry?.to, entry?.cc, entry?.bcc],
        [["ada@dest.test", "grace@dest.test"], ["queue.cc@dest.test"], ["bounce.bcc@dest.test"]],
      );
    });

    it("accepts a sender on a subdomain of a registered domain", async () => {
      const res = await fx.api.email.sending.send({}, { ...BASE, from: "a@mail.example.com" });
      assert.deepEqual(res.delivered, ["ada@dest.test"]);
    });

    it("accepts an account-scoped token that holds email:send", async () => {
      const token = fx.token("account", ["email:send"]);
      const res = await fx.client({ token }).email.sending.send({}, BASE);
      assert.deepEqual(res.delivered, ["ada@dest.test"]);
    });

    it("accepts a body of exactly 5 MiB as sent", async () => {
      const body = bodyOfSize(EMAIL_MAX_BYTES);
      assert.equal(Buffer.byteLength(JSON.stringify(body)), EMAIL_MAX_BYTES);
      const res = await fx.api.email.sending.send({}, body as SendEmailBody);
      assert.deepEqual(res.delivered, ["ada@dest.test"]);
      // the persisted outbox keeps 64 Ki characters of a body
      const outbox = await fx.http("GET", control(fx, "/outbox"));
      const entry = (outbox.json as { result: { bytes: number; message: { text: string } }[] }).result[0]!;
      assert.equal(entry.bytes, EMAIL_MAX_BYTES);
      assert.match(entry.message.text, /^a{65536}…\[\d+ more characters not kept\]$/);
    });

    it("is not retried by the sdk on a 5xx: a repeated send would deliver twice", async () => {
      await setAccount(fx, { forced_failure: { kind: "internal", times: 1 } });
      const api = fx.client({ retry: { maxRetries: 3, baseDelayMs: 1 } });
      await assert.rejects(api.email.sending.send({}, BASE), InternalServerError);
      assert.equal(emailRequests(fx), 1);
    });
  });

  describe("local validation (no request made)", () => {
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ["missing from", { from: undefined }, "from", /is required/],
      ["bad from", { from: "nobody" }, "from", /must be an email address/],
      [
        "named from with a bad address",
        { from: { address: "x@", name: "X" } },
        "from.address",
        /email address/,
      ],
      [
        "named from with an unknown field",
        { from: { address: "a@example.com", name: "A", nam: "x" } },
        "from.nam",
        /is not a known field/,
      ],
      [
        "named from without a name (the contract requires both)",
        { from: { address: "a@example.com" } },
        "from",
        /must be a string or an object/,
      ],
      [
        "a named recipient with a bad address",
        { to: [{ address: "nope", name: "A" }] },
        "to.0.address",
        /email address/,
      ],
      [
        "a named recipient with a line break in its name",
        { cc: { address: "c@dest.test", name: "C\r\nBcc: x@y.test" } },
        "cc.name",
        /line breaks/,
      ],
      [
        "a named recipient with an unknown field",
        { bcc: [{ address: "b@dest.test", nam: "B" }] },
        "bcc.0.nam",
        /is not a known field/,
      ],
      [
        "a reply_to list (the contract takes one)",
        { reply_to: ["r@example.com"] },
        "reply_to",
        /must be a string or an object/,
      ],
      ["missing to", { to: undefined }, "to", /is required/],
      ["empty to list", { to: [] }, "to", /at least one address/],
      ["bad second recipient", { to: ["ok@dest.test", "nope"] }, "to.1", /email address/],
      ["bad cc", { cc: 7 }, "cc", /must be a string or an object or an array/],
      ["bad bcc", { bcc: ["a@b"] }, "bcc.0", /email address/],
      [
        "bad reply_to",
        { reply_to: { address: "r@example.com", name: "a\nb" } },
        "reply_to.name",
        /line breaks/,
      ],
      ["missing subject", { subject: undefined }, "subject", /is required/],
      ["empty subject", { subject: "" }, "subject", /must not be empty/],
      ["subject with a line break", { subject: "a\r\nBcc: x@y.test" }, "subject", /line breaks/],
      ["unknown field", { priority: "high" }, "priority", /is not a known field/],
      ["neither html nor text", { text: undefined }, "text", /html or text is required/],
      ["empty text only", { text: "" }, "text", /html or text is required/],
      ["header not allowed", { headers: { Date: "today" } }, "headers.Date", /allowed-header list/],
      ["header set through a field", { headers: { Subject: "x" } }, "headers.Subject", /subject field/],
      ["reply-to header", { headers: { "Reply-To": "x@y.test" } }, "headers.Reply-To", /reply_to field/],
      [
        "header value with a line break",
        { headers: { "X-A": "1\r\nBcc: x@y.test" } },
        "headers.X-A",
        /line breaks/,
      ],
      ["header name with a colon", { headers: { "X:A": "1" } }, "headers.X:A", /header name/],
      ["headers not an object", { headers: "X-A: 1" }, "headers", /must be an object/],
    ];
    for (const [name, patch, field, rule] of cases) {
      it(`rejects ${name}`, async () => {
        await expectValidation(
          fx.api.email.sending.send({}, { ...BASE, ...patch } as SendEmailBody),
          field,
          rule,
        );
        assert.equal(emailRequests(fx), 0);
      });
    }

    const attachment = { content: "aGk=", filename: "a.txt", type: "text/plain", disposition: "attachment" };
    const attachmentCases: [string, Record<string, unknown>, string, RegExp][] = [
      ["missing content", { content: undefined }, "attachments.0.content", /is required/],
      ["bad base64", { content: "not base64!" }, "attachments.0.content", /must be base64/],
      ["base64 with whitespace", { content: "aGk=\n" }, "attachments.0.content", /must be base64/],
      ["missing filename", { filename: undefined }, "attachments.0.filename", /is required/],
      ["empty filename", { filename: "" }, "attachments.0.filename", /must not be empty/],
      ["bad type", { type: "text" }, "attachments.0.type", /media type/],
      ["missing disposition", { disposition: undefined }, "attachments.0.disposition", /is required/],
      [
        "bad disposition",
        { disposition: "download" },
        "attachments.0.disposition",
        /must be one of inline, attachment/,
      ],
      [
        "inline without content_id",
        { disposition: "inline" },
        "attachments.0.content_id",
        /required when disposition is inline/,
      ],
      ["unknown attachment field", { size: 2 }, "attachments.0.size", /is not a known field/],
    ];
    for (const [name, patch, field, rule] of attachmentCases) {
      it(`rejects an attachment with ${name}`, async () => {
        const p = fx.api.email.sending.send({}, {
          ...BASE,
          attachments: [{ ...attachment, ...patch }],
        } as SendEmailBody);
        await expectValidation(p, field, rule);
        assert.equal(emailRequests(fx), 0);
      });
    }

    it("rejects a body one byte over 5 MiB as sent, naming the size", async () => {
      const body = bodyOfSize(EMAIL_MAX_BYTES + 1);
      await expectValidation(
        fx.api.email.sending.send({}, body as SendEmailBody),
        "body",
        new RegExp(`at most ${EMAIL_MAX_BYTES} bytes .* it is ${EMAIL_MAX_BYTES + 1} bytes`),
      );
      assert.equal(emailRequests(fx), 0);
    });

    it("counts multi-byte characters and attachments' base64 toward the limit", async () => {
      // 2 MiB of "é" is 4 MiB of UTF-8; a 1 MiB file is about 1.33 MiB of base64: over 5 MiB together.
      const body = {
        ...BASE,
        text: "é".repeat(2 * 1024 * 1024),
        attachments: [
          {
            content: Buffer.alloc(1024 * 1024).toString("base64"),
            filename: "z.bin",
            type: "application/octet-stream",
            disposition: "attachment",
          },
        ],
      } as SendEmailBody;
      await expectValidation(fx.api.email.sending.send({}, body), "body", /at most 5242880 bytes/);
      assert.equal(emailRequests(fx), 0);
    });
  });

  describe("every row of the error table over HTTP", () => {
    beforeEach(() => addDomain(fx));

    it("10001: a missing field, named", async () => {
      const res = await fx.http("POST", sendPath(fx), {
        body: { to: "ada@dest.test", subject: "s", text: "t" },
      });
      assertRow(res, EmailErrorCode.InvalidRequestSchema, "from: is required");
    });

    it("10001: one entry per issue, each naming its field", async () => {
      const res = await fx.http("POST", sendPath(fx), {
        body: {
          from: "bad",
          to: ["a@dest.test", "b"],
          subject: "s",
          text: "t",
          headers: { Date: "x" },
          extra: 1,
        },
      });
      const errors = assertRow(res, EmailErrorCode.InvalidRequestSchema);
      const details = errors.map((e) => e.detail);
      assert.ok(details.includes("from: must be an email address (local@domain.tld)"), String(details));
      assert.ok(details.includes("to.1: must be an email address (local@domain.tld)"), String(details));
      assert.ok(
        details.some((d) => d?.startsWith("headers.Date: ")),
        String(details),
      );
      assert.ok(details.includes("extra: is not a known field"), String(details));
    });

    it("10001: attachment shape (inline needs content_id, disposition enum)", async () => {
      const res = await fx.http("POST", sendPath(fx), {
        body: {
          ...BASE,
          attachments: [
            { content: "aGk=", filename: "a", type: "text/plain", disposition: "inline" },
            { content: "aGk=", filename: "b", type: "text/plain", disposition: "download" },
          ],
        },
      });
      assertRow(
        res,
        EmailErrorCode.InvalidRequestSchema,
        "attachments.0.content_id: is required when disposition is inline",
      );
      assertRow(
        res,
        EmailErrorCode.InvalidRequestSchema,
        "attachments.1.disposition: must be one of inline, attachment",
      );
    });

    it("10001: malformed JSON, a non-JSON content type, an empty body", async () => {
      assertRow(await fx.http("POST", sendPath(fx), { body: "{not json" }), 10001, "body: malformed JSON");
      assertRow(
        await fx.http("POST", sendPath(fx), { body: "hello", headers: { "content-type": "text/plain" } }),
        10001,
        "content-type: must be application/json",
      );
      assertRow(await fx.http("POST", sendPath(fx)), 10001, "body: is required");
    });

    it("10200: a body over 5 MiB as sent, before it is read", async () => {
      const body = bodyOfSize(EMAIL_MAX_BYTES + 1);
      assertRow(await fx.http("POST", sendPath(fx), { body }), 10200, `it is ${EMAIL_MAX_BYTES + 1} bytes`);
      const outbox = await fx.http("GET", control(fx, "/outbox"));
      assert.deepEqual((outbox.json as { result: unknown[] }).result, []);
    });

    it("10201: a chunked body without Content-Length", async () => {
      const res = await request(fx.em.url + sendPath(fx), {
        method: "POST",
        headers: { authorization: `Bearer ${fx.em.token}`, "content-type": "application/json" },
        body: Readable.from([Buffer.from(JSON.stringify(BASE))]),
      });
      const json = (await res.body.json()) as Envelope;
      assertRow({ status: res.statusCode, json }, 10201, "content-length: header required");
    });

    it("10202: neither html nor text", async () => {
      const res = await fx.http("POST", sendPath(fx), { body: { ...BASE, text: undefined } });
      assertRow(res, EmailErrorCode.Invalid, "text: html or text is required");
    });

    it("10202: attachment content that is not base64", async () => {
      const res = await fx.http("POST", sendPath(fx), {
        body: {
          ...BASE,
          attachments: [{ content: "%%%", filename: "a", type: "text/plain", disposition: "attachment" }],
        },
      });
      assertRow(res, EmailErrorCode.Invalid, "attachments.0.content: must be base64");
    });

    it("10101: no token, and an unknown token", async () => {
      assertRow(await fx.http("POST", sendPath(fx), { body: BASE, token: null }), 10101, "token missing");
      assertRow(await fx.http("POST", sendPath(fx), { body: BASE, token: "nope" }), 10101, "token invalid");
    });

    it("10103: a credential that is not an API token (Basic scheme, global API key headers)", async () => {
      assertRow(
        await fx.http("POST", sendPath(fx), {
          body: BASE,
          token: null,
          headers: { authorization: "Basic dTpw" },
        }),
        10103,
        "must be a Bearer API token",
      );
      assertRow(
        await fx.http("POST", sendPath(fx), {
          body: BASE,
          token: null,
          headers: { "x-auth-email": "me@example.com", "x-auth-key": "abc" },
        }),
        10103,
        "global API key",
      );
    });

    it("10102: a token without email:send, and a token of another account", async () => {
      const token = fx.token("user", ["realtime"]);
      assertRow(await fx.http("POST", sendPath(fx), { body: BASE, token }), 10102, "email:send");
      assertRow(
        await fx.http("POST", sendPath(fx, "other-account"), { body: BASE }),
        10102,
        "does not belong",
      );
    });

    it("10105: an account not entitled to email sending", async () => {
      await setAccount(fx, { entitled: false });
      assertRow(await fx.http("POST", sendPath(fx), { body: BASE }), 10105, "not entitled");
    });

    it("10203: sending disabled for the account, then for the sender domain only", async () => {
      await setAccount(fx, { sending_disabled: true });
      assertRow(await fx.http("POST", sendPath(fx), { body: BASE }), 10203, "this account");
      await setAccount(fx, { sending_disabled: false });
      await addDomain(fx, "example.com", true);
      await addDomain(fx, "other.test");
      assertRow(await fx.http("POST", sendPath(fx), { body: BASE }), 10203, "domain example.com");
      const fine = await fx.http("POST", sendPath(fx), { body: { ...BASE, from: "a@other.test" } });
      assert.equal(fine.status, 200);
    });

    it("10000: a sender not on a domain of the account, and an unknown email resource", async () => {
      assertRow(
        await fx.http("POST", sendPath(fx), { body: { ...BASE, from: "a@elsewhere.test" } }),
        10000,
        "from: elsewhere.test is not a sending domain",
      );
      assertRow(
        await fx.http("GET", `/accounts/${fx.em.accountId}/email/sending/messages/1`),
        10000,
        "no such email resource",
      );
    });

    it("10004: throttled at N sends per window on the emulator clock, with Retry-After", async () => {
      await setAccount(fx, { throttle: { limit: 2, window_ms: 60_000 } });
      assert.equal((await fx.http("POST", sendPath(fx), { body: BASE })).status, 200);
      fx.clock.advance(10_000);
      assert.equal((await fx.http("POST", sendPath(fx), { body: BASE })).status, 200);
      const throttled = await fx.http("POST", sendPath(fx), { body: BASE });
      assertRow(throttled, 10004, "at most 2 sends per 60000 ms");
      assert.equal(throttled.headers["retry-after"], "50");
      fx.clock.advance(50_000);
      assert.equal((await fx.http("POST", sendPath(fx), { body: BASE })).status, 200);
      assertRow(await fx.http("POST", sendPath(fx), { body: BASE }), 10004);
    });

    it("10002, 10003, 10100: forced failures, for a number of sends or until cleared", async () => {
      await setAccount(fx, { forced_failure: { kind: "internal", times: 2 } });
      assertRow(await fx.http("POST", sendPath(fx), { body: BASE }), 10002);
      assertRow(await fx.http("POST", sendPath(fx), { body: BASE }), 10002);
      assert.equal((await fx.http("POST", sendPath(fx), { body: BASE })).status, 200);

      await setAccount(fx, { forced_failure: { kind: "not_implemented" } });
      assertRow(await fx.http("POST", sendPath(fx), { body: BASE }), 10003);
      assertRow(await fx.http("POST", sendPath(fx), { body: BASE }), 10003);

      await setAccount(fx, { forced_failure: { kind: "upstream_auth" } });
      // the authentication service is down, so even a missing token gets 503
      assertRow(await fx.http("POST", sendPath(fx), { body: BASE, token: null }), 10100);
      await setAccount(fx, { forced_failure: null });
      assert.equal((await fx.http("POST", sendPath(fx), { body: BASE })).status, 200);
    });

    it("words injected faults from the table, keeping the injected status", async () => {
      for (const [status, code] of [
        [429, 10004],
        [500, 10002],
        [503, 10100],
      ] as const) {
        fx.em.faults.add({ path: "/email/sending/send$", status, times: 1 });
        const res = await fx.http("POST", sendPath(fx), { body: BASE });
        assert.equal(res.status, status);
        const body = res.json as Envelope;
        assert.deepEqual(
          body.errors.map((e) => [e.code, e.message]),
          [[code, EMAIL_ERRORS[code].message]],
        );
      }
    });

    it("10003: a method other than POST on the send path", async () => {
      assertRow(await fx.http("GET", sendPath(fx)), 10003, "only POST is implemented");
      assertRow(await fx.http("GET", sendPath(fx), { token: null }), 10101);
    });

    it("checks credentials before the body: a bad body with no token is 10101", async () => {
      assertRow(await fx.http("POST", sendPath(fx), { body: "{bad", token: null }), 10101);
    });
  });

  describe("sdk errors carry the table", () => {
    beforeEach(() => addDomain(fx));

    const table: [
      string,
      (fx: EmulatorFixture) => Promise<SendEmailBody | void>,
      EmailErrorCode,
      new (...a: never[]) => Error,
    ][] = [
      ["10000", async () => ({ ...BASE, from: "a@unknown.test" }), EmailErrorCode.NotFound, NotFoundError],
      ["10105", (f) => setAccount(f, { entitled: false }), EmailErrorCode.NotEntitled, PermissionDeniedError],
      [
        "10203",
        (f) => setAccount(f, { sending_disabled: true }),
        EmailErrorCode.SendingDisabled,
        PermissionDeniedError,
      ],
      [
        "10004",
        (f) =>
          setAccount(f, { throttle: { limit: 1, window_ms: 1000 } }).then(() =>
            f.api.email.sending.send({}, BASE).then(() => undefined),
          ),
        EmailErrorCode.Throttled,
        RateLimitError,
      ],
      [
        "10100",
        (f) => setAccount(f, { forced_failure: { kind: "upstream_auth" } }),
        EmailErrorCode.Upstream,
        InternalServerError,
      ],
    ];
    for (const [name, arrange, code, cls] of table) {
      it(`recognises ${name} on the ApiError`, async () => {
        const params = (await arrange(fx)) ?? BASE;
        await assert.rejects(fx.api.email.sending.send({}, params), (e: unknown) => {
          assert.ok(e instanceof cls, String(e));
          const info = emailError(e, code);
          assert.ok(info, String(e));
          assert.equal(info.code, code);
          assert.equal(info.message, EMAIL_ERRORS[code].message);
          assert.equal(emailError(e, code === 10000 ? 10001 : 10000), undefined);
          assert.ok((e as Error).message.includes(`(code ${code})`));
          return true;
        });
      });
    }

    it("gives the server's field details and the auth codes through the sdk", async () => {
      const token = fx.token("user", []);
      await assert.rejects(fx.client({ token }).email.sending.send({}, BASE), (e: unknown) => {
        assert.ok(e instanceof PermissionDeniedError);
        const info = emailError(e, EmailErrorCode.Forbidden);
        assert.deepEqual(info?.details, ["authorization: the token lacks the email:send permission"]);
        return true;
      });
      await assert.rejects(fx.client({ token: "bogus" }).email.sending.send({}, BASE), (e: unknown) => {
        assert.ok(e instanceof AuthenticationError);
        return emailError(e, EmailErrorCode.Unauthorized) !== undefined;
      });
      const local = await fx.api.email.sending.send({}, { ...BASE, to: "x" }).catch((e: unknown) => e);
      assert.ok(local instanceof ValidationError);
      assert.equal(emailError(local), undefined);
    });
  });

  describe("send_raw: a whole MIME message", () => {
    const MIME = [
      "From: News <news@example.com>",
      "To: ada@dest.test",
      "Subject: Raw",
      "Content-Type: text/plain; charset=utf-8",
      "X-Long: first part",
      "  folded on",
      "",
      "Hello from a raw message.",
    ].join("\r\n");
    const RAW = { from: "news@example.com", recipients: ["ada@dest.test"], mime_message: MIME };
    const rawPath = (): string => `/accounts/${fx.em.accountId}/email/sending/send_raw`;

    beforeEach(() => addDomain(fx));

    it("delivers to the envelope recipients by their local parts and keeps the message in the outbox", async () => {
      const res = await fx.api.email.sending.sendRaw(
        {},
        {
          ...RAW,
          recipients: ["ada@dest.test", "bounce@dest.test", "queue@dest.test", "ADA@dest.test"],
        },
      );
      assert.deepEqual(res.delivered, ["ada@dest.test"]);
      assert.deepEqual(res.permanentBounces, ["bounce@dest.test"]);
      assert.deepEqual(res.queued, ["queue@dest.test"]);
      assert.deepEqual(res.suppressedRecipients, []);
      assert.match(res.messageId ?? "", /^<\d+\.emulator@example\.com>$/);
      const outbox = await fx.http("GET", control(fx, "/outbox"));
      const [entry] = (outbox.json as { result: Record<string, unknown>[] }).result;
      assert.equal(entry?.kind, "raw");
      assert.equal(entry?.mime_message, MIME);
      assert.deepEqual(entry?.to, ["ada@dest.test", "bounce@dest.test", "queue@dest.test", "ADA@dest.test"]);
      assert.equal(entry?.message, undefined);
    });

    it("is refused locally, naming the field, for a bad envelope or a message without headers", async () => {
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ from: { address: "news@example.com", name: "N" } }, "from", /must be a string/],
        [{ recipients: [] }, "recipients", /must not be empty/],
        [{ recipients: "ada@dest.test" }, "recipients", /must be an array/],
        [{ recipients: ["nope"] }, "recipients.0", /email address/],
        [{ mime_message: "" }, "mime_message", /must not be empty/],
        [{ mime_message: "just a body" }, "mime_message", /empty line/],
        [{ mime_message: "not a header\r\n\r\nbody" }, "mime_message", /line 1 .* not a "Name: value"/],
        [{ mime_message: "Subject: x\r\n\r\nbody" }, "mime_message", /From header/],
        [{ subject: "x" }, "subject", /is not a known field/],
      ];
      for (const [patch, field, rule] of cases)
        await expectValidation(
          fx.api.email.sending.sendRaw({}, { ...RAW, ...patch } as typeof RAW),
          field,
          rule,
        );
      assert.equal(emailRequests(fx), 0);
    });

    it("answers the same table as send: 10001, 10202, 10000, 10203, 10004, 10003, 10101", async () => {
      assertRow(await fx.http("POST", rawPath(), { body: { ...RAW, recipients: "x" } }), 10001, "recipients");
      assertRow(
        await fx.http("POST", rawPath(), { body: { ...RAW, mime_message: "no headers" } }),
        10202,
        "mime_message: must separate",
      );
      assertRow(
        await fx.http("POST", rawPath(), { body: { ...RAW, from: "a@elsewhere.test" } }),
        10000,
        "elsewhere.test",
      );
      await addDomain(fx, "example.com", true);
      assertRow(await fx.http("POST", rawPath(), { body: RAW }), 10203, "domain example.com");
      await addDomain(fx, "example.com");
      // one throttle counts both kinds of send
      await setAccount(fx, { throttle: { limit: 1, window_ms: 60_000 } });
      assert.equal((await fx.http("POST", sendPath(fx), { body: BASE })).status, 200);
      assertRow(await fx.http("POST", rawPath(), { body: RAW }), 10004);
      await setAccount(fx, { throttle: null });
      assertRow(await fx.http("GET", rawPath()), 10003, "only POST");
      assertRow(await fx.http("POST", rawPath(), { body: RAW, token: null }), 10101);
    });

    it("refuses a raw body over 5 MiB locally and on the wire (10200)", async () => {
      const big = { ...RAW, mime_message: `${MIME}${"a".repeat(EMAIL_MAX_BYTES)}` };
      await expectValidation(fx.api.email.sending.sendRaw({}, big), "body", /at most 5242880 bytes/);
      assert.equal(emailRequests(fx), 0);
      assertRow(await fx.http("POST", rawPath(), { body: big }), 10200);
    });
  });
});
