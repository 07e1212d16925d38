/**
 * A real `node:http` server on 127.0.0.1, port 0, whose replies are scripted per attempt (undici's
 * own test style), plus a client factory that records backoff sleeps instead of sleeping. Shared by
 * the transport tests; its own tests below prove the harness does what the others rely on.
 */
import { strict as assert } from "node:assert";
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { ApiClient, type ClientOptions, type TransportEvent } from "../../sdk/client";

/** One scripted answer: a status with headers/body, or a misbehaviour. */
export type Reply =
  | { status?: number; headers?: Record<string, string>; body?: unknown }
  /** Destroy the socket after reading the request: the client sees a connection reset. */
  | "reset"
  /** Never answer (until the server closes). */
  | "hang"
  /** Send 200 headers and part of a body, then never finish. */
  | "hang-body";

export interface Seen {
  method: string;
  /** The raw request target as it arrived (path + query, still encoded). */
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** Which TCP connection carried the request (1, 2, …). */
  socket: number;
}

export interface ScriptedServer {
  origin: string;
  /** origin + "/client/v4" */
  baseUrl: string;
  requests: Seen[];
  /** Connections opened so far. */
  sockets(): number;
  close(): Promise<void>;
}

/** Replies are taken in order, one per request; a request past the script gets 599 so the test fails loudly. */
export async function scriptedServer(script: readonly Reply[]): Promise<ScriptedServer> {
  const requests: Seen[] = [];
  const open = new Set<Socket>();
  const ids = new WeakMap<Socket, number>();
  let connections = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const n = requests.length;
      requests.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        socket: ids.get(req.socket) ?? 0,
      });
      const reply = script[n] ?? {
        status: 599,
        body: { success: false, errors: [{ code: 0, message: "unscripted" }] },
      };
      if (reply === "reset") return req.socket.destroy();
      if (reply === "hang") return;
      if (reply === "hang-body") {
        res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
        res.write('{"success":');
        return;
      }
      const body =
        reply.body === undefined
          ? ""
          : typeof reply.body === "string"
            ? reply.body
            : JSON.stringify(reply.body);
      const headers = { "content-type": "application/json", ...reply.headers };
      res.writeHead(reply.status ?? 200, headers);
      res.end(body);
    });
  });
  server.on("connection", (socket: Socket) => {
    ids.set(socket, ++connections);
    open.add(socket);
    socket.on("close", () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/client/v4`,
    requests,
    sockets: () => connections,
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An envelope as the API writes it. */
export function ok(result: unknown, extra: Record<string, unknown> = {}): Reply {
  return { status: 200, body: { success: true, errors: [], messages: [], result, ...extra } };
}

export function fail(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Reply {
  return {
    status,
    headers,
    body: { success: false, errors: [{ code, message }], messages: [], result: null },
  };
}

export const TOKEN = "tok_S3cr3t-Value_0123456789";

export interface Harness {
  client: ApiClient;
  /** Delays handed to the injected sleep, in order. */
  sleeps: number[];
  events: TransportEvent[];
}

/** A client on the server with recorded sleeps (nothing really waits) and a recorded observer. */
export function harness(srv: ScriptedServer, options: ClientOptions = {}): Harness {
  const sleeps: number[] = [];
  const events: TransportEvent[] = [];
  const client = new ApiClient({
    baseUrl: srv.baseUrl,
    token: TOKEN,
    accountId: "acc-1",
    env: {},
    random: () => 1,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    onEvent: (e) => events.push(e),
    ...options,
  });
  return { client, sleeps, events };
}

/** Runs `fn` and returns what it threw; fails the test if it did not throw. */
export async function rejection(fn: () => Promise<unknown>): Promise<Error> {
  try {
    await fn();
  } catch (err) {
    assert.ok(err instanceof Error, `threw a non-Error: ${String(err)}`);
    return err;
  }
  assert.fail("expected a rejection");
}

describe("transport test harness (scripted server)", () => {
  let srv: ScriptedServer;
  afterEach(() => srv.close());

  it("answers each request with the next scripted reply and records it", async () => {
    srv = await scriptedServer([
      { status: 201, body: "one" },
      { status: 202, body: "two" },
    ]);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(
        await new Promise<number>((resolve, reject) => {
          const req = httpRequest(`${srv.origin}/x?i=${i}`, { method: "POST" }, (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          });
          req.on("error", reject);
          req.end(`body-${i}`);
        }),
      );
    }
    assert.deepEqual(statuses, [201, 202, 599]);
    assert.deepEqual(
      srv.requests.map((r) => [r.method, r.url, r.body]),
      [
        ["POST", "/x?i=0", "body-0"],
        ["POST", "/x?i=1", "body-1"],
        ["POST", "/x?i=2", "body-2"],
      ],
    );
  });

  it("destroys the socket for a scripted reset", async () => {
    srv = await scriptedServer(["reset"]);
    const err = await new Promise<NodeJS.ErrnoException>((resolve) => {
      const req = httpRequest(`${srv.origin}/x`, () => resolve(new Error("answered")));
      req.on("error", resolve);
      req.end();
    });
    assert.equal(err.code, "ECONNRESET");
    assert.equal(srv.requests.length, 1);
  });
});
