/**
 * Benchmarks, reported as ratios measured side by side in one run (never asserted in tests):
 * 1. transport: the pooled keep-alive client vs a new connection per request, against the emulator;
 * 2. serialized provider size per resource (what each resource stores in state as `__provider`);
 * 3. emulator memory per stored object, measured by growing the store.
 */
import * as pulumi from "@pulumi/pulumi";
import { Agent } from "undici";
import { startEmulator } from "../emulator/server";
import { SHIMS } from "../provider/shims";
import { RESOURCE_KINDS } from "../provider/types";
import { ApiClient } from "../sdk/client";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);

async function timeRequests(
  label: string,
  makeClient: () => ApiClient,
  url: string,
  perRequestClient: boolean,
) {
  let client = makeClient();
  const started = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    if (perRequestClient && i > 0) {
      await client.close();
      client = makeClient();
    }
    await client.fetchRaw(url);
  }
  const ms = performance.now() - started;
  await client.close();
  console.log(`  ${label.padEnd(34)} ${(REQUESTS / (ms / 1000)).toFixed(0).padStart(7)} req/s`);
  return ms;
}

async function transport(): Promise<void> {
  const em = await startEmulator({ env: {} });
  const url = `${em.origin}/__emulator/health`;
  const options = { baseUrl: em.url, token: em.token, accountId: em.accountId, env: {} };
  console.log(`transport: ${REQUESTS} sequential GETs against the emulator on loopback`);
  // Warm both paths once so JIT and the server are in the same state.
  await timeRequests("warm-up", () => new ApiClient(options), url, false);
  const pooled = await timeRequests(
    "pooled keep-alive (one client)",
    () => new ApiClient(options),
    url,
    false,
  );
  const fresh = await timeRequests(
    "new connection per request",
    () => new ApiClient({ ...options, dispatcher: new Agent({ pipelining: 0, keepAliveTimeout: 1 }) }),
    url,
    true,
  );
  console.log(
    `  ratio: pooled is ${(fresh / pooled).toFixed(2)}x the throughput of a connection per request`,
  );
  await em.stop();
}

async function providerSizes(): Promise<void> {
  console.log("serialized provider stored per resource (__provider):");
  for (const kind of RESOURCE_KINDS) {
    const provider = SHIMS[kind];
    // In a checkout the object is captured by value; installed, it is a `require` of its subpath.
    const s = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: false });
    console.log(`  ${kind.padEnd(22)} ${String(s.text.length).padStart(6)} bytes`);
  }
}

async function emulatorMemory(): Promise<void> {
  const em = await startEmulator({ env: {} });
  const n = 20_000;
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  const area = em.store.area<Record<string, unknown>>("bench", () => ({}));
  for (let i = 0; i < n; i++)
    area[`obj-${i}`] = { id: `obj-${i}`, created_at: new Date(0).toISOString(), value: i };
  global.gc?.();
  const after = process.memoryUsage().heapUsed;
  console.log(
    `emulator store: ${n} small objects take ${((after - before) / n).toFixed(0)} bytes each on the heap`,
  );
  await em.stop();
}

async function main(): Promise<void> {
  await transport();
  await providerSizes();
  await emulatorMemory();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
