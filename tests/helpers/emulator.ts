/**
 * Starts a real emulator on loopback (port 0) with a manual clock for each test, and a client pointed
 * at it. Tests go through real HTTP: `api` (the sdk), or `http` (undici) for raw checks.
 */
import { request } from "undici";
import { ManualClock } from "../../emulator/clock";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { AccountApi } from "../../sdk";
import type { ClientOptions } from "../../sdk/client";

export interface EmulatorFixture {
  em: RunningEmulator;
  clock: ManualClock;
  api: AccountApi;
  /** A client with other options (another token, a tighter retry policy, an observer). */
  client(options?: ClientOptions): AccountApi;
  /** Raw HTTP to the emulator: path below /client/v4 unless it starts with "http" or "/__". */
  http(
    method: string,
    path: string,
    o?: { body?: unknown; headers?: Record<string, string>; token?: string | null },
  ): Promise<{ status: number; headers: Record<string, string>; json: unknown; text: string }>;
  /** Adds a token with a scope and permissions through the control API's programmatic handle. */
  token(scope: "user" | "account", permissions: string[]): string;
}

/** Call inside a mocha `describe`: a fresh emulator per test. */
export function useEmulator(): EmulatorFixture {
  const fx = {} as EmulatorFixture;
  const clients: AccountApi[] = [];
  beforeEach(async () => {
    const clock = new ManualClock();
    const em = await startEmulator({ clock, env: {} });
    fx.em = em;
    fx.clock = clock;
    fx.client = (options = {}) => {
      const c = new AccountApi({
        baseUrl: em.url,
        token: em.token,
        accountId: em.accountId,
        retry: { maxRetries: 0 },
        env: {},
        ...options,
      });
      clients.push(c);
      return c;
    };
    fx.api = fx.client();
    fx.http = async (method, path, o = {}) => {
      const url = path.startsWith("http") ? path : path.startsWith("/__") ? em.origin + path : em.url + path;
      const headers: Record<string, string> = { ...(o.headers ?? {}) };
      const token = o.token === undefined ? em.token : o.token;
      if (token !== null) headers.authorization = `Bearer ${token}`;
      let body: string | undefined;
      if (o.body !== undefined) {
        body = typeof o.body === "string" ? o.body : JSON.stringify(o.body);
        headers["content-type"] ??= "application/json";
      }
      const res = await request(url, { method: method as "GET", headers, body });
      const text = await res.body.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        // not JSON: leave json undefined and let the test look at text
      }
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers))
        if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(", ") : v;
      return { status: res.statusCode, headers: flat, json, text };
    };
    fx.token = (scope, permissions) => em.auth.add({ scope, permissions: permissions as never[] }).value;
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await fx.em.stop();
  });
  return fx;
}
