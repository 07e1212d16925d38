/**
 * Transport: one endpoint (GET a search instance), no injected latency, at concurrency 1 and 16:
 * this package's sdk, the public `cloudflare` client and plain `fetch`, each parsing the JSON answer.
 * Each client is warmed first; the three are measured in rotation, so load changes touch all alike.
 */
import Cloudflare from "cloudflare";
import { join } from "node:path";
import type * as Sdk from "../sdk";
import { startEmulator } from "../emulator/server";
import type { Installed } from "./install";
import { percentile, summarize, type Summary } from "./stats";

export type Client = "sdk" | "cloudflare" | "fetch";

export interface TransportFigure {
  client: Client;
  concurrency: number;
  rps: Summary;
  p50_ms: number;
  p99_ms: number;
}

async function measure(get: () => Promise<unknown>, requests: number, concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < requests) {
        const t = performance.now();
        await get();
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { rps: requests / ((performance.now() - started) / 1000), latencies };
}

export async function transport(
  installed: Installed,
  requests: number,
  reps: number,
): Promise<TransportFigure[]> {
  const em = await startEmulator({ env: {} });
  const sdk = require(join(installed.pkg, "dist", "sdk")) as typeof Sdk;
  const api = new sdk.AccountApi({ baseUrl: em.url, token: em.token, accountId: em.accountId, env: {} });
  const cf = new Cloudflare({ apiToken: em.token, baseURL: em.url, maxRetries: 0 });
  const id = "transport";
  await api.search.instances.create({}, { id, type: "web-crawler", source: "docs.example.com" });
  const url = `${em.url}/accounts/${em.accountId}/ai-search/instances/${id}`;
  const headers = { authorization: `Bearer ${em.token}` };
  const clients: Record<Client, () => Promise<unknown>> = {
    sdk: () => api.search.instances.get({ id }),
    cloudflare: () => cf.aiSearch.instances.read(id, { account_id: em.accountId }),
    fetch: async () => {
      const res = await fetch(url, { headers });
      if (!res.ok) throw new Error(`fetch: ${res.status}`);
      return res.json();
    },
  };
  const out: TransportFigure[] = [];
  try {
    for (const concurrency of [1, 16]) {
      const runs = new Map<Client, { rps: number[]; latencies: number[] }>();
      for (const [name, get] of Object.entries(clients) as [Client, () => Promise<unknown>][]) {
        await measure(get, Math.min(200, requests), concurrency); // warm-up
        runs.set(name, { rps: [], latencies: [] });
      }
      for (let rep = 0; rep < reps; rep++)
        for (const [name, get] of Object.entries(clients) as [Client, () => Promise<unknown>][]) {
          const m = await measure(get, requests, concurrency);
          const r = runs.get(name)!;
          r.rps.push(m.rps);
          r.latencies.push(...m.latencies);
        }
      for (const [client, r] of runs)
        out.push({
          client,
          concurrency,
          rps: summarize(r.rps),
          p50_ms: percentile(r.latencies, 50),
          p99_ms: percentile(r.latencies, 99),
        });
    }
  } finally {
    await api.close();
    await em.stop();
  }
  return out;
}
