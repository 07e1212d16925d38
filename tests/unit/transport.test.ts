/**
 * The transport on the wire: what a request looks like, how answers are unwrapped and mapped to
 * errors, configuration, the observer and redaction, and connection reuse. Retries, timeouts and
 * aborts are in transport-retry.test.ts.
 */
import { strict as assert } from "node:assert";
import { inspect } from "node:util";
import { Agent } from "undici";
import { z } from "zod";
import { ApiClient, DEFAULT_BASE_URL, path, type ClientOptions } from "../../sdk/client";
import {
  AccountApiError,
  ApiError,
  AuthenticationError,
  ConfigurationError,
  InternalServerError,
  InvalidPathError,
  NotFoundError,
  ResponseShapeError,
  ValidationError,
} from "../../sdk/errors";
import { PACKAGE_VERSION } from "../../sdk/version";
import {
  fail,
  harness,
  ok,
  rejection,
  scriptedServer,
  TOKEN,
  type Reply,
  type ScriptedServer,
} from "./transport-server.test";

const Item = z.looseObject({ id: z.string(), n: z.number() });

describe("transport: the request on the wire", () => {
  let srv: ScriptedServer;
  afterEach(() => srv.close());

  it("sends method, path, encoded query and the standard headers", async () => {
    srv = await scriptedServer([ok({ id: "a", n: 1 })]);
    const { client } = harness(srv);
    const value = await client.request({
      method: "GET",
      path: path`/accounts/${"acc-1"}/things/${"a b/c"}`,
      query: { q: "x y&z=1", ext: ["com", "net"], limit: 5, on: true, skipped: undefined },
      schema: Item,
    });
    assert.deepEqual(value, { id: "a", n: 1 });
    const [req] = srv.requests;
    assert.equal(req!.method, "GET");
    assert.equal(
      req!.url,
      "/client/v4/accounts/acc-1/things/a%20b%2Fc?q=x%20y%26z%3D1&ext=com&ext=net&limit=5&on=true",
    );
    assert.equal(req!.headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(
      req!.headers["user-agent"],
      `pulumi-account-api/${PACKAGE_VERSION} node/${process.versions.node}`,
    );
    assert.match(req!.headers["user-agent"]!, /^pulumi-account-api\/\d+\.\d+\.\d+ /);
    assert.equal(req!.headers.accept, "application/json");
    assert.equal(req!.headers["content-type"], undefined);
    assert.equal(req!.body, "");
  });

  it("sends a JSON body with its content type, and the caller's extra headers", async () => {
    srv = await scriptedServer([ok({ id: "b", n: 2 }), ok({ id: "c", n: 3 })]);
    const { client } = harness(srv, { userAgentSuffix: "my-tool/2" });
    await client.request({
      method: "POST",
      path: "/things",
      body: { name: "ü", list: [1, 2] },
      headers: { Prefer: "respond-async" },
      schema: Item,
    });
    await client.request({
      method: "PUT",
      path: "/things/c",
      body: { x: 1 },
      headers: { "Content-Type": "application/merge-patch+json" },
      schema: Item,
    });
    const [post, put] = srv.requests;
    assert.equal(post!.method, "POST");
    assert.deepEqual(JSON.parse(post!.body), { name: "ü", list: [1, 2] });
    assert.equal(post!.headers["content-type"], "application/json");
    assert.equal(post!.headers.prefer, "respond-async");
    assert.match(post!.headers["user-agent"]!, / my-tool\/2$/);
    assert.equal(put!.method, "PUT");
    assert.equal(put!.headers["content-type"], "application/merge-patch+json");
  });

  it("sends a FormData body as multipart", async () => {
    srv = await scriptedServer([ok({ id: "s", n: 0 })]);
    const { client } = harness(srv);
    const form = new FormData();
    form.append("metadata", JSON.stringify({ main_module: "index.js" }));
    form.append(
      "index.js",
      new Blob(["export default {}"], { type: "application/javascript+module" }),
      "index.js",
    );
    await client.request({ method: "PUT", path: "/scripts/s", body: form, schema: Item });
    const [req] = srv.requests;
    assert.match(req!.headers["content-type"]!, /^multipart\/form-data; boundary=/);
    assert.match(req!.body, /name="metadata"\r\n\r\n\{"main_module":"index.js"\}/);
    assert.match(req!.body, /filename="index.js"/);
  });

  it("appends the query to a path that already has one", async () => {
    srv = await scriptedServer([ok({ id: "a", n: 1 })]);
    const { client } = harness(srv);
    await client.request({ method: "GET", path: "/x?a=1", query: { b: 2 }, schema: Item });
    assert.equal(srv.requests[0]!.url, "/client/v4/x?a=1&b=2");
  });

  it("refuses a request path that does not start with a slash, before any request", async () => {
    srv = await scriptedServer([]);
    const { client } = harness(srv);
    const err = await rejection(() =>
      client.request({ method: "GET", path: "accounts", schema: z.unknown() }),
    );
    assert.ok(err instanceof InvalidPathError);
    assert.equal((err as AccountApiError).code, "ERR_PATH_SEGMENT");
    assert.match(err.message, /path: must start with "\/"/);
    assert.equal(srv.requests.length, 0);
  });
});

describe("transport: the path template", () => {
  it("encodes each value as exactly one segment", () => {
    assert.equal(path`/a/${"x/y"}/b/${"q?r#s"}`, "/a/x%2Fy/b/q%3Fr%23s");
    assert.equal(path`/a/${"../etc"}`, "/a/..%2Fetc");
    assert.equal(path`/a/${"100%"}/${"ü é"}`, "/a/100%25/%C3%BC%20%C3%A9");
    assert.equal(path`/builds/${42}/logs`, "/builds/42/logs");
    assert.equal(path`/a/${"..."}`, "/a/...");
    assert.equal(path`/static`, "/static");
  });

  it("refuses empty, dot and dot-dot segments", () => {
    for (const bad of ["", ".", ".."]) {
      assert.throws(
        () => path`/accounts/${bad}/x`,
        (err: unknown) =>
          err instanceof InvalidPathError &&
          err.code === "ERR_PATH_SEGMENT" &&
          err.message === `path segment ${JSON.stringify(bad)} is not allowed`,
      );
    }
  });

  it("refuses a missing value rather than writing 'undefined'", () => {
    const missing = undefined as unknown as string;
    assert.throws(
      () => path`/a/${missing}`,
      /path segment 1: must be a string or a finite number, got undefined/,
    );
    assert.throws(
      () => path`/a/${"ok"}/${NaN}`,
      /path segment 2: must be a string or a finite number, got NaN/,
    );
  });
});

describe("transport: unwrapping answers", () => {
  let srv: ScriptedServer;
  afterEach(() => srv.close());

  it("unwraps `result` and returns result_info, messages, status and headers", async () => {
    srv = await scriptedServer([
      {
        status: 200,
        headers: { "x-request-id": "req-9" },
        body: {
          success: true,
          errors: [],
          messages: [{ code: 1, message: "note" }],
          result: [{ id: "a", n: 1, extra: true }],
          result_info: { page: 1, per_page: 20, count: 1, total_count: 1 },
        },
      },
    ]);
    const { client } = harness(srv);
    const res = await client.requestWithInfo({ method: "GET", path: "/things", schema: z.array(Item) });
    assert.deepEqual(res.value, [{ id: "a", n: 1, extra: true }]);
    assert.deepEqual(res.resultInfo, { page: 1, per_page: 20, count: 1, total_count: 1 });
    assert.deepEqual(res.messages, [{ code: 1, message: "note" }]);
    assert.equal(res.status, 200);
    assert.equal(res.headers["x-request-id"], "req-9");
  });

  it("unwraps `data` (meetings) and the whole `body`", async () => {
    srv = await scriptedServer([
      { status: 201, body: { success: true, data: { id: "m", n: 7 } } },
      { status: 200, body: { id: "raw", n: 8 } },
    ]);
    const { client } = harness(srv);
    assert.deepEqual(
      await client.request({ method: "POST", path: "/m", body: {}, unwrap: "data", schema: Item }),
      {
        id: "m",
        n: 7,
      },
    );
    assert.deepEqual(await client.request({ method: "GET", path: "/r", unwrap: "body", schema: Item }), {
      id: "raw",
      n: 8,
    });
  });

  it("accepts an empty body (204) when the schema allows nothing", async () => {
    srv = await scriptedServer([{ status: 204 }]);
    const { client } = harness(srv);
    assert.equal(await client.request({ method: "DELETE", path: "/x", schema: z.unknown() }), undefined);
  });

  it("throws ResponseShapeError naming the field when the result has the wrong shape", async () => {
    srv = await scriptedServer([ok({ id: 5, n: 1 })]);
    const { client } = harness(srv);
    const err = await rejection(() =>
      client.request({ method: "GET", path: "/things/a", query: { x: 1 }, schema: Item }),
    );
    assert.ok(err instanceof ResponseShapeError);
    assert.equal((err as ResponseShapeError).code, "ERR_RESPONSE_SHAPE");
    assert.equal(
      err.message,
      "GET /things/a: unexpected response shape: result.id: Invalid input: expected string, received number",
    );
  });

  it("throws ResponseShapeError for a 200 that is not JSON, or not an envelope", async () => {
    srv = await scriptedServer([
      { status: 200, headers: { "content-type": "text/html" }, body: "<html>hi</html>" },
      { status: 200, body: [1, 2] },
    ]);
    const { client } = harness(srv);
    const notJson = await rejection(() => client.request({ method: "GET", path: "/a", schema: z.unknown() }));
    assert.ok(notJson instanceof ResponseShapeError);
    assert.equal(
      notJson.message,
      "GET /a: unexpected response shape: body is not JSON (content-type text/html)",
    );
    const notEnvelope = await rejection(() =>
      client.request({ method: "GET", path: "/b", schema: z.unknown() }),
    );
    assert.ok(notEnvelope instanceof ResponseShapeError);
    assert.match(notEnvelope.message, /expected an envelope object with "result"/);
  });

  it("treats a 2xx whose envelope says success: false as an ApiError", async () => {
    srv = await scriptedServer([
      { status: 200, body: { success: false, errors: [{ code: 7003, message: "nope" }] } },
    ]);
    const { client } = harness(srv);
    const err = await rejection(() => client.request({ method: "GET", path: "/a", schema: z.unknown() }));
    assert.ok(err instanceof ApiError);
    assert.equal((err as ApiError).status, 200);
    assert.equal((err as ApiError).apiCode, 7003);
  });
});

describe("transport: API errors", () => {
  let srv: ScriptedServer;
  afterEach(() => srv.close());

  it("maps a 404 envelope to NotFoundError with status, errors, method, path and request id", async () => {
    srv = await scriptedServer([
      { ...(fail(404, 12000, "Resource not found") as object), headers: { "x-request-id": "rid-1" } },
    ]);
    const { client } = harness(srv);
    const err = await rejection(() =>
      client.request({
        method: "GET",
        path: path`/accounts/${"acc-1"}/builds/${"b1"}`,
        query: { secret: "q" },
        schema: z.unknown(),
      }),
    );
    assert.ok(err instanceof NotFoundError);
    assert.ok(err instanceof ApiError);
    const e = err as NotFoundError;
    assert.equal(e.status, 404);
    assert.equal(e.code, "ERR_API_404");
    assert.equal(e.apiCode, 12000);
    assert.deepEqual(e.errors, [{ code: 12000, message: "Resource not found" }]);
    assert.equal(e.method, "GET");
    assert.equal(e.path, "/accounts/acc-1/builds/b1");
    assert.equal(e.requestId, "rid-1");
    assert.equal(
      e.message,
      "GET /accounts/acc-1/builds/b1 failed with 404: Resource not found (code 12000) [request rid-1]",
    );
  });

  it("maps a non-JSON error body to the status's class with a short excerpt", async () => {
    srv = await scriptedServer([
      { status: 502, headers: { "content-type": "text/html" }, body: "<h1>Bad Gateway</h1>" },
    ]);
    const { client } = harness(srv, { retry: { maxRetries: 0 } });
    const err = await rejection(() => client.request({ method: "GET", path: "/a", schema: z.unknown() }));
    assert.ok(err instanceof InternalServerError);
    const e = err as InternalServerError;
    assert.equal(e.status, 502);
    assert.deepEqual(e.errors, []);
    assert.equal(e.apiCode, undefined);
    assert.equal(e.message, "GET /a failed with 502: HTTP 502. body: <h1>Bad Gateway</h1>");
  });

  it("reads a single `error` object as well as an `errors` array", async () => {
    srv = await scriptedServer([{ status: 401, body: { error: { code: 10101, message: "unauthorized" } } }]);
    const { client } = harness(srv);
    const err = await rejection(() =>
      client.request({ method: "POST", path: "/send", body: {}, schema: z.unknown() }),
    );
    assert.ok(err instanceof AuthenticationError);
    assert.equal((err as ApiError).apiCode, 10101);
  });
});

describe("transport: configuration", () => {
  const base = { baseUrl: "http://127.0.0.1:9/client/v4", token: "t0k", env: {} } satisfies ClientOptions;

  it("falls back to ACCOUNT_API_BASE_URL, ACCOUNT_API_TOKEN and ACCOUNT_API_ACCOUNT_ID", () => {
    const client = new ApiClient({
      env: {
        ACCOUNT_API_BASE_URL: "https://api.example.test/client/v4/",
        ACCOUNT_API_TOKEN: " envtok ",
        ACCOUNT_API_ACCOUNT_ID: "env-acc",
      },
    });
    assert.equal(client.baseUrl, "https://api.example.test/client/v4");
    assert.equal(client.defaultAccountId, "env-acc");
    assert.equal(client.account(), "env-acc");
    assert.equal(client.account("other"), "other");
  });

  it("defaults the base URL to the public service's API root, as the public client does", () => {
    for (const env of [{}, { ACCOUNT_API_BASE_URL: "" }]) {
      const client = new ApiClient({ token: "t", env });
      assert.equal(client.baseUrl, "https://api.cloudflare.com/client/v4");
      assert.equal(client.baseUrl, DEFAULT_BASE_URL);
    }
  });

  it("names the setting at fault on every configuration error", () => {
    const setting = (o: ClientOptions): string | undefined => {
      try {
        new ApiClient(o);
      } catch (e) {
        return e instanceof ConfigurationError ? e.setting : "not a ConfigurationError";
      }
      return undefined;
    };
    assert.equal(setting({ ...base, baseUrl: "nope" }), "baseUrl");
    assert.equal(setting({ baseUrl: base.baseUrl, env: {} }), "token");
    assert.equal(setting({ ...base, accountId: "x".repeat(33) }), "accountId");
  });

  it("refuses plain http to a host other than loopback unless insecureHttp allows it, naming the setting", () => {
    const refused = (o: ClientOptions): ConfigurationError | undefined => {
      try {
        new ApiClient(o);
        return undefined;
      } catch (e) {
        assert.ok(e instanceof ConfigurationError, String(e));
        return e;
      }
    };
    for (const baseUrl of [
      "http://api.example.com/client/v4",
      "http://10.0.0.5:8787/client/v4",
      "http://[::2]/client/v4",
      "http://localhost.example.com/client/v4",
      "http://128.0.0.1/client/v4",
    ]) {
      const err = refused({ ...base, baseUrl });
      assert.equal(err?.setting, "baseUrl", baseUrl);
      assert.match(
        err.message,
        /^baseUrl: plain http only to a loopback host \(127\.0\.0\.0\/8, ::1, localhost\)/,
      );
      assert.match(err.message, /token travels in clear to .*: use https, or allow it with insecureHttp$/);
      // The environment's base URL is held to the same rule.
      assert.equal(refused({ token: "t", env: { ACCOUNT_API_BASE_URL: baseUrl } })?.setting, "baseUrl");
      // Allowed explicitly: by the option, or by the environment.
      assert.equal(refused({ ...base, baseUrl, insecureHttp: true }), undefined);
      for (const on of ["1", "true", " TRUE "])
        assert.equal(refused({ ...base, baseUrl, env: { ACCOUNT_API_INSECURE_HTTP: on } }), undefined);
      for (const off of ["0", "false", ""])
        assert.equal(
          refused({ ...base, baseUrl, env: { ACCOUNT_API_INSECURE_HTTP: off } })?.setting,
          "baseUrl",
        );
      // The option wins over the environment.
      assert.equal(
        refused({ ...base, baseUrl, insecureHttp: false, env: { ACCOUNT_API_INSECURE_HTTP: "1" } })?.setting,
        "baseUrl",
      );
    }
    for (const baseUrl of [
      "http://127.0.0.1:8787/client/v4",
      "http://127.9.8.7/client/v4",
      "http://127.1/client/v4",
      "http://localhost:8787/client/v4",
      "http://LOCALHOST./client/v4",
      "http://[::1]:8787/client/v4",
      "https://api.example.com/client/v4",
    ])
      assert.equal(refused({ ...base, baseUrl }), undefined, baseUrl);
    const odd = refused({ ...base, baseUrl: "https://x.test", env: { ACCOUNT_API_INSECURE_HTTP: "maybe" } });
    assert.equal(odd?.setting, "insecureHttp");
    assert.equal(odd.message, "insecureHttp: must be true or false (1 or 0)");
    assert.equal(
      refused({ ...base, insecureHttp: "yes" as unknown as boolean })?.message,
      "insecureHttp: must be a boolean",
    );
  });

  it("lets options win over the environment, and treats an empty variable as unset", () => {
    const client = new ApiClient({
      baseUrl: "https://opt.test/client/v4",
      token: "opt",
      env: { ACCOUNT_API_BASE_URL: "https://env.test", ACCOUNT_API_TOKEN: "env", ACCOUNT_API_ACCOUNT_ID: "" },
    });
    assert.equal(client.baseUrl, "https://opt.test/client/v4");
    assert.equal(client.defaultAccountId, undefined);
    assert.throws(
      () => client.account(),
      (e: unknown) =>
        e instanceof ConfigurationError &&
        e.message === "accountId: required (option accountId or ACCOUNT_API_ACCOUNT_ID)",
    );
  });

  const cases: [string, ClientOptions, string][] = [
    [
      "a base URL that is not a URL",
      { ...base, baseUrl: "api.example" },
      'baseUrl: not a URL: "api.example"',
    ],
    ["a non-http base URL", { ...base, baseUrl: "ftp://x.test" }, "baseUrl: must be http or https"],
    [
      "credentials in the base URL",
      { ...base, baseUrl: "https://u:p@x.test" },
      "baseUrl: must not carry credentials (use token)",
    ],
    [
      "a query in the base URL",
      { ...base, baseUrl: "https://x.test/v4?a=1" },
      "baseUrl: must not have a query or fragment",
    ],
    ["no token", { ...base, token: undefined }, "token: required (option token or ACCOUNT_API_TOKEN)"],
    ["a token with a space", { ...base, token: "abc def" }, "token: must be printable ASCII without spaces"],
    ["a token that is not a string", { ...base, token: 5 as unknown as string }, "token: must be a string"],
    ["an empty account id", { ...base, accountId: "" }, "accountId: must be 1 to 32 characters"],
    [
      "a 33-character account id",
      { ...base, accountId: "a".repeat(33) },
      "accountId: must be 1 to 32 characters",
    ],
    [
      "a zero timeout",
      { ...base, timeoutMs: 0 },
      "timeoutMs: must be a number of ms between 1 and 2147483647",
    ],
    [
      "a NaN timeout",
      { ...base, timeoutMs: NaN },
      "timeoutMs: must be a number of ms between 1 and 2147483647",
    ],
    [
      "an endless timeout",
      { ...base, timeoutMs: Infinity },
      "timeoutMs: must be a number of ms between 1 and 2147483647",
    ],
    ["negative retries", { ...base, retry: { maxRetries: -1 } }, "retry.maxRetries: must be an integer >= 0"],
    [
      "fractional retries",
      { ...base, retry: { maxRetries: 1.5 } },
      "retry.maxRetries: must be an integer >= 0",
    ],
    [
      "a negative delay",
      { ...base, retry: { baseDelayMs: -5 } },
      "retry.baseDelayMs: must be a finite number >= 0",
    ],
    [
      "an endless cap",
      { ...base, retry: { maxDelayMs: Infinity } },
      "retry.maxDelayMs: must be a finite number >= 0",
    ],
    ["zero connections", { ...base, connections: 0 }, "connections: must be an integer >= 1"],
    [
      "an observer that is not a function",
      { ...base, onEvent: "log" as never },
      "onEvent: must be a function",
    ],
    [
      "a multi-line user agent suffix",
      { ...base, userAgentSuffix: "a\r\nx-evil: 1" },
      "userAgentSuffix: must be a string on one line",
    ],
  ];
  for (const [what, options, message] of cases) {
    it(`fails fast in the constructor on ${what}`, () => {
      assert.throws(
        () => new ApiClient(options),
        (e: unknown) => {
          assert.ok(e instanceof ConfigurationError, `not a ConfigurationError: ${String(e)}`);
          assert.equal(e.code, "ERR_CONFIG");
          assert.equal(e.message, message);
          return true;
        },
      );
    });
  }

  it("never quotes the token in a configuration error", () => {
    const secret = "very secret\tvalue";
    assert.throws(
      () => new ApiClient({ ...base, token: secret }),
      (e: unknown) => e instanceof ConfigurationError && !e.message.includes("secret"),
    );
  });
});

describe("transport: observer and redaction", () => {
  let srv: ScriptedServer;
  afterEach(() => srv.close());

  it("reports request, response and retry events with the authorization redacted", async () => {
    srv = await scriptedServer([
      fail(503, 1, "busy"),
      { ...(ok({ id: "a", n: 1 }) as object), headers: { "x-request-id": "r2" } },
    ]);
    const { client, events } = harness(srv, { retry: { baseDelayMs: 10 } });
    await client.request({ method: "GET", path: "/things/a", query: { q: "1" }, schema: Item });
    const url = `${srv.baseUrl}/things/a?q=1`;
    assert.deepEqual(
      events.map((e) => [e.type, e.attempt]),
      [
        ["request", 1],
        ["response", 1],
        ["retry", 1],
        ["request", 2],
        ["response", 2],
      ],
    );
    const first = events[0]!;
    assert.ok(first.type === "request");
    assert.equal(first.url, url);
    assert.equal(first.method, "GET");
    assert.equal(first.headers.authorization, "Bearer [redacted]");
    assert.match(first.headers["user-agent"]!, /^pulumi-account-api\//);
    const response = events[1]!;
    assert.ok(response.type === "response" && response.status === 503 && response.durationMs >= 0);
    const retry = events[2]!;
    assert.ok(retry.type === "retry");
    assert.equal(retry.delayMs, 10);
    assert.equal(retry.reason, "HTTP 503");
    const last = events[4]!;
    assert.ok(last.type === "response" && last.status === 200 && last.requestId === "r2");
  });

  it("keeps the token out of errors and events even when the server echoes it back", async () => {
    const echo = `bad header: Authorization: Bearer ${TOKEN}`;
    srv = await scriptedServer([
      {
        status: 400,
        body: { success: false, errors: [{ code: 9, message: echo }], echoed: { [TOKEN]: [TOKEN] } },
      },
      { status: 500, headers: { "content-type": "text/plain" }, body: `token=${encodeURIComponent(TOKEN)}` },
      { status: 200, body: { success: true, result: { id: TOKEN } } },
      "reset",
    ]);
    const { client, events } = harness(srv, { retry: { maxRetries: 0 } });
    const errors = [
      await rejection(() => client.request({ method: "POST", path: "/a", body: {}, schema: z.unknown() })),
      await rejection(() => client.request({ method: "GET", path: "/b", schema: z.unknown() })),
      await rejection(() =>
        client.request({ method: "GET", path: "/c", schema: z.object({ id: z.number() }) }),
      ),
      await rejection(() => client.request({ method: "GET", path: "/d", schema: z.unknown() })),
    ];
    assert.ok(errors[0] instanceof ApiError);
    assert.equal(
      errors[0].message,
      "POST /a failed with 400: bad header: Authorization: Bearer [redacted] (code 9)",
    );
    assert.match(errors[1]!.message, /body: token=\[redacted\]/);
    assert.ok(errors[2] instanceof ResponseShapeError);
    assert.equal(errors[3]!.name, "ConnectionError");
    for (const err of errors) {
      const text = `${err.message} ${inspect(err, { depth: 10 })} ${JSON.stringify(err)}`;
      assert.ok(!text.includes(TOKEN), `token leaked in ${err.name}: ${text}`);
      assert.ok(!text.includes(encodeURIComponent(TOKEN)));
    }
    assert.deepEqual((errors[0] as ApiError).body, {
      success: false,
      errors: [{ code: 9, message: "bad header: Authorization: Bearer [redacted]" }],
      echoed: { "[redacted]": ["[redacted]"] },
    });
    assert.ok(events.length >= 8);
    assert.ok(!inspect(events, { depth: 10 }).includes(TOKEN));
    assert.ok(!inspect(client, { depth: 10 }).includes(TOKEN));
    assert.equal(client.redact(`x ${TOKEN} y`), "x [redacted] y");
  });

  it("keeps the token out of every header it keeps: request id, retry-after, any other, in errors, events and answers", async () => {
    const bearer = `Bearer ${TOKEN}`;
    const echoing = (status: number): Reply => ({
      status,
      headers: {
        "x-request-id": `req-${bearer}`,
        "cf-ray": TOKEN,
        "retry-after": `${TOKEN}`,
        "x-echo": `token=${encodeURIComponent(TOKEN)}`,
      },
      body: status < 400 ? { success: true, result: { id: "a", n: 1 } } : { success: false, errors: [] },
    });
    srv = await scriptedServer([echoing(429), echoing(200), echoing(500), echoing(200)]);
    const { client, events } = harness(srv, { retry: { maxRetries: 0, maxThrottledRetries: 0 } });
    const err = await rejection(() => client.request({ method: "GET", path: "/a", schema: Item }));
    assert.ok(err instanceof ApiError);
    assert.equal(err.requestId, "req-Bearer [redacted]");
    assert.equal(err.message, "GET /a failed with 429: HTTP 429 [request req-Bearer [redacted]]");
    const answer = await client.requestWithInfo({ method: "GET", path: "/b", schema: Item });
    const raw = await rejection(() => client.requestRaw({ method: "GET", path: "/c" }));
    const rawOk = await client.requestRaw({ method: "GET", path: "/d" });
    assert.equal(answer.headers["x-request-id"], "req-Bearer [redacted]");
    assert.equal(answer.headers["x-echo"], "token=[redacted]");
    for (const seen of [
      err.message,
      JSON.stringify(err),
      inspect(err, { depth: 10 }),
      raw.message,
      JSON.stringify(raw),
      inspect(events, { depth: 10 }),
      JSON.stringify(answer.headers),
      JSON.stringify(rawOk.headers),
    ]) {
      assert.ok(!seen.includes(TOKEN), `token leaked: ${seen}`);
      assert.ok(!seen.includes(encodeURIComponent(TOKEN)), `token leaked: ${seen}`);
    }
    const responses = events.filter((e) => e.type === "response");
    assert.deepEqual(
      responses.map((e) => e.type === "response" && e.requestId),
      Array(4).fill("req-Bearer [redacted]"),
    );
  });

  it("keeps the token out in its other forms: any letter case, base64 at any alignment", async () => {
    const forms = ["", "u", "us", "user:"].flatMap((lead) => [
      Buffer.from(`${lead}${TOKEN}`).toString("base64"),
      Buffer.from(`${lead}${TOKEN}!`).toString("base64url"),
    ]);
    srv = await scriptedServer([
      {
        status: 401,
        headers: { "x-echo": TOKEN.toLowerCase() },
        body: {
          success: false,
          errors: [{ code: 10000, message: `Basic ${forms[6]} for ${TOKEN.toUpperCase()}` }],
        },
      },
    ]);
    const { client, events } = harness(srv, { retry: { maxRetries: 0 } });
    const err = await rejection(() => client.request({ method: "GET", path: "/a", schema: z.unknown() }));
    assert.ok(err instanceof ApiError);
    assert.match(err.message, /Basic dXNlcjp\[redacted\]/);
    assert.match(err.message, / for \[redacted\]/);
    const seen = `${JSON.stringify(err)} ${inspect(events, { depth: 10 })}`;
    for (const form of [TOKEN.toLowerCase(), TOKEN.toUpperCase(), ...forms])
      assert.ok(!seen.includes(form), `token leaked as ${form}: ${seen}`);
    for (const form of forms) assert.ok(client.redact(`x ${form} y`).includes("[redacted]"), form);
    // Text that only resembles the token stays as it is.
    assert.equal(client.redact("plain words, no secret"), "plain words, no secret");
  });

  it("ignores an observer that throws", async () => {
    srv = await scriptedServer([ok({ id: "a", n: 1 })]);
    const { client } = harness(srv, {
      onEvent: () => {
        throw new Error("logger broke");
      },
    });
    assert.deepEqual(await client.request({ method: "GET", path: "/a", schema: Item }), { id: "a", n: 1 });
  });
});

describe("transport: connection pool", () => {
  let srv: ScriptedServer;
  afterEach(() => srv.close());

  it("reuses one kept-alive socket for sequential requests, error answers included", async () => {
    srv = await scriptedServer([
      ok({ id: "a", n: 1 }),
      fail(404, 1, "gone"),
      ok({ id: "b", n: 2 }),
      ok({ id: "c", n: 3 }),
    ]);
    const { client } = harness(srv);
    await client.request({ method: "GET", path: "/1", schema: Item });
    await rejection(() => client.request({ method: "GET", path: "/2", schema: Item }));
    await client.request({ method: "POST", path: "/3", body: { a: 1 }, schema: Item });
    await client.fetchRaw(`${srv.origin}/page`);
    assert.equal(srv.requests.length, 4);
    assert.deepEqual(
      srv.requests.map((r) => r.socket),
      [1, 1, 1, 1],
    );
    assert.equal(srv.sockets(), 1);
    assert.ok(srv.requests.every((r) => r.headers.connection !== "close"));
    await client.close();
  });

  it("gives each client its own pool, and shares a dispatcher the caller passes (without closing it)", async () => {
    srv = await scriptedServer([
      ok({ id: "a", n: 1 }),
      ok({ id: "b", n: 2 }),
      ok({ id: "c", n: 3 }),
      ok({ id: "d", n: 4 }),
    ]);
    const a = harness(srv).client;
    const b = harness(srv).client;
    await a.request({ method: "GET", path: "/1", schema: Item });
    await b.request({ method: "GET", path: "/2", schema: Item });
    assert.equal(srv.sockets(), 2);
    await Promise.all([a.close(), b.close()]);
    const shared = new Agent();
    const c = harness(srv, { dispatcher: shared }).client;
    const d = harness(srv, { dispatcher: shared }).client;
    await c.request({ method: "GET", path: "/3", schema: Item });
    await c.close();
    await d.request({ method: "GET", path: "/4", schema: Item });
    assert.equal(srv.sockets(), 3);
    assert.deepEqual(
      srv.requests.map((r) => r.socket),
      [1, 2, 3, 3],
    );
    await shared.close();
  });
});

describe("transport: fetchRaw", () => {
  let srv: ScriptedServer;
  afterEach(() => srv.close());

  it("fetches an absolute URL without the token and returns the raw answer", async () => {
    srv = await scriptedServer([{ status: 200, headers: { "content-type": "text/markdown" }, body: "# Hi" }]);
    const { client } = harness(srv);
    const res = await client.fetchRaw(`${srv.origin}/docs/page?x=1`, {
      headers: { Accept: "text/markdown" },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body, "# Hi");
    assert.equal(res.headers["content-type"], "text/markdown");
    const [req] = srv.requests;
    assert.equal(req!.url, "/docs/page?x=1");
    assert.equal(req!.headers.authorization, undefined);
    assert.equal(req!.headers.accept, "text/markdown");
  });

  it("refuses a URL that is not absolute http(s), before any request", async () => {
    srv = await scriptedServer([]);
    const { client } = harness(srv);
    for (const url of ["/relative", "file:///etc/passwd"]) {
      const err = await rejection(() => client.fetchRaw(url));
      assert.ok(err instanceof ValidationError);
      assert.equal(err.message, "request: url: must be an absolute http or https URL");
    }
    assert.equal(srv.requests.length, 0);
  });
});
