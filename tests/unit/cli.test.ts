/**
 * The command line: argument parsing, exit codes and output of the imperative verbs over real HTTP
 * against the emulator, and the emulator command as a real process.
 */
import { productionTrigger, seedBuildWorld } from "../helpers/builds";
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { request } from "undici";
import { EXIT } from "../../cli/main";
import { runCli } from "../helpers/cli";
import { useEmulator } from "../helpers/emulator";

const ROOT = resolve(__dirname, "..", "..");

describe("command line: imperative verbs", () => {
  const fx = useEmulator();

  it("domain check: text by default, JSON with --json, exit 3 when a domain is not registrable", async () => {
    const ok = await runCli(fx, ["domain", "check", "fresh-name-42.com"]);
    assert.equal(ok.code, EXIT.ok);
    assert.match(ok.out, /^fresh-name-42\.com: registrable, standard, [\d.]+ USD first year/);
    const json = await runCli(fx, ["domain", "check", "fresh-name-42.com", "--json"]);
    const domains = (json.json as { domains: { name: string; registrable: boolean }[] }).domains;
    assert.deepEqual(
      domains.map((d) => [d.name, d.registrable]),
      [["fresh-name-42.com", true]],
    );
    const bad = await runCli(fx, ["domain", "check", "fresh-name-42.com", "nope.invalidtld", "--json"]);
    assert.equal(bad.code, EXIT.unsuccessful);
  });

  it("domain quote prices the years exactly; search suggests", async () => {
    const q = await runCli(fx, ["domain", "quote", "fresh-name-42.com", "--years", "3", "--json"]);
    assert.equal(q.code, EXIT.ok, q.err);
    const quote = q.json as { years: number; total: string; registration_cost: string; renewal_cost: string };
    assert.equal(quote.years, 3);
    assert.match(quote.total, /^\d+\.\d{2}$/);
    const s = await runCli(fx, ["domain", "search", "coffee", "--limit", "2", "--json"]);
    assert.equal(s.code, EXIT.ok, s.err);
    assert.ok((s.json as { domains: unknown[] }).domains.length <= 2);
  });

  it("build trigger starts a build, cancel stops it, logs reads it, tokens lists the tokens", async () => {
    const trigger = await productionTrigger(fx, await seedBuildWorld(fx));
    const started = await runCli(fx, ["build", "trigger", trigger, "--branch", "main", "--json"]);
    assert.equal(started.code, EXIT.ok, started.err);
    const build = started.json as { build_uuid: string; status: string };
    assert.equal(build.status, "queued");
    fx.clock.advance(6_000); // running
    const cancelled = await runCli(fx, ["build", "cancel", build.build_uuid]);
    assert.match(cancelled.out, new RegExp(`^build ${build.build_uuid}: `));
    const after = await fx.api.builds.builds.get({ buildUuid: build.build_uuid });
    assert.equal(after.status, "stopped");
    assert.equal(after.build_outcome, "cancelled");
    // A stopped build that did not succeed is exit 3 for `build wait`.
    const waited = await runCli(fx, ["build", "wait", build.build_uuid, "--json"]);
    assert.equal(waited.code, EXIT.unsuccessful);
    const logs = await runCli(fx, ["build", "logs", build.build_uuid, "--json"]);
    assert.ok((logs.json as { lines: unknown[] }).lines.length > 0);
    const tokens = await runCli(fx, ["build", "tokens", "--json"]);
    const list = tokens.json as { build_token_uuid: string }[];
    assert.deepEqual(
      list.map((t) => t.build_token_uuid),
      (await fx.api.builds.tokens.list()).map((t) => t.build_token_uuid),
    );
    const text = await runCli(fx, ["build", "tokens"]);
    assert.match(text.out, new RegExp(`^${list[0]!.build_token_uuid}`));
  });

  it("build trigger without branch or commit is a usage error (64) before any request (rule 1)", async () => {
    const trigger = await productionTrigger(fx, await seedBuildWorld(fx));
    const before = fx.em.requestLog.length;
    const r = await runCli(fx, ["build", "trigger", trigger, "--json"]);
    assert.equal(r.code, EXIT.usage);
    assert.match(r.err, /--branch, --commit/);
    assert.equal((r.json as { error: { exitCode: number } }).error.exitCode, EXIT.usage);
    assert.equal(fx.em.requestLog.length, before);
  });

  it("missing configuration is a usage error naming the token, and never prints one", async () => {
    const r = await runCli(fx, ["domain", "check", "x.com"], { env: { ACCOUNT_API_TOKEN: "" } });
    assert.equal(r.code, EXIT.usage);
    assert.match(r.err, /ACCOUNT_API_TOKEN .*: required/);
    assert.ok(!r.err.includes(fx.em.token) && !r.out.includes(fx.em.token));
  });

  it("an API error is exit 1 with the API's message on stderr", async () => {
    const r = await runCli(fx, ["build", "logs", "00000000-0000-4000-8000-000000000000"]);
    assert.equal(r.code, EXIT.error);
    assert.match(r.err, /^error: .*404/);
    assert.equal(r.out, "");
  });

  it("unknown options and missing arguments are usage errors (64)", async () => {
    assert.equal((await runCli(fx, ["domain", "check"])).code, EXIT.usage);
    assert.equal((await runCli(fx, ["build", "tokens", "--nope"])).code, EXIT.usage);
    assert.equal((await runCli(fx, ["domain", "quote", "a.com", "--years", "zero"])).code, EXIT.usage);
  });

  it("send-email prints each recipient's result; a bounce is exit 3", async () => {
    const domain = await fx.http("PUT", `/__emulator/email/accounts/${fx.em.accountId}/domains/example.com`, {
      body: { sending_disabled: false },
    });
    assert.equal(domain.status, 200, domain.text);
    const r = await runCli(fx, [
      "send-email",
      "--from",
      "news@example.com",
      "--to",
      "ada@dest.test",
      "--to",
      "bounce-bob@dest.test",
      "--subject",
      "Hi",
      "--text",
      "Hello",
      "--json",
    ]);
    assert.equal(r.code, EXIT.unsuccessful, r.err);
    const recipients = (r.json as { recipients: { address: string; result: string }[] }).recipients;
    assert.deepEqual(recipients.map((x) => [x.address, x.result]).sort(), [
      ["ada@dest.test", "delivered"],
      ["bounce-bob@dest.test", "bounced"],
    ]);
  });

  it("send-email refuses a message over 5 MiB before sending (64), and one without a body", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cli-mail-"));
    try {
      const big = join(dir, "big.bin");
      writeFileSync(big, Buffer.alloc(4 * 1024 * 1024, 1)); // 4 MiB → about 5.3 MiB as base64
      const before = fx.em.requestLog.length;
      const args = ["send-email", "--from", "news@example.com", "--to", "ada@dest.test", "--subject", "Big"];
      const r = await runCli(fx, [...args, "--text", "x", "--attach", big]);
      assert.equal(r.code, EXIT.usage);
      assert.match(r.err, /5 MiB/);
      const none = await runCli(fx, args);
      assert.equal(none.code, EXIT.usage);
      assert.match(none.err, /pass a body/);
      assert.equal(fx.em.requestLog.length, before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("job run --wait waits for the sync job; job logs lists its lines; progress only on a terminal", async () => {
    await fx.api.search.instances.create({}, { id: "cli-kb" });
    const quiet = await runCli(fx, ["job", "run", "cli-kb", "--json"]);
    assert.equal(quiet.code, EXIT.ok, quiet.err);
    const job = quiet.json as { id: string };
    const advancing = setInterval(() => fx.clock.advance(5_000), 5);
    try {
      const waited = await runCli(fx, ["job", "wait", "cli-kb", job.id, "--json"], { tty: true });
      assert.equal(waited.code, EXIT.ok, waited.err);
      assert.ok((waited.json as { ended_at?: string }).ended_at);
      assert.match(waited.err, /waiting for job/);
      const q = await runCli(fx, ["job", "wait", "cli-kb", job.id, "--quiet"], { tty: true });
      assert.equal(q.err, "");
    } finally {
      clearInterval(advancing);
    }
    const logs = await runCli(fx, ["job", "logs", "cli-kb", job.id, "--json"]);
    assert.equal(logs.code, EXIT.ok, logs.err);
    assert.ok(Array.isArray(logs.json));
  });

  it("markdown FILE converts local HTML and reports tokens and savings; a page not converted is exit 3", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cli-md-"));
    const page =
      '<html><head><meta name="title" content="Guide"><style>body{color:red}</style></head><body><nav>menu menu menu</nav><h1>Hello</h1><p>Some <b>text</b>.</p><script>var x = 1;</script></body></html>';
    const server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(page));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const file = join(dir, "page.html");
      writeFileSync(file, page);
      const r = await runCli(fx, ["markdown", file]);
      assert.equal(r.code, EXIT.ok, r.err);
      assert.match(r.out, /^---\ntitle: Guide\n---\n\n# Hello\n\nSome \*\*text\*\*\.\n$/);
      assert.match(r.err, /^\d+ tokens as Markdown, \d+ as HTML: \d+ fewer \([\d.]+% saved\)\n$/);
      const j = await runCli(fx, ["markdown", file, "--json"]);
      const rep = j.json as {
        markdownTokens: number;
        htmlTokens: number;
        savedTokens: number;
        savedPercent: number;
      };
      assert.equal(rep.savedTokens, rep.htmlTokens - rep.markdownTokens);
      assert.ok(rep.savedPercent > 0 && rep.savedPercent < 100);
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const page404 = await runCli(fx, ["markdown", url, "--json"], { env: { ACCOUNT_API_TOKEN: "" } });
      assert.equal(page404.code, EXIT.unsuccessful, page404.err);
      assert.match(
        (page404.json as { reason: string }).reason,
        /came back as HTML: Markdown conversion is not on/,
      );
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("command line: account-api emulator", function () {
  this.timeout(60_000);

  /** The environment without the user's own ACCOUNT_API_* variables, plus `extra`. */
  const cleanEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
    const env = { ...process.env };
    delete env.ACCOUNT_API_TOKEN;
    delete env.ACCOUNT_API_ACCOUNT_ID;
    return { ...env, ...extra };
  };

  /** Starts `account-api emulator …args` as a process and answers its banner (and stderr so far) once printed. */
  async function emulatorProcess(
    args: string[],
    extraEnv: NodeJS.ProcessEnv = {},
  ): Promise<{ banner: string; stderr(): string; stop(): Promise<void> }> {
    const child = spawn(
      process.execPath,
      ["-r", "ts-node/register/transpile-only", "cli/main.ts", "emulator", "--port", "0", ...args],
      { cwd: ROOT, env: cleanEnv(extraEnv) },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const banner = await new Promise<string>((resolveBanner, reject) => {
      let text = "";
      child.stdout.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        if (/# or, for one stack: pulumi config set[^\n]*\n/.test(text)) resolveBanner(text);
      });
      child.on("exit", (code) => reject(new Error(`emulator exited with ${code}: ${text}${stderr}`)));
    });
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    // Resolves once the process is gone, so its state file is no longer written.
    return { banner, stderr: () => stderr, stop: () => (child.kill("SIGTERM"), exited) };
  }

  /** Runs `account-api emulator …args` expecting it to exit at once; its code and output. */
  async function emulatorExit(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
    const child = spawn(
      process.execPath,
      ["-r", "ts-node/register/transpile-only", "cli/main.ts", "emulator", "--port", "0", ...args],
      { cwd: ROOT, env: cleanEnv() },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    return { code, out, err };
  }
  const field = (banner: string, re: RegExp): string => {
    const m = re.exec(banner);
    assert.ok(m?.[1], `${String(re)} in:\n${banner}`);
    return m[1];
  };

  it("starts on loopback, prints the base URL, account and generated token, and serves the API", async () => {
    const em = await emulatorProcess([]);
    try {
      const url = field(em.banner, /emulator listening: (\S+)/);
      const token = field(em.banner, /token:\s+(\S+) \(generated\)/);
      const account = field(em.banner, /account id:\s+(\S+)/);
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/client\/v4$/);
      assert.match(em.banner, new RegExp(`pulumi config set --secret account-api:apiToken ${token}`));
      // The console is served at the root of the same origin.
      const consoleUrl = field(em.banner, /console:\s+(\S+)/);
      assert.equal(consoleUrl, `${new URL(url).origin}/`);
      const shell = await request(consoleUrl);
      assert.equal(shell.statusCode, 200);
      assert.match(await shell.body.text(), /<title>account-api emulator<\/title>/);
      const res = await request(`${url}/accounts/${account}/registrar/registrations`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(res.statusCode, 200);
      assert.equal(((await res.body.json()) as { success: boolean }).success, true);
    } finally {
      await em.stop();
    }
  });

  it("--state keeps the account and token across restarts; --seed demo seeds once and then finds it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "account-api-emulator-state-"));
    const state = join(dir, "state.json");
    try {
      const first = await emulatorProcess(["--state", state, "--seed", "demo"]);
      const token = field(first.banner, /token:\s+(\S+) \(generated; kept in /);
      const account = field(first.banner, /account id:\s+(\S+)/);
      const seeded = field(first.banner, /seeded \(demo\):\s+(.+)/);
      assert.match(
        seeded,
        /^script shop, zone example\.com \([0-9a-f]+\), sender domain example\.com, build token [0-9a-f-]{36}$/,
      );
      await first.stop();
      const second = await emulatorProcess(["--state", state, "--seed", "demo"]);
      try {
        // Printed once, when it was made; a restart says where it is kept.
        assert.match(second.banner, /token:\s+kept in \S+state\.json \(printed when it was generated/);
        assert.ok(!second.banner.includes(token), second.banner);
        assert.equal(field(second.banner, /account id:\s+(\S+)/), account);
        assert.equal(field(second.banner, /seeded \(demo\):\s+(.+)/), seeded);
        const url = field(second.banner, /emulator listening: (\S+)/);
        const kept = await request(`${url}/accounts/${account}/registrar/registrations`, {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(kept.statusCode, 200, "the token printed at the first start still works");
        await kept.body.dump();
        const log = await request(`${url.replace("/client/v4", "")}/__emulator/requests`);
        const entries = (await log.body.json()) as { result: { method: string; url: string }[] };
        const writes = entries.result.filter(
          (r) => r.method !== "GET" && !r.url.startsWith("/__emulator/requests"),
        );
        assert.deepEqual(writes, [], "a second seed writes nothing");
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a token from ACCOUNT_API_TOKEN is never stored or printed, and still works after a restart without it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "account-api-emulator-env-"));
    const state = join(dir, "state.json");
    const secret = "real-token-0123456789abcdefghijklmnopqrstuv";
    try {
      const first = await emulatorProcess(["--state", state], {
        ACCOUNT_API_TOKEN: secret,
        ACCOUNT_API_ACCOUNT_ID: "acct-from-env",
      });
      assert.match(first.banner, /token:\s+from ACCOUNT_API_TOKEN \(accepted; never stored or printed\)/);
      assert.ok(!first.banner.includes(secret) && !first.stderr().includes(secret), first.banner);
      await first.stop();
      assert.ok(!readFileSync(state, "utf8").includes(secret), "the state file holds no given token");
      assert.equal(statSync(state).mode & 0o777, 0o600);

      const second = await emulatorProcess(["--state", state]);
      try {
        assert.ok(!second.banner.includes(secret) && !second.stderr().includes(secret), second.banner);
        assert.equal(field(second.banner, /account id:\s+(\S+)/), "acct-from-env");
        const url = field(second.banner, /emulator listening: (\S+)/);
        const origin = url.replace("/client/v4", "");
        const snapshot = await request(`${origin}/__emulator/state`);
        assert.ok(!(await snapshot.body.text()).includes(secret), "the control API shows no token");
        const res = await request(`${url}/accounts/acct-from-env/registrar/registrations`, {
          headers: { authorization: `Bearer ${secret}` },
        });
        assert.equal(res.statusCode, 200, "the token used before still works");
        await res.body.dump();
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("warns on stderr, naming the address, when it listens on more than loopback", async () => {
    const em = await emulatorProcess(["--host", "0.0.0.0"]);
    try {
      assert.match(em.stderr(), /^warning: listening on 0\.0\.0\.0, not loopback: other machines can reach/m);
      // A client cannot use 0.0.0.0 as a host, and plain http goes only to loopback: the banner's URL does.
      assert.match(field(em.banner, /emulator listening: (\S+)/), /^http:\/\/127\.0\.0\.1:\d+\/client\/v4$/);
    } finally {
      await em.stop();
    }
    const quiet = await emulatorProcess([]);
    try {
      assert.equal(quiet.stderr(), "");
    } finally {
      await quiet.stop();
    }
  });

  it("a corrupt state file is named with what is wrong, and exits 64", async () => {
    const dir = mkdtempSync(join(tmpdir(), "account-api-emulator-corrupt-"));
    try {
      const notJson = join(dir, "broken.json");
      writeFileSync(notJson, "{ not json");
      const a = await emulatorExit(["--state", notJson]);
      assert.equal(a.code, EXIT.usage, a.err);
      assert.ok(a.err.startsWith(`error: state file ${notJson}: is not JSON (`), a.err);
      const wrongShape = join(dir, "shape.json");
      writeFileSync(
        wrongShape,
        JSON.stringify({ version: 1, accountId: "a", tokens: [{}], counters: {}, areas: {} }),
      );
      const b = await emulatorExit(["--state", wrongShape]);
      assert.equal(b.code, EXIT.usage, b.err);
      assert.match(b.err, /state file \S+shape\.json: not an emulator state: tokens\.0\.scope: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a usage error exits 64 as a process", async function () {
    const child = spawn(
      process.execPath,
      ["-r", "ts-node/register/transpile-only", "cli/main.ts", "domain", "check"],
      { cwd: ROOT, env: process.env },
    );
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    assert.equal(code, EXIT.usage);
  });
});
