/**
 * The provider's retry policy under a rate limit: only its deadline ends a throttled call. Against a
 * scripted server, with the sleeps recorded instead of slept.
 */
import { strict as assert } from "node:assert";
import { z } from "zod";
import { RateLimitError } from "../../sdk/errors";
import { DEFAULT_RETRY_POLICY, retryPolicyFor } from "../../provider/retry-policy";
import {
  fail,
  harness,
  ok,
  rejection,
  scriptedServer,
  type ScriptedServer,
} from "../unit/transport-server.test";

const get = { method: "GET", path: "/things/a", schema: z.looseObject({ id: z.string() }) } as const;
const throttled = (retryAfter: string) => fail(429, 971, "rate limited", { "retry-after": retryAfter });

describe("provider retry policy", () => {
  let srv: ScriptedServer;
  afterEach(() => srv?.close());

  it("takes the deadline and maxRetries from the configuration, the defaults otherwise", () => {
    const defaults = retryPolicyFor({});
    assert.equal(defaults.deadlineMs, DEFAULT_RETRY_POLICY.deadlineMs);
    assert.equal(defaults.maxRetries, DEFAULT_RETRY_POLICY.maxRetries);
    assert.equal(defaults.maxRetryAfterMs, DEFAULT_RETRY_POLICY.deadlineMs);
    const set = retryPolicyFor({ deadlineMs: 20_000, maxRetries: 1 });
    assert.equal(set.deadlineMs, 20_000);
    assert.equal(set.maxRetries, 1);
    assert.equal(set.maxRetryAfterMs, 20_000);
  });

  it("waits out 20 refusals in a row where maxRetries would have ended at 8", async () => {
    srv = await scriptedServer([...Array.from({ length: 20 }, () => throttled("1")), ok({ id: "a" })]);
    let t = 0;
    const { client, sleeps } = harness(srv, {
      retry: retryPolicyFor({}),
      now: () => t,
      sleep: async (ms) => {
        sleeps.push(ms);
        t += ms;
      },
    });
    assert.deepEqual(await client.request(get), { id: "a" });
    assert.equal(srv.requests.length, 21);
    assert.equal(sleeps.length, 20);
  });

  it("waits a Retry-After of minutes (the service's window is 5 minutes), which the sdk's default refuses", async () => {
    srv = await scriptedServer([throttled("240"), ok({ id: "a" }), throttled("240")]);
    const provider = harness(srv, { retry: retryPolicyFor({}), now: () => 0 });
    assert.deepEqual(await provider.client.request(get), { id: "a" });
    assert.deepEqual(provider.sleeps, [240_000]);
    const plain = harness(srv, { now: () => 0 });
    assert.ok((await rejection(() => plain.client.request(get))) instanceof RateLimitError);
    assert.deepEqual(plain.sleeps, []);
  });

  it("surfaces the 429 at once when the wait asked would end past the deadline", async () => {
    srv = await scriptedServer([throttled("90"), ok({ id: "a" })]);
    const { client, sleeps } = harness(srv, { retry: retryPolicyFor({ deadlineMs: 60_000 }), now: () => 0 });
    const err = await rejection(() => client.request(get));
    assert.ok(err instanceof RateLimitError);
    assert.equal(err.apiCode, 971);
    assert.deepEqual(sleeps, []);
    assert.equal(srv.requests.length, 1);
  });
});
