/** sdk/core.ts: the one backoff, poll loop, create-once and "404 means gone" every area builds on. */
import { strict as assert } from "node:assert";
import { backoff, createOnce, mayHaveLanded, orGone, pollUntil, type Clock } from "../../sdk/core";
import {
  AbortedError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  DeadlineExceededError,
  InternalServerError,
  NotFoundError,
  ServiceUnavailableError,
  TimeoutError,
  errorFromResponse,
} from "../../sdk/errors";
import { collect, cursorStyle, pageStyle } from "../../sdk/paging";

const apiError = (status: number) =>
  errorFromResponse({
    status,
    errors: [{ code: 1, message: `status ${status}` }],
    method: "POST",
    path: "/x",
  });

/** A clock whose sleeps only move its own time, recording each pause. */
function manualClock(start = 1_000): Clock & { pauses: number[]; t: number } {
  const clock = {
    t: start,
    pauses: [] as number[],
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.pauses.push(ms);
      clock.t += ms;
    },
  };
  return clock;
}

describe("sdk core: backoff", () => {
  it("doubles from the base up to the cap, exact without a jitter source", () => {
    const steps = [1, 2, 3, 4, 5, 6].map((s) => backoff(s, { baseMs: 500, capMs: 8_000 }));
    assert.deepEqual(steps, [500, 1000, 2000, 4000, 8000, 8000]);
  });

  it("grows by another factor, rounding each step up to whole ms", () => {
    const steps = [1, 2, 3, 4, 5].map((s) => backoff(s, { baseMs: 1000, capMs: 4000, factor: 1.5 }));
    assert.deepEqual(steps, [1000, 1500, 2250, 3375, 4000]);
  });

  it("with a jitter source, spreads the step over its upper half and clamps the source", () => {
    const o = { baseMs: 1000, capMs: 10_000 };
    assert.equal(backoff(2, { ...o, random: () => 0 }), 1000);
    assert.equal(backoff(2, { ...o, random: () => 0.5 }), 1500);
    assert.equal(backoff(2, { ...o, random: () => 1 }), 2000);
    assert.equal(backoff(2, { ...o, random: () => 7 }), 2000);
    assert.equal(backoff(2, { ...o, random: () => -1 }), 1000);
  });

  it("treats a step below 1 as the first", () => {
    assert.equal(backoff(0, { baseMs: 300, capMs: 1000 }), 300);
  });
});

describe("sdk core: pollUntil", () => {
  it("reads until settled, pausing with backoff on the injected clock and reporting progress", async () => {
    const clock = manualClock();
    const states = ["queued", "running", "running", "done"];
    const progress: [string, number, number][] = [];
    const out = await pollUntil(
      "job 1",
      async () => states.shift() ?? "done",
      (s) => (s === "done" ? `settled:${s}` : undefined),
      {
        clock,
        pollIntervalMs: 100,
        maxPollIntervalMs: 300,
        onProgress: (s, p) => progress.push([s, p.polls, p.elapsedMs]),
      },
    );
    assert.equal(out, "settled:done");
    assert.deepEqual(clock.pauses, [100, 200, 300]);
    assert.deepEqual(progress, [
      ["queued", 1, 0],
      ["running", 2, 100],
      ["running", 3, 300],
      ["done", 4, 600],
    ]);
  });

  it("gives up at the deadline, cutting the last pause short and naming the last state", async () => {
    const clock = manualClock();
    const started = clock.now();
    const err = await pollUntil(
      "build b",
      async () => "initializing",
      () => undefined,
      { clock, deadlineMs: 250, pollIntervalMs: 100, describe: (s) => s },
    ).then(
      () => assert.fail("should not settle"),
      (e: unknown) => e,
    );
    assert.ok(err instanceof DeadlineExceededError);
    assert.equal(err.message, "build b: not finished within 250 ms (last state: initializing)");
    assert.deepEqual(clock.pauses, [100, 150]);
    assert.equal(clock.now() - started, 250);
  });

  it("prefers the separate now and sleep over the clock's halves", async () => {
    const clock = manualClock();
    const pauses: number[] = [];
    let t = 0;
    let reads = 0;
    await pollUntil(
      "x",
      async () => ++reads,
      (n) => (n === 3 ? n : undefined),
      {
        clock,
        now: () => t,
        sleep: async (ms) => {
          pauses.push(ms);
          t += ms;
        },
        pollIntervalMs: 10,
      },
    );
    assert.deepEqual(pauses, [10, 20]);
    assert.deepEqual(clock.pauses, []);
  });

  it("does not read once aborted, and stops when aborted during a pause", async () => {
    const before = new AbortController();
    before.abort();
    let reads = 0;
    await assert.rejects(
      pollUntil(
        "w",
        async () => ++reads,
        () => undefined,
        { signal: before.signal, clock: manualClock() },
      ),
      (e: unknown) => e instanceof AbortedError && e.message === "waiting for w: aborted",
    );
    assert.equal(reads, 0);

    const during = new AbortController();
    const clock = manualClock();
    await assert.rejects(
      pollUntil(
        "w",
        async () => ++reads,
        () => undefined,
        {
          signal: during.signal,
          now: clock.now,
          sleep: async () => during.abort(),
        },
      ),
      AbortedError,
    );
    assert.equal(reads, 1);
  });

  it("names what it waited for when the sleeper rejects on abort, and passes signal and timeout to reads", async () => {
    const ac = new AbortController();
    const seen: unknown[] = [];
    const err = await pollUntil(
      "search job j",
      async (call) => {
        seen.push(call);
        return 0;
      },
      () => undefined,
      {
        signal: ac.signal,
        timeoutMs: 5,
        pollIntervalMs: 30,
        deadlineMs: 10_000,
        sleep: (_ms, signal) =>
          new Promise((_resolve, reject) => {
            signal?.addEventListener("abort", () => reject(new Error("sleep interrupted")));
            ac.abort();
          }),
      },
    ).catch((e: unknown) => e);
    assert.ok(err instanceof AbortedError);
    assert.equal(err.message, "waiting for search job j: aborted");
    assert.deepEqual(seen, [{ signal: ac.signal, timeoutMs: 5 }]);
  });

  it("lets settle end the wait with an error of its own", async () => {
    await assert.rejects(
      pollUntil(
        "wf",
        async () => "failed",
        () => {
          throw new Error("workflow failed");
        },
        { clock: manualClock() },
      ),
      /workflow failed/,
    );
  });
});

describe("sdk core: createOnce", () => {
  /** A POST scripted per attempt and a lookup scripted per call, counting both. */
  function scripted<T>(posts: (() => T)[], finds: (() => T | undefined)[]) {
    const count = { posts: 0, finds: 0 };
    const post = async (): Promise<T> => posts[count.posts++]!();
    const find = async (): Promise<T | undefined> => finds[count.finds++]!();
    return { count, post, find };
  }
  const lost = () => {
    throw new ConnectionError("POST", "/x", new Error("ECONNRESET socket hang up"));
  };

  it("returns the POST's answer and never looks up when it succeeds", async () => {
    const s = scripted([() => "made"], []);
    assert.equal(await createOnce(s.post, s.find), "made");
    assert.deepEqual(s.count, { posts: 1, finds: 0 });
  });

  it("after an outcome that may have landed, returns what the lookup finds, without a second POST", async () => {
    for (const failure of [
      lost,
      () => {
        throw new TimeoutError("POST", "/x", 10);
      },
      () => {
        throw apiError(502);
      },
    ]) {
      const s = scripted([failure, () => "second"], [() => "landed"]);
      assert.equal(await createOnce(s.post, s.find, { retries: 2 }), "landed");
      assert.deepEqual(s.count, { posts: 1, finds: 1 });
    }
  });

  it("rethrows an error that proves nothing landed, without a lookup", async () => {
    const refused = apiError(400);
    const s = scripted(
      [
        () => {
          throw refused;
        },
      ],
      [],
    );
    await assert.rejects(createOnce(s.post, s.find, { retries: 2 }), (e: unknown) => e === refused);
    assert.deepEqual(s.count, { posts: 1, finds: 0 });
  });

  it("rethrows the create's error when the lookup proves it did not land and no retries are left", async () => {
    const s = scripted([lost], [() => undefined]);
    await assert.rejects(createOnce(s.post, s.find), ConnectionError);
    assert.deepEqual(s.count, { posts: 1, finds: 1 });
  });

  it("repeats the POST only after a lookup proved the attempt did not land, up to its retries", async () => {
    const s = scripted([lost, lost, () => "third"], [() => undefined, () => undefined]);
    assert.equal(await createOnce(s.post, s.find, { retries: 2 }), "third");
    assert.deepEqual(s.count, { posts: 3, finds: 2 });
    const spent = scripted([lost, lost, lost], [() => undefined, () => undefined, () => undefined]);
    await assert.rejects(createOnce(spent.post, spent.find, { retries: 2 }), ConnectionError);
    assert.deepEqual(spent.count, { posts: 3, finds: 3 });
  });

  it("takes a conflict on a repeat as the earlier attempt landing late, and looks it up", async () => {
    const conflict = () => {
      throw apiError(409);
    };
    const s = scripted([lost, conflict], [() => undefined, () => "late"]);
    assert.equal(await createOnce(s.post, s.find, { retries: 2 }), "late");
    assert.deepEqual(s.count, { posts: 2, finds: 2 });
    // On the first attempt a conflict is the server's word: something else holds the key.
    const first = scripted([conflict], []);
    await assert.rejects(createOnce(first.post, first.find, { retries: 2 }), ConflictError);
    assert.equal(first.count.finds, 0);
  });

  it("keeps the create's error when the lookup fails too, but lets an abort through", async () => {
    const s = scripted(
      [lost],
      [
        () => {
          throw apiError(500);
        },
      ],
    );
    await assert.rejects(createOnce(s.post, s.find, { retries: 2 }), ConnectionError);
    assert.equal(s.count.posts, 1);
    const aborted = scripted(
      [lost],
      [
        () => {
          throw new AbortedError("GET /x");
        },
      ],
    );
    await assert.rejects(createOnce(aborted.post, aborted.find), AbortedError);
  });

  it("mayHaveLanded: no answer or a server error, never a client error", () => {
    assert.equal(mayHaveLanded(new ConnectionError("POST", "/x", new Error("reset"))), true);
    assert.equal(mayHaveLanded(new TimeoutError("POST", "/x", 1)), true);
    for (const status of [500, 502, 503, 504])
      assert.equal(mayHaveLanded(apiError(status)), true, `${status}`);
    for (const status of [400, 401, 404, 409, 422, 429, 501]) {
      assert.equal(mayHaveLanded(apiError(status)), false, `${status}`);
    }
    assert.equal(mayHaveLanded(new Error("plain")), false);
    assert.ok(apiError(503) instanceof ServiceUnavailableError);
  });
});

describe("sdk core: orGone", () => {
  it("maps a 404 to undefined and passes values through", async () => {
    assert.equal(await orGone(Promise.reject(apiError(404))), undefined);
    assert.equal(await orGone(Promise.resolve("here")), "here");
    assert.ok(apiError(404) instanceof NotFoundError);
  });

  it("rethrows every other error", async () => {
    await assert.rejects(orGone(Promise.reject(apiError(500))), InternalServerError);
    await assert.rejects(orGone(Promise.reject(apiError(400))), BadRequestError);
    await assert.rejects(orGone(Promise.reject(new AbortedError("GET /x"))), AbortedError);
  });
});

describe("sdk paging: Paged listings", () => {
  it("collect a page-style or cursor-style listing with toArray", async () => {
    const pages = [[1, 2], [3]];
    const byPage = pageStyle(async (page) => ({ items: pages[page - 1] ?? [] }), 2);
    assert.deepEqual(await byPage.toArray(), [1, 2, 3]);
    const cursors: Record<string, { items: string[]; cursor?: string }> = {
      start: { items: ["a"], cursor: "c1" },
      c1: { items: ["b"] },
    };
    const byCursor = cursorStyle(async (cursor) => cursors[cursor ?? "start"]!);
    assert.deepEqual(await byCursor.toArray(), ["a", "b"]);
    assert.deepEqual(await collect(pageStyle(async () => ({ items: [] }))), []);
  });
});
