/** The error family: one factory from status to class, stable codes, messages that name what failed. */
import { strict as assert } from "node:assert";
import { z } from "zod";
import {
  AbortedError,
  AccountApiError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  DeadlineExceededError,
  InternalServerError,
  InvalidPathError,
  NotFoundError,
  PagingError,
  PermissionDeniedError,
  RateLimitError,
  ResponseShapeError,
  ServiceUnavailableError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
  errorFromResponse,
} from "../../sdk/errors";
import { validate } from "../../sdk/validate";

const details = (status: number) => ({
  status,
  errors: [{ code: 7, message: "m" }],
  method: "GET",
  path: "/p",
});

describe("errors: status to class", () => {
  const table: [number, new (...a: never[]) => ApiError][] = [
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
    [503, ServiceUnavailableError],
    [504, InternalServerError],
    [418, ApiError],
  ];
  for (const [status, cls] of table) {
    it(`maps ${status} to ${cls.name}`, () => {
      const err = errorFromResponse(details(status));
      assert.equal(err.constructor, cls);
      assert.ok(err instanceof ApiError && err instanceof AccountApiError && err instanceof Error);
      assert.equal(err.name, cls.name);
      assert.equal(err.code, `ERR_API_${status}`);
      assert.equal(err.status, status);
    });
  }

  it("keeps a 503 an InternalServerError too", () => {
    assert.ok(errorFromResponse(details(503)) instanceof InternalServerError);
  });
});

describe("errors: messages and fields", () => {
  it("lists every API error with its code, the hint and the request id", () => {
    const err = errorFromResponse({
      status: 400,
      errors: [
        { code: 10001, message: "email.sending.error.invalid_request_schema" },
        { code: 10202, message: "email.sending.error.email.invalid" },
      ],
      method: "POST",
      path: "/accounts/a/email/sending/send",
      requestId: "r-1",
      hint: "check the body",
      body: { success: false },
    });
    assert.equal(
      err.message,
      "POST /accounts/a/email/sending/send failed with 400: email.sending.error.invalid_request_schema (code 10001); " +
        "email.sending.error.email.invalid (code 10202). check the body [request r-1]",
    );
    assert.equal(err.apiCode, 10001);
    assert.equal(err.errors.length, 2);
    assert.deepEqual(err.body, { success: false });
  });

  it("falls back to the status when the API gave no errors", () => {
    const err = errorFromResponse({ status: 500, errors: [], method: "DELETE", path: "/x" });
    assert.equal(err.message, "DELETE /x failed with 500: HTTP 500");
    assert.equal(err.apiCode, undefined);
    assert.equal(err.requestId, undefined);
  });

  it("gives every other error a stable code and a message naming what failed", () => {
    const cause = Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
    const cases: [AccountApiError, string, string][] = [
      [new ConfigurationError("token: required"), "ERR_CONFIG", "token: required"],
      [
        new InvalidPathError('path segment "." is not allowed'),
        "ERR_PATH_SEGMENT",
        'path segment "." is not allowed',
      ],
      [new PagingError("did not end"), "ERR_PAGING", "did not end"],
      [
        new ResponseShapeError("GET", "/a", "result: bad"),
        "ERR_RESPONSE_SHAPE",
        "GET /a: unexpected response shape: result: bad",
      ],
      [
        new ConnectionError("GET", "/a", cause),
        "ERR_CONNECTION",
        "GET /a: connection failed: ECONNRESET socket hang up",
      ],
      [new TimeoutError("GET", "/a", 50), "ERR_TIMEOUT", "GET /a: no response within 50 ms"],
      [new AbortedError("GET /a"), "ERR_ABORTED", "GET /a: aborted"],
      [
        new DeadlineExceededError("build b1", 1000, "running"),
        "ERR_DEADLINE",
        "build b1: not finished within 1000 ms (last state: running)",
      ],
    ];
    for (const [err, code, message] of cases) {
      assert.ok(err instanceof AccountApiError);
      assert.equal(err.code, code);
      assert.equal(err.message, message);
      assert.equal(err.name, err.constructor.name);
    }
    assert.equal(new ConnectionError("GET", "/a", cause).cause, cause);
  });
});

describe("errors: local validation", () => {
  const Body = z.strictObject({
    name: z.string().max(3, "must be at most 3 characters"),
    recording_config: z
      .strictObject({ max_seconds: z.number().min(60, "must be between 60 and 86400") })
      .optional(),
  });

  it("names the dotted field and the rule", () => {
    assert.throws(
      () => validate(Body, { name: "long", recording_config: { max_seconds: 5 } }, "meetings.create"),
      (e: unknown) => {
        assert.ok(e instanceof ValidationError);
        assert.equal(e.code, "ERR_VALIDATION");
        assert.deepEqual(e.issues, [
          { field: "name", rule: "must be at most 3 characters" },
          { field: "recording_config.max_seconds", rule: "must be between 60 and 86400" },
        ]);
        assert.equal(
          e.message,
          "meetings.create: name: must be at most 3 characters; recording_config.max_seconds: must be between 60 and 86400",
        );
        return true;
      },
    );
  });

  it("names an unknown key of a strict body as the field", () => {
    assert.throws(
      () =>
        validate(
          Body,
          { name: "ok", recording_config: { max_seconds: 60, maxSeconds: 1 } },
          "meetings.create",
        ),
      (e: unknown) => {
        assert.ok(e instanceof ValidationError);
        assert.equal(e.issues[0]!.field, "recording_config.maxSeconds");
        assert.match(e.message, /^meetings\.create: recording_config\.maxSeconds: Unrecognized key/);
        return true;
      },
    );
  });

  it("returns the parsed value when valid", () => {
    assert.deepEqual(validate(Body, { name: "ok" }, "x"), { name: "ok" });
  });
});
