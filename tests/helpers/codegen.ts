/**
 * Helpers of the SDK generator's tests (codegen.test.ts, sdk-gen-fresh.test.ts): running a command,
 * reading a generated tree, a Python with pulumi installed once per user, and building a generated
 * Go SDK in a module of its own.
 */
import { strict as assert } from "node:assert";
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join, relative } from "node:path";

export const PULUMI_VERSION = "3.259.0";
export const GO_MODULE = "github.com/example/pulumi-account-api/sdk-gen/go";
const CACHE = join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-account-api");

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function run(cmd: string, args: string[], options: SpawnSyncOptions = {}): Ran {
  const res = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...options });
  return { status: res.status, stdout: String(res.stdout), stderr: String(res.stderr) };
}

export function ok(res: Ran, what: string): Ran {
  assert.equal(res.status, 0, `${what} failed (exit ${res.status}):\n${res.stdout}\n${res.stderr}`);
  return res;
}

/** Every file under dir, by path relative to it. */
export function tree(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else files.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return files;
}

export function text(dir: string, path: string): string {
  return readFileSync(join(dir, path), "utf8");
}

/**
 * A venv with pulumi of the pinned version, the other packages the generated pyproject.toml
 * requires and what building it takes, made once per user (temp, then rename).
 */
export function pythonWithPulumi(): string {
  const venv = join(CACHE, "python", `pulumi-${PULUMI_VERSION}-parver-semver-wheel`);
  const python = join(venv, "bin", "python");
  if (existsSync(python)) return python;
  mkdirSync(join(CACHE, "python"), { recursive: true });
  const tmp = mkdtempSync(`${venv}.tmp-`);
  try {
    ok(run("python3", ["-m", "venv", tmp]), "python3 -m venv");
    ok(
      run(
        join(tmp, "bin", "pip"),
        [
          "install",
          "--quiet",
          "--disable-pip-version-check",
          `pulumi==${PULUMI_VERSION}`,
          "parver>=0.2.1",
          "semver>=2.8.1",
          // To build the generated package without build isolation (setuptools < 70.1 needs it).
          "wheel",
        ],
        {
          timeout: 10 * 60_000,
        },
      ),
      `pip install pulumi==${PULUMI_VERSION} (is PyPI reachable?)`,
    );
    // Only bin/python is used, and it finds its site-packages beside it wherever the folder is moved.
    try {
      renameSync(tmp, venv);
    } catch (error) {
      // Another run finished the same venv first: use that one.
      if (!existsSync(python)) throw error;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return python;
}

/**
 * Builds and vets a generated Go SDK (`sdkDir`, the folder with its go.mod) and a program `main.go`
 * that uses it, in a temporary module under `work` that requires sdk/v3 of the pinned version.
 */
export function goBuild(work: string, sdkDir: string, mainGo: string): void {
  const mod = mkdtempSync(join(work, "go-consumer-"));
  writeFileSync(
    join(mod, "go.mod"),
    [
      "module example.com/consumer",
      "",
      "go 1.25",
      "",
      `require github.com/pulumi/pulumi/sdk/v3 v${PULUMI_VERSION}`,
      `require ${GO_MODULE} v0.0.0`,
      "",
      `replace ${GO_MODULE} => ${sdkDir}`,
      "",
    ].join("\n"),
  );
  writeFileSync(join(mod, "main.go"), mainGo);
  const env = { ...process.env, GOFLAGS: "-mod=mod", CGO_ENABLED: "0" };
  ok(
    run("go", ["build", "-trimpath", "./...", `${GO_MODULE}/...`], { cwd: mod, env, timeout: 20 * 60_000 }),
    "go build",
  );
  ok(run("go", ["vet", `${GO_MODULE}/...`], { cwd: mod, env, timeout: 10 * 60_000 }), "go vet");
}

/**
 * Compiles every .py file of a generated Python SDK, installs it (not just puts it on the path: the
 * package reads its own version from its metadata) into `work`, and runs `probe` with it importable.
 */
export function pythonProbe(work: string, sdkDir: string, probe: string): string {
  const files = [...tree(sdkDir).keys()].filter((p) => p.endsWith(".py"));
  assert.ok(files.length >= 8, `only ${files.length} .py files`);
  // Bytecode goes to a folder of its own, so the generated tree stays as generated.
  const env = { ...process.env, PYTHONPYCACHEPREFIX: join(work, "pycache") };
  ok(run("python3", ["-m", "py_compile", ...files], { cwd: sdkDir, env }), "py_compile");
  const python = pythonWithPulumi();
  // pip builds in the folder it installs from (build/, *.egg-info): a copy keeps the SDK as generated.
  const copy = mkdtempSync(join(work, "python-sdk-"));
  cpSync(sdkDir, copy, { recursive: true });
  const site = mkdtempSync(join(work, "site-packages-"));
  ok(
    run(
      python,
      ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--no-index"].concat([
        "--no-build-isolation",
        "--target",
        site,
        copy,
      ]),
      { env, timeout: 5 * 60_000 },
    ),
    "pip install of the generated SDK",
  );
  return ok(run(python, ["-c", probe], { cwd: work, env: { ...env, PYTHONPATH: site } }), "the Python probe")
    .stdout;
}
