/**
 * The emulator's "reliability" fixes, one test each: auth before the body on every route, state kept
 * per account, bodies that are not a JSON object, trigger PATCH with variables, the vorbis rule, an
 * over-long account id, and fault rules that compose and leave a trace in the request log.
 */
import { strict as assert } from "node:assert";
import { request } from "undici";
import { ManualClock } from "../../emulator/clock";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

type ErrorItem = { code: number; message: string; detail?: string };
type Envelope = {
  success: boolean;
  errors: ErrorItem[];
  result: unknown;
  data?: unknown;
};

/** One route with a body per area, and the code its 400s carry. */
function routes(account: string): { area: string; method: string; path: string; invalidCode: number }[] {
  const A = `/accounts/${account}`;
  return [
    { area: "builds", method: "POST", path: `${A}/builds/triggers`, invalidCode: 12001 },
    { area: "email", method: "POST", path: `${A}/email/sending/send`, invalidCode: 10001 },
    { area: "content", method: "POST", path: "/zones", invalidCode: 1001 },
    // Meetings answers the contract's `error` object, whose code is the HTTP status.
    { area: "meetings", method: "POST", path: `${A}/realtime/kit/app1/meetings`, invalidCode: 400 },
    { area: "registrar", method: "POST", path: `${A}/registrar/registrations`, invalidCode: 13001 },
    { area: "search", method: "POST", path: `${A}/ai-search/instances`, invalidCode: 1001 },
  ];
}

function envelope(res: { json: unknown }): Envelope {
  const json = res.json as Envelope & { error?: ErrorItem };
  return json.error ? { ...json, errors: [json.error] } : json;
}

async function raw(
  em: RunningEmulator,
  method: string,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; json: Envelope }> {
  const res = await request(em.url + path, { method: method as "POST", headers, body });
  const text = await res.body.text();
  return { status: res.statusCode, json: JSON.parse(text) as Envelope };
}

describe("emulator reliability: auth runs before the body is read", () => {
  let em: RunningEmulator;
  beforeEach(async () => {
    em = await startEmulator({ clock: new ManualClock(), env: {}, bodyLimit: 1024 });
  });
  afterEach(async () => em.stop());

  const bodies: [string, string, Record<string, string>][] = [
    ["malformed JSON", "{not json", { "content-type": "application/json" }],
    ["an unsupported content type", "hello", { "content-type": "text/plain" }],
    [
      "a body over the size limit",
      JSON.stringify({ pad: "x".repeat(4096) }),
      { "content-type": "application/json" },
    ],
  ];

  it("answers 401 without a token and 401/403 with a bad one, whatever the body, in every area", async () => {
    for (const r of routes(em.accountId)) {
      for (const [what, body, headers] of bodies) {
        const none = await raw(em, r.method, r.path, body, headers);
        assert.equal(none.status, 401, `${r.area}, no token, ${what}: ${JSON.stringify(none.json)}`);
        const bad = await raw(em, r.method, r.path, body, { ...headers, authorization: "Bearer nope" });
        assert.equal(bad.status, 401, `${r.area}, bad token, ${what}: ${JSON.stringify(bad.json)}`);
        const weak = em.auth.add({ scope: "user", permissions: ["zone:read"] }).value;
        const forbidden = await raw(em, r.method, r.path, body, {
          ...headers,
          authorization: `Bearer ${weak}`,
        });
        assert.equal(
          forbidden.status,
          403,
          `${r.area}, weak token, ${what}: ${JSON.stringify(forbidden.json)}`,
        );
      }
    }
  });
});

describe("emulator reliability", () => {
  const fx = useEmulator();

  it("answers malformed JSON, a null body and an array body with 400 in the area's own code", async () => {
    for (const r of routes(fx.em.accountId)) {
      for (const body of ["{oops", "null", "[1, 2]"]) {
        const res = await fx.http(r.method, r.path, { body });
        assert.equal(res.status, 400, `${r.area} ${body}: ${res.text}`);
        const e = envelope(res);
        assert.equal(e.success, false);
        assert.equal(e.errors[0]?.code, r.invalidCode, `${r.area} ${body}: ${res.text}`);
        const said = `${e.errors[0]?.message} ${e.errors[0]?.detail ?? ""}`;
        assert.match(said, body === "{oops" ? /body: malformed JSON/ : /body: must be a JSON object/);
      }
    }
  });

  it("answers a 33-character account id with 400 naming account_id, not 403", async () => {
    const long = "a".repeat(33);
    for (const r of routes(long).filter((x) => x.path.startsWith("/accounts/"))) {
      const res = await fx.http(r.method, r.path, { body: {} });
      assert.equal(res.status, 400, `${r.area}: ${res.text}`);
      const e = envelope(res).errors[0];
      assert.equal(e?.code, r.invalidCode, `${r.area}: ${res.text}`);
      assert.match(`${e?.message} ${e?.detail ?? ""}`, /account_id: must be at most 32 characters/);
    }
  });

  it("keeps registrations per account: B can neither read nor change A's domain", async () => {
    const A = fx.em.accountId;
    const B = "b".repeat(32);
    const tokenB = fx.em.auth.add({ scope: "user", permissions: ["*"], accountId: B }).value;
    const created = await fx.http("POST", `/accounts/${A}/registrar/registrations`, {
      body: { domain_name: "mine-only.com" },
    });
    assert.equal(created.status, 201, created.text);
    const asB = (method: string, path: string, body?: unknown) =>
      fx.http(method, `/accounts/${B}/registrar${path}`, { token: tokenB, ...(body ? { body } : {}) });
    assert.equal((await asB("GET", "/registrations/mine-only.com")).status, 404);
    assert.equal((await asB("PATCH", "/registrations/mine-only.com", { auto_renew: true })).status, 404);
    assert.equal((await asB("GET", "/domains/mine-only.com")).status, 404);
    const listB = await asB("GET", "/registrations");
    assert.deepEqual(envelope(listB).result, []);
    // For B the name is simply taken at the registry.
    const check = await asB("POST", "/domain-check", { domains: ["mine-only.com"] });
    assert.deepEqual(envelope(check).result, {
      domains: [{ name: "mine-only.com", registrable: false, reason: "domain_unavailable" }],
    });
    const mine = await fx.http("GET", `/accounts/${A}/registrar/registrations/mine-only.com`);
    assert.equal((envelope(mine).result as { auto_renew: boolean }).auto_renew, false);
  });

  it("accepts environment_variables in a trigger PATCH, merged like the variables PATCH", async () => {
    const uuid = await productionTrigger(fx);
    const A = `/accounts/${fx.em.accountId}`;
    await fx.http("PATCH", `${A}/builds/triggers/${uuid}/environment_variables`, {
      body: { KEEP: { value: "k", is_secret: false } },
    });
    const patched = await fx.http("PATCH", `${A}/builds/triggers/${uuid}`, {
      body: { trigger_name: "renamed", environment_variables: { API_KEY: { value: "s", is_secret: true } } },
    });
    assert.equal(patched.status, 200, patched.text);
    const t = envelope(patched).result as { trigger_name: string; environment_variables: unknown };
    assert.equal(t.trigger_name, "renamed");
    const at = new Date(fx.clock.now()).toISOString();
    assert.deepEqual(t.environment_variables, {
      KEEP: { value: "k", is_secret: false, created_on: at },
      API_KEY: { value: null, is_secret: true, created_on: at },
    });
  });

  it("forces the audio codec to vorbis with VP8 video instead of refusing the meeting", async () => {
    const base = `/accounts/${fx.em.accountId}/realtime/kit/app1/meetings`;
    const recording = { video_config: { codec: "VP8" }, audio_config: { codec: "MP3", channel: "mono" } };
    const created = await fx.http("POST", base, { body: { recording_config: recording } });
    assert.equal(created.status, 201, created.text);
    const m = (created.json as { data: { id: string; recording_config: { audio_config: unknown } } }).data;
    assert.deepEqual(m.recording_config.audio_config, { channel: "mono", codec: "vorbis" });
    const patched = await fx.http("PUT", `${base}/${m.id}`, {
      body: { recording_config: { ...recording, audio_config: { codec: "AAC" } } },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(
      (patched.json as { data: { recording_config: { audio_config: unknown } } }).data.recording_config
        .audio_config,
      { codec: "vorbis" },
    );
  });

  it("applies every matching fault rule (latency adds up) and logs dropped and reset requests", async () => {
    const path = `/accounts/${fx.em.accountId}/builds/tokens`;
    const rule = async (r: object) => {
      const res = await fx.http("POST", "/__emulator/faults", { body: r });
      assert.equal(res.status, 200, res.text);
    };
    await rule({ path: "/builds/tokens$", latencyMs: 30, times: 1 });
    await rule({ path: "/builds/", latencyMs: 30, times: 1 });
    await rule({ path: "/builds/tokens$", status: 503, times: 1 });
    const t0 = performance.now();
    const slowFailure = await fx.http("GET", path);
    assert.equal(slowFailure.status, 503);
    assert.ok(performance.now() - t0 >= 55, "both latencies apply");
    assert.deepEqual(
      (await fx.http("GET", "/__emulator/faults")).json,
      { success: true, errors: [], messages: [], result: [] },
      "every matching rule used up its one time",
    );

    await rule({ path: "/builds/tokens$", commitThenDrop: true, times: 1 });
    await assert.rejects(fx.http("GET", path));
    await rule({ path: "/builds/tokens$", reset: true, times: 1 });
    await assert.rejects(fx.http("GET", path));
    const log = fx.em.requestLog.filter((e) => e.url === `/client/v4${path}`);
    assert.deepEqual(
      log.map((e) => [e.status, e.fault]),
      [
        [503, undefined],
        [200, "drop"],
        [0, "reset"],
      ],
    );
  });

  it("refuses a fault rule whose path is not a regular expression with 400", async () => {
    const res = await fx.http("POST", "/__emulator/faults", { body: { path: "(" } });
    assert.equal(res.status, 400, res.text);
    assert.match(res.text, /path: must be a regular expression/);
  });
});

async function productionTrigger(fx: EmulatorFixture): Promise<string> {
  const A = `/accounts/${fx.em.accountId}`;
  const result = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fx.http(method, `${A}${path}`, body === undefined ? {} : { body });
    assert.ok(res.status < 300, res.text);
    return envelope(res).result;
  };
  await result("PUT", "/workers/scripts/shop", { main_module: "index.js" });
  const [script] = (await result("GET", "/workers/scripts")) as { tag: string }[];
  const repo = (await result("PUT", "/builds/repos/connections", {
    provider_type: "github",
    provider_account_id: "acme",
    provider_account_name: "Acme",
    repo_id: "shop",
    repo_name: "shop",
  })) as { repo_connection_uuid: string };
  const [token] = (await result("GET", "/builds/tokens")) as { build_token_uuid: string }[];
  const t = (await result("POST", "/builds/triggers", {
    external_script_id: script!.tag,
    repo_connection_uuid: repo.repo_connection_uuid,
    build_token_uuid: token!.build_token_uuid,
    trigger_name: "p",
    build_command: "",
    deploy_command: "d",
    root_directory: "/",
    branch_includes: ["main"],
  })) as { trigger_uuid: string };
  return t.trigger_uuid;
}
