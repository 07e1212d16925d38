/**
 * The Faults figure: 40 resources of every kind (`RELIABILITY_FAULTS_N`) go up in ONE `up` while the emulator injects 429s
 * (with Retry-After), 500/503s, resets, latency spikes and commit-then-drop; then refresh (with no
 * change: the state equals the remote truth) and destroy, under the same faults. Prints the faults
 * injected, the retries made, orphans, duplicates and whether state equals the remote truth.
 */
import { strict as assert } from "node:assert";
import { useE2E } from "./harness";
import {
  APPS_PER_WORLD,
  FAULTS,
  buildProgram,
  compare,
  drainFaults,
  retriesIn,
  seedWorld,
  type World,
} from "./reliability-world";

// About 400 resources in all: 40 of most kinds (two SearchNamespaces and one MeetingApp per world).
const N = Number(process.env.RELIABILITY_FAULTS_N ?? 40);
const PARALLEL = 32;

describe("reliability: faults (real engine)", function () {
  this.timeout(900_000);
  const e2e = useE2E("rel-faults");
  let world: World;

  before(async function () {
    this.timeout(120_000);
    world = await seedWorld(e2e.emulator, e2e.api, N, "flt");
  });

  it(`${N} resources of every kind: one up, refresh and destroy under faults, nothing lost or doubled`, async () => {
    const stack = await e2e.stack(async () => buildProgram(world, N));
    const faultsOn = (): void => {
      drainFaults(e2e.emulator);
      for (const f of FAULTS) e2e.emulator.faults.add(f);
    };
    const faultsOff = (): Record<string, number> => {
      e2e.emulator.faults.clear();
      return drainFaults(e2e.emulator);
    };
    faultsOn();
    const t0 = Date.now();
    // Many resources wait out a Retry-After or a latency spike at once: more of them in flight.
    const up = await stack.up({ parallel: PARALLEL });
    const upFaults = faultsOff();
    const upSecs = (Date.now() - t0) / 1000;
    assert.equal(up.summary.result, "succeeded");
    const afterUp = await compare(e2e.api, world, stack.rawState());
    const upRetries = retriesIn(stack.output);

    const mark = stack.output.length;
    faultsOn();
    const refresh = await stack.refresh({ expectNoChanges: true });
    assert.equal(refresh.summary.result, "succeeded");
    const refreshFaults = faultsOff();
    const refreshRetries = retriesIn(stack.output.slice(mark));

    const mark2 = stack.output.length;
    faultsOn();
    const destroy = await stack.destroy({ parallel: PARALLEL });
    assert.equal(destroy.summary.result, "succeeded");
    const destroyFaults = faultsOff();
    const destroyRetries = retriesIn(stack.output.slice(mark2));
    // After destroy only registrations and the app stay (the API deletes neither): nothing else is left.
    const after = await compare(e2e.api, world, stack.rawState());
    const leftOver = after.orphans - N - APPS_PER_WORLD;

    const figure = {
      resources: N * 8,
      upSeconds: upSecs,
      faultsInjected: { up: upFaults, refresh: refreshFaults, destroy: destroyFaults },
      retriesMade: { up: upRetries, refresh: refreshRetries, destroy: destroyRetries },
      orphans: afterUp.orphans,
      duplicates: afterUp.duplicates,
      missing: afterUp.missing,
      stateEqualsRemote:
        afterUp.orphans === 0 &&
        afterUp.missing === 0 &&
        refresh.summary.resourceChanges?.update === undefined,
      perKindStateOverRemote: afterUp.table,
      leftAfterDestroyBesidesRegistrations: leftOver,
    };
    console.log(`FIGURE faults ${JSON.stringify(figure, null, 2)}`);
    assert.equal(afterUp.orphans, 0);
    assert.equal(afterUp.duplicates, 0);
    assert.equal(afterUp.missing, 0);
    assert.equal(leftOver, 0);
    assert.equal(after.duplicates, 0);
  });
});
