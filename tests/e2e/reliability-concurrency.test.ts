/**
 * The Concurrency figure on the real engine: two programs (two stacks, so two provider processes),
 * each with 10 ConfigRules in one shared zone, go up 5 times at once (`RELIABILITY_ROUNDS`). Every round puts the round
 * number in every rule's description (an in-place update), so each round is 20 concurrent writes to
 * the zone's one entrypoint (round 1: 20 creates). After each round the zone must hold all 20 rules,
 * once each, with this round's value; at the end both stacks refresh with no change and destroy in
 * parallel, leaving no rule. Prints lost, duplicated and left-over rules, the retries and the time.
 * Each engine run has a process of its own, as a user's `pulumi up` does (tests/e2e/isolated.ts).
 */
import { strict as assert } from "node:assert";
import { isDeepStrictEqual } from "node:util";
import { useE2E, type E2EStack } from "./harness";
import { retriesIn } from "./reliability-world";

/** 5 in CI (each round is ~10 s of a 45-minute budget); `RELIABILITY_ROUNDS=20` for the figure in docs/reliability.md. */
const ROUNDS = Number(process.env.RELIABILITY_ROUNDS ?? 5);
const PER_PROGRAM = 10;
const PROGRAMS = ["a", "b"] as const;
/** Every resource of a program in flight at once. */
const PARALLEL = 32;

describe("reliability: concurrent writers (real engine)", function () {
  this.timeout(600_000);
  const e2e = useE2E("rel-conc");

  it(`two programs × ${PER_PROGRAM} ConfigRules in one zone, ${ROUNDS} rounds up in parallel: 0 lost`, async () => {
    const zoneId = (await e2e.api.content.zones.create({}, { name: "busy.e2e.example.com" })).id;
    const domain = "busy.e2e.example.com";
    const hostOf = (p: string, i: number): string => `${p}-${i}.${domain}`;
    const stacks: E2EStack[] = [];
    for (const p of PROGRAMS)
      stacks.push(await e2e.isolatedStack({ name: "configRules", args: [p, zoneId, domain, PER_PROGRAM] }));
    let round = 0;
    const live = async () => (await e2e.api.content.configRuleset.get({ zoneId }))?.rules ?? [];
    const entrypointPuts = (since: number) =>
      e2e.emulator.requestLog.filter(
        (r) => r.at >= since && r.method === "PUT" && r.url.includes(`/zones/${zoneId}/rulesets/`),
      );

    let lost = 0;
    let duplicates = 0;
    let strangers = 0;
    let extraPuts = 0;
    let refusedPuts = 0;
    const failedUps: string[] = [];
    const unexpectedChanges: string[] = [];
    const seen: string[] = [];
    const roundSeconds: number[] = [];
    const t0 = Date.now();
    for (round = 1; round <= ROUNDS; round++) {
      // This round's value for every rule, read by both programs from their stack's config.
      await Promise.all(stacks.map((s) => s.stack.setConfig("round", { value: String(round) })));
      const start = Date.now();
      const ups = await Promise.allSettled(stacks.map((s) => s.up({ parallel: PARALLEL })));
      roundSeconds.push((Date.now() - start) / 1000);
      ups.forEach((u, n) => {
        if (u.status === "rejected") failedUps.push(`round ${round} ${PROGRAMS[n]}: ${String(u.reason)}`);
        else {
          // Round 1 creates the rules (and the stack); every later round updates each rule once.
          const changes = u.value.summary.resourceChanges ?? {};
          const want = round === 1 ? { create: PER_PROGRAM + 1 } : { update: PER_PROGRAM, same: 1 };
          if (!isDeepStrictEqual({ ...changes }, want))
            unexpectedChanges.push(`round ${round} ${PROGRAMS[n]}: ${JSON.stringify(changes)}`);
        }
      });
      const puts = entrypointPuts(start);
      extraPuts += puts.length - PROGRAMS.length * PER_PROGRAM;
      refusedPuts += puts.filter((r) => r.status !== 200).length;

      const rules = await live();
      const wanted = PROGRAMS.flatMap((p) =>
        Array.from({ length: PER_PROGRAM }, (_, i) => `http.host eq "${hostOf(p, i)}"`),
      );
      for (const expression of wanted) {
        const held = rules.filter((r) => r.expression === expression);
        if (held.length > 1) duplicates += held.length - 1;
        if (!held.some((r) => r.description === `round ${round}`)) {
          lost++;
          seen.push(
            `round ${round}: ${expression} ${held.length ? `holds ${JSON.stringify(held.map((r) => r.description))}` : "missing"}`,
          );
        }
      }
      strangers += rules.filter((r) => !wanted.includes(r.expression)).length;
    }
    const upSeconds = (Date.now() - t0) / 1000;

    // State equals remote: refresh finds nothing to change.
    const refreshes = await Promise.all(stacks.map((s) => s.refresh({ expectNoChanges: true })));
    for (const r of refreshes) assert.equal(r.summary.result, "succeeded");
    const destroys = await Promise.all(stacks.map((s) => s.destroy({ parallel: PARALLEL })));
    for (const d of destroys) assert.equal(d.summary.result, "succeeded");
    const leftAfterDestroy = (await live()).length;

    const figure = {
      rounds: ROUNDS,
      programs: PROGRAMS.length,
      rulesPerProgram: PER_PROGRAM,
      lost,
      duplicates,
      strangers,
      leftAfterDestroy,
      failedUps: failedUps.length,
      // HTTP retries the provider logged, and entrypoint writes made again after another writer got in.
      retries: retriesIn(stacks.flatMap((s) => s.output)),
      entrypointRewrites: extraPuts,
      entrypointPutsRefused: refusedPuts,
      secondsPerRound: {
        mean: Math.round((upSeconds / ROUNDS) * 10) / 10,
        min: Math.min(...roundSeconds),
        max: Math.max(...roundSeconds),
      },
      upSeconds,
      seconds: (Date.now() - t0) / 1000,
    };
    console.log(`FIGURE concurrency ${JSON.stringify(figure, null, 2)}`);
    for (const line of [...failedUps, ...unexpectedChanges, ...seen]) console.log(`  ${line}`);
    assert.deepEqual(failedUps, []);
    assert.deepEqual(unexpectedChanges, []);
    assert.equal(lost, 0);
    assert.equal(duplicates, 0);
    assert.equal(strangers, 0);
    assert.equal(leftAfterDestroy, 0);
  });
});
