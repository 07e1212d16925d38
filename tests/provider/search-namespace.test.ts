/**
 * SearchNamespace through its handler: check without the API, then create, read, drift, update,
 * adoption and delete against the emulator; and a SearchInstance living in it.
 */
import { strict as assert } from "node:assert";
import * as sn from "../../provider/resources/search-namespace";
import * as si from "../../provider/resources/search-instance";
import type { HandlerContext } from "../../provider/types";
import { useEmulator } from "../helpers/emulator";
import { offlineContext as offline, providerContext } from "../helpers/provider-context";

const check = async (news: Record<string, unknown>, ctx: HandlerContext = offline) =>
  sn.handler.check(undefined, news, ctx);

async function inputs(news: Record<string, unknown>): Promise<sn.SearchNamespaceInputs> {
  const r = await check(news);
  assert.deepEqual(r.failures, [], JSON.stringify(news));
  assert.ok(r.inputs);
  return r.inputs;
}

describe("SearchNamespace: check without the API", () => {
  it("takes a name and a description, and names each bad field with its rule", async () => {
    assert.deepEqual(await inputs({ name: "team-a", description: "Team A" }), {
      name: "team-a",
      description: "Team A",
    });
    const table: [Record<string, unknown>, string, RegExp][] = [
      [{}, "name", /required/],
      [{ name: "Team A" }, "name", /lowercase letters, digits, - and _/],
      [{ name: "n".repeat(33) }, "name", /32/],
      [{ name: "default" }, "name", /must not be "default": it always exists and cannot be deleted/],
      [{ name: "team-a", description: "d".repeat(257) }, "description", /256/],
      [{ name: "team-a", importId: "team-b" }, "importId", /must equal name/],
    ];
    for (const [news, field, rule] of table) {
      const { failures } = await check(news);
      const failure = (failures ?? []).find((f) => f.property === field);
      assert.ok(failure, `${JSON.stringify(news)}: ${JSON.stringify(failures)}`);
      assert.match(failure.reason, rule);
    }
  });

  it("replaces on a change of name, updates a description in place", async () => {
    const olds = { ...(await inputs({ name: "team-a", description: "A" })), createdAt: "t" };
    const d = (news: sn.SearchNamespaceInputs) => sn.handler.diff("team-a", olds, news, offline);
    assert.deepEqual(await d({ name: "team-a", description: "A" }), {
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    assert.deepEqual((await d({ name: "team-a", description: "B" })).replaces, []);
    assert.equal((await d({ name: "team-a" })).changes, true);
    assert.deepEqual((await d({ name: "team-b", description: "A" })).replaces, ["name"]);
  });
});

describe("SearchNamespace: handler on the emulator", () => {
  const fx = useEmulator();

  it("creates, reads without drift, shows a description changed out of band, updates and deletes", async () => {
    const ctx = providerContext(fx);
    const ins = await inputs({ name: "team-a", description: "Team A" });
    const created = await sn.handler.create(ins, ctx);
    assert.equal(created.id, "team-a");
    assert.match(String(created.outs.createdAt), /^\d{4}-\d\d-\d\dT/);
    const read = await sn.handler.read(created.id, created.outs, ctx);
    assert.ok(read);
    assert.deepEqual(read.inputs, ins, "an unchanged namespace reads back as exactly the inputs");
    assert.equal((await sn.handler.diff(created.id, read.props, read.inputs, ctx)).changes, false);

    await fx.api.search.namespaces.update({ name: "team-a" }, { description: "changed by hand" });
    const drifted = await sn.handler.read(created.id, created.outs, ctx);
    assert.equal(drifted?.inputs.description, "changed by hand");
    assert.equal((await sn.handler.diff(created.id, drifted!.props, ins, ctx)).changes, true);
    await sn.handler.update(created.id, drifted!.props, ins, ctx);
    assert.equal((await fx.api.search.namespaces.get({ name: "team-a" })).description, "Team A");

    await fx.api.search.namespaces.update({ name: "team-a" }, { description: null });
    const cleared = await sn.handler.read(created.id, created.outs, ctx);
    assert.equal(cleared?.inputs.description, undefined, "a description cleared out of band reads as none");
    const none = await sn.handler.update(created.id, cleared!.props, await inputs({ name: "team-a" }), ctx);
    assert.equal(none.outs.description, undefined);

    await sn.handler.delete(created.id, none.outs, ctx);
    assert.equal(await sn.handler.read(created.id, none.outs, ctx), undefined, "a 404 on read means gone");
    await sn.handler.delete(created.id, none.outs, ctx); // deleting again is success
  });

  it("refuses to create over an existing namespace unless it is the same, and adopts with importId", async () => {
    const ctx = providerContext(fx);
    await fx.api.search.namespaces.create({}, { name: "taken", description: "theirs" });
    await assert.rejects(sn.handler.create(await inputs({ name: "taken", description: "ours" }), ctx), {
      message:
        'name: a search namespace "taken" already exists (taken) with other settings (description); set importId: "taken" to adopt it',
    });
    // The same settings: a create of ours whose answer was lost, or a run of the same program.
    const own = await sn.handler.create(await inputs({ name: "taken", description: "theirs" }), ctx);
    assert.equal(own.id, "taken");

    await fx.api.search.namespaces.create({}, { name: "legacy" });
    const adopted = await sn.handler.create(
      await inputs({ name: "legacy", importId: "legacy", description: "now ours" }),
      ctx,
    );
    assert.equal(adopted.id, "legacy");
    assert.equal((await fx.api.search.namespaces.get({ name: "legacy" })).description, "now ours");
    await assert.rejects(sn.handler.create(await inputs({ name: "ghost", importId: "ghost" }), ctx), {
      message: "importId: search namespace ghost not found; nothing to adopt",
    });
  });

  it("holds a SearchInstance, and says which instances its delete took with it", async () => {
    const ctx = providerContext(fx);
    const logs: string[] = [];
    const logged: HandlerContext = { ...ctx, log: (line: string) => void logs.push(line) };
    const ns = await sn.handler.create(await inputs({ name: "team-b" }), logged);
    const checked = await si.handler.check(undefined, { instanceId: "kb", namespace: "team-b" }, offline);
    assert.deepEqual(checked.failures, []);
    const inst = await si.handler.create(checked.inputs!, ctx);
    assert.equal(inst.id, "team-b/kb");
    await sn.handler.delete(ns.id, ns.outs, logged);
    assert.deepEqual(logs, [
      "SearchNamespace team-b: deleted with the 1 instance(s) it held (kb): the service deletes a namespace's instances with it",
    ]);
    assert.equal(await si.handler.read(inst.id, inst.outs, ctx), undefined);
  });
});
