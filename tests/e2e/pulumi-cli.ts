/**
 * The real `pulumi` CLI run as a user runs it in a project folder (not through the Automation API):
 * the engine and the YAML host provisioned, an environment that keeps the CLI local, one command at
 * a time with its output in the test log. Used by the YAML host test and the native provider's tests.
 */
import { strict as assert } from "node:assert";
import { execFile, spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { ENGINE_BIN, REPO_ROOT, engineEnv } from "./harness";

export interface PulumiRun {
  ok: boolean;
  out: string;
  stdout: string;
}

export interface PulumiCli {
  /** One command; its output goes to the test log. */
  run(...args: string[]): Promise<PulumiRun>;
  /** The same, failing the test when the command fails; answers stdout. */
  ok(...args: string[]): Promise<string>;
  /** Each command's first two words and how long it took. */
  readonly took: string[];
}

/** Provisions the CLI and the YAML host (a cold machine builds them from Go sources; then a cache answers). */
export function provisionYamlHost(): void {
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
}

/**
 * The environment of a CLI run: the harness's (file backend, no network), `PATH` first when given,
 * and none of the parent run's Automation API variables.
 */
export function cliEnv(
  backendDir: string,
  home: string,
  path: readonly string[] = [],
): Record<string, string> {
  const base = engineEnv(backendDir, home);
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...base,
    PATH: [...path, base.PATH].join(":"),
  };
  for (const k of Object.keys(env)) if (k.startsWith("PULUMI_") && !(k in base)) delete env[k];
  return env;
}

export function pulumiCli(cwd: string, env: Record<string, string>): PulumiCli {
  const took: string[] = [];
  function run(...args: string[]): Promise<PulumiRun> {
    const started = Date.now();
    return new Promise((done) => {
      execFile(
        join(ENGINE_BIN, "pulumi"),
        [...args, "--non-interactive", "--color", "never"],
        { cwd, env, maxBuffer: 32 << 20 },
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
    const res = await run(...args);
    assert.ok(res.ok, `pulumi ${args.join(" ")} failed:\n${res.out}`);
    return res.stdout;
  }
  return { run, ok, took };
}
