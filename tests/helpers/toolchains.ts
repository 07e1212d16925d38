/**
 * The toolchains the end-to-end tests of the other languages need, failing (never skipping) with
 * the reason when one is missing: Python 3 with a venv holding pulumi from PyPI (made once per user,
 * tests/helpers/codegen.ts), and Go with the user's module and build caches.
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { pythonWithPulumi } from "./codegen";

function requireCommand(cmd: "python3" | "go", hint: string): void {
  const found = spawnSync("bash", ["-c", `command -v ${cmd}`], { encoding: "utf8" });
  assert.equal(found.status, 0, `${cmd} is not on PATH: ${hint}`);
}

/** The venv's python, after checking that python3 is there to make it. */
export function requirePython(): string {
  requireCommand("python3", "the Python SDK's tests need Python 3 (3.9 or later) with venv and pip");
  return pythonWithPulumi();
}

/** The environment of a Go build here: no cgo (nothing to link), the user's module and build caches. */
export function requireGo(): NodeJS.ProcessEnv {
  requireCommand("go", "the Go SDK's tests need Go 1.25 or later and the Go module proxy");
  return { ...process.env, CGO_ENABLED: "0" };
}
