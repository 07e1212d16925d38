import { strict as assert } from "node:assert";
import { SearchModel, initialState, JOB_HISTORY_LIMIT } from "../../emulator/search/state";
import { instanceView, statsView } from "../../emulator/search/views";
import {
  ITEM_MS,
  SCAN_MS,
  fold,
  itemCount,
  itemNames,
  naturalEnd,
  replay,
  statsOf,
  ITEM_ERRORS,
  type ItemEvent,
  type JobRecord,
} from "../../emulator/search/sync";
import { sourceItemText } from "../../emulator/search/corpus";

const T0 = Date.parse("2026-01-01T00:00:00Z");

function job(
  id: string,
  started_at: number,
  source = "docs-bucket",
  extra: Partial<JobRecord> = {},
): JobRecord {
  return { id, source: "user", description: "", started_at, scan: { type: "r2", source }, ...extra };
}

describe("search sync simulation", () => {
  it("derives the item count from the source string", () => {
    const table: [string | undefined, number][] = [
      [undefined, 0],
      ["", 0],
      ["kb-bucket", 3],
      ["my-bucket", 4],
      ["https://docs.example.com", 6],
      ["docs-bucket", 7],
    ];
    for (const [source, n] of table) assert.equal(itemCount(source), n, String(source));
    for (let i = 0; i < 200; i++) {
      const n = itemCount(`bucket-${i}`);
      assert.ok(n >= 3 && n <= 10);
    }
  });

  it("names items by source type", () => {
    assert.deepEqual(itemNames({ type: "r2", source: "kb-bucket", prefix: "p/" }), [
      "p/doc-1.md",
      "p/doc-2.md",
      "p/doc-3.md",
    ]);
    assert.deepEqual(itemNames({ type: "web-crawler", source: "example.com" }).slice(0, 2), [
      "https://example.com/page-1",
      "https://example.com/page-2",
    ]);
    assert.deepEqual(
      itemNames({ type: "web-crawler", source: "http://a.example/" })[0],
      "http://a.example/page-1",
    );
    assert.deepEqual(itemNames({ source: "kb-bucket" }), ["item-1", "item-2", "item-3"]);
  });

  it("ends a job after the scan plus one step per item", () => {
    assert.equal(naturalEnd(job("a", T0)), T0 + SCAN_MS + 7 * ITEM_MS);
    assert.equal(naturalEnd(job("a", T0, "", { scan: {} })), T0 + SCAN_MS);
  });

  it("reports queued, running, completed and error items as time passes", () => {
    const records = [job("a", T0)];
    const at = (ms: number) => statsOf(replay(records, T0 + ms));
    assert.deepEqual(at(0), { queued: 0, running: 0, completed: 0, error: 0 });
    assert.deepEqual(at(SCAN_MS), { queued: 6, running: 1, completed: 0, error: 0 });
    assert.deepEqual(at(SCAN_MS + 5 * ITEM_MS), { queued: 1, running: 1, completed: 4, error: 1 });
    assert.deepEqual(at(SCAN_MS + 7 * ITEM_MS), { queued: 0, running: 0, completed: 6, error: 1 });
  });

  it("retries failed items and skips indexed ones in a later job", () => {
    const end = naturalEnd(job("a", T0));
    const r = replay([job("a", T0), job("b", end + 10)], end + 10 + SCAN_MS + ITEM_MS * 5);
    const second = r.jobs[1]!;
    assert.deepEqual(second.counts, { indexed: 0, skipped: 4, failed: 1 });
    assert.equal(second.ended_at, undefined);
    // Item 5 is retried (it fails again), items 6 and 7 are still ahead but already indexed.
    assert.deepEqual(statsOf(r), { queued: 0, running: 0, completed: 6, error: 1 });
  });

  it("leaves unreached items as they were when a job is cancelled", () => {
    const r = replay(
      [job("a", T0, "docs-bucket", { cancelled_at: T0 + SCAN_MS + 2 * ITEM_MS + 1 })],
      T0 + 60_000,
    );
    assert.equal(r.jobs[0]!.end_reason, "cancelled");
    assert.equal(r.jobs[0]!.ended_at, T0 + SCAN_MS + 2 * ITEM_MS + 1);
    assert.deepEqual(statsOf(r), { queued: 0, running: 0, completed: 2, error: 0 });
    const cancelledWhileScanning = replay(
      [job("b", T0, "docs-bucket", { cancelled_at: T0 + 10 })],
      T0 + 60_000,
    );
    assert.equal(cancelledWhileScanning.jobs[0]!.processed, -1);
    assert.deepEqual(
      cancelledWhileScanning.jobs[0]!.logs.map((l) => l.message),
      [
        "Sync job started (requested by user)",
        "Scanning r2 source docs-bucket",
        "Sync job cancelled after 0 of 7 items: 0 indexed, 0 skipped, 0 failed",
      ],
    );
  });

  it("logs a job without a source as a warning and ends it after the scan", () => {
    const r = replay([job("a", T0, "", { scan: {} })], T0 + SCAN_MS);
    assert.deepEqual(
      r.jobs[0]!.logs.map((l) => [l.message_type, l.message]),
      [
        ["info", "Sync job started (requested by user)"],
        ["warning", "No source configured: nothing to scan"],
        ["info", "Found 0 items"],
        ["info", "Sync job completed: 0 indexed, 0 skipped, 0 failed"],
      ],
    );
  });

  it("folds ended jobs into a baseline without changing the outcome", () => {
    const end = naturalEnd(job("a", T0));
    const records = [job("a", T0), job("b", end + 1, "my-bucket")];
    const later = end + 100_000;
    const baseline = fold({}, [records[0]!]);
    assert.deepEqual(statsOf(replay([records[1]!], later, baseline)), statsOf(replay(records, later)));
  });
});

describe("search state model", () => {
  const actor = "tester";

  it("materializes scheduled jobs deterministically, whenever they are read", () => {
    const state = initialState();
    const create = new SearchModel(state, T0);
    const ns = create.namespace("acc");
    create.createInstance(ns, { id: "kb", type: "r2", source: "kb-bucket", sync_interval: 900 }, actor);
    const later = T0 + 2 * 900_000 + 60_000;
    const once = new SearchModel(structuredClone(state), later);
    const stepwise = structuredClone(state);
    for (let t = T0; t <= later; t += 7_000)
      new SearchModel(stepwise, t).instance(new SearchModel(stepwise, t).namespace("acc"), "kb");
    const a = once.instance(once.namespace("acc"), "kb").jobs.map((j) => [j.source, j.started_at]);
    const b = new SearchModel(stepwise, later)
      .instance(new SearchModel(stepwise, later).namespace("acc"), "kb")
      .jobs.map((j) => [j.source, j.started_at]);
    assert.deepEqual(a, b);
    const ids = (st: typeof state) =>
      new SearchModel(st, later)
        .instance(new SearchModel(st, later).namespace("acc"), "kb")
        .jobs.map((j) => j.id);
    assert.deepEqual(
      ids(stepwise),
      ids(structuredClone(state)),
      "ids survive a restart that lost the GET's work",
    );
    assert.deepEqual(a, [
      ["schedule", T0 + 900_000],
      ["schedule", T0 + 900_000 + SCAN_MS + 3 * ITEM_MS + 900_000],
    ]);
  });

  it("keeps at most JOB_HISTORY_LIMIT jobs and the stats of the pruned ones", () => {
    const state = initialState();
    let now = T0;
    const model = () => new SearchModel(state, now);
    const ns = model().namespace("acc");
    // 55 jobs of 4.5 s each end long before the first scheduled sync (21 600 s).
    model().createInstance(ns, { id: "kb", type: "r2", source: "docs-bucket" }, actor);
    for (let i = 0; i < JOB_HISTORY_LIMIT + 5; i++) {
      model().createJob(model().instance(ns, "kb"));
      now += SCAN_MS + 7 * ITEM_MS;
    }
    const inst = model().instance(ns, "kb");
    assert.equal(inst.jobs.length, JOB_HISTORY_LIMIT);
    assert.deepEqual(statsView(model(), inst), {
      queued: 0,
      running: 0,
      completed: 6,
      error: 1,
      last_activity: new Date(now).toISOString(),
    });
  });

  it("keeps storage credentials out of the settings it renders", () => {
    const m = new SearchModel(initialState(), T0);
    const ns = m.namespace("acc");
    const inst = m.createInstance(
      ns,
      {
        id: "kb",
        type: "r2",
        source: "kb-bucket",
        source_params: { storage_credentials: { access_key_id: "a", secret_access_key: "b" } },
      },
      actor,
    );
    assert.deepEqual(inst.storage_credentials, { access_key_id: "a", secret_access_key: "b" });
    assert.deepEqual(instanceView(m, ns, inst).source_params, {});
  });
});

describe("search items: jobs and API events on one timeline", () => {
  const upload = (at: number, key: string, text: string): ItemEvent => ({ kind: "upload", at, key, text });

  it("indexes a source's items with their corpus text, and fails item 5 as unsupported", () => {
    const r = replay([job("a", T0, "docs-bucket")], naturalEnd(job("a", T0)));
    const doc1 = r.items["doc-1.md"]!;
    assert.equal(doc1.status, "completed");
    assert.equal(doc1.source_id, "r2:docs-bucket");
    assert.equal(doc1.text, sourceItemText("doc-1.md", 1));
    assert.ok(doc1.text.startsWith("# doc-1.md\n\nInstallation."));
    assert.equal(r.items["doc-5.md"]!.status, "error");
    assert.equal(r.items["doc-5.md"]!.error, ITEM_ERRORS.unsupported);
    assert.deepEqual(
      doc1.log.map((l) => [l.action, l.at - T0, l.error]),
      [["INDEX", SCAN_MS + ITEM_MS, null]],
    );
  });

  it("removes a deleted item at its time; the next job indexes it again", () => {
    const end = naturalEnd(job("a", T0));
    const del: ItemEvent = { kind: "delete", at: end + 1, key: "doc-1.md" };
    const after = replay([job("a", T0)], end + 2, {}, [del]);
    assert.equal(after.items["doc-1.md"], undefined);
    const again = replay([job("a", T0), job("b", end + 10)], end + 10 + SCAN_MS + 7 * ITEM_MS, {}, [del]);
    assert.equal(again.items["doc-1.md"]!.status, "completed");
    assert.deepEqual(again.jobs[1]!.counts, { indexed: 1, skipped: 5, failed: 1 });
  });

  it("applies an event between a running job's steps, in time order", () => {
    // Deleted after step 1 and before step 2: step 1's work is undone, the rest goes on.
    const r = replay([job("a", T0)], T0 + SCAN_MS + 2 * ITEM_MS, {}, [
      { kind: "delete", at: T0 + SCAN_MS + ITEM_MS + 1, key: "doc-1.md" },
    ]);
    assert.equal(r.items["doc-1.md"], undefined);
    assert.equal(r.items["doc-2.md"]!.status, "completed");
    assert.equal(r.items["doc-3.md"]!.status, "running");
    assert.equal(r.items["doc-4.md"]!.status, "queued");
  });

  it("indexes uploads at once (an empty one fails), and a later upload of the key replaces it", () => {
    const r = replay([], T0 + 10, {}, [
      upload(T0, "notes.md", "first"),
      upload(T0 + 5, "notes.md", "second"),
      upload(T0 + 6, "empty.md", " "),
    ]);
    assert.equal(r.items["notes.md"]!.text, "second");
    assert.equal(r.items["notes.md"]!.source_id, "builtin");
    assert.equal(r.items["notes.md"]!.created_at, T0, "created by the first upload");
    assert.equal(r.items["notes.md"]!.log.length, 2);
    assert.equal(r.items["empty.md"]!.status, "error");
    assert.equal(r.items["empty.md"]!.error, ITEM_ERRORS.empty);
  });

  it("re-indexes a known item, or a source key not yet indexed, on an index event", () => {
    const r = replay([], T0 + 10, {}, [
      { kind: "index", at: T0, key: "doc-5.md", position: 5, source_id: "r2:docs-bucket" },
      { kind: "index", at: T0 + 1, key: "doc-2.md", position: 2, source_id: "r2:docs-bucket" },
      { kind: "index", at: T0 + 2, key: "unknown.md" },
    ]);
    assert.equal(r.items["doc-5.md"]!.status, "error", "item 5 of the source fails again");
    assert.equal(r.items["doc-2.md"]!.status, "completed");
    assert.equal(r.items["unknown.md"], undefined, "nothing to index without a source position");
  });

  it("folds events before the oldest kept job with the pruned jobs", () => {
    const end = naturalEnd(job("a", T0));
    const events: ItemEvent[] = [
      upload(end + 1, "u.md", "words here"),
      { kind: "delete", at: end + 2, key: "doc-2.md" },
    ];
    const later = job("b", end + 100);
    const baseline = fold({}, [job("a", T0)], events);
    const folded = replay([later], end + 100_000, baseline);
    const whole = replay([job("a", T0), later], end + 100_000, {}, events);
    assert.deepEqual(statsOf(folded), statsOf(whole));
    assert.deepEqual(Object.keys(folded.items).sort(), Object.keys(whole.items).sort());
  });
});
