/**
 * The Load figure: 50 resources of every kind (503, `RELIABILITY_LOAD_N`) go up in ONE `up`, then refresh (no change) and
 * destroy, with the emulator's global rate limit on: far fewer requests per second than the engine
 * at parallelism 32 sends, so the provider's one retry policy meets real 429s (code 971, Retry-After
 * until the window frees). Prints the seconds, requests, 429s and retries of each
 * phase, and orphans, duplicates and missing.
 */
import { strict as assert } from "node:assert";
import type { RunningEmulator } from "../../emulator/server";
import { useE2E, type E2EStack } from "./harness";
import { APPS_PER_WORLD, buildProgram, compare, retriesIn, seedWorld, type World } from "./reliability-world";

// About 500 resources in all, as when there were eight kinds of 63 (two SearchNamespaces and one
// MeetingApp per world).
const N = Number(process.env.RELIABILITY_LOAD_N ?? 50);
const PARALLEL = 32;
/**
 * Per token, as the service counts (its own is 1,200 per 300 s, docs/assumptions.md). Why 25 a second:
 * on a 2-core machine the engine asks about 14 a second over an up (bursts of 50), 45 over a refresh
 * and 10 over a destroy (bursts of 35). At 100 a second only 10 requests of the up were refused and
 * none of the destroy; at 25 hundreds are, and the whole run stays near 3 minutes.
 */
const LIMIT = { requests: Number(process.env.RELIABILITY_LOAD_LIMIT ?? 25), windowMs: 1_000 };

interface Phase<T> {
  result: T;
  seconds: number;
  /** API requests the emulator received, the refused ones included. */
  requests: number;
  /** Of those, refused by the rate limit. */
  throttled: number;
  /** Retries the provider reported in the engine's output. */
  retries: number;
}

/**
 * Runs one engine command with the limit on (every count afresh) and counts the API requests and
 * 429s in the emulator's log as they come: the log keeps only its last 5,000 entries.
 */
async function limited<T>(em: RunningEmulator, stack: E2EStack, run: () => Promise<T>): Promise<Phase<T>> {
  let requests = 0;
  let throttled = 0;
  const drain = (): void => {
    for (const e of em.requestLog.splice(0)) {
      if (!e.url.startsWith("/client/v4/")) continue;
      requests++;
      if (e.status === 429) throttled++;
    }
  };
  em.requestLog.length = 0;
  const mark = stack.output.length;
  em.rateLimit.set(LIMIT);
  const timer = setInterval(drain, 200);
  const t0 = Date.now();
  try {
    const result = await run();
    const seconds = Math.round((Date.now() - t0) / 100) / 10;
    return { result, seconds, requests, throttled, retries: retriesIn(stack.output.slice(mark)) };
  } catch (e) {
    drain();
    const seconds = Math.round((Date.now() - t0) / 100) / 10;
    const retries = retriesIn(stack.output.slice(mark));
    console.log(
      `load: failed after ${seconds} s, ${requests} requests, ${throttled} × 429, ${retries} retries`,
    );
    throw e;
  } finally {
    clearInterval(timer);
    // The test's own look-ups below are measurement, not load.
    em.rateLimit.clear();
    drain();
  }
}

describe("reliability: load under the rate limit (real engine)", function () {
  this.timeout(600_000);
  const e2e = useE2E("rel-load");
  let world: World;

  before(async function () {
    this.timeout(120_000);
    // Seeded with the limit off: the figure is about the engine's run, not the set-up.
    world = await seedWorld(e2e.emulator, e2e.api, N, "lod");
  });

  it(`${N * 8} resources: one up, refresh and destroy with the rate limit on, nothing lost or doubled`, async () => {
    const em = e2e.emulator;
    const stack = await e2e.stack(async () => buildProgram(world, N));

    const up = await limited(em, stack, () => stack.up({ parallel: PARALLEL }));
    assert.equal(up.result.summary.result, "succeeded");
    const afterUp = await compare(e2e.api, world, stack.rawState());

    const refresh = await limited(em, stack, () => stack.refresh({ expectNoChanges: true }));
    assert.equal(refresh.result.summary.result, "succeeded");

    const destroy = await limited(em, stack, () => stack.destroy({ parallel: PARALLEL }));
    assert.equal(destroy.result.summary.result, "succeeded");
    // After destroy only registrations and the app stay (the API deletes neither): nothing else is left.
    const after = await compare(e2e.api, world, stack.rawState());
    const leftOver = after.orphans - N - APPS_PER_WORLD;

    type Count = Exclude<keyof Phase<unknown>, "result">;
    const each = (k: Count): Record<"up" | "refresh" | "destroy", number> => ({
      up: up[k],
      refresh: refresh[k],
      destroy: destroy[k],
    });
    const figure = {
      resources: N * 8,
      limit: `${LIMIT.requests} requests per ${LIMIT.windowMs} ms per token`,
      parallel: PARALLEL,
      seconds: each("seconds"),
      requestsWith429s: each("requests"),
      throttled429: each("throttled"),
      retries: each("retries"),
      orphans: afterUp.orphans,
      duplicates: afterUp.duplicates,
      missing: afterUp.missing,
      perKindStateOverRemote: afterUp.table,
      leftAfterDestroyBesidesRegistrations: leftOver,
    };
    console.log(`FIGURE load ${JSON.stringify(figure, null, 2)}`);
    assert.equal(afterUp.orphans, 0);
    assert.equal(afterUp.duplicates, 0);
    assert.equal(afterUp.missing, 0);
    assert.equal(leftOver, 0);
    assert.equal(after.duplicates, 0);
    // Without refusals the figure would prove nothing about the limit. The up and the refresh ask for
    // more than the limit throughout; the destroy only in its bursts (42 and 72 refused when measured),
    // too close to the limit on a slower machine to fail the suite on.
    assert.ok(up.throttled > 0, "up: no request was refused");
    assert.ok(refresh.throttled > 0, "refresh: no request was refused");
  });
});
