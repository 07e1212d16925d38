/**
 * Shared reads: identical GETs made at once share one request, and never an answer that began before
 * the caller asked. The class alone with hand-resolved fetches, then the client against a real server.
 */
import { strict as assert } from "node:assert";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { ApiClient } from "../../sdk/client";
import { ConfigurationError, InternalServerError } from "../../sdk/errors";
import { FreshReads } from "../../sdk/fresh-reads";
import { TOKEN } from "./transport-server.test";

/** A fetch the test ends by hand, counting how many were started. */
function manualFetches(): {
  fetch: () => Promise<number>;
  started: number;
  finish(value: number): void;
  fail(error: Error): void;
} {
  const pending: { resolve: (v: number) => void; reject: (e: Error) => void }[] = [];
  const box = {
    started: 0,
    fetch: (): Promise<number> => {
      box.started++;
      return new Promise<number>((resolve, reject) => pending.push({ resolve, reject }));
    },
    finish: (value: number): void => pending.shift()!.resolve(value),
    fail: (error: Error): void => pending.shift()!.reject(error),
  };
  return box;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("FreshReads", () => {
  it("a read with nothing in flight starts at once and leaves nothing behind", async () => {
    const reads = new FreshReads<number>();
    const f = manualFetches();
    const a = reads.read("k", f.fetch);
    assert.equal(f.started, 1);
    f.finish(1);
    assert.equal(await a, 1);
    await tick();
    assert.equal(reads.size, 0);
  });

  it("reads that arrive while one is in flight share the next one, started after it ends", async () => {
    const reads = new FreshReads<number>();
    const f = manualFetches();
    const first = reads.read("k", f.fetch);
    const second = reads.read("k", f.fetch);
    const third = reads.read("k", f.fetch);
    // The joiners do not take the running answer: it began before they asked.
    assert.equal(f.started, 1);
    f.finish(1);
    assert.equal(await first, 1);
    await tick();
    assert.equal(f.started, 2);
    f.finish(2);
    assert.equal(await second, 2);
    assert.equal(await third, 2);
    await tick();
    assert.equal(reads.size, 0);
  });

  it("a caller arriving after the queued read started gets a newer one still", async () => {
    const reads = new FreshReads<number>();
    const f = manualFetches();
    const first = reads.read("k", f.fetch);
    const second = reads.read("k", f.fetch);
    f.finish(1);
    await first;
    await tick();
    // The queued read is in flight now; a new caller must not take it.
    const third = reads.read("k", f.fetch);
    f.finish(2);
    assert.equal(await second, 2);
    await tick();
    assert.equal(f.started, 3);
    f.finish(3);
    assert.equal(await third, 3);
  });

  it("keys are apart", async () => {
    const reads = new FreshReads<number>();
    const f = manualFetches();
    const a = reads.read("a", f.fetch);
    const b = reads.read("b", f.fetch);
    assert.equal(f.started, 2);
    f.finish(1);
    f.finish(2);
    assert.deepEqual(await Promise.all([a, b]), [1, 2]);
  });

  it("a failed read fails its sharers, and the queued one still runs", async () => {
    const reads = new FreshReads<number>();
    const f = manualFetches();
    const first = reads.read("k", f.fetch);
    const second = reads.read("k", f.fetch);
    f.fail(new Error("boom"));
    await assert.rejects(first, /boom/);
    await tick();
    assert.equal(f.started, 2);
    f.fail(new Error("again"));
    await assert.rejects(second, /again/);
    await tick();
    assert.equal(reads.size, 0);
  });
});

describe("client option shareReads", () => {
  const Things = z.array(z.looseObject({ id: z.string() }));
  let served: { method: string; url: string }[];
  let server: ReturnType<typeof createServer>;
  let baseUrl: string;
  let status: number;

  beforeEach(async () => {
    served = [];
    status = 200;
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      served.push({ method: req.method ?? "", url: req.url ?? "" });
      req.resume();
      // Slow enough that the calls below overlap.
      setTimeout(() => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(
          JSON.stringify(
            status === 200
              ? { success: true, result: [{ id: `n${served.length}` }] }
              : { success: false, errors: [{ code: 1, message: "boom" }] },
          ),
        );
      }, 30);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = (shareReads?: boolean): ApiClient =>
    new ApiClient({
      baseUrl,
      token: TOKEN,
      env: {},
      retry: { maxRetries: 0 },
      ...(shareReads === undefined ? {} : { shareReads }),
    });
  const list = { method: "GET", path: "/things", schema: Things } as const;

  it("off by default: ten identical GETs at once are ten requests", async () => {
    const c = client();
    await Promise.all(Array.from({ length: 10 }, () => c.request(list)));
    assert.equal(served.length, 10);
    await c.close();
  });

  it("on: ten identical GETs at once are two requests, each answer newer than its call", async () => {
    const c = client(true);
    const first = c.request(list);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const rest = Array.from({ length: 9 }, () => c.request(list));
    const answers = await Promise.all([first, ...rest]);
    assert.equal(served.length, 2);
    assert.deepEqual(answers[0], [{ id: "n1" }]);
    // The nine asked while the first was in flight: they get the second request's answer.
    for (const a of answers.slice(1)) assert.deepEqual(a, [{ id: "n2" }]);
    await c.close();
  });

  it("on: different paths, queries, a signal, a timeout or headers go alone", async () => {
    const c = client(true);
    await Promise.all([
      c.request(list),
      c.request({ ...list, path: "/other" }),
      c.request({ ...list, query: { page: 2 } }),
      c.request({ ...list, signal: new AbortController().signal }),
      c.request({ ...list, timeoutMs: 5_000 }),
      c.request({ ...list, headers: { "x-extra": "1" } }),
    ]);
    assert.equal(served.length, 6);
    await c.close();
  });

  it("on: never shares a write", async () => {
    const c = client(true);
    const post = { method: "POST", path: "/things", body: { id: "a" }, schema: z.unknown() } as const;
    await Promise.all([c.request(post), c.request(post), c.request({ ...post, method: "PUT" })]);
    assert.equal(served.length, 3);
    await c.close();
  });

  it("on: an error answer reaches every sharer as the typed error", async () => {
    const c = client(true);
    status = 500;
    const results = await Promise.allSettled([c.request(list), c.request(list), c.request(list)]);
    for (const r of results) {
      assert.equal(r.status, "rejected");
      assert.ok(r.reason instanceof InternalServerError);
    }
    assert.equal(served.length, 2);
    await c.close();
  });

  it("refuses a shareReads that is not a boolean", () => {
    assert.throws(
      () => new ApiClient({ baseUrl, token: TOKEN, env: {}, shareReads: "yes" as unknown as boolean }),
      (e: unknown) => e instanceof ConfigurationError && e.message === "shareReads: must be a boolean",
    );
  });
});
