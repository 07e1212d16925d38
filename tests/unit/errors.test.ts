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
  apiErrorItems,
  describeItem,
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

describe("errors: the service's own detail, whichever envelope carries it", () => {
  const fromBody = (status: number, body: unknown) =>
    errorFromResponse({ status, errors: apiErrorItems(body), method: "POST", path: "/p", body });

  it("email's detail after its fixed message (and string codes, as the contract writes them)", () => {
    const body = {
      success: false,
      errors: [
        {
          code: "10000",
          message: "email.sending.error.not_found",
          detail: "from: example.com is not a sending domain",
        },
      ],
      messages: [],
      result: null,
    };
    const err = fromBody(404, body);
    assert.equal(
      err.message,
      "POST /p failed with 404: email.sending.error.not_found (code 10000): from: example.com is not a sending domain",
    );
    assert.equal(err.apiCode, 10000);
    assert.deepEqual(err.errors, [
      {
        code: 10000,
        message: "email.sending.error.not_found",
        detail: "from: example.com is not a sending domain",
      },
    ]);
  });

  it("source.pointer, documentation_url and error_chain of the v4 envelope", () => {
    const err = fromBody(400, {
      success: false,
      errors: [
        {
          code: 1004,
          message: "DNS Validation Error",
          documentation_url: "https://developers.example.com/errors/1004",
          source: { pointer: "/ssl/method" },
          error_chain: [{ code: 9021, message: "method must be http, txt or email" }],
        },
      ],
      messages: [],
      result: null,
    });
    assert.equal(
      err.message,
      "POST /p failed with 400: DNS Validation Error (code 1004) [field /ssl/method] " +
        "(caused by: method must be http, txt or email (code 9021)) (see https://developers.example.com/errors/1004)",
    );
    assert.equal(err.errors[0]!.chain?.[0]?.code, 9021);
  });

  it("the search service's path, meetings' single error, and messages[] besides the errors", () => {
    assert.equal(
      fromBody(400, {
        success: false,
        errors: [{ code: 7001, message: "Invalid input", path: ["body", "q"] }],
      }).message,
      "POST /p failed with 400: Invalid input (code 7001) [field body.q]",
    );
    assert.equal(
      fromBody(404, { success: false, error: { code: 404, message: "Meeting not found" } }).message,
      "POST /p failed with 404: Meeting not found (code 404)",
    );
    assert.equal(
      fromBody(409, {
        success: false,
        errors: [{ code: 1003, message: "conflict" }],
        messages: ["retry after the running job ends", { code: 1100, message: "job j1 is running" }],
        result: null,
      }).message,
      "POST /p failed with 409: conflict (code 1003); the service also said: retry after the running job ends; job j1 is running (code 1100)",
    );
    assert.equal(
      fromBody(403, { success: false, errors: [], messages: ["token lacks Email Send"], result: null })
        .message,
      "POST /p failed with 403: HTTP 403: token lacks Email Send",
    );
  });

  it("a body that is no envelope, or fields of odd shapes, give what they can and never throw", () => {
    assert.deepEqual(apiErrorItems("<html>"), []);
    assert.deepEqual(apiErrorItems(null), []);
    assert.deepEqual(apiErrorItems({ errors: "nope" }), []);
    assert.deepEqual(
      apiErrorItems({ errors: [42, "plain words", { code: "x", message: 5, detail: ["no"] }] }),
      [
        { code: 0, message: "plain words" },
        { code: 0, message: "" },
      ],
    );
    const deep = { code: 1, message: "m", error_chain: [] as unknown[] };
    let at = deep;
    for (let i = 0; i < 50; i++) {
      const next = { code: 1, message: "m", error_chain: [] as unknown[] };
      at.error_chain.push(next);
      at = next;
    }
    assert.ok(describeItem(apiErrorItems({ errors: [deep] })[0]!).length < 400);
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
