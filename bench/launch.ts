/** Starts one engine run in a child process (bench/child.ts) and waits for its answer. */
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CACHE_DIR } from "./paths";
import type { ChildMessage, RunResult, RunSpec } from "./protocol";

export async function runEngine(spec: Omit<RunSpec, "scratch">): Promise<RunResult> {
  const scratch = mkdtempSync(join(CACHE_DIR, "run-"));
  const child = fork(join(__dirname, "child.ts"), [], {
    execArgv: ["--require", "ts-node/register/transpile-only"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  try {
    return await new Promise<RunResult>((resolve, reject) => {
      child.once("message", (m: ChildMessage) => (m.ok ? resolve(m.result) : reject(new Error(m.error))));
      child.once("exit", (code) => reject(new Error(`bench child exited with ${code} before answering`)));
      child.send({ ...spec, scratch } satisfies RunSpec);
    });
  } finally {
    if (child.exitCode === null) child.kill();
    rmSync(scratch, { recursive: true, force: true });
  }
}
