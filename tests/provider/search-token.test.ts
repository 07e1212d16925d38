import { strict as assert } from "node:assert";
import { secretHash } from "../../provider/core/values";
import * as st from "../../provider/resources/search-token";
import { handlerFor } from "../../provider/registry";
import type { HandlerContext } from "../../provider/types";
import { useEmulator } from "../helpers/emulator";
import { offlineContext as offline, providerContext } from "../helpers/provider-context";

const KEY = "s3cret-key-value";

const check = async (news: Record<string, unknown>, ctx: HandlerContext = offline) =>
  st.handler.check(undefined, news, ctx);

async function inputs(news: Record<string, unknown>): Promise<st.SearchTokenInputs> {
  const r = await check(news);
  assert.deepEqual(r.failures, [], JSON.stringify(news));
  assert.ok(r.inputs);
  return r.inputs;
}

const GOOD = { name: "docs-reader", cfApiId: "key-id-1", cfApiKey: KEY };

describe("SearchToken: check and diff without the API", () => {
  it("is the registry's handler; fills the contract's default of legacy", async () => {
    assert.equal(handlerFor("SearchToken"), st.handler);
    assert.deepEqual(await inputs(GOOD), { ...GOOD, legacy: true });
  });

  it("names the field and the rule of each failure, and never echoes the secret", async () => {
    const table: [Record<string, unknown>, RegExp][] = [
      [{ cfApiId: "k", cfApiKey: KEY }, /^name: /],
      [{ name: "n", cfApiKey: KEY }, /^cfApiId: /],
      [{ name: "n", cfApiId: "k" }, /^cfApiKey: /],
      [{ ...GOOD, legacy: "no" }, /^legacy: /],
      [{ ...GOOD, cfApiToken: "x" }, /^cfApiToken: /],
    ];
    for (const [news, rule] of table) {
      const r = await check(news);
      assert.equal(r.failures?.length, 1, JSON.stringify(news));
      assert.match(r.failures[0]!.reason, rule);
      assert.ok(!JSON.stringify(r.failures).includes(KEY));
    }
  });

  it("updates in place on any change, a rotated secret seen through its hash only", async () => {
    const base = await inputs(GOOD);
    const olds: st.SearchTokenOutputs = {
      ...base,
      cfApiKeyHash: secretHash("cfApiKey", KEY),
      tokenId: "t-1",
      createdAt: "t",
      modifiedAt: "t",
    };
    const table: [string, Partial<st.SearchTokenInputs>, boolean][] = [
      ["nothing", {}, false],
      ["the name", { name: "docs" }, true],
      ["the key id", { cfApiId: "key-id-2" }, true],
      ["legacy", { legacy: false }, true],
      ["the secret (a rotation)", { cfApiKey: "rotated" }, true],
      ["only importId", { importId: "t-1" }, false],
    ];
    for (const [label, change, changes] of table) {
      const d = await st.handler.diff("t-1", olds, { ...base, ...change }, offline);
      assert.deepEqual(d, { changes, replaces: [], deleteBeforeReplace: false }, label);
      assert.ok(!JSON.stringify(d).includes("rotated"), "the diff never carries the secret");
    }
  });
});

describe("SearchToken: handler on the emulator", () => {
  const fx = useEmulator();
  /** The emulator's stored state, where the write-only secret lives. */
  const stored = (): string => JSON.stringify(fx.em.store.snapshot());

  it("creates, reads without drift, shows out-of-band drift, rotates the secret with a PUT and deletes", async () => {
    const ctx = providerContext(fx);
    const ins = await inputs(GOOD);
    const created = await st.handler.create(ins, ctx);
    assert.equal(created.id, created.outs.tokenId);
    assert.equal(created.outs.cfApiKeyHash, secretHash("cfApiKey", KEY));
    assert.equal(created.outs.enabled, true);
    assert.equal(typeof created.outs.createdAt, "string");

    const read = await st.handler.read(created.id, created.outs, ctx);
    assert.ok(read);
    assert.deepEqual(
      read.inputs,
      ins,
      "an unchanged token reads back as exactly the inputs, its secret from state",
    );
    assert.equal((await st.handler.diff(created.id, read.props, read.inputs, ctx)).changes, false);

    // Out of band: renamed, another key id (the secret cannot be read, so only these show).
    await fx.api.search.tokens.update(
      { id: created.id },
      { name: "renamed", cf_api_id: "key-id-9", cf_api_key: "other", legacy: false },
    );
    const drifted = await st.handler.read(created.id, created.outs, ctx);
    assert.ok(drifted);
    assert.deepEqual(
      [drifted.inputs.name, drifted.inputs.cfApiId, drifted.inputs.legacy, drifted.inputs.cfApiKey],
      ["renamed", "key-id-9", false, KEY],
    );
    assert.equal((await st.handler.diff(created.id, drifted.props, ins, ctx)).changes, true);
    const restored = await st.handler.update(created.id, drifted.props, ins, ctx);
    assert.equal(restored.outs.name, "docs-reader");

    // A rotation: one PUT carrying the new secret (the emulator keeps it; no answer shows it).
    const puts = fx.em.faults.add({ method: "PUT", path: `/ai-search/tokens/${created.id}$` });
    const rotated = { ...ins, cfApiKey: "rotated-key" };
    const after = await st.handler.update(created.id, restored.outs, rotated, ctx);
    fx.em.faults.clear();
    assert.equal(puts.hits, 1);
    assert.equal(after.outs.cfApiKeyHash, secretHash("cfApiKey", "rotated-key"));
    assert.ok(stored().includes('"cf_api_key":"rotated-key"'), "the service holds the new secret");

    await st.handler.delete(created.id, after.outs, ctx);
    assert.equal(await st.handler.read(created.id, after.outs, ctx), undefined, "a 404 on read means gone");
    await st.handler.delete(created.id, after.outs, ctx); // deleting again is success
  });

  it("refuses a delete while an instance names the token, naming the instance", async () => {
    const ctx = providerContext(fx);
    const { id, outs } = await st.handler.create(await inputs(GOOD), ctx);
    await fx.api.search.instances.create({}, { id: "kb", type: "r2", source: "docs-bucket", token_id: id });
    await assert.rejects(
      st.handler.delete(id, outs, ctx),
      (e: Error) => e instanceof st.TokenInUseError && /search instance default\/kb/.test(e.message),
    );
    await fx.api.search.instances.delete({ id: "kb" });
    await st.handler.delete(id, outs, ctx);
  });

  it("looks the name up before the create: its own token (a lost answer) adopted, another refused", async () => {
    const ctx = providerContext(fx);
    // A lost answer: the token landed; the look-up after the failure finds it by name and adopts it.
    const posts = fx.em.faults.add({
      method: "POST",
      path: "/ai-search/tokens$",
      commitThenDrop: true,
      times: 1,
    });
    const again = await st.handler.create(await inputs(GOOD), ctx);
    fx.em.faults.clear();
    assert.equal(posts.hits, 1, "one POST: the token it made was found, not made again");
    const named = (await fx.api.search.tokens.list({}, { search: "docs-reader" }).toArray()).filter(
      (t) => t.name === "docs-reader",
    );
    assert.deepEqual(
      named.map((t) => t.id),
      [again.id],
    );

    await fx.api.search.tokens.create({}, { name: "theirs", cf_api_id: "their-key", cf_api_key: "x" });
    await assert.rejects(st.handler.create(await inputs({ ...GOOD, name: "theirs" }), ctx), {
      message:
        /^name: a search token named "theirs" already exists \(.+\) with other settings \(cfApiId\); set importId: ".+" to adopt it$/,
    });
  });

  it("adopts a token by importId and writes the program's secret to it", async () => {
    const ctx = providerContext(fx);
    const live = await fx.api.search.tokens.create(
      {},
      { name: "legacy", cf_api_id: "key-id-1", cf_api_key: "old" },
    );
    const puts = fx.em.faults.add({ method: "PUT", path: `/ai-search/tokens/${live.id}$` });
    const adopted = await st.handler.create(
      await inputs({ ...GOOD, name: "legacy", importId: live.id }),
      ctx,
    );
    fx.em.faults.clear();
    assert.equal(adopted.id, live.id);
    assert.equal(puts.hits, 1, "the live token cannot show its secret: adoption sends the program's");
    assert.ok(stored().includes(`"cf_api_key":"${KEY}"`));
  });
});
