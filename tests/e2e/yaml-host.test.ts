/**
 * The YAML language host on the real engine: `scripts/provision-yaml.sh` provides
 * pulumi-language-yaml (a cached build of github.com/pulumi/pulumi-yaml, built once per user), then the
 * real `pulumi` CLI runs `up` and `destroy` in a `runtime: yaml` project. The program uses no provider
 * plugin (config, variables, builtin functions, outputs), so it needs nothing but the engine and the
 * host; plugin acquisition is disabled, so a missing host fails instead of being downloaded.
 */
import { strict as assert } from "node:assert";
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ENGINE_BIN, REPO_ROOT, engineEnv } from "./harness";

const PROGRAM = `name: yaml-host-check
runtime: yaml
description: A resource-less YAML program (no provider plugin) for the YAML language host.
config:
  greeting:
    type: string
    default: hello
variables:
  joined:
    fn::join:
      - "-"
      - - \${greeting}
        - yaml
        - \${pulumi.stack}
outputs:
  joined: \${joined}
  parts:
    fn::split:
      - "-"
      - \${joined}
  encoded:
    fn::toBase64: \${joined}
`;

describe("the YAML language host (pulumi-language-yaml) with the real CLI", function () {
  let dir = "";
  let env: Record<string, string>;
  let project = "";
  const took: string[] = [];

  /** One `pulumi` command in the project; its output goes to the test log. */
  function pulumi(...args: string[]): Promise<{ ok: boolean; out: string; stdout: string }> {
    const started = Date.now();
    return new Promise((done) => {
      execFile(
        join(ENGINE_BIN, "pulumi"),
        [...args, "--non-interactive", "--color", "never"],
        { cwd: project, env, maxBuffer: 32 << 20 },
        (err, stdout, stderr) => {
          const out = `${stdout}${stderr}`;
          took.push(`${args.slice(0, 2).join(" ")} ${Date.now() - started} ms`);
          process.stdout.write(out.replace(/^(?=.)/gm, "      | "));
          done({ ok: !err, out, stdout });
        },
      );
    });
  }
  async function ok(...args: string[]): Promise<string> {
    const res = await pulumi(...args);
    assert.ok(res.ok, `pulumi ${args.join(" ")} failed:\n${res.out}`);
    return res.stdout;
  }

  before(function () {
    // A cold machine builds the host from Go sources (minutes on 2 cores); then the cache answers.
    this.timeout(20 * 60_000);
    const path = [dirname(process.execPath), join(REPO_ROOT, "node_modules", ".bin"), process.env.PATH].join(
      ":",
    );
    for (const script of ["provision-engine.sh", "provision-yaml.sh"]) {
      const res = spawnSync("bash", [join(REPO_ROOT, "scripts", script)], {
        cwd: REPO_ROOT,
        env: { ...process.env, PATH: path },
        encoding: "utf8",
      });
      process.stdout.write(res.stderr.replace(/^(?=.)/gm, "      | "));
      assert.equal(res.status, 0, `scripts/${script} failed:\n${res.stderr}`);
    }
    const hosts = [ENGINE_BIN, dirname(realpathSync(join(ENGINE_BIN, "pulumi")))].filter((d) =>
      existsSync(join(d, "pulumi-language-yaml")),
    );
    assert.ok(
      hosts.length > 0,
      "provision-yaml.sh linked pulumi-language-yaml beside the CLI or in .engine/bin",
    );

    dir = mkdtempSync(join(tmpdir(), "account-api-yaml-host-"));
    project = join(dir, "project");
    mkdirSync(project);
    mkdirSync(join(dir, "backend"));
    writeFileSync(join(project, "Pulumi.yaml"), PROGRAM);
    const base = engineEnv(join(dir, "backend"), join(dir, "home"));
    env = { ...process.env, ...base } as Record<string, string>;
    // Automation API variables of the parent run must not leak into a plain CLI run.
    for (const k of Object.keys(env)) if (k.startsWith("PULUMI_") && !(k in base)) delete env[k];
  });

  after(() => {
    console.log(`      pulumi commands: ${took.join(", ")}`);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("up sets the stack's outputs from config, variables and builtins; destroy removes them", async function () {
    this.timeout(120_000);
    await ok("stack", "init", "ci");
    await ok("config", "set", "greeting", "hi");
    const up = await ok("up", "--yes", "--skip-preview");
    assert.match(up, /1 created/, up);
    const outputs = JSON.parse(await ok("stack", "output", "--json")) as Record<string, unknown>;
    assert.deepEqual(outputs, {
      joined: "hi-yaml-ci",
      parts: ["hi", "yaml", "ci"],
      encoded: Buffer.from("hi-yaml-ci").toString("base64"),
    });

    await ok("destroy", "--yes", "--skip-preview");
    assert.deepEqual(JSON.parse(await ok("stack", "output", "--json")), {});
  });
});
