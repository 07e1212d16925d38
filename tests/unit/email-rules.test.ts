import { strict as assert } from "node:assert";
import { fateOf } from "../../emulator/email/state";
import { ApiError, NotFoundError } from "../../sdk/errors";
import { EMAIL_ERRORS, EMAIL_MAX_BYTES, EmailErrorCode, emailBodyBytes, emailError } from "../../sdk/email";
import {
  SendEmailSchema,
  SendEmailShapeSchema,
  emailContentIssues,
  headerRule,
  isBase64,
  isEmailAddress,
} from "../../sdk/schemas/email";

describe("email rules (pure)", () => {
  it("lists every row of the spec's error table with its status and message", () => {
    const rows: [EmailErrorCode, number, string][] = [
      [EmailErrorCode.InvalidRequestSchema, 400, "email.sending.error.invalid_request_schema"],
      [EmailErrorCode.TooBig, 400, "email.sending.error.email.too_big"],
      [EmailErrorCode.NoContentLength, 400, "email.sending.error.email.no_content_length"],
      [EmailErrorCode.Invalid, 400, "email.sending.error.email.invalid"],
      [EmailErrorCode.Unauthorized, 401, "email.sending.error.authentication.unauthorized"],
      [EmailErrorCode.BadTokenType, 401, "email.sending.error.authentication.bad_token_type"],
      [EmailErrorCode.Forbidden, 403, "email.sending.error.authentication.forbidden"],
      [EmailErrorCode.NotEntitled, 403, "email.sending.error.authentication.not_entitled"],
      [EmailErrorCode.SendingDisabled, 403, "email.sending.error.email.sending_disabled"],
      [EmailErrorCode.NotFound, 404, "email.sending.error.not_found"],
      [EmailErrorCode.Throttled, 429, "email.sending.error.throttled"],
      [EmailErrorCode.InternalServer, 500, "email.sending.error.internal_server"],
      [EmailErrorCode.NotImplemented, 500, "email.sending.error.not_implemented"],
      [EmailErrorCode.Upstream, 503, "email.sending.error.authentication.upstream"],
    ];
    assert.equal(Object.keys(EMAIL_ERRORS).length, rows.length);
    for (const [code, status, message] of rows) {
      assert.equal(EMAIL_ERRORS[code].status, status, String(code));
      assert.equal(EMAIL_ERRORS[code].message, message, String(code));
    }
    assert.equal(EmailErrorCode.TooBig, 10200);
  });

  it("recognises table codes on an ApiError only", () => {
    const err = new NotFoundError({
      status: 404,
      errors: [{ code: 10000, message: "email.sending.error.not_found" }],
      method: "POST",
      path: "/x",
      body: { errors: [{ code: 10000, message: "email.sending.error.not_found", detail: "from: nope" }] },
    });
    assert.deepEqual(emailError(err), {
      code: 10000,
      status: 404,
      message: "email.sending.error.not_found",
      condition: "resource not found",
      details: ["from: nope"],
    });
    assert.equal(emailError(err, EmailErrorCode.TooBig), undefined);
    const other = new ApiError({
      status: 404,
      errors: [{ code: 1002, message: "x" }],
      method: "GET",
      path: "/",
    });
    assert.equal(emailError(other), undefined);
    assert.equal(emailError(new Error("10000")), undefined);
    assert.equal(emailError({ apiCode: 10000 }), undefined);
  });

  it("counts the JSON body's UTF-8 bytes exactly as sent", () => {
    assert.equal(emailBodyBytes({ a: "é" }), Buffer.byteLength('{"a":"é"}'));
    assert.equal(emailBodyBytes({ a: "é" }), 10);
    assert.equal(emailBodyBytes({ a: "\n" }), 10); // escaped as \n: two bytes
    assert.equal(EMAIL_MAX_BYTES, 5_242_880);
  });

  it("accepts and refuses addresses", () => {
    for (const ok of ["a@b.co", "first.last+tag@sub.example.com", "x_y-z@a-b.io", "o'neil@x.ie"]) {
      assert.ok(isEmailAddress(ok), ok);
    }
    for (const bad of [
      "",
      "a",
      "a@b",
      "@b.co",
      "a@.co",
      "a@b..co",
      ".a@b.co",
      "a.@b.co",
      "a..b@c.co",
      "a b@c.co",
      "a@-b.co",
      `${"x".repeat(65)}@b.co`,
    ]) {
      assert.ok(!isEmailAddress(bad), bad);
    }
  });

  it("allows threading, list and X- headers and refuses platform and field headers", () => {
    for (const ok of [
      "In-Reply-To",
      "references",
      "List-Unsubscribe",
      "List-Unsubscribe-Post",
      "X-Anything",
      "Precedence",
    ]) {
      assert.equal(headerRule(ok), undefined, ok);
    }
    assert.match(headerRule("Message-ID")!, /allowed-header list/);
    assert.match(headerRule("DKIM-Signature")!, /allowed-header list/);
    assert.match(headerRule("Content-Type")!, /allowed-header list/);
    assert.match(headerRule("CC")!, /cc field/);
    assert.match(headerRule("Reply-To")!, /reply_to field/);
    assert.match(headerRule("Bad Name")!, /header name/);
  });

  it("checks base64 strictly", () => {
    assert.ok(isBase64(""));
    assert.ok(isBase64("aGk="));
    assert.ok(isBase64("aGVsbG8="));
    assert.ok(!isBase64("aGk"));
    assert.ok(!isBase64("aGk=\n"));
    assert.ok(!isBase64("a=Gk"));
    assert.ok(!isBase64("aGk_"));
  });

  it("splits shape (10001) from content (10202)", () => {
    const body = { from: "a@b.co", to: "c@d.co", subject: "s", attachments: [] };
    const shape = SendEmailShapeSchema.safeParse(body);
    assert.ok(shape.success);
    assert.deepEqual(
      emailContentIssues(shape.data).map((i) => i.path.join(".")),
      ["text"],
    );
    assert.equal(SendEmailSchema.safeParse(body).success, false);
    assert.equal(SendEmailSchema.safeParse({ ...body, html: "<b>x</b>" }).success, true);
  });

  it("decides each recipient's fate by its local part", () => {
    assert.equal(fateOf("ada@x.test"), "delivered");
    assert.equal(fateOf("Bounce.me@x.test"), "permanent_bounces");
    assert.equal(fateOf("queue@x.test"), "queued");
    assert.equal(fateOf("ada-bounce@x.test"), "delivered");
    assert.equal(fateOf("ok@bounce.test"), "delivered");
  });
});
