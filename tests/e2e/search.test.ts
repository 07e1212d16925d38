/**
 * SearchInstance and the search functions on the real engine: the full lifecycle in both namespace
 * forms (one with reranking and hybrid search) with a clean refresh, out-of-band drift restored by
 * `up --refresh`, secrets kept out of plaintext state, stats read only where asked (`readStats`, the
 * `getSearchInstanceStats` function), adoption, and a sync job run from a program on `up`.
 */
import { strict as assert } from "node:assert";
import { getSearchInstanceStats } from "../../index";
import { triggerSyncJob, waitForJob } from "../../provider/functions/search";
import { SearchInstance } from "../../provider/resources/search-instance";
import type { AccountApi } from "../../sdk";
import { collect } from "../../sdk/paging";
import { useE2E } from "./harness";

const SECRET = "e2e-secret-access-key-4f1a";

describe("search end to end (real engine)", function () {
  this.timeout(600_000);
  const e2e = useE2E("search");
  let api: AccountApi;

  before(async () => {
    api = e2e.api;
    const res = await fetch(`${e2e.emulator.origin}/__emulator/search/namespaces`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "team-a" }),
    });
    assert.equal(res.status, 200);
  });

  it("creates, refreshes clean, detects drift in both namespaces, restores it with up --refresh, destroys", async () => {
    const stack = await e2e.stack(async () => {
      const kb = new SearchInstance("kb", {
        instanceId: "kb",
        type: "r2",
        source: "kb-bucket",
        sourceParams: { prefix: "docs/" },
        storageCredentials: { accessKeyId: "AKID-E2E", secretAccessKey: SECRET },
        chunkSize: 512,
        hybridSearchEnabled: true,
        reranking: true,
        rerankingModel: "@cf/baai/bge-reranker-base",
        fusionMethod: "max",
        retrievalOptions: { keywordMatchMode: "or" },
        readStats: true,
      });
      const team = new SearchInstance("team", {
        namespace: "team-a",
        instanceId: "kb",
        type: "web-crawler",
        source: "docs.example.com",
        syncInterval: 3600,
      });
      return {
        kbId: kb.id,
        teamId: team.id,
        teamStatus: team.status,
        kbStats: kb.stats,
        teamStats: team.stats,
      };
    });

    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    assert.equal(up.outputs.kbId?.value, "default/kb");
    assert.equal(up.outputs.teamId?.value, "team-a/kb");
    assert.equal(up.outputs.teamStatus?.value, "waiting");
    assert.deepEqual(up.outputs.kbStats?.value, { queued: 0, running: 0, completed: 0, error: 0 });
    assert.equal(up.outputs.teamStats?.value, undefined, "no stats read unless readStats asks");
    assert.ok(!stack.rawState().includes(SECRET), "the storage secret is never plaintext in state");
    assert.ok(!stack.output.join("").includes(SECRET), "nor in the engine's output");

    const live = await api.search.instances.get({ id: "kb" });
    assert.deepEqual(
      [live.hybrid_search_enabled, live.reranking, live.reranking_model, live.fusion_method],
      [true, true, "@cf/baai/bge-reranker-base", "max"],
    );
    await stack.refresh({ expectNoChanges: true });

    // Out of band: reranking and the chunk size off in one namespace, the interval in the other.
    await api.search.instances.update(
      { id: "kb" },
      {
        source_params: { prefix: "docs/" },
        chunk_size: 1024,
        reranking: false,
        fusion_method: "max",
        retrieval_options: { keyword_match_mode: "or" },
      },
    );
    await api.search.instances.update({ namespace: "team-a", id: "kb" }, { sync_interval: 7200 });

    const refresh = await stack.refresh();
    assert.ok(
      (refresh.summary.resourceChanges?.update ?? 0) >= 2,
      JSON.stringify(refresh.summary.resourceChanges),
    );
    assert.ok(!stack.rawState().includes(SECRET), "the storage secret stays out of state after refresh");
    const drift = await stack.preview();
    assert.equal(drift.changeSummary.update, 2);

    // `up --refresh`: reads the drift again and puts the program's settings back.
    const reconcile = await stack.stack.up({ refresh: true, onOutput: (l) => stack.output.push(l) });
    assert.equal(reconcile.summary.result, "succeeded");
    const restored = await api.search.instances.get({ id: "kb" });
    assert.deepEqual(
      [restored.chunk_size, restored.reranking, restored.reranking_model, restored.hybrid_search_enabled],
      [512, true, "@cf/baai/bge-reranker-base", true],
    );
    assert.equal((await api.search.instances.get({ namespace: "team-a", id: "kb" })).sync_interval, 3600);
    await stack.preview({ expectNoChanges: true });

    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
    assert.deepEqual(await collect(api.search.instances.list()), []);
    assert.deepEqual(await collect(api.search.instances.list({ namespace: "team-a" })), []);
  });

  it("adopts an existing instance with importId and runs a sync job from the program", async () => {
    await api.search.instances.create(
      {},
      { id: "legacy", type: "r2", source: "kb-bucket", chunk_size: 2048 },
    );
    const stack = await e2e.stack(async () => {
      const legacy = new SearchInstance("legacy", {
        instanceId: "legacy",
        importId: "legacy",
        type: "r2",
        source: "kb-bucket",
      });
      const started = triggerSyncJob({ instanceId: legacy.instanceId });
      const ended = waitForJob({
        instanceId: legacy.instanceId,
        jobId: started.apply((j) => j?.id ?? ""),
        deadlineMs: 60_000,
        pollIntervalMs: 250,
      });
      // Read once the job has ended: the function the program asks, not a read on every refresh.
      const stats = getSearchInstanceStats({ instanceId: ended.apply(() => "legacy") });
      return {
        chunkSize: legacy.chunkSize,
        endReason: ended.apply((j) => j?.endReason),
        jobId: started.apply((j) => j?.id),
        completed: stats.apply((s) => s?.completed),
      };
    });
    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    assert.equal(up.outputs.chunkSize?.value, 256);
    assert.equal(up.outputs.endReason?.value, "completed");
    const jobs = await collect(api.search.jobs.list({ id: "legacy" }));
    assert.deepEqual(
      jobs.map((j) => j.id),
      [up.outputs.jobId?.value],
    );
    assert.equal(up.outputs.completed?.value, 3);

    await stack.destroy();
    assert.deepEqual(await collect(api.search.instances.list()), []);
  });
});
