/**
 * The world every run starts from: a fresh emulator with 20 ms injected on every API request, what
 * the programs need made before the latency is on (so it is never counted: scripts and a build token
 * for triggers, a repository connection and triggers for the per-kind shapes, zones, registrable
 * domains and a registrant), the request counter (the latency rule's hits: every API request matches
 * it), and the API requests in the order served.
 */
import { startEmulator, type Exchange, type RunningEmulator } from "../emulator/server";
import { isRecord } from "../provider/core/values";

export const LATENCY_MS = 20;

/** The person the bench's domain registrations name as registrant (spec E's contact, flat). */
export interface Registrant {
  name: string;
  organization: string;
  email: string;
  phone: string;
  street: string;
  city: string;
  state: string;
  postalCode: string;
  countryCode: string;
}

/** What the programs need from the world; index `u` of each list belongs to resource or unit `u`. */
export interface World {
  url: string;
  origin: string;
  accountId: string;
  token: string;
  buildToken: string;
  /** One script per trigger (a script has one production trigger). */
  scriptTags: string[];
  appId: string;
  /** A connection the per-kind triggers share (in the mix each unit makes its own). */
  repoConnection: string;
  /** Production triggers, one on each script, for environment variables of their own. */
  triggers: string[];
  /** Zone ids, one per resource: a zone has one content converter and one shared rule entrypoint. */
  zones: string[];
  /** Names no one holds, that register at once at the emulator's standard price. */
  domains: string[];
  registrant: Registrant;
}

/** How much of each prerequisite a program needs. */
export interface WorldNeeds {
  scripts: number;
  /** Triggers, each on the script of the same index (so at most `scripts`). */
  triggers: number;
  repoConnection: boolean;
  zones: number;
  domains: number;
}

export const NO_NEEDS: WorldNeeds = { scripts: 0, triggers: 0, repoConnection: false, zones: 0, domains: 0 };

/** An API request as the emulator answered it: the raw material of the per-kind request templates. */
export interface ServedRequest {
  method: string;
  /** Path and query as requested, with the API prefix. */
  url: string;
}

export interface RunningWorld {
  emulator: RunningEmulator;
  world: World;
  /** API requests served since the world started (control requests excluded). */
  requests(): number;
  /**
   * The same requests in the order answered. Kept here rather than read from `emulator.requestLog`,
   * which a run may clear (the control API's DELETE) and which holds control requests too.
   */
  served(): readonly ServedRequest[];
  stop(): Promise<void>;
}

const REGISTRANT: Registrant = {
  name: "Grace Hopper",
  organization: "Bench Ltd",
  email: "grace@bench.example",
  phone: "+44.2079460000",
  street: "221 Baker Street",
  city: "London",
  state: "LND",
  postalCode: "NW1 6XE",
  countryCode: "GB",
};

async function json(res: Response, what: string): Promise<unknown> {
  if (!res.ok) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The `result` of one seeding call, with the field asked for (a string). */
async function seeded(res: Promise<Response>, what: string, field: string): Promise<string> {
  const body = await json(await res, what);
  const value = isRecord(body) && isRecord(body.result) ? body.result[field] : undefined;
  if (typeof value !== "string") throw new Error(`${what}: the answer has no ${field}`);
  return value;
}

/** A number is the mix's count of units (a script each), the shape the scale section runs. */
export async function startWorld(need: number | WorldNeeds): Promise<RunningWorld> {
  const needs = typeof need === "number" ? { ...NO_NEEDS, scripts: need } : need;
  const log: ServedRequest[] = [];
  const emulator = await startEmulator({
    env: {},
    onExchange: (e: Exchange) => void log.push({ method: e.method, url: e.url }),
  });
  const headers = { authorization: `Bearer ${emulator.token}`, "content-type": "application/json" };
  const base = `${emulator.url}/accounts/${emulator.accountId}`;
  const send = (method: string, path: string, body: unknown): Promise<Response> =>
    fetch(`${path.startsWith("/zones") ? emulator.url : base}${path}`, {
      method,
      headers,
      body: JSON.stringify(body),
    });
  const scriptTags: string[] = [];
  for (let u = 0; u < needs.scripts; u++)
    scriptTags.push(await seeded(send("PUT", `/workers/scripts/bench-${u}`, {}), "seed script", "tag"));
  const tokens = (await json(await fetch(`${base}/builds/tokens`, { headers }), "seed token")) as {
    result: { build_token_uuid: string }[];
  };
  const buildToken = tokens.result[0]?.build_token_uuid;
  if (!buildToken) throw new Error("seed: the emulator's account has no build token");
  const repoConnection =
    needs.repoConnection || needs.triggers > 0
      ? await seeded(
          send("PUT", "/builds/repos/connections", {
            provider_type: "github",
            provider_account_id: "bench",
            provider_account_name: "Bench",
            repo_id: "r-shared",
            repo_name: "shared",
          }),
          "seed repository connection",
          "repo_connection_uuid",
        )
      : "";
  const triggers: string[] = [];
  for (let u = 0; u < needs.triggers; u++)
    triggers.push(
      await seeded(
        send("POST", "/builds/triggers", {
          external_script_id: scriptTags[u],
          repo_connection_uuid: repoConnection,
          build_token_uuid: buildToken,
          trigger_name: "production",
          branch_includes: ["main"],
          build_command: "npm run build",
          deploy_command: "npx wrangler deploy",
          root_directory: "/",
        }),
        "seed trigger",
        "trigger_uuid",
      ),
    );
  const zones: string[] = [];
  for (let u = 0; u < needs.zones; u++)
    zones.push(
      await seeded(
        send("POST", "/zones", { name: `bench-${u}.example.org`, account: { id: emulator.accountId } }),
        "seed zone",
        "id",
      ),
    );
  // The emulator's registry holds no name but its reserved patterns: these are free, at the .com price.
  const domains = Array.from({ length: needs.domains }, (_, u) => `bench-${u}.com`);
  const latency = emulator.faults.add({ path: ".", latencyMs: LATENCY_MS });
  const requests = (): number => emulator.faults.list().find((r) => r.id === latency.id)?.hits ?? 0;
  // Seeding is not the program's: only what is served from here on is recorded.
  log.length = 0;
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
      repoConnection,
      triggers,
      zones,
      domains,
      registrant: REGISTRANT,
    },
    requests,
    served: () => log,
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
