/**
 * The Concurrency figure at handler level (the pipeline the engine runs, one provider session per
 * program): two programs, each with 10 ConfigRules in one zone, go up (and down) 20 times in
 * parallel: no rule lost, none left behind, no create refused. Twenty TriggerEnvVars resources of two
 * programs patch one trigger at once: no variable lost. Each test prints its figure.
 */
import { strict as assert } from "node:assert";
import { handlerFor } from "../../provider/registry";
import type { HandlerContext } from "../../provider/types";
import { productionTrigger, seedBuildWorld } from "../helpers/builds";
import { useEmulator } from "../helpers/emulator";
import { offlineContext, providerContext } from "../helpers/provider-context";

/** 10 in CI; `RELIABILITY_ROUNDS=20` for the figure in docs/reliability.md (each round ~2.5 s). */
const ROUNDS = Number(process.env.RELIABILITY_ROUNDS ?? 10);
const PER_PROGRAM = 10;

describe("reliability: concurrent writers (handler level)", function () {
  this.timeout(300_000);
  const fx = useEmulator();
  const rule = handlerFor("ConfigRule");
  const envVars = handlerFor("TriggerEnvVars");

  /** One program: its own session (its own queue), its rules' checked inputs. */
  async function program(name: string, zoneId: string, round: number) {
    const ctx: HandlerContext = providerContext(fx);
    const inputs = [];
    for (let i = 0; i < PER_PROGRAM; i++) {
      const checked = await rule.check(
        undefined,
        { zoneId, host: `${name}-${i}.r${round}.example.com`, ref: `${name}-${i}` },
        offlineContext,
      );
      assert.deepEqual(checked.failures, []);
      inputs.push(checked.inputs!);
    }
    return { ctx, inputs };
  }

  it(`two programs × ${PER_PROGRAM} ConfigRules in one zone, ${ROUNDS} rounds in parallel: 0 lost`, async () => {
    const zoneId = (await fx.api.content.zones.create({}, { name: "busy.example.com" })).id;
    let lost = 0;
    let leftBehind = 0;
    let refused = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const programs = [await program("a", zoneId, round), await program("b", zoneId, round)];
      // Every resource of both programs at once, as the engine runs them (4 × CPUs in parallel).
      const made = await Promise.allSettled(
        programs.flatMap((p) => p.inputs.map((i) => rule.create(i, p.ctx))),
      );
      refused += made.filter((m) => m.status === "rejected").length;
      const live = (await fx.api.content.configRuleset.get({ zoneId }))?.rules ?? [];
      const want = programs.flatMap((p) => p.inputs.map((i) => String(Reflect.get(i, "ref"))));
      lost += want.filter(
        (ref) => !live.some((r) => r.ref === ref && r.expression.includes(`.r${round}.`)),
      ).length;
      const gone = await Promise.allSettled(
        programs.flatMap((p, n) =>
          made
            .slice(n * PER_PROGRAM, (n + 1) * PER_PROGRAM)
            .flatMap((m) => (m.status === "fulfilled" ? [rule.delete(m.value.id, m.value.outs, p.ctx)] : [])),
        ),
      );
      refused += gone.filter((g) => g.status === "rejected").length;
      leftBehind += ((await fx.api.content.configRuleset.get({ zoneId }))?.rules ?? []).length;
    }
    console.log(
      `FIGURE concurrency.configRules ${JSON.stringify({ rounds: ROUNDS, programs: 2, rulesEach: PER_PROGRAM, lost, leftBehind, refused })}`,
    );
    assert.equal(refused, 0);
    assert.equal(lost, 0);
    assert.equal(leftBehind, 0);
  });

  it("a rule of its own that a concurrent run already put in place is adopted, not refused", async () => {
    const zoneId = (await fx.api.content.zones.create({}, { name: "twice.example.com" })).id;
    const inputs = (await rule.check(undefined, { zoneId, host: "x.example.com", ref: "x" }, offlineContext))
      .inputs!;
    const [one, two] = await Promise.all([
      rule.create(inputs, providerContext(fx)),
      rule.create(inputs, providerContext(fx)),
    ]);
    assert.equal(one.id, two.id);
    assert.equal((await fx.api.content.configRuleset.get({ zoneId }))?.rules.length, 1);
  });

  it("parallel env-var patches on one trigger: 0 lost", async () => {
    const uuid = await productionTrigger(fx, await seedBuildWorld(fx));
    const sessions = [providerContext(fx), providerContext(fx)];
    const creates = [];
    for (let i = 0; i < 20; i++) {
      const checked = await envVars.check(
        undefined,
        { triggerUuid: uuid, variables: { [`K${i}`]: { value: `v${i}` } } },
        offlineContext,
      );
      creates.push(envVars.create(checked.inputs!, sessions[i % 2]!));
    }
    const made = await Promise.all(creates);
    // Then every one changes its value at once.
    await Promise.all(
      made.map(async (m, i) => {
        const news = (
          await envVars.check(
            undefined,
            { triggerUuid: uuid, variables: { [`K${i}`]: { value: `w${i}` } } },
            offlineContext,
          )
        ).inputs!;
        return envVars.update(m.id, m.outs, news, sessions[i % 2]!);
      }),
    );
    const live = await fx.api.builds.environmentVariables.list({ triggerUuid: uuid });
    const lost = Array.from({ length: 20 }, (_, i) => i).filter(
      (i) => live[`K${i}`]?.value !== `w${i}`,
    ).length;
    console.log(`FIGURE concurrency.envVars ${JSON.stringify({ writers: 20, sessions: 2, lost })}`);
    assert.equal(lost, 0);
  });
});
