/**
 * The world every run starts from: a fresh emulator with 20 ms injected on every API request, the
 * scripts and build token the mix's triggers need (made before the latency is on), and the request
 * counter (the latency rule's hits: every API request matches it).
 */
import { startEmulator, type RunningEmulator } from "../emulator/server";

export const LATENCY_MS = 20;

/** What the mix's programs need from the world, one script per unit (a script has one production trigger). */
export interface World {
  url: string;
  origin: string;
  accountId: string;
  token: string;
  buildToken: string;
  scriptTags: string[];
  appId: string;
}

export interface RunningWorld {
  emulator: RunningEmulator;
  world: World;
  /** API requests served since the world started (control requests excluded). */
  requests(): number;
  stop(): Promise<void>;
}

async function json(res: Response, what: string): Promise<unknown> {
  if (!res.ok) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return res.json();
}

export async function startWorld(units: number): Promise<RunningWorld> {
  const emulator = await startEmulator({ env: {} });
  const headers = { authorization: `Bearer ${emulator.token}`, "content-type": "application/json" };
  const base = `${emulator.url}/accounts/${emulator.accountId}`;
  const scriptTags: string[] = [];
  for (let u = 0; u < units; u++) {
    const body = await json(
      await fetch(`${base}/workers/scripts/bench-${u}`, { method: "PUT", headers, body: "{}" }),
      "seed script",
    );
    scriptTags.push((body as { result: { tag: string } }).result.tag);
  }
  const tokens = (await json(await fetch(`${base}/builds/tokens`, { headers }), "seed token")) as {
    result: { build_token_uuid: string }[];
  };
  const buildToken = tokens.result[0]?.build_token_uuid;
  if (!buildToken) throw new Error("seed: the emulator's account has no build token");
  const latency = emulator.faults.add({ path: ".", latencyMs: LATENCY_MS });
  const requests = (): number => emulator.faults.list().find((r) => r.id === latency.id)?.hits ?? 0;
  return {
    emulator,
    world: {
      url: emulator.url,
      origin: emulator.origin,
      accountId: emulator.accountId,
      token: emulator.token,
      buildToken,
      scriptTags,
      appId: "bench",
    },
    requests,
    stop: () => emulator.stop(),
  };
}

/** The same count over the control API (no latency there), for a process that holds no emulator. */
export async function requestsServed(origin: string): Promise<number> {
  type Rule = { latencyMs?: number; hits: number };
  const body = (await (await fetch(`${origin}/__emulator/faults`)).json()) as Rule[] | { result: Rule[] };
  const rules = Array.isArray(body) ? body : body.result;
  return rules.filter((r) => r.latencyMs === LATENCY_MS).reduce((n, r) => n + r.hits, 0);
}
