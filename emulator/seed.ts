/**
 * `--seed demo`: what a new account's dashboard would hold before a first program runs (a Worker
 * script `shop`, the zone `example.com`, `example.com` verified for sending; every account has a
 * build token), made through the emulator's own API and control API as any client would. Idempotent:
 * each object is looked up first, so seeding a persisted state again writes nothing.
 */
import type { FastifyInstance } from "fastify";
import { API_PREFIX, CONTROL_PREFIX } from "./server";

export { SEEDS, type SeedName } from "./seed-names";

/** What the demo seed holds: the names a first program refers to. */
export interface DemoSeed {
  scriptName: string;
  zoneName: string;
  zoneId: string;
  senderDomain: string;
  buildTokenUuid: string;
}

interface Target {
  app: FastifyInstance;
  accountId: string;
  token: string;
}

async function call(
  t: Target,
  method: "GET" | "PUT" | "POST",
  url: string,
  body?: unknown,
): Promise<unknown> {
  const res = await t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  if (res.statusCode >= 300)
    throw new Error(`seed: ${method} ${url} answered ${res.statusCode}: ${res.body}`);
  const parsed: unknown = JSON.parse(res.body || "null");
  return parsed !== null && typeof parsed === "object" && "result" in parsed ? parsed.result : parsed;
}

const list = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => x !== null && typeof x === "object") : [];
const text = (v: unknown): string => (typeof v === "string" ? v : "");

export async function seedDemo(t: Target): Promise<DemoSeed> {
  const a = `${API_PREFIX}/accounts/${t.accountId}`;
  const scriptName = "shop";
  const zoneName = "example.com";
  const senderDomain = "example.com";

  const scripts = list(await call(t, "GET", `${a}/workers/scripts`));
  if (!scripts.some((s) => s["id"] === scriptName))
    await call(t, "PUT", `${a}/workers/scripts/${scriptName}`, {});

  const zones = list(await call(t, "GET", `${API_PREFIX}/zones?name=${zoneName}`));
  const zone =
    zones[0] ??
    (await call(t, "POST", `${API_PREFIX}/zones`, { name: zoneName, account: { id: t.accountId } }));
  const zoneId = text(zone !== null && typeof zone === "object" && "id" in zone ? zone.id : undefined);

  const email = await call(t, "GET", `${CONTROL_PREFIX}/email/accounts/${t.accountId}`);
  const domains =
    email !== null && typeof email === "object" && "domains" in email ? email.domains : undefined;
  if (!(domains !== null && typeof domains === "object" && Object.hasOwn(domains, senderDomain)))
    await call(t, "PUT", `${CONTROL_PREFIX}/email/accounts/${t.accountId}/domains/${senderDomain}`, {});

  const [token] = list(await call(t, "GET", `${a}/builds/tokens`));
  const buildTokenUuid = text(token?.["build_token_uuid"]);
  if (!zoneId || !buildTokenUuid) throw new Error("seed: the emulator answered no zone id or build token");
  return { scriptName, zoneName, zoneId, senderDomain, buildTokenUuid };
}
