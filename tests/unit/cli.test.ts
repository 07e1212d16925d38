/** The command line: the emulator command as a real process, and the imperative verbs over real HTTP. */
import { productionTrigger, seedBuildWorld } from "../helpers/builds";
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { request } from "undici";
import { buildCli } from "../../cli/main";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

const ROOT = resolve(__dirname, "..", "..");

async function runCli(fx: EmulatorFixture, args: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const cli = buildCli({
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: {
      ACCOUNT_API_BASE_URL: fx.em.url,
      ACCOUNT_API_ACCOUNT_ID: fx.em.accountId,
      ACCOUNT_API_TOKEN: fx.em.token,
      ...env,
    },
  });
  cli.exitOverride();
  await cli.parseAsync(["node", "account-api", ...args]);
  return { json: JSON.parse(out.join("")) as unknown, err: err.join("") };
}

describe("command line: imperative verbs", () => {
  const fx = useEmulator();

  it("domain check prints the authoritative availability as JSON", async () => {
    const { json } = await runCli(fx, ["domain", "check", "fresh-name-42.com"]);
    const domains = (json as { domains: { name: string; registrable: boolean }[] }).domains;
    assert.deepEqual(
      domains.map((d) => [d.name, d.registrable]),
      [["fresh-name-42.com", true]],
    );
  });

  it("build trigger starts a build on a branch, build cancel stops it, build logs reads it", async () => {
    const trigger = await productionTrigger(fx, await seedBuildWorld(fx));
    const { json: started } = await runCli(fx, ["build", "trigger", trigger, "--branch", "main"]);
    const build = started as { build_uuid: string; status: string };
    assert.equal(build.status, "queued");
    fx.clock.advance(6_000); // running
    const { json: cancelled } = await runCli(fx, ["build", "cancel", build.build_uuid]);
    assert.equal((cancelled as { build_uuid: string }).build_uuid, build.build_uuid);
    const after = await fx.api.builds.getBuild(build.build_uuid);
    assert.equal(after.status, "stopped");
    assert.equal(after.build_outcome, "cancelled");
    const { json: logs } = await runCli(fx, ["build", "logs", build.build_uuid]);
    assert.ok((logs as { lines: unknown[] }).lines.length > 0);
  });

  it("build trigger refuses a call without branch or commit before any request (rule 1)", async () => {
    const trigger = await productionTrigger(fx, await seedBuildWorld(fx));
    const before = fx.em.requestLog.length;
    await assert.rejects(runCli(fx, ["build", "trigger", trigger]), /branch|commit/);
    assert.equal(fx.em.requestLog.length, before);
  });

  it("fails with a configuration error naming the token, and never prints one", async () => {
    await assert.rejects(
      runCli(fx, ["domain", "check", "x.com"], { ACCOUNT_API_TOKEN: "" }),
      (e: Error) => /token: required/.test(e.message) && !e.message.includes(fx.em.token),
    );
  });
});

describe("command line: account-api emulator", function () {
  this.timeout(60_000);

  it("starts on loopback, prints the base URL, account and generated token, and serves the API", async () => {
    const env = { ...process.env };
    delete env.ACCOUNT_API_TOKEN;
    delete env.ACCOUNT_API_ACCOUNT_ID;
    const child = spawn(
      process.execPath,
      ["-r", "ts-node/register/transpile-only", "cli/main.ts", "emulator", "--port", "0"],
      { cwd: ROOT, env },
    );
    try {
      const banner = await new Promise<string>((resolveBanner, reject) => {
        let text = "";
        child.stdout.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          if (/export ACCOUNT_API_BASE_URL=/.test(text)) resolveBanner(text);
        });
        child.on("exit", (code) => reject(new Error(`emulator exited with ${code}: ${text}`)));
      });
      const url = /emulator listening: (\S+)/.exec(banner)![1]!;
      const token = /token \(generated\):\s+(\S+)/.exec(banner)![1]!;
      const account = /account id:\s+(\S+)/.exec(banner)![1]!;
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/client\/v4$/);
      const res = await request(`${url}/accounts/${account}/registrar/registrations`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(res.statusCode, 200);
      assert.equal(((await res.body.json()) as { success: boolean }).success, true);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
