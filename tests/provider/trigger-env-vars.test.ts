import { strict as assert } from "node:assert";
import { productionTrigger, seedBuildWorld } from "../helpers/builds";
import * as ev from "../../provider/resources/trigger-env-vars";
import { handlerFor } from "../../provider/registry";
import { useEmulator } from "../helpers/emulator";
import { offlineContext as offline, providerContext } from "../helpers/provider-context";

const T = "00000000-0000-4000-8000-00000000000a";
const OTHER = "00000000-0000-4000-8000-00000000000b";

describe("TriggerEnvVars: planning", () => {
  const olds: ev.TriggerEnvVarsOutputs = {
    triggerUuid: T,
    variables: {
      A: { value: "1", isSecret: false },
      B: { value: "2", isSecret: false },
      S: { value: "old", isSecret: true },
    },
    keys: ["A", "B", "S"],
  };
  const table: [string, ev.TriggerEnvVarsInputs["variables"], string[], string[]][] = [
    ["nothing", olds.variables, [], []],
    ["a plain value", { ...olds.variables, A: { value: "9", isSecret: false } }, ["A"], []],
    ["a secret value", { ...olds.variables, S: { value: "new", isSecret: true } }, ["S"], []],
    ["a key removed", { A: olds.variables.A!, S: olds.variables.S! }, [], ["B"]],
    ["a plain key turned secret", { ...olds.variables, A: { value: "1", isSecret: true } }, ["A"], []],
  ];
  for (const [label, variables, set, removed] of table) {
    it(`plans ${label}`, async () => {
      assert.deepEqual(ev.planChanges(olds.variables, variables), { set, removed });
      const d = await ev.handler.diff(T, olds, { triggerUuid: T, variables }, offline);
      assert.equal(d.changes, set.length + removed.length > 0);
      assert.deepEqual(d.replaces, []);
    });
  }

  it("replaces when the trigger changes", async () => {
    const d = await ev.handler.diff(T, olds, { triggerUuid: OTHER, variables: olds.variables }, offline);
    assert.deepEqual(d.replaces, ["triggerUuid"]);
  });

  it("projects drift: live plain values, dropped keys, a secret that turned plain", () => {
    const created_on = "2026-01-01T00:00:00Z";
    const live = {
      A: { value: "changed", is_secret: false, created_on },
      S: { value: "now-visible", is_secret: false, created_on },
      OTHER: { value: "x", is_secret: false, created_on },
    };
    assert.deepEqual(ev.project(olds.variables, live), { A: { value: "changed", isSecret: false } });
  });

  it("reads the two maps 0.1.x stored as one", () => {
    assert.deepEqual(
      ev.upgrade({
        triggerUuid: T,
        plainVariables: { A: "1" },
        secretVariables: { S: "s" },
        secretHashes: { S: "h" },
      }),
      {
        triggerUuid: T,
        variables: { A: { value: "1", isSecret: false }, S: { value: "s", isSecret: true } },
      },
    );
  });

  it("checks names, the trigger and importId before any request", async () => {
    const r = await ev.handler.check(
      undefined,
      { triggerUuid: "x", variables: { "": { value: "v" } }, importId: T },
      offline,
    );
    assert.deepEqual(
      r.failures!.map((f) => f.reason).sort(),
      ["triggerUuid: must be a UUID", "variables.: must not be empty"].sort(),
    );
    const mismatch = await ev.handler.check(undefined, { triggerUuid: T, importId: OTHER }, offline);
    assert.deepEqual(
      mismatch.failures!.map((f) => f.reason),
      ["importId: must equal triggerUuid (the variables of that trigger are adopted)"],
    );
    const typo = await ev.handler.check(
      undefined,
      { triggerUuid: T, variables: { K: { value: "a", secret: true } } },
      offline,
    );
    assert.deepEqual(
      typo.failures!.map((f) => f.reason),
      ["variables.K.secret: is not a known field"],
    );
  });
});

describe("TriggerEnvVars: handler on the emulator", () => {
  const fx = useEmulator();
  const trigger = async (): Promise<string> => productionTrigger(fx, await seedBuildWorld(fx));

  it("owns only its keys, detects drift on plain values and the key set, and cleans up its keys only", async () => {
    const uuid = await trigger();
    const ctx = providerContext(fx);
    await fx.api.builds.environmentVariables.upsert(
      { triggerUuid: uuid },
      { FOREIGN: { value: "keep", is_secret: false } },
    );
    const { inputs } = await ev.handler.check(
      undefined,
      { triggerUuid: uuid, variables: { MODE: { value: "fast" }, KEY: { value: "s3cr3t", isSecret: true } } },
      ctx,
    );
    const { id, outs } = await ev.handler.create(inputs!, ctx);
    assert.deepEqual(outs.keys, ["KEY", "MODE"]);
    const at = new Date(fx.clock.now()).toISOString();
    assert.deepEqual(await fx.api.builds.environmentVariables.list({ triggerUuid: uuid }), {
      FOREIGN: { value: "keep", is_secret: false, created_on: at },
      MODE: { value: "fast", is_secret: false, created_on: at },
      KEY: { value: null, is_secret: true, created_on: at },
    });
    const clean = await ev.handler.read(id, outs, ctx);
    assert.deepEqual(clean!.inputs, inputs);
    assert.equal((await ev.handler.diff(id, clean!.props, inputs!, ctx)).changes, false);

    await fx.api.builds.environmentVariables.upsert(
      { triggerUuid: uuid },
      { MODE: { value: "slow", is_secret: false } },
    );
    await fx.api.builds.environmentVariables.delete({ triggerUuid: uuid, environmentVariableKey: "KEY" });
    const drift = await ev.handler.read(id, outs, ctx);
    assert.deepEqual(drift!.inputs.variables, { MODE: { value: "slow", isSecret: false } });
    assert.equal((await ev.handler.diff(id, drift!.props, inputs!, ctx)).changes, true);
    await ev.handler.update(id, drift!.props, inputs!, ctx);
    assert.deepEqual(await fx.api.builds.environmentVariables.list({ triggerUuid: uuid }), {
      FOREIGN: { value: "keep", is_secret: false, created_on: at },
      MODE: { value: "fast", is_secret: false, created_on: at },
      KEY: { value: null, is_secret: true, created_on: at },
    });

    const smaller = { ...inputs!, variables: { MODE: { value: "fast", isSecret: false } } };
    const { outs: after } = await ev.handler.update(id, outs, smaller, ctx);
    assert.deepEqual(
      Object.keys(await fx.api.builds.environmentVariables.list({ triggerUuid: uuid })).sort(),
      ["FOREIGN", "MODE"],
    );
    await ev.handler.delete(id, after, ctx);
    assert.deepEqual(Object.keys(await fx.api.builds.environmentVariables.list({ triggerUuid: uuid })), [
      "FOREIGN",
    ]);
  });

  it("sets keys that already exist to the program's values (saying so), adopts with importId, and reads a deleted trigger as gone", async () => {
    const uuid = await trigger();
    const logs: string[] = [];
    const ctx = providerContext(fx, logs);
    await fx.api.builds.environmentVariables.upsert(
      { triggerUuid: uuid },
      { MODE: { value: "x", is_secret: false } },
    );
    const { inputs } = await ev.handler.check(
      undefined,
      { triggerUuid: uuid, variables: { MODE: { value: "y" } } },
      ctx,
    );
    fx.clock.advance(1_000);
    await ev.handler.create(
      { ...inputs!, variables: { ...inputs!.variables, UNIT: { value: "1", isSecret: false } } },
      ctx,
    );
    assert.equal((await fx.api.builds.environmentVariables.list({ triggerUuid: uuid })).MODE!.value, "y");
    assert.deepEqual(logs, [
      `TriggerEnvVars: MODE already set on trigger ${uuid} before this resource; now the program's values`,
    ]);
    await fx.api.builds.environmentVariables.upsert(
      { triggerUuid: uuid },
      { MODE: { value: "x", is_secret: false } },
    );
    const { outs } = await ev.handler.create({ ...inputs!, importId: uuid }, ctx);
    assert.equal((await fx.api.builds.environmentVariables.list({ triggerUuid: uuid })).MODE!.value, "y");
    await fx.api.builds.triggers.delete({ triggerUuid: uuid });
    assert.equal(await ev.handler.read(uuid, outs, ctx), undefined);
    await ev.handler.delete(uuid, outs, ctx);
  });

  it("refreshes and destroys a state in the 0.1.x shape", async () => {
    const uuid = await trigger();
    const ctx = providerContext(fx);
    await fx.api.builds.environmentVariables.upsert(
      { triggerUuid: uuid },
      { A: { value: "1", is_secret: false }, S: { value: "s", is_secret: true } },
    );
    const old = {
      triggerUuid: uuid,
      plainVariables: { A: "1" },
      secretVariables: { S: "s" },
      secretHashes: {},
      keys: ["A", "S"],
    };
    // The runtime hands stored state over untyped, whatever release wrote it.
    const untyped = handlerFor("TriggerEnvVars");
    const read = await untyped.read(uuid, old, ctx);
    assert.deepEqual(Reflect.get(read!.inputs, "variables"), {
      A: { value: "1", isSecret: false },
      S: { value: "s", isSecret: true },
    });
    await untyped.delete(uuid, old, ctx);
    assert.deepEqual(await fx.api.builds.environmentVariables.list({ triggerUuid: uuid }), {});
  });
});
