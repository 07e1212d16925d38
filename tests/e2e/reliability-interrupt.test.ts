/**
 * The Interruption figure: the engine is killed (SIGKILL) at three points of an `up` of about 100
 * resources of every kind; after each kill, Pulumi's own recovery runs (`pulumi cancel`, `pulumi
 * refresh --clear-pending-creates`, `pulumi up`; not our `recover` verb), and the last `up` ends with
 * the state equal to the remote truth: no orphan, no duplicate, nothing missing. What a pending create
 * made is adopted by the next `up` through the resource's key (a natural key, or a marker derived
 * from its URN).
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { readdirSync, readlinkSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { useE2E } from "./harness";
import { compare, seedWorld, type World } from "./reliability-world";

const PER_KIND = Number(process.env.RELIABILITY_INTERRUPT_N ?? 10); // 10 kinds × 10 + 2 namespaces + 1 app = 103 resources

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

/**
 * The one repair a `file://` backend may need before Pulumi's commands load the stack again: a kill
 * during a checkpoint write can leave a 0-byte `<stack>.json.attrs` ("failed to load checkpoint:
 * EOF"); docs/reliability.md has the user delete it (`find … -name '*.json.attrs' -size 0 -delete`).
 */
function removeEmptyAttrs(backendDir: string): number {
  const stacks = join(backendDir, ".pulumi", "stacks");
  let removed = 0;
  for (const f of readdirSync(stacks, { recursive: true, encoding: "utf8" })) {
    const file = join(stacks, f);
    if (file.endsWith(".json.attrs") && statSync(file).size === 0) {
      unlinkSync(file);
      removed++;
    }
  }
  return removed;
}

/** The pending creates an exported checkpoint holds. */
function pendingCreates(exported: unknown): number {
  const ops: unknown = Reflect.get(Object(Reflect.get(Object(exported), "deployment")), "pending_operations");
  return Array.isArray(ops) ? ops.filter((op) => Reflect.get(Object(op), "type") === "creating").length : 0;
}

describe("reliability: interruption (real engine)", function () {
  this.timeout(900_000);
  const e2e = useE2E("rel-interrupt");
  let world: World;

  before(async function () {
    this.timeout(120_000);
    world = await seedWorld(e2e.emulator, e2e.api, PER_KIND, "int");
    // Each request waits, so that the creates after a kill point still take longer than the watch's
    // poll and the output's bursts: without it, on a fast or a loaded machine, the last quarter of
    // the creates could finish before the late kill landed (seen once in CI).
    e2e.emulator.faults.add({ path: ".", latencyMs: 150 });
  });

  it(`killed at three points of an up of ${PER_KIND * 8} resources, it converges after each recovery`, async () => {
    // Each run in a process of its own, as a user's `pulumi up` is: an inline program whose engine is
    // killed while it still registers resources leaves the SDK's process-wide state to the next run.
    const stack = await e2e.isolatedStack({ name: "world", args: [world, PER_KIND] });
    const workDir = stack.stack.workspace.workDir;
    const backendDir = String(stack.stack.workspace.envVars.PULUMI_BACKEND_URL).replace(/^file:\/\//, "");
    const total = PER_KIND * 8;
    const figures: Record<string, unknown>[] = [];
    // One stack, killed three times: after 10 %, 50 % and 75 % of the creates (counted over the runs),
    // each time recovered with Pulumi's own steps and run again, as a team whose CI runner dies
    // repeatedly would.
    for (const [point, fraction] of [
      ["early", 0.1],
      ["midway", 0.5],
      ["late", 0.75],
    ] as const) {
      let killed = 0;
      const created = (): number => stack.output.filter((l) => / created \(/.test(l)).length;
      // A kill lands a little after its point (the output comes in bursts): a later point already
      // passed is taken at this run's first create.
      const at = Math.max(Math.floor(total * fraction), created() + 1);
      const watch = setInterval(() => {
        if (killed === 0 && created() >= at)
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
      // Pulumi's own recovery, as a user follows it: clear the stale lock, drop the pending creates,
      // and `up` again (the next kill point's, or the last). Each create the kill left pending is
      // then made again by a resource whose key is the same as before: the create adopts the object.
      const attrsRemoved = removeEmptyAttrs(backendDir);
      // A stack that is not locked answers an error: nothing to cancel.
      const cancelled = await stack.stack.cancel().then(
        () => true,
        () => false,
      );
      const pending = pendingCreates(await stack.stack.exportStack());
      // What the pending creates made: objects in the account that the state does not hold.
      const before = await compare(e2e.api, world, stack.rawState());
      const made = before.orphans;
      // Per kind, state / live where they differ: the kinds whose pending creates had landed.
      const kinds = Object.entries(before.table).filter(([, v]) => new Set(v.split("/")).size > 1);
      await stack.stack.refresh({ clearPendingCreates: true });
      figures.push({
        point,
        afterCreates: created(),
        pending,
        made,
        kinds: Object.fromEntries(kinds),
        attrsRemoved,
        cancelled,
      });
      console.log(`interruption, ${point}: ${JSON.stringify(figures.at(-1))}`);
    }
    assert.ok(
      figures.some((f) => Number(f.made) > 0),
      `a kill left an object that the state lost (else no key was tested): ${JSON.stringify(figures)}`,
    );
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
