/**
 * End-to-end harness on the real engine through the Automation API: a temporary `file://` backend
 * and passphrase, a stack for an inline program, the provider configured against a live emulator, and
 * an environment that keeps the CLI off the network (no update check, no plugin download).
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  LocalWorkspace,
  PulumiCommand,
  type DestroyResult,
  type PreviewResult,
  type PulumiFn,
  type RefreshResult,
  type Stack,
  type UpResult,
} from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { AccountApi } from "../../sdk";
import { runIsolated, type ProgramRef } from "./isolated";

export const REPO_ROOT = resolve(__dirname, "..", "..");
export const ENGINE_BIN = join(REPO_ROOT, ".engine", "bin");

/** The environment every engine run gets: local backend, no network, our engine first on PATH. */
export function engineEnv(backendDir: string, home: string): Record<string, string> {
  return {
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    PULUMI_HOME: home,
    PATH: [ENGINE_BIN, join(REPO_ROOT, "node_modules", ".bin"), process.env.PATH ?? ""].join(":"),
  };
}

export interface E2EStack {
  stack: Stack;
  name: string;
  /** `parallel`: the engine's parallelism (its default is 4 × CPUs). */
  up(opts?: { parallel?: number }): Promise<UpResult>;
  preview(opts?: { expectNoChanges?: boolean; refresh?: boolean }): Promise<PreviewResult>;
  refresh(opts?: { expectNoChanges?: boolean }): Promise<RefreshResult>;
  destroy(opts?: { parallel?: number }): Promise<DestroyResult>;
  /** The raw state file of this stack as the backend stores it (what a user would find on disk). */
  rawState(): string;
  /** Everything engine output so far (the same lines go to the test log). */
  output: string[];
}

export interface E2EFixture {
  emulator: RunningEmulator;
  /** An sdk client for the emulator, for set-up and out-of-band changes (closed after the suite). */
  api: AccountApi;
  /** Stops the emulator and starts it again on the same port from its state file (persistence). */
  restartEmulator(): Promise<RunningEmulator>;
  /**
   * A stack of an inline program run in this process. Operations of such stacks take turns: two
   * inline programs at once in one process share the SDK's runtime state (tests/e2e/isolated.ts).
   */
  stack(program: PulumiFn, opts?: StackOptions): Promise<E2EStack>;
  /** A stack whose every operation runs in a process of its own: for stacks run at the same time. */
  isolatedStack(program: ProgramRef, opts?: StackOptions): Promise<E2EStack>;
}

export interface StackOptions {
  config?: Record<string, { value: string; secret?: boolean }>;
}

/** Call inside a mocha `describe`: one emulator and one backend for the suite. */
export function useE2E(suiteName = "e2e"): E2EFixture {
  const fx = {} as E2EFixture;
  let scratch = "";
  let counter = 0;
  let command: PulumiCommand;
  before(async function () {
    this.timeout(60_000);
    mkdirSync(join(REPO_ROOT, ".pulumi-test"), { recursive: true });
    // The work dir sits inside the repository so the dynamic-provider plugin, which runs there,
    // resolves @pulumi/pulumi and this package from the repository's node_modules.
    scratch = mkdtempSync(join(REPO_ROOT, ".pulumi-test", `${suiteName}-`));
    command = await PulumiCommand.get({ root: join(REPO_ROOT, ".engine"), skipVersionCheck: true });
    fx.emulator = await startEmulator({ env: {}, stateFile: join(scratch, "emulator-state.json") });
    fx.api = new AccountApi({
      baseUrl: fx.emulator.url,
      token: fx.emulator.token,
      accountId: fx.emulator.accountId,
      env: {},
    });
  });
  fx.restartEmulator = async () => {
    const old = fx.emulator;
    await old.stop();
    fx.emulator = await startEmulator({
      env: {},
      stateFile: join(scratch, "emulator-state.json"),
      port: Number(new URL(old.origin).port),
      accountId: old.accountId,
      token: old.token,
    });
    return fx.emulator;
  };
  after(async () => {
    await fx.api?.close();
    await fx.emulator?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });
  // One in-process engine operation at a time (see `stack`); isolated stacks do not queue here.
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(op: () => Promise<T>): Promise<T> => {
    const mine = turn.then(op, op);
    turn = mine.catch(() => undefined);
    return mine;
  };

  async function makeStack(program: PulumiFn, opts: StackOptions, isolated?: ProgramRef): Promise<E2EStack> {
    const name = `s${++counter}`;
    const backend = join(scratch, "backend");
    const home = join(scratch, "home");
    const workDir = join(scratch, `work-${name}`);
    mkdirSync(backend, { recursive: true });
    mkdirSync(workDir, { recursive: true });
    const projectName = `account-api-${suiteName}`;
    const envVars = engineEnv(backend, home);
    const stack = await LocalWorkspace.createStack(
      { stackName: name, projectName, program },
      {
        workDir,
        pulumiCommand: command,
        envVars,
        projectSettings: { name: projectName, runtime: "nodejs", backend: { url: `file://${backend}` } },
      },
    );
    await stack.setAllConfig({
      "account-api:baseUrl": { value: fx.emulator.url },
      "account-api:accountId": { value: fx.emulator.accountId },
      "account-api:apiToken": { value: fx.emulator.token, secret: true },
      ...opts.config,
    });
    const output: string[] = [];
    const onOutput = (line: string): void => {
      output.push(line);
      process.stdout.write(line);
    };
    const base = { stackName: name, projectName, workDir, engineRoot: join(REPO_ROOT, ".engine") };
    // The workspace's variables as they are when the operation starts (a test may change them).
    const inChild = (program: ProgramRef) => ({ ...base, program, envVars: { ...stack.workspace.envVars } });
    return {
      stack,
      name,
      output,
      up: (o = {}) =>
        isolated
          ? runIsolated({ ...inChild(isolated), op: "up", opts: o }, onOutput)
          : inTurn(() => stack.up({ onOutput, ...o })),
      preview: (o = {}) =>
        isolated
          ? runIsolated({ ...inChild(isolated), op: "preview", opts: o }, onOutput)
          : inTurn(() => stack.preview({ onOutput, ...o })),
      refresh: (o = {}) =>
        isolated
          ? runIsolated({ ...inChild(isolated), op: "refresh", opts: o }, onOutput)
          : inTurn(() => stack.refresh({ onOutput, ...o })),
      destroy: (o = {}) =>
        isolated
          ? runIsolated({ ...inChild(isolated), op: "destroy", opts: o }, onOutput)
          : inTurn(() => stack.destroy({ onOutput, ...o })),
      rawState: () => {
        const dir = join(backend, ".pulumi", "stacks", projectName);
        const file = readdirSync(dir).find((f) => f === `${name}.json`);
        if (!file) throw new Error(`no state file for stack ${name} in ${dir}`);
        return readFileSync(join(dir, file), "utf8");
      },
    };
  }
  fx.stack = (program, opts = {}) => makeStack(program, opts);
  // The parent's stack object never runs the program: it only creates and configures the stack.
  fx.isolatedStack = (ref, opts = {}) => makeStack(async () => undefined, opts, ref);
  return fx;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
