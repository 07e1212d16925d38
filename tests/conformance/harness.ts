/**
 * The kit a scenario runs with (a fresh emulator whose exchanges are recorded, an sdk client on it,
 * `raw` and `expectStatus`), and the probes by which the runner produces the 429 and 5xx answers an
 * operation documents, with the emulator's fault injection.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { request } from "undici";
import { AccountApi, ApiError } from "../../sdk";
import { API_PREFIX, startEmulator, type RunningEmulator } from "../../emulator/index";
import { operationKey, OperationMatcher, type Operation } from "./contract";
import { statusSeen } from "./coverage";
import type { Area, AreaScenario, ConformanceKit, ContractPart } from "./kit";
import { DIRECT_HEADER, FAULT_HEADER, RAW_HEADER, Recorder } from "./recorder";

export const SCENARIOS_DIR = resolve(__dirname, "scenarios");

export function scenarioPath(area: Area, part: ContractPart = "subset"): string {
  return resolve(SCENARIOS_DIR, part === "families" ? `families/${area}.ts` : `${area}.ts`);
}

/** The area's scenario (of one contract file), or a message saying why there is none usable. */
export function loadScenario(
  area: Area,
  path = scenarioPath(area),
  part: ContractPart = "subset",
): AreaScenario | string {
  if (!existsSync(path)) return `no scenario for ${area}: ${path} is missing`;
  const mod: unknown = require(path);
  const scenario = typeof mod === "object" && mod !== null ? Reflect.get(mod, "scenario") : undefined;
  if (typeof scenario !== "object" || scenario === null || typeof Reflect.get(scenario, "run") !== "function")
    return `${path}: must export \`scenario: AreaScenario\` with a run(kit) method`;
  if (Reflect.get(scenario, "area") !== area)
    return `${path}: its scenario's area is ${JSON.stringify(Reflect.get(scenario, "area"))}, not "${area}"`;
  if ((Reflect.get(scenario, "part") ?? "subset") !== part)
    return `${path}: its scenario's part is ${JSON.stringify(Reflect.get(scenario, "part"))}, not "${part}"`;
  return scenario as AreaScenario;
}

export interface OpenKit {
  kit: ConformanceKit;
  recorder: Recorder;
  close(): Promise<void>;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function httpMethod(method: string): (typeof METHODS)[number] {
  const m = METHODS.find((x) => x === method.toUpperCase());
  if (!m) throw new Error(`raw: method must be one of ${METHODS.join(", ")}, got ${JSON.stringify(method)}`);
  return m;
}

async function send(
  emulator: RunningEmulator,
  method: string,
  path: string,
  body: unknown,
  mark: string,
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { authorization: `Bearer ${emulator.token}`, [mark]: "1" };
  let payload: string | Buffer | undefined;
  if (body !== undefined) {
    // A string or bytes go as given (malformed JSON on purpose); anything else is JSON.
    payload = typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    headers["content-type"] = "application/json";
  }
  const res = await request(`${emulator.url}${path}`, {
    method: httpMethod(method),
    headers,
    ...(payload !== undefined ? { body: payload } : {}),
  });
  const text = await res.body.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: the text is the body.
  }
  return { status: res.statusCode, body: parsed };
}

async function expectStatus(call: Promise<unknown>, status: number): Promise<void> {
  let outcome: unknown;
  try {
    outcome = await call;
  } catch (e) {
    if (e instanceof ApiError && e.status === status) return;
    const got = e instanceof ApiError ? `ApiError ${e.status}: ${e.message}` : String(e);
    throw new Error(`expected an ApiError with status ${status}, got ${got}`, { cause: e });
  }
  throw new Error(
    `expected an ApiError with status ${status}, the call succeeded: ${JSON.stringify(outcome)}`,
  );
}

/** A fresh emulator recording every exchange, and the kit on it. */
export async function openKit(): Promise<OpenKit> {
  const recorder = new Recorder();
  const emulator = await startEmulator({ onExchange: recorder.onExchange });
  const api = new AccountApi({ baseUrl: emulator.url, token: emulator.token, accountId: emulator.accountId });
  const kit: ConformanceKit = {
    api,
    emulator,
    accountId: emulator.accountId,
    raw: (method, path, body) => send(emulator, method, path, body, RAW_HEADER),
    call: (method, path, body) => send(emulator, method, path, body, DIRECT_HEADER),
    expectStatus,
  };
  return {
    kit,
    recorder,
    close: async () => {
      await api.close();
      await emulator.stop();
    },
  };
}

/** The statuses the runner produces itself, by the fault each needs. */
const FAULT_STATUSES = [429, 500, 502, 503, 504] as const;

function faultFor(key: string): (typeof FAULT_STATUSES)[number] | undefined {
  if (key === "5XX") return 500;
  return FAULT_STATUSES.find((s) => String(s) === key);
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A concrete path of the operation: one the scenario used, else its template filled in. */
function concretePath(op: Operation, recorder: Recorder, accountId: string): string {
  const matcher = new OperationMatcher([op]);
  const used = recorder.exchanges.find((x) => matcher.match(x.method, x.path));
  if (used) return used.path;
  return op.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    name === "account_id" ? accountId : `conformance-${name.replace(/_/g, "-")}`,
  );
}

/**
 * For each documented 429 or 5xx not yet seen, one request answered by an injected fault of that
 * status (the fault fires before the handler, so a path the scenario never used works as well).
 * Returns the operations probed, by key.
 */
export async function probeFaults(
  operations: readonly Operation[],
  open: OpenKit,
): Promise<{ key: string; status: number }[]> {
  const { emulator } = open.kit;
  const probed: { key: string; status: number }[] = [];
  for (const op of operations) {
    const seen = new Set(
      open.recorder.exchanges
        .filter((x) => new OperationMatcher([op]).match(x.method, x.path) && !x.dropped)
        .map((x) => x.status),
    );
    for (const key of Object.keys(op.responses)) {
      const status = faultFor(key);
      if (status === undefined || statusSeen(key, seen)) continue;
      const path = concretePath(op, open.recorder, emulator.accountId);
      const rule = emulator.faults.add({
        method: op.method,
        path: `^${escapeRegex(`${API_PREFIX}${path}`)}$`,
        status,
        times: 1,
        ...(status === 429 ? { retryAfter: "1" } : {}),
      });
      try {
        const body = op.requestBody ? {} : undefined;
        await send(emulator, op.method, path, body, FAULT_HEADER);
      } finally {
        emulator.faults.remove(rule.id);
      }
      seen.add(status);
      probed.push({ key: operationKey(op), status });
    }
  }
  return probed;
}
