/**
 * The Python and Go toolchains the tests of the generated SDKs need, made once per user and reused:
 * a venv with pulumi of the pinned version from PyPI (under ~/.cache/pulumi-account-api/python/), and
 * Go's own build cache. A missing python3 or go fails the test with the reason, never skips it.
 */
import { strict as assert } from "node:assert";
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const PULUMI_VERSION = "3.259.0";
export const CACHE = join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-account-api");

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

/** Fails (never skips) when a toolchain the test needs is not on PATH, naming what to install. */
export function requireCommand(cmd: "python3" | "go", hint: string): void {
  const found = run("bash", ["-c", `command -v ${cmd}`]);
  assert.equal(found.status, 0, `${cmd} is not on PATH: ${hint}`);
}

/**
 * A venv with pulumi of the pinned version, the other packages the generated pyproject.toml
 * requires and what building it takes, made once per user (temp, then rename).
 */
export function pythonWithPulumi(): string {
  requireCommand("python3", "the Python SDK's tests need Python 3 (3.9 or later) with venv and pip");
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
 * Installs a generated Python SDK folder into `site` (a --target folder, put on PYTHONPATH): installed,
 * not just put on the path, because the package reads its own version from its metadata.
 */
export function installPythonSdk(python: string, sdkDir: string, site: string, env: NodeJS.ProcessEnv): void {
  ok(
    run(
      python,
      ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--no-index"].concat([
        "--no-build-isolation",
        "--target",
        site,
        sdkDir,
      ]),
      { env, timeout: 5 * 60_000 },
    ),
    `pip install of ${sdkDir}`,
  );
}

/** The environment of a Go build here: no cgo (nothing to link), the user's module and build caches. */
export function goEnv(): NodeJS.ProcessEnv {
  requireCommand("go", "the Go SDK's tests need Go 1.25 or later and the Go module proxy");
  return { ...process.env, CGO_ENABLED: "0" };
}
