/**
 * The Interruption figure: the engine is killed (SIGKILL) at three points of an `up` of about 100
 * resources of every kind; the documented recovery (`account-api recover`: repair a file backend's
 * checkpoint, cancel the stale lock, remove what pending creates left, clear them) runs, and the
 * next `up` ends with the state equal to the remote truth: no orphan, no duplicate, nothing missing.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { readlinkSync } from "node:fs";
import { recover, type RecoverTarget } from "../../cli/recover";
import { useE2E, type E2EStack } from "./harness";
import { buildProgram, compare, seedWorld, type World } from "./reliability-world";

const PER_KIND = Number(process.env.RELIABILITY_INTERRUPT_N ?? 13); // 8 kinds × 13 = 104 resources

/** The `pulumi` CLI processes whose working directory is this stack's. */
function cliPids(workDir: string): number[] {
  let out: string;
  try {
    out = execFileSync("pgrep", ["-f", "pulumi (up|preview)"], { encoding: "utf8" });
  } catch {
    return [];
  }
  return out
    .split("\n")
    .filter(Boolean)
    .map(Number)
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`) === workDir;
      } catch {
        return false;
      }
    });
}

/** A process and everything it started (the engine's plugins): a lost runner loses them all. */
function withDescendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    // no children
  }
  return [pid, ...children.flatMap(withDescendants)];
}

/** Recovery through the Automation API: the same Pulumi commands `account-api recover` runs. */
function automationTarget(stack: E2EStack, backendDir: string): RecoverTarget {
  return {
    backendDir,
    cancel: () => stack.stack.cancel(),
    exportState: async () => stack.stack.exportStack(),
    clearPendingCreates: async () => void (await stack.stack.refresh({ clearPendingCreates: true })),
  };
}

describe("reliability: interruption (real engine)", function () {
  this.timeout(900_000);
  const e2e = useE2E("rel-interrupt");
  let world: World;

  before(async function () {
    this.timeout(120_000);
    world = await seedWorld(e2e.emulator, e2e.api, PER_KIND, "int");
  });

  it(`killed at three points of an up of ${PER_KIND * 8} resources, it converges after each recovery`, async () => {
    const stack = await e2e.stack(async () => buildProgram(world, PER_KIND));
    const workDir = stack.stack.workspace.workDir;
    const backendDir = String(stack.stack.workspace.envVars.PULUMI_BACKEND_URL).replace(/^file:\/\//, "");
    const total = PER_KIND * 8;
    const figures: Record<string, unknown>[] = [];
    // One stack, killed three times: after 10 %, 50 % and 75 % of the creates (counted over the runs),
    // each time recovered and run again, as a team whose CI runner dies repeatedly would.
    for (const [point, fraction] of [
      ["early", 0.1],
      ["midway", 0.5],
      ["late", 0.75],
    ] as const) {
      let killed = 0;
      const created = (): number => stack.output.filter((l) => / created \(/.test(l)).length;
      const watch = setInterval(() => {
        if (killed === 0 && created() >= Math.floor(total * fraction))
          for (const pid of cliPids(workDir).flatMap(withDescendants)) {
            process.kill(pid, "SIGKILL");
            killed++;
          }
      }, 50);
      try {
        await assert.rejects(stack.up(), `the up killed ${point} fails`);
      } finally {
        clearInterval(watch);
      }
      assert.ok(killed > 0, `the engine was killed ${point}`);
      const report = await recover(automationTarget(stack, backendDir), {
        ACCOUNT_API_BASE_URL: e2e.emulator.url,
        ACCOUNT_API_ACCOUNT_ID: e2e.emulator.accountId,
        ACCOUNT_API_TOKEN: e2e.emulator.token,
      });
      figures.push({ point, afterCreates: created(), ...report, removed: report.removed.length });
    }
    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    const truth = await compare(e2e.api, world, stack.rawState());
    console.log(
      `interruption: ${JSON.stringify({ resources: total, kills: figures, orphans: truth.orphans, duplicates: truth.duplicates, missing: truth.missing })}`,
    );
    assert.deepEqual(
      [truth.orphans, truth.duplicates, truth.missing],
      [0, 0, 0],
      JSON.stringify(truth.table),
    );
    await stack.destroy();
  });
});
