/**
 * Secrets on the real engine: up, refresh, drift, a failing create and destroy, with every
 * secret-bearing field set, on two stacks that run side by side:
 * - `cfg`: the API token from secret stack config; a SearchInstance's storageCredentials, two
 *   MeetingTemplates' recording storage credentials (accessKey, secret, password, privateKey) and a
 *   secret TriggerEnvVars value;
 * - `env`: the API token from the environment (ACCOUNT_API_TOKEN), no token in config at all; a
 *   SearchInstance's storageCredentials and a secret TriggerEnvVars value.
 *
 * Afterwards neither token nor any secret value appears in plaintext (nor base64) anywhere: the state
 * files, their backups and history (.pulumi/backups, .pulumi/history), the stack config files, the
 * engine's stdout and stderr, the drift command's output, or the message of a failed create. The token
 * from config is stored encrypted (`secure:`); the token from the environment is stored nowhere.
 *
 * Figures printed: secret values watched, files and bytes scanned, captured output scanned, leaks (0).
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { BuildTrigger } from "../../provider/resources/build-trigger";
import { MeetingTemplate } from "../../provider/resources/meeting-template";
import { RepoConnection } from "../../provider/resources/repo-connection";
import { SearchInstance } from "../../provider/resources/search-instance";
import { TriggerEnvVars } from "../../provider/resources/trigger-env-vars";
import { REPO_ROOT, useE2E, type E2EStack } from "./harness";

const ENV_TOKEN = "env-token-7Qm2xV9pLw3Rt8Zk4Nb6";
const SECRETS = {
  searchKeyIdCfg: "AKID-cfg-5d1e8c2b9a",
  searchSecretCfg: "search-secret-cfg-b41f0e77c9d2",
  meetAccessKey: "AKIA-meet-3c9e1f5a7b",
  meetSecret: "meet-secret-aws-8e2d6b4c0a91",
  meetPassword: "meet-sftp-password-f00d17c3",
  meetPrivateKey: "-----BEGIN KEY-----meet-private-key-9b8a7c6d",
  envVarCfg: "build-secret-cfg-2a4c6e8f0b",
  searchKeyIdEnv: "AKID-env-1f3e5d7c9b",
  searchSecretEnv: "search-secret-env-6a5b4c3d2e1f",
  envVarEnv: "build-secret-env-0c2e4a6b8d",
  failing: "meet-secret-of-the-failed-create-77aa",
};

/** Every file below `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Where each needle appears in each haystack, in plaintext or in base64. */
function leaks(needles: Record<string, string>, haystacks: { where: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(needles))
    for (const forms of [value, Buffer.from(value).toString("base64")])
      for (const h of haystacks) if (h.text.includes(forms)) found.push(`${name} in ${h.where}`);
  return found;
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

describe("secrets end to end: nothing in plaintext (real engine)", function () {
  this.timeout(300_000);
  const e2e = useE2E("secrets");
  /** Everything the engine, the drift command and the failures printed, for the final scan. */
  const captured: { where: string; text: string }[] = [];
  const keep = (where: string, r: { stdout: string; stderr: string }): void => {
    captured.push({ where: `${where} stdout`, text: r.stdout }, { where: `${where} stderr`, text: r.stderr });
  };

  async function buildSetup(script: string): Promise<{ tokenUuid: string }> {
    await e2e.api.builds.scripts.upload({ scriptName: script });
    const [token] = await e2e.api.builds.tokens.list();
    if (!token) throw new Error("the emulator has no build token");
    return { tokenUuid: token.build_token_uuid };
  }

  const searchWithCredentials = (instanceId: string, accessKeyId: string, secretAccessKey: string) =>
    new SearchInstance("kb", {
      instanceId,
      type: "r2",
      source: "kb-bucket",
      storageCredentials: { accessKeyId, secretAccessKey },
    });

  /** A trigger and its variables: one plain, one secret. */
  function triggerWithSecret(
    prefix: string,
    script: string,
    tokenUuid: string,
    secret: string,
  ): TriggerEnvVars {
    const repo = new RepoConnection(`${prefix}-repo`, {
      providerType: "github",
      providerAccountId: "acme",
      providerAccountName: "Acme",
      repoId: script,
      repoName: script,
    });
    const trigger = new BuildTrigger(`${prefix}-trigger`, {
      scriptName: script,
      repoConnectionUuid: repo.repoConnectionUuid,
      buildTokenUuid: tokenUuid,
      kind: "production",
    });
    return new TriggerEnvVars(`${prefix}-vars`, {
      triggerUuid: trigger.triggerUuid,
      variables: { MODE: { value: "fast" }, API_KEY: { value: secret, isSecret: true } },
    });
  }

  /** The drift command (the built CLI) on one stack, or the engine's refresh preview if it is unusable. */
  async function drift(stack: E2EStack): Promise<string> {
    const cli = join(REPO_ROOT, "dist", "cli", "main.js");
    const args = [cli, "drift", "--stack", stack.name, "--cwd", stack.stack.workspace.workDir, "--json"];
    const env = { ...process.env, ...stack.stack.workspace.envVars };
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, args, { env, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
        const code = err && typeof err.code === "number" ? err.code : err ? 1 : 0;
        resolve({ code, stdout, stderr });
      });
    });
    keep(`account-api drift ${stack.name}`, run);
    if (run.code === 0 || run.code === 2) return `account-api drift: exit ${run.code}`;
    // The verb is being reworked: the engine's refresh preview is the same read path.
    const preview = await stack.preview({ refresh: true });
    keep(`refresh preview ${stack.name}`, preview);
    return `account-api drift unusable (exit ${run.code}: ${run.stderr.split("\n")[0] ?? ""}); refresh preview instead`;
  }

  it("keeps the tokens and every secret value out of state, history, output and errors", async () => {
    const [cfgBuild, envBuild] = [await buildSetup("secrets-cfg"), await buildSetup("secrets-env")];
    const phase = { failing: false };

    const cfg = await e2e.stack(async () => {
      const kb = searchWithCredentials("kb-cfg", SECRETS.searchKeyIdCfg, SECRETS.searchSecretCfg);
      const aws = new MeetingTemplate("aws", {
        appId: "app-secrets",
        title: "Recorded to S3",
        recordingConfig: {
          storageConfig: {
            type: "aws",
            accessKey: SECRETS.meetAccessKey,
            secret: SECRETS.meetSecret,
            bucket: "rec",
          },
        },
      });
      const sftp = new MeetingTemplate("sftp", {
        appId: "app-secrets",
        title: "Recorded to SFTP",
        recordingConfig: {
          storageConfig: {
            type: "sftp",
            host: "sftp.example.com",
            username: "rec",
            authMethod: "PASSWORD",
            password: SECRETS.meetPassword,
            privateKey: SECRETS.meetPrivateKey,
          },
        },
      });
      const vars = triggerWithSecret("cfg", "secrets-cfg", cfgBuild.tokenUuid, SECRETS.envVarCfg);
      if (phase.failing)
        new MeetingTemplate("doomed", {
          appId: "app-secrets",
          title: "Never made",
          recordingConfig: {
            storageConfig: { type: "aws", accessKey: "AK-doomed", secret: SECRETS.failing },
          },
        });
      return {
        kb: kb.id,
        awsCredentials: aws.storageCredentials,
        sftpCredentials: sftp.storageCredentials,
        keys: vars.keys,
      };
    });

    // The token comes from the environment only: removed from config, set on the engine's environment.
    const env = await e2e.stack(async () => {
      const kb = searchWithCredentials("kb-env", SECRETS.searchKeyIdEnv, SECRETS.searchSecretEnv);
      triggerWithSecret("env", "secrets-env", envBuild.tokenUuid, SECRETS.envVarEnv);
      return { kb: kb.id };
    });
    e2e.emulator.auth.add({ scope: "user", permissions: ["*"], value: ENV_TOKEN, name: "from-env" });
    await env.stack.removeConfig("account-api:apiToken");
    env.stack.workspace.envVars.ACCOUNT_API_TOKEN = ENV_TOKEN;
    assert.equal((await env.stack.getAllConfig())["account-api:apiToken"], undefined);

    // up
    const [upCfg, upEnv] = await Promise.all([cfg.up(), env.up()]);
    keep("up cfg", upCfg);
    keep("up env", upEnv);
    assert.equal(upCfg.summary.result, "succeeded");
    assert.equal(upEnv.summary.result, "succeeded");
    const secretOutput = (outputs: OutputMap, key: string): boolean => outputs[key]?.secret === true;
    assert.ok(secretOutput(upCfg.outputs, "awsCredentials"), "storageCredentials is a secret output");
    assert.ok(secretOutput(upCfg.outputs, "sftpCredentials"), "storageCredentials is a secret output");
    const envUses = e2e.emulator.requestLog.length;
    assert.ok(envUses > 0);

    // refresh, with a change made outside so that the read path has something to report
    const [meeting] = (await e2e.api.meetings.meetings.listAll({ appId: "app-secrets" })).filter(
      (m) => m.title === "Recorded to S3",
    );
    assert.ok(meeting);
    const [refreshCfg, refreshEnv] = await Promise.all([cfg.refresh(), env.refresh()]);
    keep("refresh cfg", refreshCfg);
    keep("refresh env", refreshEnv);
    await e2e.api.meetings.meetings.update(
      { appId: "app-secrets", meetingId: meeting.id },
      { title: "Renamed by hand" },
    );

    // drift
    const driftNotes = [await drift(cfg), await drift(env)];
    for (const note of driftNotes) console.log(`      [figure] ${note}`);

    // A create that fails: its message must not carry the token or the failing resource's secret.
    const fault = e2e.emulator.faults.add({ method: "POST", path: "/meetings$", status: 500 });
    phase.failing = true;
    const failure = await cfg.up().then(
      () => undefined,
      (err: unknown) => messageOf(err),
    );
    phase.failing = false;
    e2e.emulator.faults.remove(fault.id);
    assert.ok(failure !== undefined, "the create under a 500 fails the up");
    assert.match(failure, /MeetingTemplate create/);
    captured.push({ where: "failed create's error message", text: failure });

    // An API error with the environment's token: a token the API does not know.
    env.stack.workspace.envVars.ACCOUNT_API_TOKEN = `${ENV_TOKEN}-revoked`;
    const refused = await env.refresh().then(
      () => undefined,
      (err: unknown) => messageOf(err),
    );
    env.stack.workspace.envVars.ACCOUNT_API_TOKEN = ENV_TOKEN;
    assert.ok(refused !== undefined, "a refresh with an unknown token fails");
    captured.push({ where: "unknown token's error message", text: refused });

    // destroy
    const [downCfg, downEnv] = await Promise.all([cfg.destroy(), env.destroy()]);
    keep("destroy cfg", downCfg);
    keep("destroy env", downEnv);
    assert.equal(downCfg.summary.result, "succeeded");
    assert.equal(downEnv.summary.result, "succeeded");
    captured.push({ where: "engine output (cfg)", text: cfg.output.join("") });
    captured.push({ where: "engine output (env)", text: env.output.join("") });

    // The scan: the backend (stacks, backups, history, locks), both work dirs and the engine's home.
    const backendUrl = cfg.stack.workspace.envVars.PULUMI_BACKEND_URL ?? "";
    const backend = fileURLToPath(backendUrl);
    const roots = [backend, cfg.stack.workspace.workDir, env.stack.workspace.workDir];
    const files = roots.flatMap(filesUnder);
    const onDisk = files.map((f) => ({ where: f.replace(REPO_ROOT, "."), text: readFileSync(f, "latin1") }));
    const dirs = new Set(files.map((f) => f.replace(backend, "").split("/").slice(0, 3).join("/")));
    for (const needed of ["/.pulumi/backups", "/.pulumi/history", "/.pulumi/stacks"])
      assert.ok(dirs.has(needed), `the scan covers ${needed}: ${[...dirs].join(", ")}`);
    const needles = { ...SECRETS, configToken: e2e.emulator.token, envToken: ENV_TOKEN };
    const found = leaks(needles, [...onDisk, ...captured]);
    const bytes = onDisk.reduce((n, f) => n + f.text.length, 0);
    const outputBytes = captured.reduce((n, c) => n + c.text.length, 0);
    console.log(
      `      [figure] secrets: ${Object.keys(needles).length} values watched; ${files.length} files (${bytes} bytes) ` +
        `and ${captured.length} captured outputs (${outputBytes} bytes) scanned; leaks: ${found.length}`,
    );
    assert.deepEqual(found, [], `plaintext secrets found:\n${found.join("\n")}`);

    // The token from config is kept encrypted in the stack's config; the environment's nowhere.
    const cfgFile = readFileSync(join(cfg.stack.workspace.workDir, `Pulumi.${cfg.name}.yaml`), "utf8");
    assert.match(cfgFile, /account-api:apiToken:\s*\n\s*secure: /);
    const envFile = readFileSync(join(env.stack.workspace.workDir, `Pulumi.${env.name}.yaml`), "utf8");
    assert.doesNotMatch(envFile, /apiToken/);
    // The environment's token was the one the env stack used.
    assert.ok(e2e.emulator.requestLog.length > envUses);
  });
});
