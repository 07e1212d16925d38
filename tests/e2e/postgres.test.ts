/**
 * Team-scale state on PostgreSQL (the pinned engine's DIY backend `postgres://…`, table
 * `pulumi_state`), on the real engine against the emulator, with a cluster of the test's own
 * (tests/helpers/postgres.ts):
 * - two stacks go up in parallel on the one database, and both are whole afterwards;
 * - two `up` runs of one stack at once, with self-managed state locking: one proceeds, the other fails
 *   saying the stack is locked, and nothing is lost (the state equals the remote truth, and the
 *   refused run goes through once the lock is gone).
 *
 * Figures printed: cluster start time, each run's duration, rows in pulumi_state, the lock message.
 */
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { AccountApi } from "../../sdk";
import { findPostgresBin, startPostgres, type PostgresCluster } from "../helpers/postgres";
import { REPO_ROOT, engineEnv } from "./harness";
import { runIsolated, type Operation, type OperationOptions, type ProgramRef } from "./isolated";
import { programOf } from "./programs";

const PROJECT = "account-api-pg";

/** A program of `count` repository connections, their repository ids prefixed to keep stacks apart. */
const connections = (prefix: string, count: number): ProgramRef => ({
  name: "repoConnections",
  args: [prefix, count],
});

/** The resources of an exported deployment, as far as this test reads them. */
function resourcesOf(deployment: unknown): { type: string; id: string }[] {
  const resources: unknown =
    typeof deployment === "object" && deployment !== null ? Reflect.get(deployment, "resources") : undefined;
  if (!Array.isArray(resources)) return [];
  return resources.map((r: unknown) => ({
    type: String(typeof r === "object" && r !== null ? Reflect.get(r, "type") : ""),
    id: String(typeof r === "object" && r !== null ? (Reflect.get(r, "id") ?? "") : ""),
  }));
}

const seconds = (since: number): string => `${((Date.now() - since) / 1000).toFixed(1)} s`;

describe("PostgreSQL state backend (real engine)", function () {
  this.timeout(300_000);
  let pg: PostgresCluster | undefined;
  let emulator: RunningEmulator;
  let api: AccountApi;
  let scratch = "";
  let command: PulumiCommand;
  let counter = 0;

  before(async function () {
    // .ci/run installs PostgreSQL where it is missing; without it this suite fails, never skips.
    assert.ok(findPostgresBin(), "PostgreSQL is not installed: apt-get install -y postgresql");
    const started = Date.now();
    pg = await startPostgres();
    console.log(`      [figure] PostgreSQL cluster started in ${seconds(started)} on port ${pg.port}`);
    mkdirSync(join(REPO_ROOT, ".pulumi-test"), { recursive: true });
    scratch = mkdtempSync(join(REPO_ROOT, ".pulumi-test", "postgres-"));
    command = await PulumiCommand.get({ root: join(REPO_ROOT, ".engine"), skipVersionCheck: true });
    emulator = await startEmulator({ env: {} });
    api = new AccountApi({
      baseUrl: emulator.url,
      token: emulator.token,
      accountId: emulator.accountId,
      env: {},
    });
  });

  after(async () => {
    await api?.close();
    await emulator?.stop();
    pg?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** One checkout of the project (its own work dir, as a CI job has), on the shared database. */
  /**
   * One engine operation of a stack checked out by `checkout`, in a process of its own: the stacks of
   * this suite run at the same time, as two CI jobs would (tests/e2e/isolated.ts says why).
   */
  function run<O extends Operation>(stack: Stack, program: ProgramRef, op: O, opts: OperationOptions = {}) {
    return runIsolated(
      {
        op,
        opts,
        program,
        stackName: stack.name,
        projectName: PROJECT,
        workDir: stack.workspace.workDir,
        envVars: { ...stack.workspace.envVars },
        engineRoot: join(REPO_ROOT, ".engine"),
      },
      (line) => process.stdout.write(line),
    );
  }

  async function checkout(stackName: string, ref: ProgramRef): Promise<Stack> {
    const program = programOf(ref);
    if (!pg) throw new Error("no cluster");
    const workDir = join(scratch, `work-${++counter}`);
    mkdirSync(workDir, { recursive: true });
    const env = {
      ...engineEnv(join(scratch, "unused-file-backend"), join(scratch, `home-${counter}`)),
      PULUMI_BACKEND_URL: pg.url,
      PULUMI_SELF_MANAGED_STATE_LOCKING: "1",
    };
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName, projectName: PROJECT, program },
      {
        workDir,
        pulumiCommand: command,
        envVars: env,
        projectSettings: { name: PROJECT, runtime: "nodejs" },
      },
    );
    await stack.setAllConfig({
      "account-api:baseUrl": { value: emulator.url },
      "account-api:accountId": { value: emulator.accountId },
      "account-api:apiToken": { value: emulator.token, secret: true },
    });
    return stack;
  }

  const liveRepoIds = async (prefix: string): Promise<string[]> =>
    (await api.builds.repos.connections.list())
      .map((c) => c.repo_id ?? "")
      .filter((id) => id.startsWith(`${prefix}-`))
      .sort();

  const stateRows = (): string[] =>
    pg ? pg.sql("SELECT key FROM pulumi_state ORDER BY key").split("\n") : [];

  it("takes two stacks up in parallel on the one database", async () => {
    // The stacks are made one after the other: two CLIs creating the backend's table at once on a new
    // database race inside PostgreSQL (CREATE TABLE IF NOT EXISTS is not atomic); teams do that once.
    const [progA, progB] = [connections("a", 4), connections("b", 4)];
    const a = await checkout("team-a", progA);
    const b = await checkout("team-b", progB);
    const started = Date.now();
    const [upA, upB] = await Promise.all([run(a, progA, "up"), run(b, progB, "up")]);
    console.log(`      [figure] two stacks of 4 resources each up in parallel: ${seconds(started)}`);
    assert.equal(upA.summary.result, "succeeded");
    assert.equal(upB.summary.result, "succeeded");
    assert.equal(upA.summary.resourceChanges?.create, 5);
    assert.equal(upB.summary.resourceChanges?.create, 5);

    const rows = stateRows();
    console.log(
      `      [figure] pulumi_state rows: ${rows.length} (${rows.filter((r) => r.includes("/stacks/")).join(", ")})`,
    );
    for (const stack of ["team-a", "team-b"])
      assert.ok(
        rows.some((r) => r.includes(`stacks/${PROJECT}/${stack}`)),
        `a state row for ${stack}: ${rows.join(", ")}`,
      );
    const listed = await a.workspace.listStacks();
    const counts = Object.fromEntries(listed.map((s) => [s.name, s.resourceCount]));
    // 4 connections, the stack itself and the dynamic provider.
    assert.deepEqual(counts, { "team-a": 6, "team-b": 6 }, JSON.stringify(listed));
    assert.deepEqual(await liveRepoIds("a"), ["a-0", "a-1", "a-2", "a-3"]);
    assert.deepEqual(await liveRepoIds("b"), ["b-0", "b-1", "b-2", "b-3"]);

    // Each stack's state is whole: nothing to do on either.
    await Promise.all([
      run(a, progA, "preview", { expectNoChanges: true }),
      run(b, progB, "preview", { expectNoChanges: true }),
    ]);
  });

  it("lets one of two concurrent runs of one stack proceed and refuses the other as locked, losing nothing", async () => {
    if (!pg) throw new Error("no cluster");
    const [progFirst, progSecond] = [connections("s", 3), connections("s", 4)];
    const first = await checkout("shared", progFirst);
    // The other job's program manages one more connection; it must not get in while the first runs.
    const second = await checkout("shared", progSecond);
    // Slow the API so the first run is still holding the lock when the second reaches it. The second
    // CLI's start-up is what races the first run: on a loaded machine (a CI runner shared with other
    // jobs) it took more than 15 s, so the first run's creates hold for longer than that.
    const slow = emulator.faults.add({
      method: "PUT",
      path: "/builds/repos/connections$",
      latencyMs: 20_000,
    });
    const lockRows = (): string[] => stateRows().filter((r) => r.includes("/locks/"));

    const started = Date.now();
    const firstRun = run(first, progFirst, "up");
    while (lockRows().length === 0) {
      if (Date.now() - started > 60_000) throw new Error("the first run never took the lock");
      await new Promise((r) => setTimeout(r, 100));
    }
    console.log(`      [figure] lock taken after ${seconds(started)}: ${lockRows().join(", ")}`);
    const refused = await run(second, progSecond, "up").then(
      () => undefined,
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    );
    const firstResult = await firstRun;
    emulator.faults.remove(slow.id);
    console.log(`      [figure] first run: ${firstResult.summary.result} in ${seconds(started)}`);
    assert.ok(refused !== undefined, "the second run must not proceed while the first holds the lock");
    const lockLine = refused.split("\n").find((l) => /locked/i.test(l)) ?? "";
    console.log(`      [figure] second run refused: ${lockLine.trim()}`);
    assert.match(refused, /currently locked/i);
    assert.match(refused, /pulumi cancel/);
    assert.equal(firstResult.summary.result, "succeeded");
    assert.equal(firstResult.summary.resourceChanges?.create, 4);
    assert.deepEqual(lockRows(), [], "the lock is released when the first run ends");

    // Nothing lost: the state holds every connection the first run made, and they are all live.
    const exported: unknown = (await first.exportStack()).deployment;
    const inState = resourcesOf(exported)
      .filter((r) => r.type === "pulumi-nodejs:dynamic/account-api:RepoConnection")
      .map((r) => r.id)
      .sort();
    const live = (await api.builds.repos.connections.list())
      .filter((c) => (c.repo_id ?? "").startsWith("s-"))
      .map((c) => c.repo_connection_uuid)
      .sort();
    assert.deepEqual(inState, live, "state equals the remote truth");
    assert.equal(live.length, 3);
    await first.preview({ expectNoChanges: true });

    // The refused job, run again once the lock is gone, goes through and adds only its new connection.
    const retry = await second.up();
    assert.equal(retry.summary.resourceChanges?.create, 1);
    assert.equal(retry.summary.resourceChanges?.same, 4);
    assert.deepEqual(await liveRepoIds("s"), ["s-0", "s-1", "s-2", "s-3"]);
  });
});
