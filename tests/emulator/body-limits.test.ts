/**
 * Deep and oversized request bodies: refused with a 400 that says so, on every route that takes a
 * body (enumerated from fastify), before any recursive code can overflow; and the sdk refuses a body
 * nested deeper than the same limit before sending it.
 */
import { strict as assert } from "node:assert";
import { request } from "undici";
import { z } from "zod";
import { startEmulator, type RouteEntry, type RunningEmulator } from "../../emulator/index";
import { buildMultipart } from "../../emulator/builds/multipart";
import { jsonTooDeep, parseJsonBody } from "../../emulator/http";
import { ApiClient, ValidationError } from "../../sdk";
import { MAX_BODY_DEPTH, tooDeep, validate } from "../../sdk/validate";

const nestedObjects = (levels: number): string => '{"a":'.repeat(levels) + "1" + "}".repeat(levels);
/** Objects and arrays alternating, `levels` deep in all. */
const nestedMixed = (levels: number): string => {
  let text = "1";
  for (let i = levels; i > 0; i--) text = i % 2 ? `{"a":${text}}` : `[${text}]`;
  return text;
};

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A concrete URL for a route: the emulator's account, the default search namespace, else a stand-in. */
function urlOf(em: RunningEmulator, route: RouteEntry): string {
  const path = route.url.replace(/:(\w+)/g, (_m, name: string) =>
    name === "account_id" ? em.accountId : name === "namespace" || name === "name" ? "default" : "x",
  );
  return `${em.origin}${path.replace(/\*$/, "x")}`;
}

async function send(
  em: RunningEmulator,
  route: RouteEntry,
  body: string | Buffer,
  type = "application/json",
) {
  const res = await request(urlOf(em, route), {
    method: route.method as "POST", // one of BODY_METHODS: everyRoute filters on them
    headers: { authorization: `Bearer ${em.token}`, "content-type": type },
    body,
  });
  return { status: res.statusCode, text: await res.body.text() };
}

/**
 * Sends `bad` to every route that takes a body. Each must answer 400 with `rule`, unless it refuses
 * before reading the body (a stand-in id not found, a bad path parameter); then a harmless body gets
 * the very same answer. Sent bad-first, so a harmless body that succeeds cannot change the answer.
 */
async function everyRoute(em: RunningEmulator, bad: string, rule: RegExp): Promise<RouteEntry[]> {
  const routes = em.routes.filter((r) => BODY_METHODS.has(r.method));
  assert.ok(routes.length > 20, `fastify lists the routes (${routes.length})`);
  const refused: RouteEntry[] = [];
  for (const route of routes) {
    const what = `${route.method} ${route.url}`;
    const answer = await send(em, route, bad);
    assert.ok(answer.status < 500, `${what}: ${answer.status} ${answer.text}`);
    if (answer.status === 400 && rule.test(answer.text)) {
      refused.push(route);
      continue;
    }
    const early = await send(em, route, "{}");
    assert.deepEqual(
      early,
      answer,
      `${what}: answered ${answer.status} ${answer.text} without saying ${rule}`,
    );
  }
  // Routes whose only parameter is the account cannot be refused for a stand-in: each read the body.
  const accountOnly = routes.filter(
    (r) => r.url.startsWith("/client/v4/") && !/:(?!account_id\b)/.test(r.url),
  );
  assert.ok(accountOnly.length > 5);
  for (const r of accountOnly)
    assert.ok(refused.includes(r), `${r.method} ${r.url} read the body without the rule`);
  return refused;
}

describe("request bodies: depth and size limits", function () {
  this.timeout(60_000);

  describe("the depth check", function () {
    it("counts objects and arrays, not brackets inside strings or escaped quotes", function () {
      assert.equal(jsonTooDeep(nestedObjects(MAX_BODY_DEPTH)), false);
      assert.equal(jsonTooDeep(nestedObjects(MAX_BODY_DEPTH + 1)), true);
      assert.equal(jsonTooDeep(nestedMixed(MAX_BODY_DEPTH + 1)), true);
      assert.equal(jsonTooDeep(JSON.stringify({ a: "[".repeat(500), b: '\\"{{{{' })), false);
      assert.equal(jsonTooDeep(JSON.stringify({ a: "\\" }) + "[".repeat(70)), true);
    });

    it("parses a body at the limit and refuses one past it, naming the rule", function () {
      assert.ok(parseJsonBody(nestedObjects(MAX_BODY_DEPTH)));
      assert.throws(
        () => parseJsonBody(nestedObjects(100_000)),
        /body: too deep: objects and arrays may nest at most 64 levels/,
      );
    });

    it("measures a value without recursion, and ends on a cycle", function () {
      assert.equal(tooDeep(JSON.parse(nestedMixed(MAX_BODY_DEPTH))), false);
      assert.equal(tooDeep(JSON.parse(nestedMixed(100_000))), true);
      const shared = { leaf: [1] };
      assert.equal(tooDeep({ a: shared, b: [shared, shared] }), false);
      const cycle: Record<string, unknown> = {};
      cycle.self = [cycle];
      assert.equal(tooDeep(cycle), true);
    });
  });

  describe("the emulator", function () {
    let em: RunningEmulator;
    before(async () => (em = await startEmulator()));
    after(async () => em.stop());

    it("answers a body nested 10,000 deep with a 400 saying it is too deep, on every route", async function () {
      const refused = await everyRoute(em, nestedObjects(10_000), /body: too deep/);
      assert.ok(refused.some((r) => r.url.includes("/email/")));
    });

    it("refuses a script upload whose metadata part is nested too deep", async function () {
      const form = buildMultipart([
        { name: "metadata", body: Buffer.from(nestedMixed(10_000)) },
        { name: "index.js", filename: "index.js", body: Buffer.from("export default {}") },
      ]);
      const route = { method: "PUT", url: "/client/v4/accounts/:account_id/workers/scripts/:script_name" };
      const answer = await send(em, route, form.body, form.contentType);
      assert.equal(answer.status, 400, answer.text);
      assert.match(answer.text, /metadata: too deep: objects and arrays may nest at most 64 levels/);
    });
  });

  describe("the emulator with a small body limit", function () {
    let em: RunningEmulator;
    before(async () => (em = await startEmulator({ bodyLimit: 2048 })));
    after(async () => em.stop());

    it("answers an oversized body with a 400 naming the limit (the contract documents no 413)", async function () {
      await everyRoute(
        em,
        JSON.stringify({ a: "x".repeat(4096) }),
        /body: too large: must be at most 2048 bytes/,
      );
    });
  });

  describe("the sdk", function () {
    let em: RunningEmulator;
    before(async () => (em = await startEmulator()));
    after(async () => em.stop());

    it("refuses a body nested too deep before sending it", async function () {
      const client = new ApiClient({ baseUrl: em.url, token: em.token, accountId: em.accountId });
      try {
        const before = em.requestLog.length;
        const body = JSON.parse(nestedObjects(10_000));
        const call = client.request({
          method: "POST",
          path: `/accounts/${em.accountId}/ai-search/instances`,
          body,
          schema: z.unknown(),
        });
        await assert.rejects(call, (e: unknown) => {
          assert.ok(e instanceof ValidationError);
          assert.match(e.message, /request: body: too deep: objects and arrays may nest at most 64 levels/);
          return true;
        });
        assert.equal(em.requestLog.length, before, "nothing was sent");
      } finally {
        await client.close();
      }
    });

    it("refuses it in validate() too, before its own recursive checks", function () {
      assert.throws(
        () => validate(z.unknown(), JSON.parse(nestedMixed(10_000)), "search"),
        /search: body: too deep/,
      );
      assert.deepEqual(validate(z.unknown(), { a: [1] }, "search"), { a: [1] });
    });
  });
});
