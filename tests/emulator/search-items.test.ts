/**
 * Items, retrieval, the answer cache and moves between namespaces, through the sdk against the
 * emulator: what a sync job indexed is listed, chunked, downloadable, searchable and answerable, and
 * every change made through the API (an upload, a re-index, a delete, a purge) shows everywhere at once.
 */
import { strict as assert } from "node:assert";
import { CORPUS } from "../../emulator/search/corpus";
import { ITEM_MS, SCAN_MS } from "../../emulator/search/sync";
import { BadRequestError, NotFoundError } from "../../sdk/errors";
import { collect } from "../../sdk/paging";
import type { SearchItem } from "../../sdk/search";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

/** docs-bucket holds 7 items: doc-k.md is paragraph k of the corpus; doc-5.md fails. */
const SOURCE = "docs-bucket";
const JOB_MS = SCAN_MS + 7 * ITEM_MS;

async function indexed(fx: EmulatorFixture, namespace?: string): Promise<void> {
  await fx.api.search.instances.create({ namespace }, { id: "kb", type: "r2", source: SOURCE });
  await fx.api.search.jobs.create({ namespace, id: "kb" });
  fx.clock.advance(JOB_MS);
}

async function itemByKey(fx: EmulatorFixture, key: string): Promise<SearchItem> {
  const [found] = await collect(fx.api.search.items.list({ id: "kb" }, { search: key }));
  assert.ok(found, key);
  return found;
}

describe("search emulator: items", () => {
  const fx = useEmulator();

  it("lists what a sync job indexed, by status, with the contract's fields", async () => {
    await indexed(fx);
    const items = await collect(fx.api.search.items.list({ id: "kb" }));
    assert.deepEqual(
      items.map((i) => `${i.status} ${i.key}`),
      [
        "error doc-5.md",
        "completed doc-1.md",
        "completed doc-2.md",
        "completed doc-3.md",
        "completed doc-4.md",
        "completed doc-6.md",
        "completed doc-7.md",
      ],
    );
    const doc1 = items[1]!;
    assert.equal(doc1.namespace, "default");
    assert.equal(doc1.source_id, "r2:docs-bucket");
    assert.equal(doc1.chunks_count, 1);
    assert.equal(doc1.next_action, null);
    assert.equal(doc1.created_at, "2026-01-01T00:00:01.500Z");
    assert.equal(items[0]!.error, "unsupported_type");
    assert.equal(items[0]!.chunks_count, null);
    assert.deepEqual(await fx.api.search.items.get({ id: "kb", itemId: doc1.id }), doc1);
    const errors = await collect(fx.api.search.items.list({ id: "kb" }, { status: "error" }));
    assert.deepEqual(
      errors.map((i) => i.key),
      ["doc-5.md"],
    );
  });

  it("shows items queued and running while a job runs", async () => {
    await fx.api.search.instances.create({}, { id: "kb", type: "r2", source: SOURCE });
    await fx.api.search.jobs.create({ id: "kb" });
    fx.clock.advance(SCAN_MS + 2 * ITEM_MS);
    const items = await collect(fx.api.search.items.list({ id: "kb" }));
    assert.deepEqual(
      items.map((i) => `${i.status} ${i.key} ${i.next_action}`),
      [
        "running doc-3.md null",
        "queued doc-4.md INDEX",
        "queued doc-5.md INDEX",
        "queued doc-6.md INDEX",
        "queued doc-7.md INDEX",
        "completed doc-1.md null",
        "completed doc-2.md null",
      ],
    );
  });

  it("pages items with at least 5 per page, as the contract's result_info says", async () => {
    await indexed(fx);
    const res = await fx.http(
      "GET",
      `/accounts/${fx.em.accountId}/ai-search/namespaces/default/instances/kb/items?per_page=2`,
    );
    const env = res.json as { result: unknown[]; result_info: Record<string, number> };
    assert.deepEqual(env.result_info, { page: 1, per_page: 5, count: 5, total_count: 7 });
    const all = await collect(fx.api.search.items.list({ id: "kb" }, { perPage: 5 }));
    assert.equal(all.length, 7);
  });

  it("chunks an item by the instance's settings and downloads its text", async () => {
    await fx.api.search.instances.create(
      {},
      { id: "kb", type: "r2", source: SOURCE, chunk_size: 64, chunk_overlap: 0 },
    );
    const text = Array.from({ length: 150 }, (_, i) => `word${i}`).join(" ");
    const item = await fx.api.search.items.upload(
      { id: "kb" },
      { file: { name: "long.txt", content: text, type: "text/plain" }, metadata: { team: "ops" } },
    );
    assert.equal(item.status, "completed");
    assert.equal(item.source_id, "builtin");
    assert.equal(item.chunks_count, 3);
    assert.equal(item.file_size, Buffer.byteLength(text));
    const chunks = await collect(fx.api.search.items.chunks({ id: "kb", itemId: item.id }, { limit: 2 }));
    assert.deepEqual(
      chunks.map((c) => [c.id, c.text.split(" ").length, c.start_byte]),
      [
        [`${item.id}-0`, 64, 0],
        [`${item.id}-1`, 64, Buffer.byteLength(text.split(" ").slice(0, 64).join(" ")) + 1],
        [`${item.id}-2`, 22, Buffer.byteLength(text.split(" ").slice(0, 128).join(" ")) + 1],
      ],
    );
    assert.deepEqual(chunks[0]!.item.metadata, { team: "ops" });
    assert.equal(await fx.api.search.items.download({ id: "kb", itemId: item.id }), text);
    const raw = await fx.http(
      "GET",
      `/accounts/${fx.em.accountId}/ai-search/namespaces/default/instances/kb/items/${item.id}/download`,
    );
    assert.equal(raw.headers["content-type"], "application/octet-stream");
  });

  it("re-indexes an item (PATCH) and a source key (PUT), keeping a log of each processing", async () => {
    await indexed(fx);
    const doc2 = await itemByKey(fx, "doc-2.md");
    fx.clock.advance(1000);
    const synced = await fx.api.search.items.sync(
      { id: "kb", itemId: doc2.id },
      { wait_for_completion: true },
    );
    assert.equal(synced.last_seen_at, "2026-01-01T00:00:05.500Z");
    const logs = await collect(fx.api.search.items.logs({ id: "kb", itemId: doc2.id }, { limit: 1 }));
    assert.deepEqual(
      logs.map((l) => [l.action, l.timestamp, l.processingTimeMs, l.chunkCount, l.errorType]),
      [
        ["INDEX", "2026-01-01T00:00:05.500Z", 0, 1, null],
        ["INDEX", "2026-01-01T00:00:02.000Z", ITEM_MS, 1, null],
      ],
      "newest first, paged by cursor",
    );
    const deleted = await fx.api.search.items.delete({ id: "kb", itemId: doc2.id });
    assert.deepEqual(deleted, { key: "doc-2.md" });
    const back = await fx.api.search.items.createOrUpdate({ id: "kb" }, { key: "doc-2.md" });
    assert.equal(back.status, "completed");
    assert.equal(back.id, doc2.id, "an item's id follows from its key");
    const failing = await fx.api.search.items.createOrUpdate({ id: "kb" }, { key: "doc-5.md" });
    assert.equal(failing.status, "error");
    await assert.rejects(
      fx.api.search.items.createOrUpdate({ id: "kb" }, { key: "nope.md" }),
      (e: unknown) => {
        assert.ok(e instanceof NotFoundError);
        assert.match(e.message, /item "nope.md" in the source of instance "kb" not found/);
        return true;
      },
    );
  });

  it("removes a deleted item from the listing, its reads and search; the next sync brings it back", async () => {
    await indexed(fx);
    const doc6 = await itemByKey(fx, "doc-6.md");
    const before = await fx.api.search.instances.search({ id: "kb" }, { query: "rollback" });
    assert.deepEqual(
      before.chunks.map((c) => c.item?.key),
      ["doc-4.md"],
    );
    const doc4 = await itemByKey(fx, "doc-4.md");
    await fx.api.search.items.delete({ id: "kb", itemId: doc4.id });
    assert.deepEqual((await fx.api.search.instances.search({ id: "kb" }, { query: "rollback" })).chunks, []);
    await assert.rejects(fx.api.search.items.get({ id: "kb", itemId: doc4.id }), NotFoundError);
    await assert.rejects(fx.api.search.items.delete({ id: "kb", itemId: doc4.id }), NotFoundError);
    assert.equal((await collect(fx.api.search.items.list({ id: "kb" }))).length, 6);
    assert.equal((await fx.api.search.instances.stats({ id: "kb" })).completed, 5);
    assert.ok(doc6.id);

    await fx.api.search.jobs.create({ id: "kb" });
    fx.clock.advance(JOB_MS);
    assert.deepEqual(
      (await fx.api.search.instances.search({ id: "kb" }, { query: "rollback" })).chunks.map(
        (c) => c.item?.key,
      ),
      ["doc-4.md"],
    );
  });

  it("refuses an upload that is not a multipart file, naming the field", async () => {
    await fx.api.search.instances.create({}, { id: "kb" });
    const path = `/accounts/${fx.em.accountId}/ai-search/namespaces/default/instances/kb/items`;
    const json = await fx.http("POST", path, { body: { file: "x" } });
    assert.equal(json.status, 400);
    assert.deepEqual((json.json as { errors: unknown[] }).errors, [
      {
        code: 1001,
        message: 'content-type: "application/json" is not accepted; this operation takes multipart/form-data',
        path: ["content-type"],
      },
    ]);
    await assert.rejects(
      async () =>
        fx.api.search.items.upload(
          { id: "kb" },
          { file: { name: "a.md", content: "x" }, metadata: { n: [1] as never } },
        ),
      /metadata\.n: must be a string, number or boolean/,
    );
  });
});

describe("search emulator: retrieval", () => {
  const fx = useEmulator();

  it("ranks chunks by the documented score and answers search_query", async () => {
    await indexed(fx);
    const res = await fx.api.search.instances.search({ id: "kb" }, { query: "Cache purge" });
    assert.equal(res.search_query, "Cache purge");
    // doc-7 is the caching paragraph: "cache" twice, "purge" once → (2/2) × 3/4.
    assert.deepEqual(
      res.chunks.map((c) => [c.item?.key, c.score, c.type]),
      [["doc-7.md", 0.75, "text"]],
    );
    assert.ok(res.chunks[0]!.text.includes(CORPUS[6]!));
    const or = await fx.api.search.instances.search(
      { id: "kb" },
      {
        messages: [{ role: "user", content: "token rollback" }],
        ai_search_options: {
          retrieval: { keyword_match_mode: "or", match_threshold: 0, max_num_results: 2 },
        },
      },
    );
    assert.equal(or.search_query, "token rollback");
    // doc-2 says "token" twice: (1/2) × 2/3; doc-4 says "rollback" once: (1/2) × 1/2.
    assert.deepEqual(
      or.chunks.map((c) => [c.item?.key, c.score, c.scoring_details?.keyword_rank]),
      [
        ["doc-2.md", 0.3333, 1],
        ["doc-4.md", 0.25, 2],
      ],
    );
  });

  it("takes the instance's retrieval settings unless the request overrides them", async () => {
    await indexed(fx);
    await fx.api.search.instances.update(
      { id: "kb" },
      {
        source: SOURCE,
        retrieval_options: { keyword_match_mode: "or" },
        score_threshold: 0,
        max_num_results: 1,
        reranking: true,
        fusion_method: "max",
      },
    );
    const res = await fx.api.search.instances.search({ id: "kb" }, { query: "token rollback" });
    assert.equal(res.chunks.length, 1);
    assert.equal(res.chunks[0]!.scoring_details?.fusion_method, "max");
    assert.equal(res.chunks[0]!.scoring_details?.reranking_score, res.chunks[0]!.score);
  });

  it("filters on item metadata and refuses a filter it cannot read", async () => {
    await fx.api.search.instances.create({}, { id: "kb" });
    await fx.api.search.items.upload(
      { id: "kb" },
      { file: { name: "a.md", content: "cache notes" }, metadata: { team: "ops" } },
    );
    await fx.api.search.items.upload(
      { id: "kb" },
      { file: { name: "b.md", content: "cache notes" }, metadata: { team: "web" } },
    );
    const res = await fx.api.search.instances.search(
      { id: "kb" },
      { query: "cache", ai_search_options: { retrieval: { filters: { team: "web" } } } },
    );
    assert.deepEqual(
      res.chunks.map((c) => c.item?.key),
      ["b.md"],
    );
    const bad = await fx.http("POST", `/accounts/${fx.em.accountId}/ai-search/instances/kb/search`, {
      body: { query: "cache", ai_search_options: { retrieval: { filters: { team: { $like: "w%" } } } } },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual((bad.json as { errors: { path: string[] }[] }).errors[0]!.path, [
      "ai_search_options",
      "retrieval",
      "filters",
    ]);
  });

  it("answers a chat from the best chunk, outside the envelope, and caches the answer until a purge", async () => {
    await indexed(fx);
    const ask = () =>
      fx.api.search.instances.chatCompletions(
        { id: "kb" },
        {
          messages: [
            { role: "system", content: "Be brief." },
            { role: "user", content: "What is a rollback?" },
          ],
        },
      );
    const first = await ask();
    assert.equal(first.object, "chat.completion");
    assert.equal(first.model, "@cf/meta/llama-3.3-70b-instruct-fp8-fast");
    // Stopwords aside the question is "rollback": the deployment paragraph, doc-4.md.
    assert.deepEqual(first.choices, [
      { index: 0, message: { role: "assistant", content: "From doc-4.md: Deployment." } },
    ]);
    assert.deepEqual(
      first.chunks.map((c) => c.item?.key),
      ["doc-4.md"],
    );
    const raw = await fx.http(
      "POST",
      `/accounts/${fx.em.accountId}/ai-search/instances/kb/chat/completions`,
      {
        body: { messages: [{ role: "user", content: "What is a rollback?" }] },
      },
    );
    const body = raw.json as Record<string, unknown>;
    assert.equal(body.result, undefined, "no envelope: the OpenAI-style body itself");
    assert.equal(body.id, first.id, "the same question is answered from the cache");

    fx.clock.advance(1000);
    await fx.api.search.instances.purgeCache({ id: "kb" });
    const fresh = await ask();
    assert.notEqual(fresh.id, first.id, "a purge empties the cache");
    await fx.api.search.instances.update({ id: "kb" }, { source: SOURCE, cache: false });
    fx.clock.advance(1000);
    const uncached = await ask();
    assert.notEqual(uncached.id, fresh.id, "with the cache off every answer is made afresh");
  });

  it("replies from the retrieved chunk's first sentence, or says nothing matched", async () => {
    await fx.api.search.instances.create({}, { id: "kb" });
    await fx.api.search.items.upload(
      { id: "kb" },
      {
        file: {
          name: "guide.md",
          content: "# Guide\n\nRollbacks take seconds. They redeploy the last version.",
        },
      },
    );
    const hit = await fx.api.search.instances.chatCompletions(
      { id: "kb" },
      { messages: [{ role: "user", content: "rollbacks" }] },
    );
    assert.equal(hit.choices[0]!.message.content, "From guide.md: Rollbacks take seconds.");
    assert.deepEqual(
      hit.chunks.map((c) => c.item?.key),
      ["guide.md"],
    );
    const miss = await fx.api.search.instances.chatCompletions(
      { id: "kb" },
      { model: "openai/gpt-5-mini", messages: [{ role: "user", content: "billing" }] },
    );
    assert.equal(miss.model, "openai/gpt-5-mini");
    assert.equal(miss.choices[0]!.message.content, 'No indexed content matches "billing".');
    await assert.rejects(
      fx.api.search.instances.chatCompletions(
        { id: "kb" },
        { messages: [{ role: "system", content: "only a system prompt" }] },
      ),
      (e: unknown) => e instanceof BadRequestError && /messages: must include a user message/.test(e.message),
    );
  });
});

describe("search emulator: moving an instance between namespaces", () => {
  const fx = useEmulator();

  it("moves the instance with its jobs and items; the old path is gone", async () => {
    await fx.http("POST", "/__emulator/search/namespaces", { body: { name: "team-a" } });
    await indexed(fx);
    const moved = await fx.api.search.instances.move({ id: "kb" }, { new_namespace: "team-a" });
    assert.equal(moved.namespace, "team-a");
    await assert.rejects(fx.api.search.instances.get({ id: "kb" }), NotFoundError);
    assert.equal((await collect(fx.api.search.jobs.list({ namespace: "team-a", id: "kb" }))).length, 1);
    const items = await collect(fx.api.search.items.list({ namespace: "team-a", id: "kb" }));
    assert.equal(items.length, 7);
    assert.ok(items.every((i) => i.namespace === "team-a"));

    await fx.api.search.instances.create({}, { id: "kb" });
    await assert.rejects(
      fx.api.search.instances.move({ id: "kb" }, { new_namespace: "team-a" }),
      (e: unknown) => {
        assert.ok(e instanceof BadRequestError);
        assert.match(e.message, /new_namespace: an instance "kb" already exists in namespace "team-a"/);
        return true;
      },
    );
    await assert.rejects(
      fx.api.search.instances.move({ id: "kb" }, { new_namespace: "ghost" }),
      NotFoundError,
    );
    const same = await fx.api.search.instances.move({ id: "kb" }, { new_namespace: "default" });
    assert.equal(same.namespace, "default", "moving to its own namespace changes nothing");
  });
});
