/**
 * `pulumi up` from the CLI, as a user's CI runs it: the real `pulumi` binary in a project laid out as
 * Pulumi's TypeScript template (tests/fixtures/template/project) with the packed package installed.
 * The CLI starts the Node language host (pulumi-language-nodejs, provided by `npm run setup`), which runs
 * index.ts through ts-node and the project's own tsconfig; no Automation API anywhere. Against the
 * emulator: up → preview --refresh --expect-no-changes → a trigger edit (config) → up → destroy.
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { AccountApi } from "../../sdk";
import { installPacked, TEMPLATE_PROJECT, type InstalledProject } from "../fixtures/template/install";
import { ENGINE_BIN, engineEnv } from "./harness";
import { variablesOf } from "../helpers/builds";

const SECRET = "cli-secret-build-value";

describe("pulumi up from the CLI in a template project (language host, real engine)", function () {
  this.timeout(180_000);
  let dir = "";
  let p: InstalledProject;
  let em: RunningEmulator;
  let api: AccountApi;
  let env: Record<string, string>;
  let scriptTag = "";
  const took: string[] = [];

  /** One `pulumi` command in the project; its output goes to the test log, and it must succeed. */
  function pulumi(...args: string[]): Promise<string> {
    const started = Date.now();
    return new Promise((done, fail) => {
      execFile(
        join(ENGINE_BIN, "pulumi"),
        [...args, "--non-interactive", "--color", "never"],
        { cwd: p.project, env, maxBuffer: 32 << 20 },
        (err, stdout, stderr) => {
          const out = `${stdout}${stderr}`;
          took.push(`${args.slice(0, 2).join(" ")} ${Date.now() - started} ms`);
          process.stdout.write(out.replace(/^(?=.)/gm, "      | "));
          if (err) fail(new Error(`pulumi ${args.join(" ")} failed (${err.code}):\n${out}`));
          else done(out);
        },
      );
    });
  }

  before(async function () {
    const languageHost = [ENGINE_BIN, dirname(realpathSync(join(ENGINE_BIN, "pulumi")))].some((d) =>
      existsSync(join(d, "pulumi-language-nodejs")),
    );
    assert.ok(languageHost, "pulumi-language-nodejs is not beside the CLI: run `npm run setup` first");
    dir = mkdtempSync(join(tmpdir(), "account-api-cli-up-"));
    p = installPacked(dir, TEMPLATE_PROJECT);
    em = await startEmulator({ env: {} });
    api = new AccountApi({ baseUrl: em.url, token: em.token, accountId: em.accountId, env: {} });
    const res = await fetch(`${em.url}/accounts/${em.accountId}/workers/scripts/shop`, {
      method: "PUT",
      headers: { authorization: `Bearer ${em.token}`, "content-type": "application/json" },
      body: "{}",
    });
    scriptTag = ((await res.json()) as { result: { tag: string } }).result.tag;
    const [token] = await api.builds.tokens.list();
    assert.ok(token, "the emulator has a build token");
    mkdirSync(join(dir, "backend"));
    const base = engineEnv(join(dir, "backend"), join(dir, "home"));
    env = {
      ...process.env,
      ...base,
      // The language host runs `node` from PATH: the one running this test (Node 22+), then ours.
      PATH: [ENGINE_BIN, dirname(process.execPath), base.PATH].join(":"),
      ACCOUNT_API_BASE_URL: em.url,
      ACCOUNT_API_ACCOUNT_ID: em.accountId,
      ACCOUNT_API_TOKEN: em.token,
    };
    // Automation API variables of the parent run must not leak into a plain CLI run.
    for (const k of Object.keys(env)) if (k.startsWith("PULUMI_") && !(k in base)) delete env[k];
    await pulumi("stack", "init", "ci");
    await pulumi("config", "set", "scriptName", "shop");
    await pulumi("config", "set", "--plaintext", "buildTokenUuid", token.build_token_uuid);
    await pulumi("config", "set", "--secret", "apiKey", SECRET);
  });

  after(async () => {
    console.log(`      pulumi commands: ${took.join(", ")}`);
    await api?.close();
    await em?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("up, preview --refresh --expect-no-changes, a trigger edit, up, destroy", async () => {
    const up = await pulumi("up", "--yes");
    assert.match(up, /4 created|\+ 4 created|4 to create|created \(/, up);
    const [trigger] = await api.builds.triggers.list({ scriptTag });
    assert.ok(trigger, "the trigger exists");
    assert.equal(trigger.build_command, "npm run build");
    assert.deepEqual(await variablesOf(api, trigger.trigger_uuid), {
      MODE: { value: "fast", is_secret: false },
      API_KEY: { value: null, is_secret: true },
    });
    const state = readState();
    assert.ok(!state.includes(SECRET), "the secret is not in state in plain text");
    assert.ok(!state.includes(em.token), "the token came from the environment and is not in state");

    await pulumi("preview", "--refresh", "--expect-no-changes");

    await pulumi("config", "set", "buildCommand", "npm run build:prod");
    const edit = await pulumi("up", "--yes");
    assert.match(edit, /1 updated/, edit);
    const [edited] = await api.builds.triggers.list({ scriptTag });
    assert.equal(edited?.trigger_uuid, trigger.trigger_uuid, "edited in place");
    assert.equal(edited?.build_command, "npm run build:prod");

    await pulumi("destroy", "--yes");
    assert.deepEqual(await api.builds.triggers.list({ scriptTag }), []);
  });

  function readState(): string {
    const stacks = join(dir, "backend", ".pulumi", "stacks", "template-project");
    return readdirSync(stacks)
      .filter((f) => f.endsWith(".json"))
      .map((f) => readFileSync(join(stacks, f), "utf8"))
      .join("\n");
  }
});
