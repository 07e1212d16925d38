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

  for (const [point, fraction] of [
    ["early", 0.1],
    ["midway", 0.5],
    ["late", 0.75],
  ] as const) {
    it(`killed ${point} in an up of ${PER_KIND * 8} resources, it converges after recovery`, async () => {
      const stack = await e2e.stack(async () => buildProgram(world, PER_KIND));
      const workDir = stack.stack.workspace.workDir;
      const envVars = stack.stack.workspace.envVars;
      const backendDir = String(envVars.PULUMI_BACKEND_URL).replace(/^file:\/\//, "");
      const total = PER_KIND * 8;
      let killed = 0;
      const watch = setInterval(() => {
        const created = stack.output.filter((l) => / created \(/.test(l)).length;
        if (created >= Math.floor(total * fraction) && killed === 0) {
          for (const pid of cliPids(workDir)) {
            process.kill(pid, "SIGKILL");
            killed++;
          }
        }
      }, 50);
      try {
        await assert.rejects(stack.up(), "the killed up fails");
      } finally {
        clearInterval(watch);
      }
      assert.ok(killed > 0, "the engine was killed");
      const report = await recover(automationTarget(stack, backendDir), {
        ACCOUNT_API_BASE_URL: e2e.emulator.url,
        ACCOUNT_API_ACCOUNT_ID: e2e.emulator.accountId,
        ACCOUNT_API_TOKEN: e2e.emulator.token,
      });
      const up = await stack.up();
      assert.equal(up.summary.result, "succeeded");
      const truth = await compare(e2e.api, world, stack.rawState());
      console.log(
        `interruption ${point}: ${JSON.stringify({ resources: total, killedAfterCreates: Math.floor(total * fraction), recovery: { ...report, removed: report.removed.length }, orphans: truth.orphans, duplicates: truth.duplicates, missing: truth.missing })}`,
      );
      assert.deepEqual(
        [truth.orphans, truth.duplicates, truth.missing],
        [0, 0, 0],
        JSON.stringify(truth.table),
      );
      await stack.destroy();
    });
  }
});
