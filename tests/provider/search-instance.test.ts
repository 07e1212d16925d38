import { strict as assert } from "node:assert";
import { runTriggerSyncJob, runWaitForJob } from "../../provider/functions/search";
import { UNKNOWN, secretHash } from "../../provider/core/values";
import * as si from "../../provider/resources/search-instance";
import { handlerFor } from "../../provider/registry";
import type { HandlerContext } from "../../provider/types";
import { useEmulator } from "../helpers/emulator";
import { offlineContext as offline, providerContext } from "../helpers/provider-context";

const DEFAULTS = {
  chunk: true,
  chunkSize: 256,
  chunkOverlap: 10,
  cache: true,
  cacheThreshold: "close_enough",
  fusionMethod: "rrf",
  hybridSearchEnabled: false,
  indexMethod: { keyword: false, vector: true },
  maxNumResults: 10,
  reranking: false,
  rewriteQuery: false,
  scoreThreshold: 0.4,
  summarization: false,
  syncInterval: 21600,
  paused: false,
  readStats: false,
} as const;

const TOKEN = "0f8c1e2a-4b5c-4d6e-8f90-a1b2c3d4e5f6";

const CREDS = { accessKeyId: "AKID-1", secretAccessKey: "very-secret-value" };

const check = async (news: Record<string, unknown>, ctx: HandlerContext = offline) =>
  si.handler.check(undefined, news, ctx);

/** Checked inputs of good input (no failures). */
async function inputs(news: Record<string, unknown>): Promise<si.SearchInstanceInputs> {
  const r = await check(news);
  assert.deepEqual(r.failures, [], JSON.stringify(news));
  assert.ok(r.inputs);
  return r.inputs;
}

describe("SearchInstance: check without the API", () => {
  it("fills in the server's defaults and treats the default namespace as absent", async () => {
    assert.deepEqual(
      await inputs({ instanceId: "kb", namespace: "default", chunkSize: 512, tokenId: undefined }),
      {
        ...DEFAULTS,
        instanceId: "kb",
        chunkSize: 512,
      },
    );
  });

  it("names the input field and the rule of each failure, all at once, before any request", async () => {
    const table: [Record<string, unknown>, string[]][] = [
      [{}, ["instanceId: is required"]],
      [{ instanceId: "Bad Id" }, ["instanceId: must contain only lowercase letters, digits, - and _"]],
      [
        { instanceId: "kb", syncInterval: 60 },
        ["syncInterval: must be one of 900, 1800, 3600, 7200, 14400, 21600, 43200, 86400 seconds"],
      ],
      [
        { instanceId: "kb", rerankingModel: "bge" },
        ['rerankingModel: must be one of @cf/baai/bge-reranker-base, ""'],
      ],
      [
        { instanceId: "kb", publicEndpointParams: { rateLimit: { technique: "leaky" } } },
        ["publicEndpointParams.rateLimit.technique: must be one of fixed, sliding"],
      ],
      [
        { instanceId: "kb", retrievalOptions: { boostBy: [{ direction: "up" }] } },
        [
          "retrievalOptions.boostBy.0.field: is required",
          "retrievalOptions.boostBy.0.direction: must be one of asc, desc, exists, not_exists",
        ],
      ],
      [{ instanceId: "kb", scoreThreshold: 2 }, ["scoreThreshold: must be between 0 and 1"]],
      [
        { instanceId: "kb", namespace: "Team A" },
        ["namespace: must contain only lowercase letters, digits, - and _"],
      ],
      [{ instanceId: "kb", source: "b-bucket" }, ["type: is required when source is set"]],
      [
        { instanceId: "kb", type: "r2", source: "Not A Bucket" },
        ["source: must be an R2 bucket name (3-63 lowercase letters, digits and -) when type is r2"],
      ],
      [
        { instanceId: "kb", customMetadata: [{ fieldName: "team", dataType: "date" }] },
        ["customMetadata.0.dataType: must be one of text, number, boolean, datetime"],
      ],
      [
        {
          instanceId: "kb",
          type: "web-crawler",
          source: "example.com",
          sourceParams: { webCrawler: { parseType: "rss" } },
        },
        ["sourceParams.webCrawler.parseType: must be one of sitemap, feed-rss, crawl, discover"],
      ],
      [{ instanceId: "kb", indexMethod: { keyword: false } }, ["indexMethod.vector: is required"]],
      [
        { instanceId: "kb", storageCredentials: { accessKeyId: "a" } },
        ["storageCredentials.secretAccessKey: is required"],
      ],
      [
        { instanceId: "kb", importId: "other" },
        ["importId: must equal instanceId (an instance's id never changes)"],
      ],
      [
        {
          instanceId: "kb",
          chunkSize: 1,
          cacheThreshold: "always",
          sourceParams: { prefx: "a/", storageCredentials: CREDS },
          extra: 1,
        },
        [
          "chunkSize: must be at least 64",
          "cacheThreshold: must be one of super_strict_match, close_enough, flexible_friend, anything_goes",
          "sourceParams.prefx: is not a known field",
          "sourceParams.storageCredentials: is not a known field",
          "extra: is not a known field",
        ],
      ],
    ];
    for (const [news, reasons] of table) {
      const r = await check(news);
      assert.deepEqual(
        [...(r.failures ?? []).map((f) => f.reason)].sort(),
        [...reasons].sort(),
        JSON.stringify(news),
      );
    }
  });

  it("leaves values unknown at preview for the real run", async () => {
    const r = await check({ instanceId: UNKNOWN, type: "r2", source: UNKNOWN, chunkSize: UNKNOWN });
    assert.deepEqual(r.failures, []);
  });

  it("keeps the credentials out of the failures", async () => {
    const r = await check({ instanceId: "kb", storageCredentials: { ...CREDS, accessKeyId: "" } });
    assert.deepEqual(
      r.failures!.map((f) => f.reason),
      ["storageCredentials.accessKeyId: must not be empty"],
    );
    assert.ok(!JSON.stringify(r.failures).includes(CREDS.secretAccessKey));
  });
});

describe("SearchInstance: hooks", () => {
  it("names an instance `<namespace>/<instanceId>` and reads ids of both forms", () => {
    const table: [string, string | undefined, { namespace: string | undefined; id: string }][] = [
      ["default/kb", undefined, { namespace: undefined, id: "kb" }],
      ["team-a/kb", undefined, { namespace: "team-a", id: "kb" }],
      ["kb", undefined, { namespace: undefined, id: "kb" }],
      ["kb", "team-a", { namespace: "team-a", id: "kb" }],
    ];
    for (const [id, namespace, ref] of table) assert.deepEqual(si.instanceRef(id, namespace), ref, id);
    assert.equal(si.resourceId({ instanceId: "kb" }), "default/kb");
    assert.equal(si.resourceId({ namespace: "team-a", instanceId: "kb" }), "team-a/kb");
  });

  it("splits the inputs into the service's create and update bodies, credentials in source_params", async () => {
    const ins = await inputs({
      instanceId: "kb",
      type: "r2",
      source: "kb-bucket",
      hybridSearchEnabled: true,
      sourceParams: { prefix: "d/", includeItems: ["*.md"] },
      storageCredentials: CREDS,
      customMetadata: [{ fieldName: "team", dataType: "text" }],
      retrievalOptions: { keywordMatchMode: "or" },
      systemPromptAiSearch: "Answer briefly.",
    });
    const shared = {
      source_params: {
        prefix: "d/",
        include_items: ["*.md"],
        storage_credentials: { access_key_id: "AKID-1", secret_access_key: "very-secret-value" },
      },
      chunk: true,
      chunk_size: 256,
      chunk_overlap: 10,
      cache: true,
      cache_threshold: "close_enough",
      custom_metadata: [{ field_name: "team", data_type: "text" }],
      fusion_method: "rrf",
      index_method: { keyword: false, vector: true },
      max_num_results: 10,
      reranking: false,
      retrieval_options: { keyword_match_mode: "or" },
      rewrite_query: false,
      score_threshold: 0.4,
      sync_interval: 21600,
      paused: false,
      summarization: false,
      system_prompt_ai_search: "Answer briefly.",
    };
    // The create takes the update's settings too (paused, summarization, prompts): one POST.
    assert.deepEqual(si.createBody(ins), {
      id: "kb",
      type: "r2",
      source: "kb-bucket",
      hybrid_search_enabled: true,
      ...shared,
    });
    assert.deepEqual(si.updateBody(ins), shared);
  });

  it("keeps crawl header names as written on the wire and back", async () => {
    const ins = await inputs({
      instanceId: "web",
      type: "web-crawler",
      source: "docs.example.com",
      sourceParams: {
        webCrawler: { parseType: "crawl", parseOptions: { includeHeaders: { "X-Api-Key": "k" } } },
      },
    });
    assert.deepEqual(si.createBody(ins).source_params, {
      web_crawler: { parse_type: "crawl", parse_options: { include_headers: { "X-Api-Key": "k" } } },
    });
  });

  it("upgrades a state stored before the contract's settings and readStats existed: no diff, no replacement", async () => {
    const stored: Record<string, unknown> = {
      instanceId: "kb",
      chunk: true,
      chunkSize: 256,
      chunkOverlap: 10,
      cache: true,
      cacheThreshold: "close_enough",
      indexMethod: { keyword: false, vector: true },
      syncInterval: 21600,
      paused: false,
      status: "ready",
      // Earlier releases read the stats on every create and refresh.
      stats: { queued: 0, running: 0, completed: 3, error: 0 },
    };
    // The runtime hands stored state over untyped, as the engine stored it.
    const d = await handlerFor("SearchInstance").diff(
      "default/kb",
      stored,
      await inputs({ instanceId: "kb" }),
      offline,
    );
    assert.deepEqual(d, { changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("projects a live instance: settings from it alone, identity and credentials from before", () => {
    const previous: si.SearchInstanceInputs = {
      ...DEFAULTS,
      accountId: "acct",
      instanceId: "kb",
      namespace: "team-a",
      tokenId: TOKEN,
      systemPromptAiSearch: "kept where the answer leaves it out",
      sourceParams: { prefix: "old/" },
      storageCredentials: CREDS,
    };
    const live = {
      id: "kb",
      namespace: "team-a",
      chunk: true,
      chunk_size: 1024,
      chunk_overlap: 10,
      cache: true,
      cache_threshold: "close_enough",
      index_method: { keyword: false, vector: true },
      sync_interval: 21600,
      paused: false,
      fusion_method: "rrf",
      hybrid_search_enabled: false,
      max_num_results: 10,
      reranking: false,
      rewrite_query: false,
      score_threshold: 0.4,
      summarization: false,
      ai_search_model: null,
      source_params: {},
      status: "ready",
      created_at: "2026-01-01T00:00:00Z",
      modified_at: "2026-01-01T00:00:00Z",
    };
    const fromTable = { ...previous, chunkSize: 1024, sourceParams: {} };
    assert.deepEqual(si.project(live, fromTable), {
      ...DEFAULTS,
      accountId: "acct",
      instanceId: "kb",
      namespace: "team-a",
      chunkSize: 1024,
      systemPromptAiSearch: "kept where the answer leaves it out",
      storageCredentials: CREDS,
    });
  });
});

describe("SearchInstance: diff", () => {
  const base = { ...DEFAULTS, instanceId: "kb", type: "r2", source: "kb-bucket" } as const;
  const olds: si.SearchInstanceOutputs = {
    ...base,
    storageCredentials: CREDS,
    storageCredentialsHash: secretHash("storageCredentials", CREDS),
    createdAt: "t",
    status: "ready",
    stats: { queued: 0, running: 0, completed: 3, error: 0 },
  };

  const table: [
    string,
    Partial<si.SearchInstanceInputs>,
    { replaces: string[]; deleteBeforeReplace: boolean } | undefined,
  ][] = [
    ["nothing", {}, undefined],
    ["a setting", { chunkSize: 512 }, { replaces: [], deleteBeforeReplace: false }],
    [
      "reranking",
      { reranking: true, rerankingModel: "@cf/baai/bge-reranker-base" },
      { replaces: [], deleteBeforeReplace: false },
    ],
    ["a system prompt", { systemPromptAiSearch: "Be brief." }, { replaces: [], deleteBeforeReplace: false }],
    [
      "hybrid search (the update cannot set it)",
      { hybridSearchEnabled: true },
      { replaces: ["hybridSearchEnabled"], deleteBeforeReplace: true },
    ],
    ["the source", { source: "other-bucket" }, { replaces: ["source"], deleteBeforeReplace: true }],
    ["the id", { instanceId: "kb2" }, { replaces: ["instanceId"], deleteBeforeReplace: false }],
    ["the namespace", { namespace: "team-a" }, { replaces: ["namespace"], deleteBeforeReplace: false }],
    [
      "the id and the type",
      { instanceId: "kb2", type: "web-crawler" },
      { replaces: ["instanceId", "type"], deleteBeforeReplace: false },
    ],
    ["only importId", { importId: "kb" }, undefined],
    [
      "the credentials",
      { storageCredentials: { ...CREDS, secretAccessKey: "rotated" } },
      { replaces: [], deleteBeforeReplace: false },
    ],
    [
      "the credentials removed",
      { storageCredentials: undefined },
      { replaces: [], deleteBeforeReplace: false },
    ],
  ];
  for (const [label, change, expected] of table) {
    it(`on a change of ${label}`, async () => {
      const news: si.SearchInstanceInputs = { ...base, storageCredentials: CREDS, ...change };
      const d = await si.handler.diff("default/kb", olds, news, offline);
      assert.deepEqual(
        d,
        expected
          ? { changes: true, ...expected }
          : { changes: false, replaces: [], deleteBeforeReplace: false },
      );
      assert.ok(!JSON.stringify(d).includes("rotated"), "the diff never carries the secret");
    });
  }
});

describe("SearchInstance: handler on the emulator", () => {
  const fx = useEmulator();

  async function seedNamespace(name: string): Promise<void> {
    const res = await fx.http("POST", "/__emulator/search/namespaces", { body: { name } });
    assert.equal(res.status, 200, res.text);
  }

  for (const namespace of [undefined, "team-a"]) {
    it(`creates, reads without drift, shows out-of-band drift, updates and deletes (${namespace ?? "default"})`, async () => {
      if (namespace) await seedNamespace(namespace);
      const ctx = providerContext(fx);
      const ins = await inputs({
        instanceId: "kb",
        namespace,
        type: "r2",
        source: "kb-bucket",
        sourceParams: { prefix: "docs/" },
        storageCredentials: CREDS,
        customMetadata: [{ fieldName: "team", dataType: "text" }],
        tokenId: TOKEN,
        hybridSearchEnabled: true,
        reranking: true,
        rerankingModel: "@cf/baai/bge-reranker-base",
        fusionMethod: "max",
        retrievalOptions: { keywordMatchMode: "or", boostBy: [{ field: "timestamp", direction: "desc" }] },
        publicEndpointParams: { enabled: true, rateLimit: { periodMs: 60_000, requests: 5 } },
        summarization: true,
        systemPromptAiSearch: "Answer from the docs.",
        readStats: true,
      });

      const created = await si.handler.create(ins, ctx);
      assert.equal(created.id, `${namespace ?? "default"}/kb`);
      assert.equal(created.outs.status, "waiting");
      assert.equal(created.outs.createdBy !== undefined, true);
      assert.equal(created.outs.lastActivity, null);
      assert.deepEqual(created.outs.stats, { queued: 0, running: 0, completed: 0, error: 0 });
      assert.equal(created.outs.storageCredentialsHash, secretHash("storageCredentials", CREDS));
      const wire = await fx.api.search.instances.get({ namespace, id: "kb" });
      assert.deepEqual(wire.custom_metadata, [{ field_name: "team", data_type: "text" }]);
      assert.deepEqual(wire.source_params, { prefix: "docs/" });
      assert.deepEqual(
        [wire.hybrid_search_enabled, wire.reranking, wire.summarization, wire.system_prompt_ai_search],
        [true, true, true, "Answer from the docs."],
        "the update's settings went with the create",
      );
      assert.equal(typeof created.outs.publicEndpointId, "string");
      assert.equal(created.outs.engineVersion, 3);

      const read = await si.handler.read(created.id, created.outs, ctx);
      assert.ok(read);
      assert.deepEqual(read.inputs, ins, "an unchanged object reads back as exactly the inputs");
      assert.equal((await si.handler.diff(created.id, read.props, read.inputs, ctx)).changes, false);

      // Out of band: settings change, others are cleared, and a job runs.
      await fx.api.search.instances.update(
        { namespace, id: "kb" },
        {
          source_params: { prefix: "docs/" },
          chunk_size: 1024,
          custom_metadata: [{ field_name: "team", data_type: "text" }],
          reranking: false,
        },
      );
      const job = await fx.api.search.jobs.create({ namespace, id: "kb" });
      assert.ok(job.id);
      fx.clock.advance(60_000);
      const drifted = await si.handler.read(created.id, created.outs, ctx);
      assert.ok(drifted);
      assert.equal(drifted.inputs.chunkSize, 1024);
      assert.equal(drifted.inputs.tokenId, undefined, "a setting cleared out of band reads as cleared");
      assert.equal(drifted.inputs.reranking, false);
      assert.equal(drifted.inputs.systemPromptAiSearch, undefined, "null on the wire reads as unset");
      assert.equal(drifted.inputs.summarization, false, "summarization turned off out of band");
      assert.equal(drifted.inputs.hybridSearchEnabled, true, "kept by the PUT: it is fixed at create");
      assert.deepEqual(drifted.props.stats, { queued: 0, running: 0, completed: 3, error: 0 });
      assert.equal(drifted.props.status, "ready");
      assert.deepEqual(drifted.inputs.storageCredentials, CREDS, "write-only values are kept from state");
      const diff = await si.handler.diff(created.id, drifted.props, ins, ctx);
      assert.deepEqual(diff, { changes: true, replaces: [], deleteBeforeReplace: false });

      const updated = await si.handler.update(created.id, drifted.props, ins, ctx);
      assert.equal(updated.outs.chunkSize, 256);
      const after = await fx.api.search.instances.get({ namespace, id: "kb" });
      assert.deepEqual(
        [
          after.chunk_size,
          after.token_id,
          after.reranking,
          after.system_prompt_ai_search,
          after.summarization,
        ],
        [256, TOKEN, true, "Answer from the docs.", true],
      );

      await si.handler.delete(created.id, updated.outs, ctx);
      assert.equal(
        await si.handler.read(created.id, updated.outs, ctx),
        undefined,
        "a 404 on read means gone",
      );
      await si.handler.delete(created.id, updated.outs, ctx); // deleting again is success
    });
  }

  it("propagates a read error other than a 404", async () => {
    const ctx = providerContext(fx);
    const { id, outs } = await si.handler.create(await inputs({ instanceId: "kb" }), ctx);
    fx.em.faults.add({ method: "GET", path: "/ai-search/instances/kb$", status: 500 });
    await assert.rejects(si.handler.read(id, outs, ctx), (e: Error) => e.name !== "NotFoundError");
    fx.em.faults.clear();
    assert.equal((await si.handler.read(id, outs, ctx))!.id, id);
  });

  it("refuses to create over an existing instance and says how to adopt it", async () => {
    const ctx = providerContext(fx);
    await fx.api.search.instances.create({}, { id: "taken", chunk_size: 1024 });
    await assert.rejects(si.handler.create(await inputs({ instanceId: "taken" }), ctx), {
      message:
        'instanceId: a search instance "taken" in namespace "default" already exists (default/taken) with other settings (chunkSize); set importId: "taken" to adopt it',
    });
    // The same settings: a create of ours whose answer was lost, or a run of the same program.
    const own = await si.handler.create(await inputs({ instanceId: "taken", chunkSize: 1024 }), ctx);
    assert.equal(own.id, "default/taken");
  });

  it("sends the create alone; a lost answer leads to the look-up, which adopts what landed", async () => {
    const ctx = providerContext(fx);
    const lookups = fx.em.faults.add({ method: "GET", path: "/ai-search/instances/fresh$" });
    const posts = fx.em.faults.add({ method: "POST", path: "/ai-search/instances$" });
    await si.handler.create(await inputs({ instanceId: "fresh" }), ctx);
    assert.deepEqual([lookups.hits, posts.hits], [0, 1]);
    // A lost answer: the object landed, the look-up finds it, and it is adopted, not made twice.
    fx.em.faults.add({ method: "POST", path: "/ai-search/instances$", commitThenDrop: true, times: 1 });
    const again = await si.handler.create(await inputs({ instanceId: "dropped" }), ctx);
    fx.em.faults.clear();
    assert.equal(again.id, "default/dropped");
    let copies = 0;
    for await (const i of fx.api.search.instances.list()) if (i.id === "dropped") copies++;
    assert.equal(copies, 1);
  });

  it("adopts an existing instance with importId and brings it to the inputs, credentials included", async () => {
    const ctx = providerContext(fx);
    await fx.api.search.instances.create(
      {},
      { id: "legacy", type: "r2", source: "kb-bucket", chunk_size: 2048 },
    );
    const ins = await inputs({ instanceId: "legacy", importId: "legacy", type: "r2", source: "kb-bucket" });
    const adopted = await si.handler.create(ins, ctx);
    assert.equal(adopted.id, "default/legacy");
    assert.equal(adopted.outs.chunkSize, 256);
    assert.equal((await fx.api.search.instances.get({ id: "legacy" })).chunk_size, 256);
    await assert.rejects(si.handler.create(await inputs({ instanceId: "ghost", importId: "ghost" }), ctx), {
      message: "importId: search instance ghost not found; nothing to adopt",
    });

    // Nothing but the credentials differs: the live instance cannot show them, so adoption sends them.
    await fx.api.search.instances.create({}, { id: "same", type: "r2", source: "kb-bucket" });
    const put = fx.em.faults.add({ method: "PUT", path: "/instances/same$" });
    const withCreds = await inputs({
      instanceId: "same",
      importId: "same",
      type: "r2",
      source: "kb-bucket",
      storageCredentials: CREDS,
    });
    const took = await si.handler.create(withCreds, ctx);
    fx.em.faults.clear();
    assert.equal(put.hits, 1, "one PUT carried the credentials");
    assert.equal(took.outs.storageCredentialsHash, secretHash("storageCredentials", CREDS));
  });

  it("logs that removed credentials stay with the service", async () => {
    const logs: string[] = [];
    const ctx = providerContext(fx, logs);
    const ins = await inputs({
      instanceId: "kb",
      type: "r2",
      source: "kb-bucket",
      storageCredentials: CREDS,
    });
    const created = await si.handler.create(ins, ctx);
    const { storageCredentials: _gone, ...without } = ins;
    const d = await si.handler.diff(created.id, created.outs, without, ctx);
    assert.deepEqual(d, { changes: true, replaces: [], deleteBeforeReplace: false });
    const { outs } = await si.handler.update(created.id, created.outs, without, ctx);
    assert.equal(outs.storageCredentialsHash, undefined);
    assert.deepEqual(logs, [
      "SearchInstance default/kb: storageCredentials removed from the program; the service keeps the stored ones until new ones are given",
    ]);
  });

  it("is served by the registry from a state stored by the single-file release", async () => {
    const ctx = providerContext(fx);
    const { id, outs } = await si.handler.create(
      await inputs({ instanceId: "kb", storageCredentials: CREDS }),
      ctx,
    );
    // The runtime hands stored state over untyped; 0.1.x stored the same names.
    const untyped = handlerFor("SearchInstance");
    const stored: Record<string, unknown> = { ...outs };
    const read = await untyped.read(id, stored, ctx);
    assert.deepEqual(Reflect.get(read!.inputs, "storageCredentials"), CREDS);
    await untyped.delete(id, stored, ctx);
    assert.equal(await untyped.read(id, stored, ctx), undefined);
  });
});

describe("search functions (the logic run on up)", () => {
  const fx = useEmulator();

  it("starts a job, reuses a running one, and waits for it", async () => {
    await fx.api.search.instances.create({}, { id: "kb", type: "r2", source: "kb-bucket" });
    const started = await runTriggerSyncJob(fx.api, { instanceId: "kb" });
    assert.equal(started.reused, false);
    assert.equal(started.endedAt, null);
    const again = await runTriggerSyncJob(fx.api, { instanceId: "kb" });
    assert.deepEqual({ id: again.id, reused: again.reused }, { id: started.id, reused: true });
    fx.clock.advance(10_000);
    const done = await runWaitForJob(fx.api, { instanceId: "kb", jobId: started.id });
    assert.equal(done.endReason, "completed");
    assert.equal(done.endedAt, "2026-01-01T00:00:02.500Z");
  });

  it("starts a fresh job with reuseRunning: false, which ends the running one", async () => {
    await fx.api.search.instances.create({}, { id: "kb", type: "r2", source: "kb-bucket" });
    const first = await runTriggerSyncJob(fx.api, { instanceId: "kb" });
    const fresh = await runTriggerSyncJob(fx.api, { instanceId: "kb", reuseRunning: false });
    assert.notEqual(fresh.id, first.id);
    assert.equal(fresh.reused, false);
    const ended = await runWaitForJob(fx.api, { instanceId: "kb", jobId: first.id });
    assert.equal(ended.endReason, "new_job_has_started");
  });
});
