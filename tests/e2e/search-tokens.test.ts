/**
 * SearchToken on the real engine, one stack: up (a token and an instance that names it by its
 * tokenId output), a clean `preview --refresh`, the secret never in plaintext in state, out-of-band
 * drift shown by refresh and put back by `up --refresh`, a rotation as one update, adoption of a
 * token made by hand through importId, and destroy in dependency order (the instance first: the
 * service refuses to delete a token in use), which leaves nothing.
 */
import { strict as assert } from "node:assert";
import { SearchInstance } from "../../provider/resources/search-instance";
import { SearchToken } from "../../provider/resources/search-token";
import type { AccountApi } from "../../sdk";
import { useE2E } from "./harness";

const SECRET = "E2E-TOKEN-SECRET-PLAIN";
const ROTATED = "E2E-TOKEN-ROTATED-PLAIN";

describe("SearchToken end to end", function () {
  this.timeout(600_000);
  const e2e = useE2E("search-tokens");
  let api: AccountApi;

  before(() => {
    api = e2e.api;
  });

  it("goes up, refreshes clean, shows and restores drift, rotates, adopts by importId, and destroys in order", async () => {
    /** What the program declares: the key it gives, and the id of a token to adopt. */
    const program = { key: SECRET, adopt: undefined as string | undefined };
    const stack = await e2e.stack(async () => {
      const token = new SearchToken("reader", {
        name: "e2e-reader",
        cfApiId: "key-id-1",
        cfApiKey: program.key,
      });
      const kb = new SearchInstance("kb", {
        instanceId: "kb-tok",
        type: "r2",
        source: "docs-bucket",
        tokenId: token.tokenId,
      });
      const adopted = program.adopt
        ? new SearchToken("adopted", {
            name: "made-by-hand",
            cfApiId: "key-id-2",
            cfApiKey: SECRET,
            importId: program.adopt,
          })
        : undefined;
      return { tokenId: token.tokenId, hash: token.cfApiKeyHash, kb: kb.id, adopted: adopted?.tokenId };
    });
    const held = (): string => JSON.stringify(e2e.emulator.store.snapshot());

    const up = await stack.up();
    assert.equal(up.summary.resourceChanges?.create, 3);
    const id = String(up.outputs.tokenId?.value);
    assert.match(String(up.outputs.hash?.value), /^sha256:/);
    assert.equal((await api.search.instances.get({ id: "kb-tok" })).token_id, id);
    assert.ok(held().includes(`"cf_api_key":"${SECRET}"`), "the service got the secret");
    assert.ok(!stack.rawState().includes(SECRET), "the secret in plaintext in state");

    await stack.preview({ refresh: true, expectNoChanges: true });

    // Out of band: renamed, another key id and secret.
    await api.search.tokens.update(
      { id },
      { name: "hijacked", cf_api_id: "other", cf_api_key: "other-secret" },
    );
    const refresh = await stack.refresh();
    assert.equal(refresh.summary.resourceChanges?.update, 1, JSON.stringify(refresh.summary.resourceChanges));
    assert.ok(!stack.rawState().includes(SECRET), "the secret in plaintext in state after refresh");

    await stack.stack.up({ refresh: true, onOutput: (l) => stack.output.push(l) });
    const restored = await api.search.tokens.get({ id });
    assert.deepEqual([restored.name, restored.cf_api_id], ["e2e-reader", "key-id-1"]);
    assert.ok(held().includes(`"cf_api_key":"${SECRET}"`), "the program's secret written back");

    // A rotation: one update in place, the same token, the hash moved.
    program.key = ROTATED;
    const rotated = await stack.up();
    assert.equal(rotated.summary.resourceChanges?.update, 1);
    assert.equal(rotated.outputs.tokenId?.value, id);
    assert.notEqual(rotated.outputs.hash?.value, up.outputs.hash?.value);
    assert.ok(held().includes(`"cf_api_key":"${ROTATED}"`));
    assert.ok(!stack.rawState().includes(ROTATED), "the rotated secret in plaintext in state");

    // Adoption: a token made by hand, taken over by importId (its secret written: it cannot be read).
    const byHand = await api.search.tokens.create(
      {},
      { name: "made-by-hand", cf_api_id: "key-id-2", cf_api_key: "x" },
    );
    program.adopt = byHand.id;
    const adopt = await stack.up();
    assert.equal(adopt.summary.resourceChanges?.create, 1);
    assert.equal(adopt.outputs.adopted?.value, byHand.id);
    assert.equal((await api.search.tokens.list({}, { search: "made-by-hand" }).toArray()).length, 1);
    await stack.preview({ refresh: true, expectNoChanges: true });

    // The instance goes first (it depends on the token's output); the service would refuse otherwise.
    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
    assert.deepEqual(await api.search.tokens.list().toArray(), []);
    assert.deepEqual(
      (await api.search.instances.list().toArray()).map((i) => i.id),
      [],
    );
  });
});
