/**
 * The full sequence of issue 19 for an example program in another language (examples/yaml,
 * examples/python, examples/go), on the real engine and the native provider, against the emulator:
 * up; preview --refresh --expect-no-changes; an out-of-band change made here with the sdk, which a
 * refreshing preview shows; up --refresh restoring it; an edit; destroy leaving nothing in the
 * emulator. The assertions read the engine's change counts and the emulator's objects, not the
 * engine's text.
 *
 * The Python and Go examples are Automation API programs whose command line takes one operation per
 * run (`up|preview|refresh|destroy [--refresh] [--expect-no-changes] [--config K=V] [--secret K=V]`)
 * and prints its outcome as JSON on the last line of stdout (`commandRunner`); the YAML one is a
 * project folder that the real CLI runs. The plugin `pulumi-resource-account-api` is found on PATH
 * (the engine's ambient plugins), as an npm install would put it there; nothing is downloaded.
 */
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { seedDemo } from "../../emulator/seed";
import { variablesOf } from "../helpers/builds";
import { ENGINE_BIN, REPO_ROOT, engineEnv, useE2E, type E2EFixture } from "./harness";

const Outcome = z.object({
  operation: z.enum(["up", "preview", "refresh", "destroy"]),
  changes: z.record(z.string(), z.number()),
  outputs: z.record(z.string(), z.unknown()),
});
/** What one operation did: the engine's change counts and the stack's outputs (secrets masked). */
export type Outcome = z.infer<typeof Outcome>;

/** One operation on the example's stack, with the stack config to set before it. */
export interface Step {
  operation: Outcome["operation"];
  refresh?: boolean;
  expectNoChanges?: boolean;
  config?: Record<string, string>;
  secrets?: Record<string, string>;
}

/** Runs one step; rejects (with the engine's output) when the operation fails. */
export type Runner = (step: Step) => Promise<Outcome>;

/** Where and with what a runner works: a fresh folder for the stack's files, the engine's variables. */
export interface SequenceContext {
  language: string;
  scratch: string;
  /** The stack's working folder (its Pulumi.yaml and Pulumi.<stack>.yaml). */
  work: string;
  /** Backend, passphrase, no network, the plugin and the engine first on PATH, the provider's settings. */
  env: Record<string, string>;
}

/** An example's command line: the command and the arguments before the operation's. */
export interface ExampleCommand {
  command: string;
  args: readonly string[];
  /** Variables the language needs (PYTHONPATH to the installed SDK, say). */
  env?: Record<string, string>;
}

const SECRET = "api-key-that-must-stay-secret-6d1f";
const SCRIPT = "shop";
const INSTANCE = "shop-docs";
const REPO_ID = "4242";

/** A folder holding `pulumi-resource-account-api`: the built plugin, run by this Node (22 or later). */
function pluginBin(dir: string): string {
  const bin = join(dir, "plugin-bin");
  mkdirSync(bin, { recursive: true });
  const plugin = join(bin, "pulumi-resource-account-api");
  const entry = join(REPO_ROOT, "dist", "provider", "native", "plugin.js");
  writeFileSync(plugin, `#!/bin/sh\nexec "${process.execPath}" "${entry}" "$@"\n`);
  chmodSync(plugin, 0o755);
  return bin;
}

/** Every file of the backend, as one string: what a user would find on disk. */
function backendText(dir: string): string {
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(d, e.name)) : [readFileSync(join(d, e.name), "utf8")],
    );
  return walk(dir).join("\n");
}

/** The example's command line for a step (`up --refresh --config K=V --secret K=V`). */
function argv(step: Step): string[] {
  return [
    step.operation,
    ...(step.refresh ? ["--refresh"] : []),
    ...(step.expectNoChanges ? ["--expect-no-changes"] : []),
    ...Object.entries(step.config ?? {}).flatMap(([k, v]) => ["--config", `${k}=${v}`]),
    ...Object.entries(step.secrets ?? {}).flatMap(([k, v]) => ["--secret", `${k}=${v}`]),
  ];
}

/**
 * A runner for an example program with the command line of examples/python and examples/go: one
 * process per step, whose last stdout line is the outcome as JSON; the engine's output is logged.
 */
export function commandRunner(example: ExampleCommand, ctx: SequenceContext): Runner {
  const env = { ...ctx.env, ...example.env };
  return (step) =>
    new Promise((resolve, reject) => {
      const args = argv(step);
      const child = spawn(example.command, [...example.args, ...args], { cwd: ctx.work, env });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
      child.stderr.on("data", (b: Buffer) => {
        stderr += b.toString();
        process.stdout.write(b.toString().replace(/^(?=.)/gm, "      | "));
      });
      child.on("error", reject);
      child.on("close", (code) => {
        if (code !== 0) {
          reject(new Error(`${ctx.language} ${step.operation} exited ${code}:\n${stdout}\n${stderr}`));
          return;
        }
        const last = stdout.trim().split("\n").pop() ?? "";
        resolve(Outcome.parse(JSON.parse(last)));
      });
    });
}

/**
 * Registers, inside a mocha `describe`, the sequence's tests for one language. `prepare` runs in the
 * suite's `before` (install the SDK, build the program) and returns how a step runs.
 */
export function nativeSequence(
  language: string,
  prepare: (ctx: SequenceContext) => Runner | Promise<Runner>,
): void {
  const e2e: E2EFixture = useE2E(`native-${language}`);
  let scratch = "";
  let runner: Runner;
  const took: string[] = [];

  before(async function () {
    this.timeout(30 * 60_000);
    scratch = mkdtempSync(join(REPO_ROOT, ".pulumi-test", `native-${language}-`));
    const work = join(scratch, "work");
    mkdirSync(work);
    mkdirSync(join(scratch, "backend"));
    await seedDemo(e2e.emulator);
    const base = engineEnv(join(scratch, "backend"), join(scratch, "home"));
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(
        (e): e is [string, string] => e[1] !== undefined && !e[0].startsWith("PULUMI_"),
      ),
    );
    const env = {
      ...inherited,
      ...base,
      PATH: [pluginBin(scratch), ENGINE_BIN, base.PATH].join(":"),
      ACCOUNT_API_BASE_URL: e2e.emulator.url,
      ACCOUNT_API_ACCOUNT_ID: e2e.emulator.accountId,
      ACCOUNT_API_TOKEN: e2e.emulator.token,
    };
    const started = Date.now();
    runner = await prepare({ language, scratch, work, env });
    took.push(`prepare ${Date.now() - started} ms`);
  });
  after(() => {
    console.log(`      ${language}: ${took.join(", ")}`);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  async function step(s: Step): Promise<Outcome> {
    const started = Date.now();
    const outcome = await runner(s);
    const what = [s.operation, s.refresh ? "--refresh" : "", s.expectNoChanges ? "--expect-no-changes" : ""];
    took.push(`${what.filter(Boolean).join(" ")} ${Date.now() - started} ms`);
    return outcome;
  }

  const api = () => e2e.api;
  async function trigger() {
    const tag = await api().builds.resolveScriptTag(SCRIPT);
    const triggers = await api().builds.listTriggers(tag);
    assert.ok(triggers.length <= 1, `one trigger for ${SCRIPT}, found ${triggers.length}`);
    return triggers[0];
  }
  const instance = () => api().search.instances.get({ id: INSTANCE });
  const repos = async () => (await api().builds.listRepoConnections()).filter((r) => r.repo_id === REPO_ID);

  it("up creates the connection, the trigger, its variables (one secret) and the search instance, and calls the functions", async function () {
    this.timeout(10 * 60_000);
    const up = await step({ operation: "up", secrets: { apiKey: SECRET } });
    assert.deepEqual(up.changes, { create: 5 }, "the stack and four resources");
    const t = await trigger();
    assert.ok(t, "the trigger exists");
    assert.equal(t.build_command, "npm run build");
    assert.equal(up.outputs.triggerUuid, t.trigger_uuid);
    const { domains } = await api().registrar.discovery.check({}, { domains: ["acme-shop.com"] });
    assert.equal(up.outputs.domainRegistrable, domains[0]?.registrable, "checkDomain answered as the API");
    const vars = await variablesOf(api(), t.trigger_uuid);
    assert.deepEqual(vars.API_KEY, { value: null, is_secret: true });
    assert.deepEqual(vars.NODE_ENV, { value: "production", is_secret: false });
    assert.equal((await instance()).max_num_results, 10);
    assert.equal((await repos()).length, 1);
    const state = backendText(join(scratch, "backend"));
    assert.ok(!state.includes(SECRET), "the secret is not in the state in clear");
    assert.ok(!state.includes(e2e.emulator.token), "the API token is not in the state");
  });

  it("a refreshing preview expects no changes", async function () {
    this.timeout(5 * 60_000);
    const preview = await step({ operation: "preview", refresh: true, expectNoChanges: true });
    assert.deepEqual(preview.changes, { same: 5 });
  });

  it("a change made outside the program shows in a refreshing preview, and up --refresh puts it back", async function () {
    this.timeout(10 * 60_000);
    const t = await trigger();
    assert.ok(t);
    await api().builds.updateTrigger(t.trigger_uuid, { build_command: "make out-of-band" });
    const preview = await step({ operation: "preview", refresh: true });
    assert.equal(preview.changes.update, 1, JSON.stringify(preview.changes));
    assert.equal((await trigger())?.build_command, "make out-of-band", "a preview changes nothing");
    const up = await step({ operation: "up", refresh: true });
    assert.equal(up.changes.update, 1, JSON.stringify(up.changes));
    assert.equal((await trigger())?.build_command, "npm run build");
  });

  it("an edit of the program's config updates the trigger and the instance in place", async function () {
    this.timeout(10 * 60_000);
    const before = await trigger();
    const up = await step({
      operation: "up",
      config: { buildCommand: "npm run build:ci", maxNumResults: "20" },
    });
    assert.deepEqual(up.changes, { same: 3, update: 2 });
    const after = await trigger();
    assert.equal(after?.trigger_uuid, before?.trigger_uuid, "updated, not replaced");
    assert.equal(after?.build_command, "npm run build:ci");
    assert.equal((await instance()).max_num_results, 20);
    assert.equal(up.outputs.buildCommand, "npm run build:ci");
  });

  it("destroy deletes everything it made from the emulator", async function () {
    this.timeout(10 * 60_000);
    const destroy = await step({ operation: "destroy" });
    assert.deepEqual(destroy.changes, { delete: 5 });
    assert.equal(await trigger(), undefined);
    await assert.rejects(instance(), /not found|10\d{3}|404/i);
    assert.deepEqual(await repos(), []);
  });
}
