/**
 * What the families' scenarios share: a request built from the contract's generated schemas, sent
 * with `kit.call` (validated like the sdk's), its status checked and its answer read through the
 * generated result schema.
 */
import { strict as assert } from "node:assert";
import type { z } from "zod";
import type { ConformanceKit } from "../../kit";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The envelope's `result` (the meetings area's apps answer under `data`: read with `field`). */
function payload(body: unknown, field: "result" | "data"): unknown {
  return typeof body === "object" && body !== null ? Reflect.get(body, field) : undefined;
}

/** Sends a request the contract describes; fails naming the exchange when the status differs. */
export async function expectCall(
  kit: ConformanceKit,
  status: number,
  method: Method,
  path: string,
  body?: unknown,
): Promise<unknown> {
  return expecting(kit.call(method, path, body), status, `${method} ${path}`);
}

async function expecting(
  sent: Promise<{ status: number; body: unknown }>,
  status: number,
  what: string,
): Promise<unknown> {
  const res = await sent;
  assert.equal(
    res.status,
    status,
    `${what}: expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`,
  );
  return res.body;
}

/** A successful call's result, parsed with the operation's generated result schema. */
export async function callFor<S extends z.ZodType>(
  kit: ConformanceKit,
  schema: S,
  method: Method,
  path: string,
  body?: unknown,
  { status = 200, field = "result" }: { status?: number; field?: "result" | "data" } = {},
): Promise<z.output<S>> {
  return schema.parse(payload(await expectCall(kit, status, method, path, body), field));
}

/** A refused request (a body the contract forbids, sent with `raw`: its request is not judged). */
export async function expectRaw(
  kit: ConformanceKit,
  status: number,
  method: Method,
  path: string,
  body?: unknown,
): Promise<void> {
  await expecting(kit.raw(method, path, body), status, `${method} ${path}`);
}
