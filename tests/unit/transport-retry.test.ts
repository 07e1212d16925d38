/**
 * The retry policy, timeouts and aborts against a real server scripted per attempt. Backoff sleeps
 * are injected and recorded: nothing waits longer than a test timeout of a few dozen ms.
 */
import { strict as assert } from "node:assert";
import { getEventListeners } from "node:events";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import {
  ApiClient,
  parseRetryAfter,
  retryDelay,
  type RetryOptions,
  type TransportEvent,
} from "../../sdk/client";
import {
  AbortedError,
  ApiError,
  BadRequestError,
  AuthenticationError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  TimeoutError,
} from "../../sdk/errors";
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

const Thing = z.looseObject({ id: z.string() });
const get = { method: "GET", path: "/things/a", schema: Thing } as const;
const create = { method: "POST", path: "/things", body: { id: "a" }, schema: Thing } as const;

/** A port on which nothing listens: connecting is refused. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("transport retries: which answers are retried", () => {
  let srv: ScriptedServer;
  afterEach(() => srv.close());

  for (const status of [408, 429, 500, 502, 503, 504]) {
    it(`retries a GET after ${status}`, async () => {
      srv = await scriptedServer([fail(status, 1, "try later"), ok({ id: "a" })]);
      const { client, sleeps } = harness(srv, { retry: { baseDelayMs: 100 } });
      assert.deepEqual(await client.request(get), { id: "a" });
      assert.equal(srv.requests.length, 2);
      assert.deepEqual(sleeps, [100]);
    });
  }

  const final: [number, new (...a: never[]) => ApiError][] = [
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
  ];
  for (const [status, cls] of final) {
    it(`does not retry after ${status}`, async () => {
      srv = await scriptedServer([fail(status, 77, "final"), ok({ id: "a" })]);
      const { client, sleeps } = harness(srv);
      const err = await rejection(() => client.request(get));
      assert.ok(err instanceof cls, `${err.name} is not ${cls.name}`);
      assert.equal((err as ApiError).status, status);
      assert.equal(err.message, `GET /things/a failed with ${status}: final (code 77)`);
      assert.equal(srv.requests.length, 1);
      assert.deepEqual(sleeps, []);
    });
  }

  it("retries PUT, PATCH and DELETE like GET", async () => {
    srv = await scriptedServer([
      fail(503, 1, "x"),
      ok({ id: "p" }),
      fail(503, 1, "x"),
      ok({ id: "q" }),
      fail(503, 1, "x"),
      ok({ id: "r" }),
    ]);
    const { client } = harness(srv);
    await client.request({ method: "PUT", path: "/p", body: { a: 1 }, schema: Thing });
    await client.request({ method: "PATCH", path: "/q", body: { a: 1 }, schema: Thing });
    await client.request({ method: "DELETE", path: "/r", schema: Thing });
    assert.deepEqual(
      srv.requests.map((r) => r.method),
      ["PUT", "PUT", "PATCH", "PATCH", "DELETE", "DELETE"],
    );
    assert.equal(srv.requests[1]!.body, '{"a":1}');
  });

  it("retries a GET after the server resets the connection", async () => {
    srv = await scriptedServer(["reset", ok({ id: "a" })]);
    const { client, sleeps, events } = harness(srv, { retry: { baseDelayMs: 40 } });
    assert.deepEqual(await client.request(get), { id: "a" });
    assert.equal(srv.requests.length, 2);
    assert.deepEqual(sleeps, [40]);
    const error = events.find((e) => e.type === "error");
    assert.ok(error?.type === "error" && error.error instanceof ConnectionError);
    const retry = events.find((e) => e.type === "retry");
    assert.ok(retry?.type === "retry");
    assert.match(retry.reason, /^ERR_CONNECTION (UND_ERR_SOCKET|ECONNRESET)$/);
  });

  it("gives up after maxRetries further attempts and surfaces the last answer", async () => {
    srv = await scriptedServer([
      fail(503, 1, "busy"),
      fail(503, 1, "busy"),
      fail(503, 2, "still busy"),
      ok({ id: "a" }),
    ]);
    const { client, sleeps } = harness(srv, { retry: { maxRetries: 2, baseDelayMs: 10 } });
    const err = await rejection(() => client.request(get));
    assert.ok(err instanceof ServiceUnavailableError);
    assert.ok(err instanceof InternalServerError);
    assert.equal((err as ApiError).apiCode, 2);
    assert.equal(srv.requests.length, 3);
    assert.deepEqual(sleeps, [10, 20]);
  });

  it("with maxRetries 0 makes exactly one attempt", async () => {
    srv = await scriptedServer([fail(500, 1, "boom"), ok({ id: "a" })]);
    const { client } = harness(srv, { retry: { maxRetries: 0 } });
    assert.ok((await rejection(() => client.request(get))) instanceof InternalServerError);
    assert.equal(srv.requests.length, 1);
  });
});

describe("transport retries: Retry-After", () => {
  let srv: ScriptedServer;
  afterEach(() => srv.close());
  const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

  const honoured: [string, Record<string, string>, number][] = [
    ["Retry-After in seconds", { "retry-after": "3" }, 3_000],
    ["Retry-After as an HTTP date", { "retry-after": new Date(NOW + 7_000).toUTCString() }, 7_000],
    ["Retry-After as a date in the past", { "retry-after": new Date(NOW - 60_000).toUTCString() }, 0],
    ["retry-after-ms (over Retry-After)", { "retry-after-ms": "1500", "retry-after": "9" }, 1_500],
    ["Retry-After 0", { "retry-after": "0" }, 0],
  ];
  for (const [what, headers, delay] of honoured) {
    it(`honours ${what}`, async () => {
      srv = await scriptedServer([fail(429, 10004, "throttled", headers), ok({ id: "a" })]);
      const { client, sleeps } = harness(srv, { now: () => NOW });
      assert.deepEqual(await client.request(get), { id: "a" });
      assert.deepEqual(sleeps, [delay]);
    });
  }

  it("falls back to backoff when Retry-After is malformed", async () => {
    srv = await scriptedServer([fail(503, 1, "x", { "retry-after": "soon" }), ok({ id: "a" })]);
    const { client, sleeps } = harness(srv, { retry: { baseDelayMs: 250 } });
    await client.request(get);
    assert.deepEqual(sleeps, [250]);
  });

  it("surfaces the error at once when Retry-After is beyond the cap", async () => {
    srv = await scriptedServer([fail(429, 10004, "throttled", { "retry-after": "120" }), ok({ id: "a" })]);
    const { client, sleeps, events } = harness(srv, { retry: { maxRetryAfterMs: 60_000 } });
    const err = await rejection(() => client.request(get));
    assert.ok(err instanceof RateLimitError);
    assert.equal(err.message, "GET /things/a failed with 429: throttled (code 10004)");
    assert.equal(srv.requests.length, 1);
    assert.deepEqual(sleeps, []);
    assert.ok(!events.some((e) => e.type === "retry"));
  });

  it("surfaces the error when an HTTP-date Retry-After is beyond the cap", async () => {
    const later = new Date(NOW + 3_600_000).toUTCString();
    srv = await scriptedServer([fail(503, 1, "maintenance", { "retry-after": later }), ok({ id: "a" })]);
    const { client, sleeps } = harness(srv, { now: () => NOW });
    assert.ok((await rejection(() => client.request(get))) instanceof ServiceUnavailableError);
    assert.deepEqual(sleeps, []);
  });

  it("parses the header forms (pure)", () => {
    assert.equal(parseRetryAfter({ "retry-after": " 12 " }, NOW), 12_000);
    assert.equal(parseRetryAfter({ "retry-after-ms": "12.2" }, NOW), 13);
    assert.equal(parseRetryAfter({ "retry-after": "Thu, 15 Jan 2026 12:00:30 GMT" }, NOW), 30_000);
    assert.equal(parseRetryAfter({ "retry-after": "1.5" }, NOW), undefined);
    assert.equal(parseRetryAfter({ "retry-after": "-3" }, NOW), undefined);
    assert.equal(parseRetryAfter({ "retry-after-ms": "x", "retry-after": "2" }, NOW), 2_000);
    assert.equal(parseRetryAfter({}, NOW), undefined);
  });
});

describe("transport retries: 429s have their own budget", () => {
  let srv: ScriptedServer;
  afterEach(() => srv.close());
  const throttledFor = (seconds: number): Reply =>
    fail(429, 971, "rate limited", { "retry-after": String(seconds) });

  it("does not spend maxRetries on 429s", async () => {
    srv = await scriptedServer([
      throttledFor(1),
      throttledFor(1),
      throttledFor(1),
      fail(503, 1, "busy"),
      ok({ id: "a" }),
    ]);
    const { client, sleeps } = harness(srv, {
      retry: { maxRetries: 1, maxThrottledRetries: 3, baseDelayMs: 10 },
      now: () => 0,
    });
    assert.deepEqual(await client.request(get), { id: "a" });
    assert.equal(srv.requests.length, 5);
    assert.deepEqual(sleeps, [1_000, 1_000, 1_000, 10]);
  });

  it("gives up after maxThrottledRetries 429s and surfaces the RateLimitError with its code", async () => {
    srv = await scriptedServer([throttledFor(1), throttledFor(1), throttledFor(1), ok({ id: "a" })]);
    const { client } = harness(srv, { retry: { maxRetries: 8, maxThrottledRetries: 2 }, now: () => 0 });
    const err = await rejection(() => client.request(get));
    assert.ok(err instanceof RateLimitError);
    assert.equal((err as ApiError).apiCode, 971);
    assert.equal(srv.requests.length, 3);
  });

  it("defaults maxThrottledRetries to maxRetries, so maxRetries 0 is still one attempt", async () => {
    srv = await scriptedServer([throttledFor(1), ok({ id: "a" })]);
    const { client } = harness(srv, { retry: { maxRetries: 0 } });
    assert.ok((await rejection(() => client.request(get))) instanceof RateLimitError);
    assert.equal(srv.requests.length, 1);
  });

  it("refuses a malformed maxThrottledRetries before any request", () => {
    for (const bad of [-1, 1.5, Number.NaN]) {
      assert.throws(
        () =>
          new ApiClient({
            baseUrl: "http://127.0.0.1:9/client/v4",
            token: TOKEN,
            env: {},
            retry: { maxThrottledRetries: bad },
          }),
        (e: unknown) =>
          e instanceof ConfigurationError &&
          e.message === "retry.maxThrottledRetries: must be an integer >= 0",
      );
    }
  });

  it("is still bounded by the deadline", async () => {
    let t = 0;
    srv = await scriptedServer([throttledFor(2), throttledFor(2), throttledFor(2), ok({ id: "a" })]);
    const { client } = harness(srv, {
      retry: { maxThrottledRetries: 100, deadlineMs: 5_000 },
      now: () => t,
      sleep: async (ms) => {
        t += ms;
      },
    });
    assert.ok((await rejection(() => client.request(get))) instanceof RateLimitError);
    // 0 s, 2 s, 4 s; a third pause would end at 6 s, past the 5 s deadline.
    assert.equal(srv.requests.length, 3);
  });
});

describe("transport retries: one Retry-After holds the client's other calls", () => {
  let srv: ScriptedServer;
  afterEach(() => srv.close());
  const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
  /** A: 429 with Retry-After 2 s, then answered; B: answered. */
  const throttledThenTwoAnswers = (): Promise<ScriptedServer> =>
    scriptedServer([
      fail(429, 971, "rate limited", { "retry-after": "2" }),
      ok({ id: "a" }),
      ok({ id: "b" }),
    ]);

  it("a call made while the token is told to wait holds until then instead of being refused too", async () => {
    srv = await throttledThenTwoAnswers();
    // The clock stands still: every hold is measured from the same instant.
    const { client, sleeps, events } = harness(srv, { now: () => NOW });
    await client.request(get);
    assert.deepEqual(sleeps, [2_000]);
    await client.request({ ...get, path: "/things/b" });
    // B held for the 2 s the server gave A, then went once and was answered.
    assert.deepEqual(sleeps, [2_000, 2_000]);
    assert.equal(srv.requests.length, 3);
    assert.equal(events.filter((e) => e.type === "retry").length, 1);
  });

  it("holds nothing once the time has passed", async () => {
    let t = NOW;
    srv = await throttledThenTwoAnswers();
    const { client, sleeps } = harness(srv, { now: () => t });
    await client.request(get);
    t += 2_000;
    await client.request({ ...get, path: "/things/b" });
    assert.deepEqual(sleeps, [2_000]);
  });

  it("holds no longer than maxRetryAfterMs, even when the clock is set back", async () => {
    let t = NOW;
    srv = await throttledThenTwoAnswers();
    const { client, sleeps } = harness(srv, { now: () => t });
    await client.request(get);
    t -= 3_600_000;
    await client.request({ ...get, path: "/things/b" });
    assert.deepEqual(sleeps, [2_000]);
    assert.equal(srv.requests.length, 3);
  });

  it("a 429 without Retry-After holds only its own call", async () => {
    srv = await scriptedServer([fail(429, 971, "rate limited"), ok({ id: "a" }), ok({ id: "b" })]);
    const { client, sleeps } = harness(srv, { now: () => NOW, retry: { baseDelayMs: 100 } });
    await client.request(get);
    await client.request({ ...get, path: "/things/b" });
    assert.deepEqual(sleeps, [100]);
  });

  it("does not hold requests without the token (public pages are another server's limit)", async () => {
    srv = await scriptedServer([
      fail(429, 971, "rate limited", { "retry-after": "2" }),
      ok({ id: "a" }),
      { status: 200, body: "page" },
    ]);
    const { client, sleeps } = harness(srv, { now: () => NOW });
    await client.request(get);
    await client.fetchRaw(`${srv.origin}/page`);
    assert.deepEqual(sleeps, [2_000]);
  });

  it("an abort while held is the caller's AbortedError, and nothing is sent", async () => {
    srv = await throttledThenTwoAnswers();
    const controller = new AbortController();
    const { client } = harness(srv, {
      now: () => NOW,
      sleep: (ms, signal) =>
        new Promise((resolve, reject) => {
          if (ms === 2_000 && srv.requests.length === 2) {
            controller.abort(new Error("stop"));
            reject(signal?.reason);
            return;
          }
          resolve();
        }),
    });
    await client.request(get);
    const err = await rejection(() =>
      client.request({ ...get, path: "/things/b", signal: controller.signal }),
    );
    assert.ok(err instanceof AbortedError);
    assert.equal(srv.requests.length, 2);
  });
});

describe("transport retries: backoff", () => {
  let srv: ScriptedServer;
  afterEach(() => srv.close());
  const options: RetryOptions = {
    maxRetries: 6,
    maxThrottledRetries: 6,
    baseDelayMs: 100,
    maxDelayMs: 1_000,
    maxRetryAfterMs: 60_000,
    deadlineMs: 0,
  };

  it("grows exponentially, is capped, and jitters over the upper half of each step", async () => {
    const script: Reply[] = [...Array.from({ length: 6 }, () => fail(503, 1, "x")), ok({ id: "a" })];
    srv = await scriptedServer([...script, ...script, ...script]);
    const runs: number[][] = [];
    for (const random of [() => 1, () => 0, () => 0.5]) {
      const { client, sleeps } = harness(srv, { retry: options, random });
      await client.request(get);
      runs.push(sleeps);
    }
    assert.deepEqual(runs, [
      [100, 200, 400, 800, 1000, 1000],
      [50, 100, 200, 400, 500, 500],
      [75, 150, 300, 600, 750, 750],
    ]);
    assert.equal(srv.requests.length, 21);
  });

  it("keeps each delay within [step/2, step] whatever the random source gives (pure)", () => {
    for (let attempt = 1; attempt <= 6; attempt++) {
      const step = Math.min(1_000, 100 * 2 ** (attempt - 1));
      for (const r of [0, 0.25, 0.99, 1, -5, 7]) {
        const d = retryDelay({ attempt, idempotent: true, status: 503, options, random: () => r })!;
        assert.ok(d >= step / 2 && d <= step, `attempt ${attempt} random ${r}: ${d}`);
      }
    }
    assert.equal(
      retryDelay({ attempt: 7, idempotent: true, status: 503, options, random: () => 1 }),
      undefined,
    );
  });

  it("applies the rules in one place (pure table)", () => {
    const base = { attempt: 1, options, random: () => 1 };
    const table: [string, Parameters<typeof retryDelay>[0], number | undefined][] = [
      ["GET 503", { ...base, idempotent: true, status: 503 }, 100],
      ["POST 503", { ...base, idempotent: false, status: 503 }, undefined],
      ["GET 404", { ...base, idempotent: true, status: 404 }, undefined],
      ["GET 501", { ...base, idempotent: true, status: 501 }, undefined],
      ["GET reset", { ...base, idempotent: true, errorCode: "ECONNRESET" }, 100],
      ["POST reset", { ...base, idempotent: false, errorCode: "UND_ERR_SOCKET" }, undefined],
      ["POST refused", { ...base, idempotent: false, errorCode: "ECONNREFUSED" }, 100],
      ["GET unknown error", { ...base, idempotent: true, errorCode: "ERR_SOMETHING" }, undefined],
      ["GET no code", { ...base, idempotent: true }, undefined],
      ["GET DNS name unknown", { ...base, idempotent: true, errorCode: "ENOTFOUND" }, undefined],
    ];
    for (const [what, args, want] of table) assert.equal(retryDelay(args), want, what);
  });
});

describe("transport retries: POST that creates", () => {
  let srv: ScriptedServer;
  afterEach(() => srv.close());

  it("is not repeated after a 503", async () => {
    srv = await scriptedServer([fail(503, 1, "busy"), ok({ id: "a" })]);
    const { client, sleeps } = harness(srv);
    assert.ok((await rejection(() => client.request(create))) instanceof ServiceUnavailableError);
    assert.equal(srv.requests.length, 1);
    assert.deepEqual(sleeps, []);
  });

  it("is not repeated after a connection reset", async () => {
    srv = await scriptedServer(["reset", ok({ id: "a" })]);
    const { client, sleeps } = harness(srv);
    const err = await rejection(() => client.request(create));
    assert.ok(err instanceof ConnectionError);
    assert.match(err.message, /^POST \/things: connection failed: (UND_ERR_SOCKET|ECONNRESET) /);
    assert.equal(srv.requests.length, 1);
    assert.deepEqual(sleeps, []);
  });

  it("is repeated after a 503 and a reset when marked idempotent (a POST that only reads)", async () => {
    srv = await scriptedServer([fail(503, 1, "busy"), "reset", ok({ id: "a" })]);
    const { client, sleeps } = harness(srv, { retry: { baseDelayMs: 10 } });
    assert.deepEqual(await client.request({ ...create, idempotent: true }), { id: "a" });
    assert.equal(srv.requests.length, 3);
    assert.deepEqual(
      srv.requests.map((r) => [r.method, r.body]),
      [
        ["POST", '{"id":"a"}'],
        ["POST", '{"id":"a"}'],
        ["POST", '{"id":"a"}'],
      ],
    );
    assert.deepEqual(sleeps, [10, 20]);
  });

  it("is repeated when the connection was refused, since nothing was sent", async () => {
    const port = await closedPort();
    srv = await scriptedServer([]);
    const { client, sleeps, events } = harness(srv, { baseUrl: `http://127.0.0.1:${port}/client/v4` });
    const err = await rejection(() => client.request(create));
    assert.ok(err instanceof ConnectionError);
    assert.match(err.message, /ECONNREFUSED/);
    assert.equal(events.filter((e) => e.type === "request").length, 3);
    assert.deepEqual(sleeps, [500, 1000]);
  });
});

describe("transport: timeouts", () => {
  let srv: ScriptedServer;
  afterEach(() => srv.close());

  it("throws TimeoutError when the server never answers", async () => {
    srv = await scriptedServer(["hang"]);
    const { client } = harness(srv, { timeoutMs: 60, retry: { maxRetries: 0 } });
    const err = await rejection(() => client.request(get));
    assert.ok(err instanceof TimeoutError);
    assert.equal((err as TimeoutError).code, "ERR_TIMEOUT");
    assert.equal(err.message, "GET /things/a: no response within 60 ms");
  });

  it("retries a timed-out idempotent request", async () => {
    srv = await scriptedServer(["hang", ok({ id: "a" })]);
    const { client, events } = harness(srv, { timeoutMs: 60 });
    assert.deepEqual(await client.request(get), { id: "a" });
    assert.equal(srv.requests.length, 2);
    const retry = events.find((e) => e.type === "retry");
    assert.ok(retry?.type === "retry" && retry.reason === "ERR_TIMEOUT ETIMEDOUT");
  });

  it("does not retry a timed-out POST that creates", async () => {
    srv = await scriptedServer(["hang", ok({ id: "a" })]);
    const { client } = harness(srv, { timeoutMs: 60 });
    assert.ok((await rejection(() => client.request(create))) instanceof TimeoutError);
    assert.equal(srv.requests.length, 1);
  });

  it("times out a body that stops half-way, per request", async () => {
    srv = await scriptedServer(["hang-body"]);
    const { client } = harness(srv, { retry: { maxRetries: 0 } });
    const err = await rejection(() => client.request({ ...get, timeoutMs: 60 }));
    assert.ok(err instanceof TimeoutError);
    assert.equal((err as TimeoutError).timeoutMs, 60);
  });

  it("refuses a malformed per-request timeout before any request", async () => {
    srv = await scriptedServer([]);
    const { client } = harness(srv);
    const err = await rejection(() => client.request({ ...get, timeoutMs: -1 }));
    assert.ok(err instanceof ConfigurationError);
    assert.equal(srv.requests.length, 0);
  });
});

describe("transport: abort", () => {
  let srv: ScriptedServer;
  afterEach(() => srv.close());

  it("throws AbortedError without a request when the signal is already aborted", async () => {
    srv = await scriptedServer([ok({ id: "a" })]);
    const { client, events } = harness(srv);
    const err = await rejection(() => client.request({ ...get, signal: AbortSignal.abort() }));
    assert.ok(err instanceof AbortedError);
    assert.equal(err.message, "GET /things/a: aborted");
    assert.equal(srv.requests.length, 0);
    assert.deepEqual(events, []);
  });

  it("aborts a request in flight and does not retry it", async () => {
    srv = await scriptedServer(["hang", ok({ id: "a" })]);
    const controller = new AbortController();
    const { client, sleeps } = harness(srv, {
      onEvent: (e: TransportEvent) => {
        if (e.type === "request") setTimeout(() => controller.abort(), 20);
      },
    });
    const err = await rejection(() => client.request({ ...get, signal: controller.signal }));
    assert.ok(err instanceof AbortedError);
    assert.ok(!(err instanceof TimeoutError));
    assert.equal(srv.requests.length, 1);
    assert.deepEqual(sleeps, []);
  });

  it("leaves no listener on a caller's signal reused for many requests", async () => {
    srv = await scriptedServer([ok({ id: "a" }), fail(503, 1, "x"), ok({ id: "b" }), fail(404, 1, "x")]);
    const controller = new AbortController();
    const { client } = harness(srv);
    await client.request({ ...get, signal: controller.signal });
    await client.request({ ...get, signal: controller.signal });
    await rejection(() => client.request({ ...get, signal: controller.signal }));
    assert.equal(srv.requests.length, 4);
    assert.equal(getEventListeners(controller.signal, "abort").length, 0);
  });

  it("stops during the backoff wait when the signal fires", async () => {
    srv = await scriptedServer([fail(503, 1, "busy"), ok({ id: "a" })]);
    const controller = new AbortController();
    const { client } = harness(srv, {
      sleep: async (_ms, signal) => {
        controller.abort();
        if (signal?.aborted) throw new Error("sleep interrupted");
      },
    });
    const err = await rejection(() => client.request({ ...get, signal: controller.signal }));
    assert.ok(err instanceof AbortedError);
    assert.equal(err.message, "GET /things/a: aborted");
    assert.equal(srv.requests.length, 1);
  });

  it("stops during the real (default) backoff wait", async () => {
    srv = await scriptedServer([fail(503, 1, "busy"), ok({ id: "a" })]);
    const controller = new AbortController();
    const client = new ApiClient({
      baseUrl: srv.baseUrl,
      token: TOKEN,
      env: {},
      retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 },
      onEvent: (e) => {
        if (e.type === "retry") setTimeout(() => controller.abort(), 10);
      },
    });
    const started = Date.now();
    assert.ok(
      (await rejection(() => client.request({ ...get, signal: controller.signal }))) instanceof AbortedError,
    );
    assert.ok(Date.now() - started < 5_000);
    await client.close();
  });
});
