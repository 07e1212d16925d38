/**
 * The search sdk's surface: every sub-resource method once, in the `(ids, params, options?)`
 * convention, against the emulator; the same story told with the deprecated flat methods of release
 * 0.1.0 gives the same results and the same errors; and DEPRECATED_SEARCH_METHODS names every flat
 * method and a sub-resource method that exists.
 */
import { strict as assert } from "node:assert";
import { ITEM_MS, SCAN_MS } from "../../emulator/search/sync";
import { collect } from "../../sdk/paging";
import { ConflictError, NotFoundError, ValidationError } from "../../sdk/errors";
import {
  DEPRECATED_SEARCH_METHODS,
  SearchApi,
  type SearchItem,
  type SearchJob,
  type SearchTokenBody,
} from "../../sdk/search";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

/** docs-bucket holds 7 items: doc-k.md is paragraph k of the corpus; doc-5.md fails. */
const SOURCE = "docs-bucket";
const JOB_MS = SCAN_MS + 7 * ITEM_MS;

type OldName = keyof typeof DEPRECATED_SEARCH_METHODS & string;

/** What one step learned for the next ones. */
interface Memo {
  jobId: string;
  itemId: string;
  uploadedId: string;
}

/** One call told twice: in the new convention and with the deprecated method it replaces. */
interface Step {
  old: OldName;
  next(s: SearchApi, m: Memo): Promise<unknown>;
  deprecated(s: SearchApi, m: Memo): Promise<unknown>;
  /** What the step keeps for later ones. */
  keep?(result: unknown, m: Memo): void;
  /** Time passing after the step. */
  advanceMs?: number;
}

const CHAT = { messages: [{ role: "user" as const, content: "What is a rollback?" }] };
const NOTE = { file: { name: "note.md", content: "Rollback restores the previous version." } };

const STEPS: Step[] = [
  {
    old: "listNamespaces",
    next: (s) => collect(s.namespaces.list({}, { perPage: 10 })),
    deprecated: (s) => collect(s.listNamespaces({ perPage: 10 })),
  },
  {
    old: "createInstance",
    next: (s) => s.instances.create({}, { id: "kb", type: "r2", source: SOURCE }),
    deprecated: (s) => s.createInstance({ id: "kb", type: "r2", source: SOURCE }),
  },
  {
    old: "getInstance",
    next: (s) => s.instances.get({ id: "kb" }),
    deprecated: (s) => s.getInstance({ id: "kb" }),
  },
  {
    old: "listInstances",
    next: (s) => collect(s.instances.list({}, { perPage: 5, search: "k", order_by_direction: "asc" })),
    deprecated: (s) => collect(s.listInstances({ perPage: 5, search: "k", order: "asc" })),
  },
  {
    old: "updateInstance",
    next: (s) => s.instances.update({ id: "kb" }, { source: SOURCE, cache: false }),
    deprecated: (s) => s.updateInstance({ id: "kb", source: SOURCE, cache: false }),
  },
  {
    old: "createJob",
    next: (s) => s.jobs.create({ id: "kb" }, { description: "first" }),
    deprecated: (s) => s.createJob({ id: "kb", description: "first" }),
    keep: (job, m) => (m.jobId = (job as SearchJob).id),
  },
  {
    old: "runningJob",
    next: (s) => s.jobs.running({ id: "kb" }),
    deprecated: (s) => s.runningJob({ id: "kb" }),
    advanceMs: JOB_MS,
  },
  {
    old: "waitForJob",
    next: (s, m) => s.jobs.wait({ id: "kb", jobId: m.jobId }, { deadlineMs: 1_000 }),
    deprecated: (s, m) => s.waitForJob("kb", m.jobId, { deadlineMs: 1_000 }),
  },
  {
    old: "getJob",
    next: (s, m) => s.jobs.get({ id: "kb", jobId: m.jobId }),
    deprecated: (s, m) => s.getJob({ id: "kb", jobId: m.jobId }),
  },
  {
    old: "listJobs",
    next: (s) => collect(s.jobs.list({ id: "kb" }, { perPage: 2 })),
    deprecated: (s) => collect(s.listJobs({ id: "kb", perPage: 2 })),
  },
  {
    old: "listJobLogs",
    next: (s, m) => collect(s.jobs.logs({ id: "kb", jobId: m.jobId }, { perPage: 3 })),
    deprecated: (s, m) => collect(s.listJobLogs({ id: "kb", jobId: m.jobId, perPage: 3 })),
  },
  {
    old: "instanceStats",
    next: (s) => s.instances.stats({ id: "kb" }),
    deprecated: (s) => s.instanceStats({ id: "kb" }),
  },
  {
    old: "listItems",
    next: (s) => collect(s.items.list({ id: "kb" }, { perPage: 5, status: "completed", search: "doc-2" })),
    deprecated: (s) => collect(s.listItems({ id: "kb", perPage: 5, status: "completed", search: "doc-2" })),
    keep: (items, m) => (m.itemId = (items as SearchItem[])[0]!.id),
  },
  {
    old: "getItem",
    next: (s, m) => s.items.get({ id: "kb", itemId: m.itemId }),
    deprecated: (s, m) => s.getItem({ id: "kb", itemId: m.itemId }),
  },
  {
    old: "listItemChunks",
    next: (s, m) => collect(s.items.chunks({ id: "kb", itemId: m.itemId }, { limit: 1 })),
    deprecated: (s, m) => collect(s.listItemChunks({ id: "kb", itemId: m.itemId, limit: 1 })),
  },
  {
    old: "downloadItem",
    next: (s, m) => s.items.download({ id: "kb", itemId: m.itemId }),
    deprecated: (s, m) => s.downloadItem({ id: "kb", itemId: m.itemId }),
  },
  {
    old: "syncItem",
    next: (s, m) => s.items.sync({ id: "kb", itemId: m.itemId }, { wait_for_completion: true }),
    deprecated: (s, m) => s.syncItem({ id: "kb", itemId: m.itemId, wait_for_completion: true }),
  },
  {
    old: "listItemLogs",
    next: (s, m) => collect(s.items.logs({ id: "kb", itemId: m.itemId }, { limit: 1 })),
    deprecated: (s, m) => collect(s.listItemLogs({ id: "kb", itemId: m.itemId, limit: 1 })),
  },
  {
    old: "createOrUpdateItem",
    next: (s) => s.items.createOrUpdate({ id: "kb" }, { key: "doc-3.md" }),
    deprecated: (s) => s.createOrUpdateItem({ id: "kb", key: "doc-3.md" }),
  },
  {
    old: "uploadItem",
    next: (s) => s.items.upload({ id: "kb" }, NOTE),
    deprecated: (s) => s.uploadItem({ id: "kb", ...NOTE }),
    keep: (item, m) => (m.uploadedId = (item as SearchItem).id),
  },
  {
    old: "deleteItem",
    next: (s, m) => s.items.delete({ id: "kb", itemId: m.uploadedId }),
    deprecated: (s, m) => s.deleteItem({ id: "kb", itemId: m.uploadedId }),
  },
  {
    old: "search",
    next: (s) => s.instances.search({ id: "kb" }, { query: "rollback" }),
    deprecated: (s) => s.search({ id: "kb", query: "rollback" }),
  },
  {
    old: "chatCompletions",
    next: (s) => s.instances.chatCompletions({ id: "kb" }, CHAT),
    deprecated: (s) => s.chatCompletions({ id: "kb", ...CHAT }),
  },
  {
    old: "purgeCache",
    next: (s) => s.instances.purgeCache({ id: "kb" }),
    deprecated: (s) => s.purgeCache({ id: "kb" }),
  },
  {
    old: "cancelJob",
    next: async (s) => {
      const job = await s.jobs.create({ id: "kb" });
      return s.jobs.cancel({ id: "kb", jobId: job.id });
    },
    deprecated: async (s) => {
      const job = await s.createJob({ id: "kb" });
      return s.cancelJob({ id: "kb", jobId: job.id });
    },
  },
  {
    old: "moveInstance",
    next: (s) => s.instances.move({ id: "kb" }, { new_namespace: "team-a" }),
    deprecated: (s) => s.moveInstance({ id: "kb", new_namespace: "team-a" }),
  },
  {
    old: "deleteInstance",
    next: (s) => s.instances.delete({ namespace: "team-a", id: "kb" }),
    deprecated: (s) => s.deleteInstance({ namespace: "team-a", id: "kb" }),
  },
];

/**
 * Runs the story on a fresh emulator. Job ids (random) are named by their order of appearance, and
 * the account (random) by a placeholder, so two runs compare equal.
 */
async function story(fx: EmulatorFixture, which: "next" | "deprecated"): Promise<Record<string, unknown>> {
  const seeded = await fx.http("POST", "/__emulator/search/namespaces", { body: { name: "team-a" } });
  assert.equal(seeded.status, 200, seeded.text);
  const memo: Memo = { jobId: "", itemId: "", uploadedId: "" };
  const results: Record<string, unknown> = {};
  for (const step of STEPS) {
    const result = await step[which](fx.api.search, memo);
    step.keep?.(result, memo);
    results[step.old] = result;
    if (step.advanceMs) fx.clock.advance(step.advanceMs);
  }
  const uuids = new Map<string, string>();
  const text = JSON.stringify(results)
    .split(fx.em.accountId)
    .join("<account>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (u) => {
      if (!uuids.has(u)) uuids.set(u, `<uuid ${uuids.size}>`);
      return uuids.get(u)!;
    });
  return JSON.parse(text) as Record<string, unknown>;
}

/** The flat methods of the area class: what 0.1.0 users call. */
function flatMethods(): string[] {
  return Object.getOwnPropertyNames(SearchApi.prototype).filter((n) => n !== "constructor");
}

describe("search sdk surface", () => {
  const fx = useEmulator();
  /** A second emulator, for the same story told with the deprecated methods. */
  const other = useEmulator();

  it("calls every sub-resource method once in the (ids, params, options?) convention", async () => {
    const r = (await story(fx, "next")) as Record<OldName, never>;
    assert.ok((r.listNamespaces as { name: string }[]).some((n) => n.name === "default"));
    assert.equal((r.createInstance as { id: string }).id, "kb");
    assert.equal((r.getInstance as { source: string }).source, SOURCE);
    assert.deepEqual(
      (r.listInstances as { id: string }[]).map((i) => i.id),
      ["kb"],
    );
    assert.equal((r.updateInstance as { cache: boolean }).cache, false);
    assert.equal((r.createJob as SearchJob).description, "first");
    assert.equal((r.runningJob as SearchJob).id, (r.createJob as SearchJob).id);
    assert.ok((r.waitForJob as SearchJob).ended_at);
    assert.deepEqual(r.getJob, r.waitForJob);
    assert.equal((r.listJobs as SearchJob[]).length, 1);
    assert.equal((r.listJobLogs as unknown[]).length > 0, true);
    assert.equal((r.instanceStats as { completed: number }).completed, 6);
    const [doc2] = r.listItems as SearchItem[];
    assert.equal(doc2!.key, "doc-2.md");
    assert.deepEqual(r.getItem, doc2);
    assert.equal((r.listItemChunks as unknown[]).length, 1);
    assert.match(r.downloadItem as string, /\w/);
    assert.equal((r.syncItem as SearchItem).status, "completed");
    // One record per page: the job's indexing and the sync, both reached by the cursor.
    assert.equal((r.listItemLogs as unknown[]).length, 2);
    assert.equal((r.createOrUpdateItem as SearchItem).key, "doc-3.md");
    assert.equal((r.uploadItem as SearchItem).key, "note.md");
    assert.deepEqual(r.deleteItem, { key: "note.md" });
    assert.ok((r.search as { chunks: unknown[] }).chunks.length > 0);
    assert.equal((r.chatCompletions as { object: string }).object, "chat.completion");
    assert.equal(r.purgeCache, undefined);
    assert.equal((r.cancelJob as SearchJob).end_reason, "cancelled");
    assert.equal((r.moveInstance as { namespace: string }).namespace, "team-a");
    assert.equal((r.deleteInstance as { id: string }).id, "kb");
  });

  it("gives the same results through every deprecated flat method", async () => {
    const byNewMethods = await story(fx, "next");
    const byDeprecated = await story(other, "deprecated");
    for (const step of STEPS) assert.deepEqual(byDeprecated[step.old], byNewMethods[step.old], step.old);
  });

  it("refuses the same invalid calls with the same errors", async () => {
    const s = fx.api.search;
    const pairs: [string, () => unknown, () => unknown][] = [
      ["bad page size", () => s.instances.list({}, { perPage: 0 }), () => s.listInstances({ perPage: 0 })],
      [
        "bad namespace",
        () => s.instances.get({ namespace: "A B", id: "kb" }),
        () => s.getInstance({ namespace: "A B", id: "kb" }),
      ],
      [
        "bad body",
        () => s.instances.create({}, { id: "kb", type: "nope" as "r2" }),
        () => s.createInstance({ id: "kb", type: "nope" as "r2" }),
      ],
      [
        "stream",
        () => s.instances.chatCompletions({ id: "kb" }, { ...CHAT, stream: true }),
        () => s.chatCompletions({ id: "kb", ...CHAT, stream: true }),
      ],
      ["bad job id", () => s.jobs.wait({ id: "kb", jobId: "" }), () => s.waitForJob("kb", "")],
      [
        "bad item limit",
        () => s.items.logs({ id: "kb", itemId: "x" }, { limit: 101 }),
        () => s.listItemLogs({ id: "kb", itemId: "x", limit: 101 }),
      ],
    ];
    for (const [label, next, deprecated] of pairs) {
      const a = await settle(next);
      const b = await settle(deprecated);
      assert.ok(a instanceof Error, label);
      assert.deepEqual([b.constructor, b.message], [a.constructor, a.message], label);
    }
  });

  it("calls every namespace method once (no flat method ever had them)", async () => {
    const ns = fx.api.search.namespaces;
    const made = await ns.create({}, { name: "team", description: "Team" });
    assert.equal(made.name, "team");
    assert.deepEqual(await ns.get({ name: "team" }), made);
    assert.deepEqual(
      (await collect(ns.list({}, { perPage: 1 }))).map((n) => n.name),
      ["default", "team"],
    );
    assert.equal((await ns.update({ name: "team" }, { description: null })).description, null);
    await fx.api.search.instances.create({ namespace: "team" }, { id: "kb" });
    await fx.api.search.items.upload({ namespace: "team", id: "kb" }, NOTE);
    const ask = { ai_search_options: { instance_ids: ["kb"] } };
    const found = await ns.search({ name: "team" }, { ...ask, query: "rollback" });
    assert.deepEqual(
      found.chunks.map((c) => `${c.instance_id} ${c.item?.key}`),
      ["kb note.md"],
    );
    const answer = await ns.chatCompletions({ name: "team" }, { ...ask, ...CHAT });
    assert.equal(answer.object, "chat.completion");
    await assert.rejects(
      async () => ns.chatCompletions({ name: "team" }, { ...ask, ...CHAT, stream: true }),
      /stream: must be false/,
    );
    await assert.rejects(async () => ns.get({ name: "Bad!" }), /search\.getNamespace: name:/);
    await ns.delete({ name: "team" });
    await assert.rejects(ns.get({ name: "team" }), (e: unknown) => e instanceof NotFoundError);
  });

  it("names every flat method in DEPRECATED_SEARCH_METHODS, each with an existing replacement", () => {
    assert.ok(Object.isFrozen(DEPRECATED_SEARCH_METHODS));
    assert.deepEqual(Object.keys(DEPRECATED_SEARCH_METHODS).sort(), flatMethods().sort());
    assert.deepEqual(STEPS.map((s) => s.old).sort(), flatMethods().sort(), "the stories call every method");
    const api = new SearchApi(fx.api.client);
    for (const [old, replacement] of Object.entries(DEPRECATED_SEARCH_METHODS)) {
      const [resource, method] = replacement.split(".") as [string, string];
      const target = (api as unknown as Record<string, Record<string, unknown>>)[resource];
      assert.equal(typeof target?.[method], "function", `${old} -> ${replacement}`);
    }
  });
});

/** The error a call throws or rejects with. */
async function settle(call: () => unknown): Promise<Error> {
  try {
    await call();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected the call to fail");
}

describe("search sdk surface: service tokens", () => {
  const fx = useEmulator();
  const KEY = { cf_api_id: "key-id-1", cf_api_key: "s3cret-1" };

  it("creates, lists, reads, replaces and deletes a token; its secret never comes back", async () => {
    const t = fx.api.search.tokens;
    const made = await t.create({}, { name: "docs-reader", ...KEY });
    assert.deepEqual([made.name, made.cf_api_id, made.legacy], ["docs-reader", "key-id-1", true]);
    assert.ok(!("cf_api_key" in made), "the secret is write-only");
    await t.create({ accountId: fx.em.accountId }, { name: "other", ...KEY, legacy: false });

    const all = await collect(t.list({}, { perPage: 1 }));
    // The same creation time (a manual clock): the order between them is the ids'.
    assert.deepEqual(all.map((x) => x.name).sort(), ["docs-reader", "other"]);
    const found = await collect(t.list({}, { search: "DOCS" }));
    assert.deepEqual(
      found.map((x) => x.id),
      [made.id],
    );
    assert.equal((await t.get({ id: made.id })).name, "docs-reader");

    const renamed = await t.update(
      { id: made.id },
      { name: "docs", cf_api_id: "key-id-2", cf_api_key: "s3cret-2" },
    );
    assert.deepEqual([renamed.id, renamed.name, renamed.cf_api_id], [made.id, "docs", "key-id-2"]);
    assert.ok(!("cf_api_key" in renamed));

    await t.delete({ id: made.id });
    await assert.rejects(t.get({ id: made.id }), NotFoundError);
  });

  it("refuses bad input before any request, and a delete while an instance names the token", async () => {
    const t = fx.api.search.tokens;
    await assert.rejects(
      t.create({}, { name: "x", cf_api_id: "i" } as SearchTokenBody),
      (e: Error) => e instanceof ValidationError && /cf_api_key/.test(e.message),
    );
    // A listing checks its page size when it is made, as the instances' does.
    assert.throws(() => t.list({}, { perPage: 101 }), ValidationError);
    await assert.rejects(t.get({ id: "" }), ValidationError);
    const made = await t.create({}, { name: "used", ...KEY });
    await fx.api.search.instances.create({}, { id: "kb", type: "r2", source: SOURCE, token_id: made.id });
    await assert.rejects(
      t.delete({ id: made.id }),
      (e: Error) => e instanceof ConflictError && /kb/.test(e.message),
    );
    await fx.api.search.instances.delete({ id: "kb" });
    await t.delete({ id: made.id });
  });
});
