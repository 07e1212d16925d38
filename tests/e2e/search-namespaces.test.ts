/**
 * SearchNamespace on the real engine, in one stack with a SearchInstance living in it (made after it,
 * through its `name` output): up, a clean `preview --refresh`, a description changed out of band seen
 * by refresh and put back by `up --refresh`, a namespace made by hand adopted through importId, and
 * destroy, which leaves only the `default` namespace.
 */
import { strict as assert } from "node:assert";
import { SearchInstance } from "../../provider/resources/search-instance";
import { SearchNamespace } from "../../provider/resources/search-namespace";
import type { AccountApi } from "../../sdk";
import { collect } from "../../sdk/paging";
import { useE2E } from "./harness";

describe("SearchNamespace end to end (real engine)", function () {
  this.timeout(600_000);
  const e2e = useE2E("search-namespaces");
  let api: AccountApi;

  before(() => {
    api = e2e.api;
  });

  it("goes up with an instance in it, refreshes clean, restores drift with up --refresh, adopts, destroys", async () => {
    /** The program adopts the hand-made namespace from the step that sets this on. */
    let adopt = false;
    const stack = await e2e.stack(async () => {
      const team = new SearchNamespace("team", { name: "e2e-team", description: "E2E team" });
      const kb = new SearchInstance("kb", {
        namespace: team.name,
        instanceId: "kb",
        type: "r2",
        source: "kb-bucket",
      });
      const out: Record<string, unknown> = { teamId: team.id, createdAt: team.createdAt, kbId: kb.id };
      if (adopt) {
        const legacy = new SearchNamespace("legacy", {
          name: "e2e-legacy",
          importId: "e2e-legacy",
          description: "managed now",
        });
        out.legacyId = legacy.id;
      }
      return out;
    });

    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    assert.equal(up.summary.resourceChanges?.create, 3);
    assert.equal(up.outputs.teamId?.value, "e2e-team");
    assert.equal(up.outputs.kbId?.value, "e2e-team/kb", "the instance was made in the namespace, after it");
    assert.match(String(up.outputs.createdAt?.value), /^\d{4}-\d\d-\d\dT/);
    assert.equal((await api.search.namespaces.get({ name: "e2e-team" })).description, "E2E team");

    await stack.preview({ expectNoChanges: true, refresh: true });

    await api.search.namespaces.update({ name: "e2e-team" }, { description: "changed by hand" });
    const refresh = await stack.refresh();
    assert.equal(refresh.summary.resourceChanges?.update, 1, JSON.stringify(refresh.summary.resourceChanges));
    const restore = await stack.stack.up({ refresh: true, onOutput: (l) => stack.output.push(l) });
    assert.equal(restore.summary.result, "succeeded");
    assert.equal((await api.search.namespaces.get({ name: "e2e-team" })).description, "E2E team");

    // Made by hand, then adopted: the same namespace, brought to the program's description.
    await api.search.namespaces.create({}, { name: "e2e-legacy", description: "by hand" });
    adopt = true;
    const adopted = await stack.up();
    assert.equal(adopted.summary.resourceChanges?.create, 1);
    assert.equal(adopted.outputs.legacyId?.value, "e2e-legacy");
    assert.equal((await api.search.namespaces.get({ name: "e2e-legacy" })).description, "managed now");
    await stack.preview({ expectNoChanges: true });

    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
    assert.deepEqual(
      (await collect(api.search.namespaces.list())).map((n) => n.name),
      ["default"],
      "destroy leaves only the default namespace, which always exists",
    );
  });
});
