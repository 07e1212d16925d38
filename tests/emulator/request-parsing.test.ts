/**
 * How the emulator reads a request it cannot take, on every route (enumerated from fastify) and every
 * listing: a body of thousands of unknown keys gets a small, capped 400; a body of a type the route
 * does not take gets a 415 naming it, never a 5xx and never an internal name; paging values are
 * whole numbers in the contract's range or a 400 naming the field.
 */
import { strict as assert } from "node:assert";
import { request } from "undici";
import { startEmulator, type RouteEntry, type RunningEmulator } from "../../emulator/index";
import { buildMultipart } from "../../emulator/builds/multipart";
import { MAX_ISSUE_LINES } from "../../emulator/http";
import { loadContract } from "../conformance/contract";

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A concrete path for a route: the emulator's account, the default search namespace, else a stand-in. */
function pathOf(em: RunningEmulator, url: string): string {
  return url
    .replace(/:(\w+)/g, (_m, name: string) =>
      name === "account_id" ? em.accountId : name === "namespace" || name === "name" ? "default" : "x",
    )
    .replace(/\*$/, "x");
}

interface Sent {
  status: number;
  text: string;
  errors?: { code: number; message: string }[];
}

async function send(
  em: RunningEmulator,
  method: string,
  path: string,
  o: { body?: string | Buffer; type?: string } = {},
): Promise<Sent> {
  const headers: Record<string, string> = { authorization: `Bearer ${em.token}` };
  if (o.type !== undefined) headers["content-type"] = o.type;
  const res = await request(`${em.origin}${path}`, { method: method as "POST", headers, body: o.body });
  const text = await res.body.text();
  let errors: Sent["errors"];
  try {
    errors = (JSON.parse(text) as { errors?: Sent["errors"] }).errors;
  } catch {
    // not JSON (the markdown edge): no errors[] to look at
  }
  return { status: res.statusCode, text, ...(errors ? { errors } : {}) };
}

const unknownKeys = (n: number): string =>
  JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1])));

/**
 * Email's send paths answer other methods with its table's 10003 "not implemented", a deliberate 500
 * of the service: the one 5xx a request can ask for.
 */
function deliberate(answer: Sent): boolean {
  return answer.status === 500 && answer.errors?.[0]?.code === 10003;
}

/** Names of the emulator's insides that must never reach a caller. */
const INTERNAL = /readBigUInt64LE|readUInt|Buffer|could not be cloned|\bat \S+ \(|node:internal|\.ts:\d+/;

const form = buildMultipart([{ name: "a", body: Buffer.from("x") }]);
/** One body of each kind, as a client might send it to any operation. */
const KINDS: { name: string; type?: string; body: string | Buffer }[] = [
  { name: "JSON", type: "application/json", body: '{"name":"x"}' },
  { name: "text/plain", type: "text/plain", body: "hello" },
  { name: "multipart/form-data", type: form.contentType, body: form.body },
  { name: "application/octet-stream", type: "application/octet-stream", body: Buffer.from([0, 1, 2, 3]) },
  { name: "form-urlencoded", type: "application/x-www-form-urlencoded", body: "a=1&b=2" },
  { name: "no content type", body: '{"name":"x"}' },
];

describe("emulator: request parsing", function () {
  this.timeout(120_000);
  let em: RunningEmulator;
  beforeEach(async () => (em = await startEmulator({ env: {} })));
  afterEach(async () => em.stop());

  const bodyRoutes = (): RouteEntry[] => em.routes.filter((r) => BODY_METHODS.has(r.method));

  describe("a body of thousands of unknown keys", function () {
    it("gets one entry per key, at most 20 and a count, in a small 4xx on every route with a body", async function () {
      const body = unknownKeys(2_000);
      const routes = bodyRoutes();
      assert.ok(routes.length > 50, `fastify lists the routes (${routes.length})`);
      let capped = 0;
      for (const r of routes) {
        const what = `${r.method} ${r.url}`;
        const answer = await send(em, r.method, pathOf(em, r.url), { body, type: "application/json" });
        assert.ok(answer.status < 500 || deliberate(answer), `${what}: ${answer.status} ${answer.text}`);
        assert.ok(answer.text.length < 8_192, `${what}: an answer of ${answer.text.length} characters`);
        assert.ok((answer.errors?.length ?? 0) <= MAX_ISSUE_LINES + 1, `${what}: ${answer.errors?.length}`);
        if (answer.errors?.length === MAX_ISSUE_LINES + 1) capped++;
      }
      assert.ok(capped > 30, `most routes read the body and capped its list (${capped})`);
    });

    for (const n of [6_000, 8_000]) {
      it(`answers ${n} unknown keys with a capped 400, unauthenticated control API and API alike`, async function () {
        const body = unknownKeys(n);
        for (const path of ["/__emulator/tokens", `/client/v4/accounts/${em.accountId}/builds/triggers`]) {
          const answer = await send(em, "POST", path, { body, type: "application/json" });
          assert.equal(answer.status, 400, `${path}: ${answer.text.slice(0, 300)}`);
          assert.equal(answer.errors?.length, MAX_ISSUE_LINES + 1);
          assert.ok(answer.text.length < 4_096, `${path}: ${answer.text.length} characters`);
          const keys = answer.errors!.filter((e) => /^k\d+: /.test(e.message));
          assert.ok(keys.length > 10, answer.text);
          // Each entry names its own key (in the field, and maybe again in the rule), not the whole list again.
          for (const e of keys) {
            const named = e.message.match(/\bk\d+\b/g) ?? [];
            assert.ok(named.length >= 1 && named.length <= 2, e.message);
            assert.ok(
              named.every((k) => k === named[0]),
              e.message,
            );
          }
          assert.match(answer.errors![MAX_ISSUE_LINES]!.message, /^body: \d+ more problems not listed$/);
        }
      });
    }
  });

  describe("a body of a type the route does not take", function () {
    it("gets a 415 naming the type on every route with a body, never a 5xx or an internal name", async function () {
      for (const r of bodyRoutes()) {
        for (const kind of KINDS) {
          const what = `${r.method} ${r.url} with ${kind.name}`;
          const answer = await send(em, r.method, pathOf(em, r.url), kind);
          assert.ok(answer.status < 500 || deliberate(answer), `${what}: ${answer.status} ${answer.text}`);
          assert.doesNotMatch(answer.text, INTERNAL, `${what}: ${answer.text.slice(0, 300)}`);
        }
      }
    });

    it("sends each kind to every operation of the contract that has a body", async function () {
      const ops = loadContract().operations.filter((op) => op.requestBody);
      assert.ok(ops.length > 40, `the contract lists operations with a body (${ops.length})`);
      for (const op of ops) {
        const path = `/client/v4${pathOf(em, op.path.replace(/\{(\w+)\}/g, ":$1"))}`;
        for (const kind of KINDS) {
          const what = `${op.method} ${op.path} with ${kind.name}`;
          const answer = await send(em, op.method, path, kind);
          assert.ok(answer.status < 500 || deliberate(answer), `${what}: ${answer.status} ${answer.text}`);
          assert.doesNotMatch(answer.text, INTERNAL, `${what}: ${answer.text.slice(0, 300)}`);
        }
      }
    });

    it("names the type and what the route takes, before the body reaches a handler", async function () {
      const A = `/client/v4/accounts/${em.accountId}`;
      const tag = await send(em, "PUT", `${A}/workers/scripts/shop`, {
        body: '{"main_module":"index.js"}',
        type: "application/json",
      });
      assert.equal(tag.status, 200, tag.text);
      const cases: [string, string, (typeof KINDS)[number], RegExp][] = [
        ["PATCH", `${A}/builds/workers/shop`, KINDS[2]!, /"multipart\/form-data" is not accepted/],
        ["PATCH", `${A}/builds/triggers/x`, KINDS[3]!, /"application\/octet-stream" is not accepted/],
        ["PATCH", `${A}/builds/triggers/x/environment_variables`, KINDS[2]!, /"multipart\/form-data"/],
        ["POST", "/__emulator/tokens", KINDS[1]!, /"text\/plain" is not accepted/],
        ["POST", `${A}/builds/triggers`, KINDS[5]!, /a body without a content-type is not accepted/],
        ["POST", `${A}/ai-search/instances/x/chat/completions`, KINDS[4]!, /x-www-form-urlencoded/],
      ];
      for (const [method, path, kind, rule] of cases) {
        const answer = await send(em, method, path, kind);
        // Search words it as its contract's 400 (with `path`), which documents no 415.
        const status = path.includes("/ai-search/") ? 400 : 415;
        assert.equal(answer.status, status, `${method} ${path}: ${answer.text}`);
        assert.match(answer.errors![0]!.message, rule);
        assert.match(answer.errors![0]!.message, /this operation takes application\/json$/);
      }
      // The routes that take multipart still do; JSON where only multipart is taken is refused by name.
      const upload = buildMultipart([
        { name: "metadata", body: Buffer.from('{"main_module":"index.js"}') },
        { name: "index.js", filename: "index.js", body: Buffer.from("export default {}") },
      ]);
      const put = await send(em, "PUT", `${A}/workers/scripts/shop`, {
        body: upload.body,
        type: upload.contentType,
      });
      assert.equal(put.status, 200, put.text);
      const items = `${A}/ai-search/namespaces/default/instances/x/items`;
      const json = await send(em, "POST", items, { body: "{}", type: "application/json" });
      assert.ok([400, 404].includes(json.status), json.text);
    });
  });

  describe("paging", function () {
    const BAD = [
      "per_page=201",
      "per_page=0",
      "page=0",
      "page=null",
      "page=-1",
      "per_page=1.5",
      "per_page=",
      "page=",
      "page=1&page=2",
    ];

    it("refuses bad page values on the builds listings, naming the field (no silent clamp)", async function () {
      const A = `/client/v4/accounts/${em.accountId}`;
      const script = await send(em, "PUT", `${A}/workers/scripts/shop`, {
        body: "{}",
        type: "application/json",
      });
      const tag = (JSON.parse(script.text) as { result: { tag: string } }).result.tag;
      for (const listing of [`${A}/builds/tokens`, `${A}/builds/workers/${tag}/builds`]) {
        for (const q of BAD) {
          const answer = await send(em, "GET", `${listing}?${q}`);
          assert.equal(answer.status, 400, `${listing}?${q}: ${answer.text}`);
          const field = q.split("=")[0]!;
          assert.match(answer.errors![0]!.message, new RegExp(`^${field}: must be`), `${q}: ${answer.text}`);
        }
        for (const q of ["per_page=200", "per_page=1&page=3", ""]) {
          const ok = await send(em, "GET", `${listing}?${q}`);
          assert.equal(ok.status, 200, `${listing}?${q}: ${ok.text}`);
        }
      }
      const info = await send(em, "GET", `${A}/builds/tokens?per_page=200&page=2`);
      assert.deepEqual(JSON.parse(info.text).result_info, {
        page: 2,
        per_page: 200,
        count: 0,
        total_count: 1,
      });
    });

    it("reads an empty value as a bad value on every other listing too", async function () {
      const A = `/client/v4/accounts/${em.accountId}`;
      const listings: [string, string][] = [
        [`${A}/ai-search/instances`, "per_page"],
        [`${A}/ai-search/namespaces`, "page"],
        [`${A}/realtime/kit/app/meetings`, "page_no"],
        [`${A}/realtime/kit/app/meetings`, "per_page"],
        [`${A}/registrar/domains`, "per_page"],
        [`${A}/workers/scripts/shop/deployments`, "page"],
        ["/client/v4/zones", "per_page"],
      ];
      await send(em, "PUT", `${A}/workers/scripts/shop`, { body: "{}", type: "application/json" });
      for (const [listing, field] of listings) {
        const empty = await send(em, "GET", `${listing}?${field}=`);
        assert.equal(empty.status, 400, `${listing}?${field}=: ${empty.text}`);
        assert.match(empty.text, new RegExp(`${field}: must be a whole number \\(it is empty\\)`));
        const ok = await send(em, "GET", `${listing}?${field}=1`);
        assert.equal(ok.status, 200, `${listing}?${field}=1: ${ok.text}`);
      }
    });

    it("takes the contract's own range per operation (search jobs allow 0, instances do not)", async function () {
      const A = `/client/v4/accounts/${em.accountId}/ai-search/instances`;
      const created = await send(em, "POST", A, { body: '{"id":"kb"}', type: "application/json" });
      assert.equal(created.status, 201, created.text);
      assert.equal((await send(em, "GET", `${A}/kb/jobs?per_page=0`)).status, 200);
      assert.equal((await send(em, "GET", `${A}/kb/jobs?per_page=51`)).status, 400);
      assert.equal((await send(em, "GET", `${A}?per_page=0`)).status, 400);
      assert.equal((await send(em, "GET", `${A}?per_page=100`)).status, 200);
    });
  });
});
