/**
 * Fuzzing the sdk's response parsing with fast-check:
 * - every zod schema exported by sdk/schemas/* gets arbitrary values (JSON-like, and objects shaped
 *   like the API's envelopes and objects with random fields); `safeParse` must never throw;
 * - the client, pointed at a server that answers each request with an arbitrary status, content type
 *   and body (valid JSON or not, envelope or not), must resolve or reject with one of the sdk's own
 *   errors (AccountApiError): never a TypeError or another crash, and never hang (a per-call deadline).
 *
 * Bounded: a fixed number of runs and a time limit per property. Figures printed: schemas, values
 * parsed, HTTP answers served, outcomes by error class.
 */
import { strict as assert } from "node:assert";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { z } from "zod";
import { AccountApi } from "../../sdk";
import { AccountApiError } from "../../sdk/errors";
import * as builds from "../../sdk/schemas/builds";
import * as common from "../../sdk/schemas/common";
import * as content from "../../sdk/schemas/content";
import * as email from "../../sdk/schemas/email";
import * as meetings from "../../sdk/schemas/meetings";
import * as registrar from "../../sdk/schemas/registrar";
import * as search from "../../sdk/schemas/search";

const MODULES = { builds, common, content, email, meetings, registrar, search };
const SCHEMAS: [string, z.ZodType][] = Object.entries(MODULES).flatMap(([area, mod]) =>
  Object.entries(mod)
    .filter((e): e is [string, z.ZodType] => e[1] instanceof z.ZodType)
    .map(([name, schema]): [string, z.ZodType] => [`${area}.${name}`, schema]),
);

const UUID = "0d4c8a57-6b2e-4f0a-9c1d-3e5f7a9b1c2d";
/** Field names the API uses, and names JavaScript objects treat specially. */
const KEYS = [
  "id",
  "name",
  "status",
  "result",
  "success",
  "errors",
  "messages",
  "result_info",
  "data",
  "paging",
  "build_uuid",
  "trigger_uuid",
  "created_on",
  "value",
  "is_secret",
  "domains",
  "pricing",
  "tag",
  "__proto__",
  "constructor",
  "toString",
];

/** Values that look like the API's, recursively: envelopes, pages, objects with known field names. */
const apiLike: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(UUID, "", "2026-01-01T00:00:00Z", -1, 0, 1e308, Number.NaN, null, true),
    fc.dictionary(fc.constantFrom(...KEYS), tie("v"), { maxKeys: 6 }),
    fc.array(tie("v"), { maxLength: 4 }),
    fc.record({
      success: fc.boolean(),
      errors: fc.array(fc.record({ code: fc.integer(), message: fc.string() }), { maxLength: 2 }),
      messages: fc.constant([]),
      result: tie("v"),
    }),
  ),
})).v;

/** An own `__proto__` key, as JSON.parse makes it. */
const protoKeyed = (v: unknown): unknown => JSON.parse(`{"__proto__": ${JSON.stringify(v ?? null)}}`);

describe("fuzz: the sdk's response parsing", function () {
  this.timeout(120_000);

  it(`no schema of sdk/schemas throws on arbitrary input (${SCHEMAS.length} schemas)`, () => {
    assert.ok(SCHEMAS.length > 50, `schemas found: ${SCHEMAS.length}`);
    let parsed = 0;
    const thrown: string[] = [];
    fc.assert(
      fc.property(fc.oneof(apiLike, apiLike.map(protoKeyed), fc.anything()), (value) => {
        for (const [name, schema] of SCHEMAS) {
          try {
            schema.safeParse(value);
            parsed++;
          } catch (err) {
            thrown.push(`${name}: ${err instanceof Error ? err.message : String(err)} on ${safeJson(value)}`);
            return false;
          }
        }
        return true;
      }),
      { numRuns: 1000, interruptAfterTimeLimit: 30_000, seed: 20261123 },
    );
    console.log(
      `      [figure] fuzz, sdk schemas: ${SCHEMAS.length} schemas, ${parsed} values parsed, thrown: ${thrown.length}`,
    );
    assert.deepEqual(thrown, []);
  });

  describe("through the client, against a server that answers anything", () => {
    let server: Server;
    let answer: { status: number; type: string; body: string } = {
      status: 200,
      type: "application/json",
      body: "{}",
    };
    let served = 0;
    let api: AccountApi;
    const outcomes = new Map<string, number>();

    before(async () => {
      server = createServer((req, res) => {
        served++;
        req.resume();
        res.writeHead(answer.status, { "content-type": answer.type }).end(answer.body);
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as AddressInfo;
      api = new AccountApi({
        baseUrl: `http://127.0.0.1:${port}/client/v4`,
        token: "t".repeat(40),
        accountId: "023e105f4ecef8ad9ca31a8372d0c353",
        retry: { maxRetries: 0 },
        timeoutMs: 5_000,
        env: {},
      });
    });

    after(async () => {
      await api.close();
      await new Promise((resolve) => server.close(resolve));
      const by = [...outcomes].map(([k, n]) => `${k} ${n}`).join(", ");
      console.log(`      [figure] fuzz, sdk client: ${served} answers served; outcomes: ${by}`);
    });

    /** A few calls of each area that parse a response body. */
    const CALLS: [string, (api: AccountApi) => Promise<unknown>][] = [
      ["builds.getBuild", (a) => a.builds.builds.get({ buildUuid: UUID })],
      ["builds.listTokens", (a) => a.builds.tokens.list()],
      ["builds.getEnvironmentVariables", (a) => a.builds.environmentVariables.list({ triggerUuid: UUID })],
      ["builds.listRepoConnections", (a) => a.builds.repos.connections.list()],
      ["meetings.meetings.get", (a) => a.meetings.meetings.get({ appId: "app", meetingId: UUID })],
      ["search.listInstances", (a) => a.search.instances.get({ id: "kb" })],
      ["registrar.check", (a) => a.registrar.discovery.check({}, { domains: ["example.com"] })],
      [
        "email.sendEmail",
        (a) =>
          a.email.sending.send({}, { from: "a@example.com", to: "b@example.org", subject: "s", text: "t" }),
      ],
    ];

    it("every answer resolves or rejects with an sdk error, in bounded time", async () => {
      const body = fc.oneof(
        apiLike.map((v) => safeJson(v)),
        apiLike.map((v) => safeJson({ success: true, errors: [], messages: [], result: v })),
        fc.string({ maxLength: 64 }),
        fc.constantFrom("", "{", "null", "[]", '{"success":true}', '{"result":{"__proto__":{"x":1}}}'),
      );
      const status = fc.constantFrom(200, 201, 204, 301, 400, 401, 403, 404, 409, 429, 500, 503, 599);
      const type = fc.constantFrom(
        "application/json",
        "text/plain",
        "text/html",
        "application/json; charset=utf-8",
        "",
      );
      const crashes: string[] = [];
      await fc.assert(
        fc.asyncProperty(
          status,
          type,
          body,
          fc.integer({ min: 0, max: CALLS.length - 1 }),
          async (s, t, b, i) => {
            answer = { status: s, type: t || "application/octet-stream", body: s === 204 ? "" : b };
            const [name, call] = CALLS[i]!;
            const outcome = await Promise.race([
              call(api).then(
                () => "resolved",
                (err: unknown) =>
                  err instanceof AccountApiError ? err.constructor.name : `CRASH ${String(err)}`,
              ),
              new Promise<string>((resolve) => setTimeout(() => resolve("HANG"), 10_000).unref()),
            ]);
            outcomes.set(outcome.startsWith("CRASH") ? "crash" : outcome, (outcomes.get(outcome) ?? 0) + 1);
            if (outcome.startsWith("CRASH") || outcome === "HANG") {
              crashes.push(`${name} on ${s} ${t} ${b.slice(0, 80)}: ${outcome}`);
              return false;
            }
            return true;
          },
        ),
        { numRuns: 600, interruptAfterTimeLimit: 60_000, seed: 20261123 },
      );
      assert.deepEqual(crashes, []);
    });
  });
});

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? "undefined";
  } catch {
    return String(v);
  }
}
