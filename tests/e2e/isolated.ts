/**
 * Engine runs in a process of their own. Two inline programs running at once in one Node process
 * share the Pulumi SDK's process-wide runtime state (its settings, its monitor connection), and one
 * run can then lose its connection to the engine (`14 UNAVAILABLE: No connection established`). A
 * user's program always has a process to itself; tests that run stacks at once do the same: the
 * stack is made (and configured) here, and each operation runs in a child (engine-child.ts) that
 * builds the program from a ProgramRef and answers over IPC.
 */
import { fork } from "node:child_process";
import { join } from "node:path";
import type { DestroyResult, PreviewResult, RefreshResult, UpResult } from "@pulumi/pulumi/automation";
import type { ProgramRef } from "./programs";

export type { ProgramRef } from "./programs";

export type Operation = "up" | "preview" | "refresh" | "destroy";
export interface OperationOptions {
  parallel?: number;
  expectNoChanges?: boolean;
  refresh?: boolean;
}

export interface ChildSpec {
  op: Operation;
  opts: OperationOptions;
  stackName: string;
  projectName: string;
  workDir: string;
  envVars: Record<string, string>;
  engineRoot: string;
  program: ProgramRef;
}

export type ChildMessage =
  | { kind: "output"; line: string }
  | { kind: "done"; result: UpResult | PreviewResult | RefreshResult | DestroyResult }
  | { kind: "failed"; message: string };

interface ResultOf {
  up: UpResult;
  preview: PreviewResult;
  refresh: RefreshResult;
  destroy: DestroyResult;
}

/** Runs one operation of a stack in a child process; its output lines go to `onOutput` as they come. */
export function runIsolated<O extends Operation>(
  spec: ChildSpec & { op: O },
  onOutput: (line: string) => void,
): Promise<ResultOf[O]> {
  const child = fork(join(__dirname, "engine-child.ts"), [], {
    execArgv: ["--require", "ts-node/register/transpile-only"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise<ResultOf[O]>((resolve, reject) => {
    child.on("message", (m: ChildMessage) => {
      if (m.kind === "output") onOutput(m.line);
      // The child ran `op` on the Automation API, whose result for `op` is ResultOf[O].
      else if (m.kind === "done") resolve(m.result as ResultOf[O]);
      else reject(new Error(m.message));
    });
    child.once("exit", (code) =>
      reject(new Error(`engine child for ${spec.op} exited with ${code} before answering`)),
    );
    child.send(spec);
  }).finally(() => {
    if (child.exitCode === null) child.kill();
  });
}
