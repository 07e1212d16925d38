/**
 * What the emulator does with what it is given and who may drive it: a given token is never stored,
 * state files are 0600 and never written through a link, reset keeps the first account and token,
 * the control API refuses cross-site and rebound requests, and fault patterns match in linear time.
 */
import { strict as assert } from "node:assert";
import {
  chmodSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { bindWarning } from "../../emulator/verb";
import { compilePathPattern, PathPatternError } from "../../emulator/path-pattern";
import { newTokenValue } from "../../emulator/auth";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { StateFileError, Store } from "../../emulator/store";
import { hostName, isLoopbackName } from "../../emulator/trust";

const SECRET = "env-token-0123456789abcdefghijklmnopqrstuvwxyz";

async function call(
  em: RunningEmulator,
  method: string,
  path: string,
  o: { headers?: Record<string, string>; body?: string; token?: string } = {},
): Promise<{ status: number; text: string }> {
  const url = path.startsWith("/__") ? em.origin + path : em.url + path;
  const headers = { ...(o.headers ?? {}), ...(o.token ? { authorization: `Bearer ${o.token}` } : {}) };
  const res = await request(url, { method: method as "GET", headers, body: o.body });
  return { status: res.statusCode, text: await res.body.text() };
}

describe("emulator trust: tokens and the state file", () => {
  let dir: string;
  let state: string;
  const running: RunningEmulator[] = [];
  const start = async (o: Parameters<typeof startEmulator>[0] = {}): Promise<RunningEmulator> => {
    const em = await startEmulator({ env: {}, stateFile: state, ...o });
    running.push(em);
    return em;
  };
  const stop = async (em: RunningEmulator): Promise<void> => {
    running.splice(running.indexOf(em), 1);
    await em.stop();
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "emulator-trust-"));
    state = join(dir, "state.json");
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((em) => em.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  it("accepts ACCOUNT_API_TOKEN without storing it: the file holds a digest, the control API neither", async () => {
    const env = { ACCOUNT_API_TOKEN: SECRET, ACCOUNT_API_ACCOUNT_ID: "acct1" };
    const first = await start({ env });
    const zone = await call(first, "POST", "/zones", {
      token: SECRET,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "kept.example", account: { id: "acct1" } }),
    });
    assert.equal(zone.status, 200, zone.text);
    const shown = await call(first, "GET", "/__emulator/state");
    assert.equal(shown.status, 200);
    assert.ok(!shown.text.includes(SECRET), "GET /__emulator/state shows no given token");
    assert.ok(!/"(value|digest|salt)"/.test(shown.text), "nor any token's value or digest");
    await stop(first);
    const file = readFileSync(state, "utf8");
    assert.ok(!file.includes(SECRET), "the state file never holds a given token");
    assert.equal(statSync(state).mode & 0o777, 0o600);
    assert.equal(first.tokenOrigin, "given");

    // Restarted without the variable: the token used before still works, and is not the one reported.
    const second = await start();
    assert.equal(second.accountId, "acct1");
    assert.notEqual(second.token, SECRET);
    const again = await call(second, "GET", "/zones", { token: SECRET });
    assert.equal(again.status, 200, again.text);
    assert.match(again.text, /kept\.example/);
    assert.ok(!readFileSync(state, "utf8").includes(SECRET));
  });

  it("turns a given token that an earlier emulator stored in clear into a digest", async () => {
    writeFileSync(
      state,
      JSON.stringify({
        version: 1,
        accountId: "acct1",
        tokens: [{ value: SECRET, scope: "user", permissions: ["*"], accountId: "acct1", name: "default" }],
        counters: {},
        areas: {},
      }),
      { mode: 0o644 },
    );
    chmodSync(state, 0o644);
    const em = await start({ env: { ACCOUNT_API_TOKEN: SECRET, ACCOUNT_API_ACCOUNT_ID: "acct1" } });
    assert.equal(statSync(state).mode & 0o777, 0o600, "an existing state file becomes 0600");
    assert.ok(!readFileSync(state, "utf8").includes(SECRET), "rewritten at start without the value");
    assert.equal((await call(em, "GET", "/zones", { token: SECRET })).status, 200);
  });

  it("never writes through a planted F.tmp link, and refuses a state file that is a link", async () => {
    const victim = join(dir, "victim.txt");
    writeFileSync(victim, "untouched");
    symlinkSync(victim, `${state}.tmp`);
    const em = await start();
    await call(em, "POST", "/__emulator/tokens", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ scope: "user", permissions: ["*"] }),
    });
    await stop(em);
    assert.equal(readFileSync(victim, "utf8"), "untouched");
    assert.ok(lstatSync(`${state}.tmp`).isSymbolicLink());
    assert.equal(statSync(state).mode & 0o777, 0o600);
    assert.deepEqual(
      readdirSync(dir).sort(),
      ["state.json", "state.json.tmp", "victim.txt"],
      "no temporary file is left",
    );

    const linked = join(dir, "linked.json");
    symlinkSync(state, linked);
    await assert.rejects(
      startEmulator({ env: {}, stateFile: linked }),
      (e: unknown) => e instanceof StateFileError && /linked\.json: is a symbolic link/.test(e.message),
    );
  });

  it("names the file and what is wrong when the state cannot be read", () => {
    const load = (text: string): string => {
      writeFileSync(state, text);
      try {
        new Store({ accountId: "a", tokens: [], file: state });
      } catch (e) {
        assert.ok(e instanceof StateFileError, String(e));
        assert.equal(e.file, state);
        return e.message;
      }
      assert.fail("loaded");
    };
    assert.match(load("{"), new RegExp(`^state file .*state\\.json: is not JSON \\(`));
    assert.match(load('{"version":2}'), /state\.json: unsupported version 2 \(this emulator reads 1\)$/);
    assert.match(load("[]"), /state\.json: not an emulator state: \(the whole file\): /);
    assert.match(
      load('{"version":1,"accountId":"a","tokens":[],"counters":{"n":"x"},"areas":{}}'),
      /state\.json: not an emulator state: counters: must be an object of whole numbers$/,
    );
  });

  it("reset after a restart keeps the first account and token, as health shows", async () => {
    const first = await start();
    const { accountId, token } = first;
    await stop(first);
    const second = await start();
    assert.equal(second.token, token);
    const reset = await call(second, "POST", "/__emulator/reset");
    assert.equal(reset.status, 200, reset.text);
    const health = JSON.parse((await call(second, "GET", "/__emulator/health")).text) as {
      result: { accountId: string };
    };
    assert.equal(health.result.accountId, accountId);
    const shown = JSON.parse((await call(second, "GET", "/__emulator/state")).text) as {
      result: { accountId: string };
    };
    assert.equal(shown.result.accountId, accountId, "the state's account is the one health shows");
    const zones = await call(second, "GET", "/zones", { token });
    assert.equal(zones.status, 200, `the first token still works after reset: ${zones.text}`);
    assert.deepEqual([first.tokenOrigin, second.tokenOrigin], ["generated", "kept"]);
  });
});

describe("emulator trust: the control API refuses other sites", () => {
  let em: RunningEmulator;
  beforeEach(async () => {
    em = await startEmulator({ env: {}, allowHosts: ["emulator.internal"] });
  });
  afterEach(() => em.stop());

  const tokens = async (): Promise<number> =>
    (JSON.parse((await call(em, "GET", "/__emulator/state")).text) as { result: { tokens: unknown[] } })
      .result.tokens.length;

  it("refuses a cross-origin text/plain POST, so a web page cannot wipe the state", async () => {
    em.auth.add({ scope: "user", permissions: ["*"] });
    const page = await call(em, "POST", "/__emulator/reset", {
      headers: { "content-type": "text/plain", origin: "https://evil.example" },
      body: "{}",
    });
    assert.equal(page.status, 403, page.text);
    assert.match(page.text, /origin: \\"https:\/\/evil\.example\\" is not this emulator/);
    const plain = await call(em, "POST", "/__emulator/reset", {
      headers: { "content-type": "text/plain" },
      body: "{}",
    });
    assert.equal(plain.status, 415, plain.text);
    const fetched = await call(em, "POST", "/__emulator/reset", {
      headers: { "sec-fetch-site": "cross-site" },
    });
    assert.equal(fetched.status, 403, fetched.text);
    assert.equal(await tokens(), 2, "nothing was reset");

    const own = await call(em, "POST", "/__emulator/reset", {
      headers: { origin: em.origin, "sec-fetch-site": "same-origin", "content-type": "application/json" },
    });
    assert.equal(own.status, 200, own.text);
    assert.equal(await tokens(), 1);
  });

  it("refuses a foreign Host (DNS rebinding), answers loopback names and the allowed ones", async () => {
    const port = new URL(em.origin).port;
    const rebound = await call(em, "GET", "/__emulator/state", { headers: { host: `evil.example:${port}` } });
    assert.equal(rebound.status, 403, rebound.text);
    assert.match(rebound.text, /host: \\"evil\.example:\d+\\" is not a name of this emulator/);
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      `emulator.internal:${port}`,
    ]) {
      const res = await call(em, "GET", "/__emulator/health", { headers: { host } });
      assert.equal(res.status, 200, `${host}: ${res.text}`);
    }
    // The API itself needs its token, whatever the name.
    const api = await call(em, "GET", "/zones", { headers: { host: "evil.example" }, token: em.token });
    assert.equal(api.status, 200);
  });

  it("sandboxes pages served by the markdown edge, which share the control API's origin", async () => {
    const res = await request(`${em.origin}/__edge/nowhere.example/`);
    await res.body.dump();
    assert.equal(res.headers["content-security-policy"], "sandbox");
  });

  it("refuses a fault pattern that backtracks, and matches others in linear time", async () => {
    const nested = await call(em, "POST", "/__emulator/faults", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "^/client/v4/(a+)+\\1$", status: 500 }),
    });
    assert.equal(nested.status, 400);
    assert.match(nested.text, /path: backreference \\\\\\\\1 is not supported|path: backreference/);
    // Accepted, and answered by the linear matcher: the request goes through at once.
    const evil = await call(em, "POST", "/__emulator/faults", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "^/client/v4/(a+)+$", status: 500 }),
    });
    assert.equal(evil.status, 200, evil.text);
    const miss = await call(em, "GET", `/${"a".repeat(40)}!`, { token: em.token });
    assert.equal(miss.status, 404);
    const hit = await call(em, "GET", `/${"a".repeat(40)}`, { token: em.token });
    assert.equal(hit.status, 500);
  });
});

describe("emulator trust: fault patterns", () => {
  const PATTERNS = [
    "^/client/v4/nothing",
    "/settings/content_converter$",
    "/registrar/registrations/gone\\.com$",
    ".",
    "^/client/v4/(a+)+$",
    "a|b|cd$",
    "^(?:ab|a)*c$",
    "[^/]+/x",
    "[a-c\\d-]{2,3}z",
    "x{2,}",
    "{",
    "a{,2}",
    "^$",
    "(?<n>ab)+",
    "[]a",
    "[^]",
    "\\u0041\\x42",
    "a?b*?c+?",
    "(|a)b",
    "((a|)*)*$",
    "[\\w.-]+@",
  ];
  const ALPHABET = ["a", "b", "c", "/", "x", "z", "1", "-", ".", "A", "B", "@", "{", "}", ","];

  it("match exactly the paths RegExp matches", () => {
    // Every string over the alphabet up to length 3, and each with the API prefix.
    const texts = [""];
    for (let len = 0; len < 3; len++)
      for (const t of texts.filter((x) => x.length === len)) for (const c of ALPHABET) texts.push(t + c);
    for (const p of PATTERNS) {
      const re = new RegExp(p);
      const mine = compilePathPattern(p);
      for (const t of [...texts, ...texts.map((x) => `/client/v4/${x}`)])
        assert.equal(mine.test(t), re.test(t), `${p} on ${JSON.stringify(t)}`);
    }
  });

  it("refuses what needs backtracking, naming it", () => {
    const refused = (p: string): string => {
      try {
        compilePathPattern(p);
      } catch (e) {
        assert.ok(e instanceof PathPatternError);
        return e.message;
      }
      return assert.fail(`${p} accepted`);
    };
    assert.match(refused("(a)\\1"), /^backreference "\\1" is not supported/);
    assert.match(refused("(?=a)"), /^lookaround "\(\?=a" is not supported/);
    assert.match(refused("(?<!a)b"), /^lookaround/);
    assert.match(refused("\\bx"), /^word boundary "\\b" is not supported/);
    assert.match(refused("a{1000}"), /a count may be at most 100/);
    assert.match(refused("("), /^must be a regular expression/);
    assert.match(refused("x".repeat(600)), /at most 512 characters/);
  });
});

describe("emulator trust: binding and host names", () => {
  it("warns about any address but loopback, naming it", () => {
    assert.equal(bindWarning("127.0.0.1", []), undefined);
    assert.equal(bindWarning("localhost", []), undefined);
    assert.equal(bindWarning("::1", []), undefined);
    assert.match(bindWarning("0.0.0.0", [])!, /^warning: listening on 0\.0\.0\.0, not loopback/);
    assert.match(bindWarning("192.168.1.5", [])!, /192\.168\.1\.5.*control API, which needs no token/);
  });

  it("reads Host headers", () => {
    assert.equal(hostName("[::1]:8787"), "::1");
    assert.equal(hostName("LocalHost:1"), "localhost");
    assert.equal(hostName("a@b"), undefined);
    assert.ok(isLoopbackName("127.9.9.9") && isLoopbackName("app.localhost") && !isLoopbackName("10.0.0.1"));
  });
});

describe("the emulator's generated tokens", () => {
  it("never start with `-`, so the printed `pulumi config set --secret … <token>` line works", () => {
    // base64url starts with `-` one time in 64: 4,000 tokens would all but surely show one.
    for (let i = 0; i < 4000; i++) assert.match(newTokenValue(), /^[A-Za-z][A-Za-z0-9_-]{31}$/);
  });
});
