/**
 * The emulator's global rate limit: the limiter on an injected clock, then through real HTTP on a
 * manual clock (429 code 971 with an integer Retry-After, the window freeing, callers counted apart,
 * the control API left out and switching it on and off), and the command line's `--rate-limit`.
 */
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { request } from "undici";
import { buildCli } from "../../cli/main";
import { ManualClock } from "../../emulator/clock";
import { RateLimiter, type RateLimit } from "../../emulator/rate-limit";
import { startEmulator, type RunningEmulator } from "../../emulator/server";

const ROOT = resolve(__dirname, "..", "..");

const REFUSED = {
  success: false,
  errors: [{ code: 971, message: "Please wait and consider throttling your request speed" }],
  messages: [],
  result: null,
};

describe("RateLimiter (injected clock)", () => {
  let t: number;
  const now = (): number => t;
  beforeEach(() => {
    t = 1_000_000;
  });

  it("lets `requests` through per window, refuses the next with whole seconds until the window frees", () => {
    const limiter = new RateLimiter({ requests: 3, windowMs: 10_000 }, now);
    for (let i = 0; i < 3; i++) assert.deepEqual(limiter.decide("a"), { allowed: true });
    assert.deepEqual(limiter.decide("a"), { allowed: false, retryAfterSeconds: 10 });
    t += 2_500;
    assert.deepEqual(limiter.decide("a"), { allowed: false, retryAfterSeconds: 8 });
    t += 7_499;
    assert.deepEqual(limiter.decide("a"), { allowed: false, retryAfterSeconds: 1 });
    t += 1;
    assert.deepEqual(limiter.decide("a"), { allowed: true }, "the window freed");
    assert.deepEqual(limiter.decide("a"), { allowed: true });
    assert.deepEqual(limiter.decide("a"), { allowed: true });
    assert.equal(limiter.decide("a").allowed, false);
  });

  it("counts each key apart", () => {
    const limiter = new RateLimiter({ requests: 1, windowMs: 60_000 }, now);
    assert.equal(limiter.decide("Bearer one").allowed, true);
    assert.equal(limiter.decide("Bearer two").allowed, true);
    assert.equal(limiter.decide("").allowed, true);
    assert.equal(limiter.decide("Bearer one").allowed, false);
    assert.equal(limiter.decide("Bearer two").allowed, false);
    assert.equal(limiter.decide("").allowed, false);
  });

  it("never answers a Retry-After below 1 s, even for a window shorter than a second", () => {
    const limiter = new RateLimiter({ requests: 1, windowMs: 200 }, now);
    limiter.decide("a");
    assert.deepEqual(limiter.decide("a"), { allowed: false, retryAfterSeconds: 1 });
  });

  it("forgets callers whose window ended once it holds many", () => {
    const limiter = new RateLimiter({ requests: 1, windowMs: 1_000 }, now);
    for (let i = 0; i < 1_500; i++) limiter.decide(`k${i}`);
    t += 1_000;
    for (let i = 0; i < 1_500; i++)
      assert.equal(limiter.decide(`k${i}`).allowed, true, `k${i}: a new window`);
    assert.equal(limiter.decide("k0").allowed, false);
  });

  const bad: [unknown, RegExp][] = [
    [{ requests: 0, windowMs: 1_000 }, /^rateLimit\.requests: must be at least 1$/],
    [{ requests: 1.5, windowMs: 1_000 }, /^rateLimit\.requests: must be a whole number$/],
    [{ requests: 10, windowMs: -1 }, /^rateLimit\.windowMs: must be at least 1$/],
    [{ requests: 10 }, /^rateLimit\.windowMs: /],
    [{ requests: "10", windowMs: 1_000 }, /^rateLimit\.requests: /],
    [{ requests: 10, windowMs: 1_000, burst: 5 }, /^rateLimit\.burst: /],
    [undefined, /^rateLimit: /],
  ];
  for (const [options, said] of bad)
    it(`refuses ${JSON.stringify(options)} naming the field`, () => {
      assert.throws(() => new RateLimiter(options as RateLimit, now), { message: said });
    });
});

describe("emulator rate limit (HTTP)", () => {
  let em: RunningEmulator;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = new ManualClock();
    em = await startEmulator({ clock, env: {}, rateLimit: { requests: 3, windowMs: 10_000 } });
  });
  afterEach(async () => em.stop());

  async function call(
    path: string,
    o: { method?: string; token?: string | null; body?: unknown } = {},
  ): Promise<{ status: number; retryAfter?: string; json: unknown }> {
    const url = path.startsWith("/__") ? em.origin + path : em.url + path;
    const headers: Record<string, string> = {};
    const token = o.token === undefined ? em.token : o.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (o.body !== undefined) headers["content-type"] = "application/json";
    const res = await request(url, {
      method: (o.method ?? "GET") as "GET",
      headers,
      ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
    });
    const retryAfter = res.headers["retry-after"];
    return {
      status: res.statusCode,
      ...(typeof retryAfter === "string" ? { retryAfter } : {}),
      json: await res.body.json(),
    };
  }
  const zones = "/zones";

  it("answers the 4th request of a window 429 code 971 with an integer Retry-After, and serves it once the window frees", async () => {
    for (let i = 0; i < 3; i++) assert.equal((await call(zones)).status, 200);
    const refused = await call(zones);
    assert.equal(refused.status, 429);
    assert.deepEqual(refused.json, REFUSED);
    assert.equal(refused.retryAfter, "10");
    clock.advance(4_200);
    assert.equal((await call(zones)).retryAfter, "6");
    clock.advance(5_800);
    const again = await call(zones);
    assert.equal(again.status, 200, JSON.stringify(again.json));
    assert.equal(again.retryAfter, undefined);
  });

  it("refuses a create before the handler runs: nothing is made", async () => {
    for (let i = 0; i < 3; i++) await call(zones);
    const create = await call(zones, {
      method: "POST",
      body: { name: "late.example.com", account: { id: em.accountId } },
    });
    assert.equal(create.status, 429);
    clock.advance(10_000);
    const listed = (await call(`${zones}?name=late.example.com`)).json as { result: unknown[] };
    assert.deepEqual(listed.result, []);
  });

  it("counts each token apart, and requests without one share a count", async () => {
    const other = em.auth.add({ scope: "user", permissions: ["*"] }).value;
    for (let i = 0; i < 3; i++) await call(zones);
    assert.equal((await call(zones)).status, 429);
    assert.equal((await call(zones, { token: other })).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await call(zones, { token: null })).status, 401);
    assert.equal((await call(zones, { token: null })).status, 429);
    assert.equal((await call(zones, { token: "nope" })).status, 401, "a different header, its own count");
  });

  it("never counts nor refuses the control API, and logs each refusal with status 429", async () => {
    for (let i = 0; i < 10; i++) assert.equal((await call("/__emulator/health")).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await call(zones)).status, 200);
    assert.equal((await call(zones)).status, 429);
    assert.equal((await call("/__emulator/state")).status, 200);
    const log = em.requestLog.filter((e) => e.url.startsWith("/client/v4/"));
    assert.deepEqual(
      log.map((e) => e.status),
      [200, 200, 200, 429],
    );
    assert.equal(log[3]?.fault, undefined);
  });

  it("counts requests an injected fault fails, and refuses past the limit before any injected failure", async () => {
    em.faults.add({ path: "^/client/v4/", status: 503 });
    for (let i = 0; i < 3; i++) assert.equal((await call(zones)).status, 503);
    const refused = await call(zones);
    assert.equal(refused.status, 429);
    assert.deepEqual(refused.json, REFUSED);
  });

  it("is switched on, changed and off through the control API, and refuses a bad limit naming the field", async () => {
    assert.deepEqual((await call("/__emulator/rate-limit")).json, {
      success: true,
      errors: [],
      messages: [],
      result: { requests: 3, windowMs: 10_000 },
    });
    await call("/__emulator/rate-limit", { method: "DELETE" });
    assert.equal(((await call("/__emulator/rate-limit")).json as { result: unknown }).result, null);
    for (let i = 0; i < 6; i++) assert.equal((await call(zones)).status, 200, "off: no limit");

    const set = await call("/__emulator/rate-limit", {
      method: "PUT",
      body: { requests: 1, windowMs: 2_000 },
    });
    assert.deepEqual((set.json as { result: unknown }).result, { requests: 1, windowMs: 2_000 });
    assert.equal((await call(zones)).status, 200);
    const refused = await call(zones);
    assert.equal(refused.status, 429);
    assert.equal(refused.retryAfter, "2");

    const bad = await call("/__emulator/rate-limit", {
      method: "PUT",
      body: { requests: 0, windowMs: "soon" },
    });
    assert.equal(bad.status, 400);
    const errors = (bad.json as { errors: { code: number; message: string }[] }).errors;
    assert.deepEqual(
      errors.map((e) => e.code),
      [1001, 1001],
    );
    assert.match(errors[0]!.message, /^requests: must be at least 1$/);
    assert.match(errors[1]!.message, /^windowMs: /);
    assert.deepEqual(em.rateLimit.get(), { requests: 1, windowMs: 2_000 }, "a refused PUT changes nothing");

    em.rateLimit.clear();
    assert.equal((await call(zones)).status, 200);
    em.rateLimit.set({ requests: 2, windowMs: 1_000 });
    await call(zones);
    await call(zones);
    assert.equal((await call(zones)).status, 429);
  });

  it("is off by default, and a bad limit at start is refused naming the field", async () => {
    const plain = await startEmulator({ clock: new ManualClock(), env: {} });
    try {
      assert.equal(plain.rateLimit.get(), null);
    } finally {
      await plain.stop();
    }
    await assert.rejects(
      startEmulator({ env: {}, rateLimit: { requests: 10, windowMs: 0 } }),
      /rateLimit\.windowMs: must be at least 1/,
    );
  });
});

describe("account-api emulator --rate-limit", () => {
  for (const value of ["abc", "0/60", "10/0", "10", "10/1.5", "-1/60"])
    it(`refuses --rate-limit ${value} naming the option`, async () => {
      const said: string[] = [];
      const cli = buildCli({ out: (t) => said.push(t), err: (t) => said.push(t), env: {} });
      await assert.rejects(cli.parseAsync(["node", "account-api", "emulator", "--rate-limit", value]));
      assert.match(said.join(""), /--rate-limit/);
      assert.match(said.join(""), /must be <requests>\/<seconds>, two whole numbers of at least 1/);
    });

  it("starts the emulator with the limit (a real process)", async function () {
    this.timeout(60_000);
    const args = ["emulator", "--port", "0", "--rate-limit", "2/60"];
    const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "cli/main.ts", ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" },
    });
    try {
      // The banner ends with the export line (a generated token).
      let banner = "";
      for await (const line of createInterface({ input: child.stdout })) {
        banner += `${line}\n`;
        if (line.startsWith("export ")) break;
      }
      assert.match(banner, /rate limit:\s+2 per 60 s per token/);
      const url = /emulator listening: (\S+)/.exec(banner)![1]!;
      const token = /token:\s+(\S+) \(generated\)/.exec(banner)![1]!;
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await request(`${url}/zones`, { headers: { authorization: `Bearer ${token}` } });
        await res.body.dump();
        statuses.push(res.statusCode);
      }
      assert.deepEqual(statuses, [200, 200, 429]);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
