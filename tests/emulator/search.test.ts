import { strict as assert } from "node:assert";
import { ITEM_MS, SCAN_MS, itemCount } from "../../emulator/search/sync";
import {
  AbortedError,
  AuthenticationError,
  BadRequestError,
  DeadlineExceededError,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
} from "../../sdk/errors";
import { collect } from "../../sdk/paging";
import type { SearchJob } from "../../sdk/search";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

type Envelope<T = unknown> = {
  success: boolean;
  errors: { code: number; message: string }[];
  result: T;
  result_info?: Record<string, number>;
};

const FORMS = [
  { label: "default namespace", namespace: undefined },
  { label: "named namespace", namespace: "team-a" },
] as const;

/** docs-bucket holds 7 items (3 + char sum mod 8): item 5 fails, the other 6 index. */
const SOURCE = "docs-bucket";
const JOB_MS = SCAN_MS + 7 * ITEM_MS;

function base(fx: EmulatorFixture, namespace: string | undefined): string {
  const account = fx.em.accountId;
  return namespace === undefined
    ? `/accounts/${account}/ai-search/instances`
    : `/accounts/${account}/ai-search/namespaces/${namespace}/instances`;
}

async function seedNamespace(fx: EmulatorFixture, name: string): Promise<void> {
  const res = await fx.http("POST", "/__emulator/search/namespaces", { body: { name } });
  assert.equal(res.status, 200, res.text);
}

/** The errors without their `path` (asserted on its own where it matters). */
function errorsOf(res: { json: unknown }): { code: number; message: string }[] {
  return (res.json as Envelope).errors.map(({ code, message }) => ({ code, message }));
}

const UUID = "0f8c1e2a-4b5c-4d6e-8f90-a1b2c3d4e5f6";

describe("search emulator: instances", () => {
  const fx = useEmulator();

  for (const form of FORMS) {
    describe(form.label, () => {
      const ns = form.namespace;
      beforeEach(async () => {
        if (ns) await seedNamespace(fx, ns);
      });

      it("creates, gets, lists, updates and deletes an instance", async () => {
        const created = await fx.api.search.instances.create(
          { namespace: ns },
          {
            id: "kb",
            type: "r2",
            source: SOURCE,
            chunk_size: 512,
            custom_metadata: [{ field_name: "team", data_type: "text" }],
          },
        );
        assert.equal(created.id, "kb");
        assert.equal(created.namespace, ns ?? "default");
        assert.equal(created.chunk_size, 512);
        assert.equal(created.created_at, "2026-01-01T00:00:00.000Z");
        assert.equal(created.modified_at, "2026-01-01T00:00:00.000Z");
        assert.equal(created.created_by, "default");
        assert.equal(created.status, "waiting");
        assert.equal(created.enable, true);
        assert.equal(created.last_activity, null);
        // Defaults of the settings left out are filled in.
        assert.equal(created.chunk_overlap, 10);
        assert.equal(created.sync_interval, 21600);
        assert.deepEqual(created.index_method, { keyword: false, vector: true });

        const got = await fx.api.search.instances.get({ namespace: ns, id: "kb" });
        assert.deepEqual(got, created);

        const listed = await collect(fx.api.search.instances.list({ namespace: ns }));
        assert.deepEqual(
          listed.map((i) => i.id),
          ["kb"],
        );

        fx.clock.advance(60_000);
        const updated = await fx.api.search.instances.update(
          { namespace: ns, id: "kb" },
          { chunk_size: 1024, paused: true },
        );
        assert.equal(updated.chunk_size, 1024);
        assert.equal(updated.paused, true);
        assert.equal(updated.status, "paused");
        assert.equal(updated.modified_at, "2026-01-01T00:01:00.000Z");
        assert.equal(updated.created_at, "2026-01-01T00:00:00.000Z");
        // PUT replaces: what was left out is back to its default or gone.
        assert.equal(updated.custom_metadata, undefined);
        assert.equal(updated.type, "r2");
        assert.equal(updated.source, SOURCE);

        const deleted = await fx.api.search.instances.delete({ namespace: ns, id: "kb" });
        assert.equal(deleted.id, "kb");
        await assert.rejects(fx.api.search.instances.get({ namespace: ns, id: "kb" }), (e: unknown) => {
          assert.ok(e instanceof NotFoundError);
          assert.equal(e.apiCode, 1002);
          assert.match(e.message, new RegExp(`instance "kb" in namespace "${ns ?? "default"}" not found`));
          return true;
        });
      });

      it("speaks the envelope on the wire at the namespace's paths", async () => {
        const res = await fx.http("POST", base(fx, ns), {
          body: { id: "wire", type: "web-crawler", source: "example.com" },
        });
        assert.equal(res.status, 201, "create answers the contract's 201");
        const env = res.json as Envelope<{ id: string; namespace: string }>;
        assert.equal(env.success, true);
        assert.deepEqual(env.errors, []);
        assert.equal(env.result.id, "wire");
        assert.equal(env.result.namespace, ns ?? "default");
        const list = await fx.http("GET", `${base(fx, ns)}?page=1&per_page=10`);
        assert.deepEqual((list.json as Envelope).result_info, {
          page: 1,
          per_page: 10,
          count: 1,
          total_count: 1,
        });
        const stats = await fx.http("GET", `${base(fx, ns)}/wire/stats`);
        // No job has run: `last_activity` (a date-time in the contract, never null) is left out.
        assert.deepEqual((stats.json as Envelope).result, { queued: 0, running: 0, completed: 0, error: 0 });
      });

      it("refuses a duplicate id with a 400 (the contract's create documents no 409), code 1003", async () => {
        await fx.api.search.instances.create({ namespace: ns }, { id: "dup" });
        await assert.rejects(
          fx.api.search.instances.create({ namespace: ns }, { id: "dup" }),
          (e: unknown) => {
            assert.ok(e instanceof BadRequestError);
            assert.equal(e.status, 400);
            assert.equal(e.apiCode, 1003);
            assert.match(
              e.message,
              new RegExp(`id: an instance "dup" already exists in namespace "${ns ?? "default"}"`),
            );
            return true;
          },
        );
      });

      it("pages through instances without a request past the end", async () => {
        for (const id of ["a1", "a2", "a3", "a4", "a5"]) {
          await fx.api.search.instances.create({ namespace: ns }, { id });
          fx.clock.advance(1);
        }
        fx.em.requestLog.length = 0;
        const ids = (await collect(fx.api.search.instances.list({ namespace: ns }, { perPage: 2 }))).map(
          (i) => i.id,
        );
        assert.deepEqual(ids, ["a5", "a4", "a3", "a2", "a1"], "newest first, the contract's default");
        assert.deepEqual(
          fx.em.requestLog.map((r) => new URL(r.url, "http://x").searchParams.get("page")),
          ["1", "2", "3"],
        );
        const past = await fx.http("GET", `${base(fx, ns)}?page=9&per_page=2`);
        assert.deepEqual((past.json as Envelope).result, []);
        const oldest = await collect(
          fx.api.search.instances.list({ namespace: ns }, { order_by_direction: "asc", search: "a" }),
        );
        assert.deepEqual(
          oldest.map((i) => i.id),
          ["a1", "a2", "a3", "a4", "a5"],
        );
        const one = await collect(fx.api.search.instances.list({ namespace: ns }, { search: "3" }));
        assert.deepEqual(
          one.map((i) => i.id),
          ["a3"],
        );
      });

      it("never returns storage credentials, and keeps them across a PUT", async () => {
        const secret = "s3cr3t-access-key-value";
        const created = await fx.api.search.instances.create(
          { namespace: ns },
          {
            id: "creds",
            type: "r2",
            source: SOURCE,
            source_params: {
              prefix: "docs/",
              storage_credentials: { access_key_id: "AKID", secret_access_key: secret },
            },
            token_id: UUID,
          },
        );
        assert.deepEqual(created.source_params, { prefix: "docs/" });
        assert.equal(created.token_id, UUID);
        await fx.api.search.instances.update(
          { namespace: ns, id: "creds" },
          { source_params: { prefix: "kb/" } },
        );
        for (const path of [base(fx, ns), `${base(fx, ns)}/creds`]) {
          const res = await fx.http("GET", path);
          assert.ok(!res.text.includes(secret), path);
          assert.ok(!res.text.includes("AKID"), path);
          assert.ok(!res.text.includes("storage_credentials"), path);
        }
        const stored = JSON.stringify(fx.em.store.snapshot());
        assert.ok(stored.includes(secret), "the emulator keeps the credentials it was given");
      });

      it("refuses to change type or source on PUT", async () => {
        await fx.api.search.instances.create({ namespace: ns }, { id: "fixed", type: "r2", source: SOURCE });
        const typed = await fx.http("PUT", `${base(fx, ns)}/fixed`, { body: { type: "web-crawler" } });
        assert.deepEqual(errorsOf(typed), [{ code: 1001, message: "type: is not a known field" }]);
        const res = await fx.http("PUT", `${base(fx, ns)}/fixed`, { body: { source: "example.org" } });
        assert.equal(res.status, 400);
        assert.deepEqual((res.json as Envelope).errors, [
          {
            code: 1001,
            message: "source: cannot be changed after create (create a new instance)",
            path: ["source"],
          },
        ]);
        const same = await fx.http("PUT", `${base(fx, ns)}/fixed`, {
          body: { source: SOURCE, cache: false },
        });
        assert.equal(same.status, 200);
      });

      it("answers 404 for an unknown instance on every instance route", async () => {
        const b = `${base(fx, ns)}/nope`;
        for (const [method, path] of [
          ["GET", b],
          ["PUT", b],
          ["DELETE", b],
          ["GET", `${b}/stats`],
          ["POST", `${b}/jobs`],
          ["GET", `${b}/jobs`],
          ["GET", `${b}/jobs/j1`],
          ["PATCH", `${b}/jobs/j1`],
          ["GET", `${b}/jobs/j1/logs`],
          ["POST", `${b}/search`],
          ["POST", `${b}/chat/completions`],
        ] as const) {
          const body =
            method === "PATCH"
              ? { action: "cancel" }
              : path.endsWith("search")
                ? { query: "x" }
                : path.endsWith("completions")
                  ? { messages: [{ role: "user", content: "x" }] }
                  : undefined;
          const res = await fx.http(method, path, body === undefined ? {} : { body });
          assert.equal(res.status, 404, `${method} ${path}`);
          assert.deepEqual(errorsOf(res), [
            { code: 1002, message: `instance "nope" in namespace "${ns ?? "default"}" not found` },
          ]);
        }
      });
    });
  }

  it("keeps ids unique per namespace only", async () => {
    await seedNamespace(fx, "team-b");
    await fx.api.search.instances.create({}, { id: "shared" });
    const other = await fx.api.search.instances.create({ namespace: "team-b" }, { id: "shared" });
    assert.equal(other.namespace, "team-b");
    assert.equal((await collect(fx.api.search.instances.list())).length, 1);
    assert.equal((await collect(fx.api.search.instances.list({ namespace: "team-b" }))).length, 1);
  });

  it("answers an unknown namespace with 400 on list and create (no 404 there), else 404", async () => {
    await assert.rejects(
      fx.api.search.instances.create({ namespace: "ghost" }, { id: "x" }),
      (e: unknown) => {
        assert.ok(e instanceof BadRequestError);
        assert.deepEqual(e.errors, [
          { code: 1001, field: "namespace", message: 'namespace: namespace "ghost" does not exist' },
        ]);
        return true;
      },
    );
    assert.equal((await fx.http("GET", base(fx, "ghost"))).status, 400);
    const listed = await fx.http("GET", `${base(fx, undefined)}?namespace=ghost`);
    assert.equal(listed.status, 400);
    const got = await fx.http("GET", `${base(fx, "ghost")}/x`);
    assert.equal(got.status, 404);
    assert.deepEqual(errorsOf(got), [{ code: 1002, message: 'namespace "ghost" not found' }]);
  });

  it("lists another namespace from the default base with ?namespace=", async () => {
    await seedNamespace(fx, "team-c");
    await fx.api.search.instances.create({ namespace: "team-c" }, { id: "there" });
    const res = await fx.http("GET", `${base(fx, undefined)}?namespace=team-c`);
    assert.deepEqual(
      (res.json as Envelope<{ id: string; namespace: string }[]>).result.map((i) => `${i.namespace}/${i.id}`),
      ["team-c/there"],
    );
  });

  it("treats the namespace named default as the default one", async () => {
    await fx.api.search.instances.create({}, { id: "same" });
    const got = await fx.api.search.instances.get({ namespace: "default", id: "same" });
    assert.equal(got.namespace, "default");
  });

  it("seeds, lists and deletes namespaces through the control API", async () => {
    await seedNamespace(fx, "ops");
    const again = await fx.http("POST", "/__emulator/search/namespaces", { body: { name: "ops" } });
    assert.equal(again.status, 409);
    const bad = await fx.http("POST", "/__emulator/search/namespaces", { body: { name: "Bad Name" } });
    assert.equal(bad.status, 400);
    assert.match(errorsOf(bad)[0]!.message, /^name: must be 1 to 32 lowercase letters/);
    const list = await fx.http("GET", "/__emulator/search/namespaces");
    assert.deepEqual(
      (list.json as Envelope<{ name: string }[]>).result.map((n) => n.name),
      ["default", "ops"],
    );
    const del = await fx.http("DELETE", "/__emulator/search/namespaces/ops");
    assert.equal(del.status, 200);
    assert.equal((await fx.http("GET", `${base(fx, "ops")}/x`)).status, 404);
    assert.equal((await fx.http("DELETE", "/__emulator/search/namespaces/default")).status, 400);
  });

  describe("validation by the emulator (400 naming the field)", () => {
    const cases: [string, unknown, string][] = [
      ["missing id", {}, "id: is required"],
      ["id pattern", { id: "Has Caps" }, "id: must contain only lowercase letters, digits, - and _"],
      ["id length", { id: "x".repeat(65) }, "id: must be at most 64 characters"],
      [
        "sync_interval enum",
        { id: "a", sync_interval: 1000 },
        "sync_interval: must be one of 900, 1800, 3600, 7200, 14400, 21600, 43200, 86400 seconds",
      ],
      [
        "model enum",
        { id: "a", reranking_model: "my-reranker" },
        'reranking_model: must be one of @cf/baai/bge-reranker-base, ""',
      ],
      ["score_threshold", { id: "a", score_threshold: 1.5 }, "score_threshold: must be between 0 and 1"],
      ["max_num_results", { id: "a", max_num_results: 51 }, "max_num_results: must be between 1 and 50"],
      ["fusion_method", { id: "a", fusion_method: "sum" }, "fusion_method: must be one of max, rrf"],
      [
        "crawl depth",
        {
          id: "a",
          type: "web-crawler",
          source: "example.com",
          source_params: { web_crawler: { crawl_options: { depth: 0 } } },
        },
        "source_params.web_crawler.crawl_options.depth: must be between 1 and 100000",
      ],
      [
        "rate limit period",
        { id: "a", public_endpoint_params: { rate_limit: { period_ms: 1000 } } },
        "public_endpoint_params.rate_limit.period_ms: must be between 60000 and 3600000 ms",
      ],
      ["token_id", { id: "a", token_id: "tok" }, "token_id: must be a UUID"],
      ["type enum", { id: "a", type: "s3" }, "type: must be one of r2, web-crawler"],
      ["source without type", { id: "a", source: "b-bucket" }, "type: is required when source is set"],
      [
        "r2 bucket syntax",
        { id: "a", type: "r2", source: "Bad_Bucket" },
        "source: must be an R2 bucket name (3-63 lowercase letters, digits and -) when type is r2",
      ],
      ["chunk_overlap", { id: "a", chunk_overlap: 31 }, "chunk_overlap: must be between 0 and 30"],
      ["chunk_size", { id: "a", chunk_size: 63 }, "chunk_size: must be at least 64"],
      [
        "cache_threshold",
        { id: "a", cache_threshold: "loose" },
        "cache_threshold: must be one of super_strict_match, close_enough, flexible_friend, anything_goes",
      ],
      ["index_method", { id: "a", index_method: { keyword: true } }, "index_method.vector: is required"],
      [
        "custom_metadata type",
        { id: "a", custom_metadata: [{ field_name: "f", data_type: "date" }] },
        "custom_metadata.0.data_type: must be one of text, number, boolean, datetime",
      ],
      [
        "custom_metadata count",
        { id: "a", custom_metadata: new Array(6).fill({ field_name: "f", data_type: "text" }) },
        "custom_metadata: must have at most 5 entries",
      ],
      ["unknown field", { id: "a", chunksize: 5 }, "chunksize: is not a known field"],
      [
        "nested unknown field",
        { id: "a", source_params: { bucket: "b" } },
        "source_params.bucket: is not a known field",
      ],
      ["read-only field", { id: "a", status: "ready" }, "status: is not a known field"],
    ];
    for (const [label, body, message] of cases) {
      it(`create: ${label}`, async () => {
        const res = await fx.http("POST", base(fx, undefined), { body });
        assert.equal(res.status, 400);
        assert.deepEqual(errorsOf(res), [{ code: 1001, message }]);
        const field = message.slice(0, message.indexOf(": "));
        assert.deepEqual(
          (res.json as Envelope<unknown> & { errors: { path: string[] }[] }).errors[0]!.path,
          field.split("."),
        );
      });
    }

    it("cancel: only the cancel action", async () => {
      await fx.api.search.instances.create({}, { id: "c" });
      const job = await fx.api.search.jobs.create({ id: "c" });
      const res = await fx.http("PATCH", `${base(fx, undefined)}/c/jobs/${job.id}`, {
        body: { action: "stop" },
      });
      assert.equal(res.status, 400);
      assert.deepEqual(errorsOf(res), [{ code: 1001, message: "action: must be one of cancel" }]);
    });

    it("list: per_page within 1-100", async () => {
      const res = await fx.http("GET", `${base(fx, undefined)}?per_page=500`);
      assert.equal(res.status, 400);
      assert.deepEqual(errorsOf(res), [{ code: 1001, message: "per_page: must be between 1 and 100" }]);
    });
  });

  describe("local validation in the sdk (no request made)", () => {
    it("rejects bad input before any request", async () => {
      const s = fx.api.search;
      const checks: [() => Promise<unknown> | unknown, RegExp][] = [
        [
          () => s.instances.create({}, { id: "Bad!" }),
          /search\.createInstance: id: must contain only lowercase letters/,
        ],
        [
          () => s.instances.create({}, { id: "a", sync_interval: 60 as 900 }),
          /sync_interval: must be one of 900, 1800/,
        ],
        [
          () => s.instances.create({}, { id: "a", ...({ status: "ready" } as object) }),
          /status: is not a known field/,
        ],
        [() => s.jobs.list({ id: "a" }, { perPage: 51 }), /perPage: must be between 1 and 50/],
        [() => s.jobs.logs({ id: "a", jobId: "j" }, { perPage: 501 }), /perPage: must be between 1 and 500/],
        [
          () => s.jobs.create({ id: "a" }, { description: "x".repeat(256) }),
          /description: must be at most 255/,
        ],
        [
          () =>
            s.instances.chatCompletions(
              { id: "a" },
              { messages: [{ role: "user", content: "hi" }], stream: true },
            ),
          /stream: must be false/,
        ],
        [() => s.instances.search({ id: "a" }, {}), /query: is required unless messages is given/],
        [
          () => s.instances.create({}, { id: "a", type: "s3" as "r2" }),
          /type: must be one of r2, web-crawler/,
        ],
        [
          () => s.instances.create({}, { id: "a", ...({ extra: 1 } as object) }),
          /search\.createInstance: extra: is not a known field/,
        ],
        [
          () => s.instances.create({ namespace: "Bad NS" }, { id: "a" }),
          /namespace: must contain only lowercase letters/,
        ],
        [
          () => s.instances.update({ id: "a" }, { chunk_overlap: 99 }),
          /search\.updateInstance: chunk_overlap: must be between 0 and 30/,
        ],
        [() => s.instances.get({ id: "../x" }), /id: must contain only lowercase letters/],
        [() => s.jobs.get({ id: "a", jobId: "" }), /jobId: must not be empty/],
        [() => s.instances.list({}, { perPage: 0 }), /perPage: must be between 1 and 100/],
        [() => s.jobs.wait({ id: "a", jobId: "" }), /jobId: must not be empty/],
      ];
      for (const [call, message] of checks) {
        await assert.rejects(
          async () => call(),
          (e: unknown) => {
            assert.ok(e instanceof ValidationError, String(e));
            assert.match(e.message, message);
            return true;
          },
        );
      }
      assert.equal(fx.em.requestLog.length, 0);
    });
  });
});

describe("search emulator: sync jobs", () => {
  const fx = useEmulator();

  for (const form of FORMS) {
    describe(form.label, () => {
      const ns = form.namespace;
      beforeEach(async () => {
        if (ns) await seedNamespace(fx, ns);
        await fx.api.search.instances.create({ namespace: ns }, { id: "kb", type: "r2", source: SOURCE });
      });

      it("runs a job on the clock: progress, logs, stats and the end", async () => {
        const s = fx.api.search;
        assert.equal(itemCount(SOURCE), 7);
        const job = await s.jobs.create({ namespace: ns, id: "kb" });
        assert.equal(job.source, "user");
        assert.equal(job.started_at, "2026-01-01T00:00:00.000Z");
        // The contract's job has no null fields: the end appears once there is one.
        assert.equal(job.ended_at, undefined);
        assert.equal(job.end_reason, undefined);
        assert.equal((await s.instances.get({ namespace: ns, id: "kb" })).status, "syncing");

        // Still scanning: nothing known yet.
        assert.deepEqual(await s.instances.stats({ namespace: ns, id: "kb" }), {
          queued: 0,
          running: 0,
          completed: 0,
          error: 0,
          last_activity: "2026-01-01T00:00:00.000Z",
        });
        const early = await collect(s.jobs.logs({ namespace: ns, id: "kb", jobId: job.id }));
        assert.deepEqual(
          early.map((l) => l.message),
          ["Sync job started (requested by user)", `Scanning r2 source ${SOURCE}`],
        );

        fx.clock.advance(SCAN_MS + 2 * ITEM_MS);
        const mid = await s.instances.stats({ namespace: ns, id: "kb" });
        assert.deepEqual(
          { queued: mid.queued, running: mid.running, completed: mid.completed, error: mid.error },
          { queued: 4, running: 1, completed: 2, error: 0 },
        );
        const midLogs = await collect(s.jobs.logs({ namespace: ns, id: "kb", jobId: job.id }));
        assert.equal(midLogs.length, 5);
        assert.deepEqual(midLogs[2], {
          id: 3,
          created_at: Date.parse("2026-01-01T00:00:01.000Z") / 1000,
          message: "Found 7 items",
          message_type: 0,
        });
        assert.equal(midLogs[4]!.message, "Indexed doc-2.md");
        const running = await s.jobs.get({ namespace: ns, id: "kb", jobId: job.id });
        assert.equal(running.ended_at, undefined);
        assert.equal(running.last_seen_at, "2026-01-01T00:00:02.000Z");

        fx.clock.advance(JOB_MS);
        const ended = await s.jobs.get({ namespace: ns, id: "kb", jobId: job.id });
        assert.equal(ended.ended_at, "2026-01-01T00:00:04.500Z");
        assert.equal(ended.end_reason, "completed");
        const stats = await s.instances.stats({ namespace: ns, id: "kb" });
        assert.deepEqual(
          { queued: stats.queued, running: stats.running, completed: stats.completed, error: stats.error },
          { queued: 0, running: 0, completed: 6, error: 1 },
        );
        assert.equal(stats.last_activity, "2026-01-01T00:00:04.500Z");
        const logs = await collect(s.jobs.logs({ namespace: ns, id: "kb", jobId: job.id }));
        assert.equal(logs.length, 3 + 7 + 1);
        assert.deepEqual(logs[7], {
          id: 8,
          created_at: Date.parse("2026-01-01T00:00:03.500Z") / 1000,
          message: "Failed to index doc-5.md: unsupported content",
          message_type: 2,
        });
        assert.equal(logs[10]!.message, "Sync job completed: 6 indexed, 0 skipped, 1 failed");
        const inst = await s.instances.get({ namespace: ns, id: "kb" });
        assert.equal(inst.status, "ready");
        assert.equal(inst.last_activity, "2026-01-01T00:00:04.500Z");
      });

      it("runs one job at a time: a new job ends the running one; a later job skips what is indexed", async () => {
        const s = fx.api.search;
        const replaced = await s.jobs.create({ namespace: ns, id: "kb" }, { description: "first try" });
        assert.equal(replaced.description, "first try");
        fx.clock.advance(SCAN_MS + ITEM_MS);
        const first = await s.jobs.create({ namespace: ns, id: "kb" });
        const ended = await s.jobs.get({ namespace: ns, id: "kb", jobId: replaced.id });
        assert.equal(ended.end_reason, "new_job_has_started");
        assert.equal(ended.ended_at, "2026-01-01T00:00:01.500Z");
        const replacedLogs = await collect(s.jobs.logs({ namespace: ns, id: "kb", jobId: replaced.id }));
        assert.equal(
          replacedLogs[replacedLogs.length - 1]!.message,
          "Sync job ended after 1 of 7 items, a new job has started: 1 indexed, 0 skipped, 0 failed",
        );
        fx.clock.advance(JOB_MS);
        const firstLogs = await collect(s.jobs.logs({ namespace: ns, id: "kb", jobId: first.id }));
        assert.equal(
          firstLogs[firstLogs.length - 1]!.message,
          "Sync job completed: 5 indexed, 1 skipped, 1 failed",
        );
        const second = await s.jobs.create({ namespace: ns, id: "kb" });
        assert.notEqual(second.id, first.id);
        fx.clock.advance(JOB_MS);
        const logs = await collect(s.jobs.logs({ namespace: ns, id: "kb", jobId: second.id }));
        assert.equal(logs[logs.length - 1]!.message, "Sync job completed: 0 indexed, 6 skipped, 1 failed");
        const jobs = await collect(s.jobs.list({ namespace: ns, id: "kb" }));
        assert.deepEqual(
          jobs.map((j) => j.id),
          [second.id, first.id, replaced.id],
          "newest first",
        );
      });

      it("cancels a running job; a repeat is harmless; an ended job cannot be cancelled", async () => {
        const s = fx.api.search;
        const job = await s.jobs.create({ namespace: ns, id: "kb" });
        fx.clock.advance(SCAN_MS + 3 * ITEM_MS + 100);
        const cancelled = await s.jobs.cancel({ namespace: ns, id: "kb", jobId: job.id });
        assert.equal(cancelled.end_reason, "cancelled");
        assert.equal(cancelled.ended_at, "2026-01-01T00:00:02.600Z");
        fx.clock.advance(10_000);
        const again = await s.jobs.cancel({ namespace: ns, id: "kb", jobId: job.id });
        assert.deepEqual(again, cancelled);
        const stats = await s.instances.stats({ namespace: ns, id: "kb" });
        assert.deepEqual(
          { queued: stats.queued, running: stats.running, completed: stats.completed, error: stats.error },
          { queued: 0, running: 0, completed: 3, error: 0 },
        );
        const logs = await collect(s.jobs.logs({ namespace: ns, id: "kb", jobId: job.id }));
        assert.deepEqual(logs[logs.length - 1], {
          id: logs.length,
          created_at: Date.parse("2026-01-01T00:00:02.600Z") / 1000,
          message: "Sync job cancelled after 3 of 7 items: 3 indexed, 0 skipped, 0 failed",
          message_type: 1,
        });

        const done = await s.jobs.create({ namespace: ns, id: "kb" });
        fx.clock.advance(JOB_MS);
        await assert.rejects(s.jobs.cancel({ namespace: ns, id: "kb", jobId: done.id }), (e: unknown) => {
          assert.ok(e instanceof BadRequestError, "the contract's PATCH documents 400, not 409");
          assert.deepEqual(e.errors, [
            { code: 1001, field: "action", message: `action: job "${done.id}" has already ended` },
          ]);
          return true;
        });
      });

      it("sends cancel as PATCH {action: cancel} and create-job as POST without a body", async () => {
        const create = await fx.http("POST", `${base(fx, ns)}/kb/jobs`);
        assert.equal(create.status, 200);
        const job = (create.json as Envelope<SearchJob>).result;
        const cancel = await fx.http("PATCH", `${base(fx, ns)}/kb/jobs/${job.id}`, {
          body: { action: "cancel" },
        });
        assert.equal(cancel.status, 200);
        assert.equal((cancel.json as Envelope<SearchJob>).result.end_reason, "cancelled");
      });

      it("waits for a job with a sleep that advances the clock", async () => {
        const s = fx.api.search;
        const job = await s.jobs.create({ namespace: ns, id: "kb" });
        const slept: number[] = [];
        const seen: (string | null | undefined)[] = [];
        const done = await s.jobs.wait(
          { id: "kb", jobId: job.id, namespace: ns },
          {
            pollIntervalMs: 1000,
            maxPollIntervalMs: 2000,
            sleep: async (ms) => {
              slept.push(ms);
              fx.clock.advance(ms);
            },
            now: () => fx.clock.now(),
            onProgress: (p) => seen.push(p.job.ended_at),
          },
        );
        assert.equal(done.end_reason, "completed");
        assert.equal(done.ended_at, "2026-01-01T00:00:04.500Z");
        assert.deepEqual(slept, [1000, 1500, 2000]);
        assert.deepEqual(seen, [undefined, undefined, undefined, "2026-01-01T00:00:04.500Z"]);
      });

      it("gives up at the deadline, measured on the injected clock", async () => {
        const job = await fx.api.search.jobs.create({ namespace: ns, id: "kb" });
        await assert.rejects(
          fx.api.search.jobs.wait(
            { id: "kb", jobId: job.id, namespace: ns },
            {
              deadlineMs: 1500,
              pollIntervalMs: 1000,
              sleep: async (ms) => fx.clock.advance(ms),
              now: () => fx.clock.now(),
            },
          ),
          (e: unknown) => {
            assert.ok(e instanceof DeadlineExceededError);
            assert.match(
              e.message,
              new RegExp(`search job ${job.id} of instance kb: not finished within 1500 ms`),
            );
            return true;
          },
        );
        assert.equal(
          fx.clock.now(),
          Date.parse("2026-01-01T00:00:01.500Z"),
          "the last pause is cut to the deadline",
        );
      });

      it("stops waiting when aborted", async () => {
        const job = await fx.api.search.jobs.create({ namespace: ns, id: "kb" });
        const ac = new AbortController();
        await assert.rejects(
          fx.api.search.jobs.wait(
            { id: "kb", jobId: job.id, namespace: ns },
            {
              signal: ac.signal,
              sleep: async (ms) => {
                fx.clock.advance(ms);
                ac.abort();
              },
              now: () => fx.clock.now(),
            },
          ),
          AbortedError,
        );
      });

      it("pages jobs and logs", async () => {
        const s = fx.api.search;
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) {
          ids.push((await s.jobs.create({ namespace: ns, id: "kb" })).id);
          fx.clock.advance(JOB_MS);
        }
        fx.em.requestLog.length = 0;
        const jobs = await collect(s.jobs.list({ namespace: ns, id: "kb" }, { perPage: 2 }));
        assert.deepEqual(
          jobs.map((j) => j.id),
          [...ids].reverse(),
        );
        assert.equal(fx.em.requestLog.length, 2);
        const logs = await collect(s.jobs.logs({ namespace: ns, id: "kb", jobId: ids[0]! }, { perPage: 4 }));
        assert.deepEqual(
          logs.map((l) => l.id),
          [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
        );
        const raw = await fx.http("GET", `${base(fx, ns)}/kb/jobs/${ids[0]}/logs?page=3&per_page=4`);
        assert.deepEqual((raw.json as Envelope).result_info, {
          page: 3,
          per_page: 4,
          count: 3,
          total_count: 11,
        });
      });

      it("answers 404 for an unknown job", async () => {
        await assert.rejects(
          fx.api.search.jobs.get({ namespace: ns, id: "kb", jobId: "missing" }),
          (e: unknown) => {
            assert.ok(e instanceof NotFoundError);
            assert.deepEqual(e.errors, [{ code: 1002, message: 'job "missing" of instance "kb" not found' }]);
            return true;
          },
        );
      });
    });
  }

  it("starts scheduled syncs every sync_interval after the last one ended", async () => {
    const s = fx.api.search;
    await s.instances.create(
      {},
      { id: "sched", type: "web-crawler", source: "https://docs.example.com", sync_interval: 900 },
    );
    fx.clock.advance(899_999);
    assert.deepEqual(await collect(s.jobs.list({ id: "sched" })), []);
    fx.clock.advance(1);
    const [job] = await collect(s.jobs.list({ id: "sched" }));
    assert.equal(job!.source, "schedule");
    assert.equal(job!.started_at, "2026-01-01T00:15:00.000Z");
    // 6 items: the next one is due 900 s after this one ends.
    fx.clock.advance(SCAN_MS + 6 * ITEM_MS + 900_000);
    const jobs = await collect(s.jobs.list({ id: "sched" }));
    assert.equal(jobs.length, 2);
    assert.equal(jobs[0]!.started_at, "2026-01-01T00:30:04.000Z");
    const logs = await collect(s.jobs.logs({ id: "sched", jobId: jobs[1]!.id }));
    assert.equal(logs[3]!.message, "Indexed https://docs.example.com/page-1");
  });

  it("starts no scheduled sync while paused, and refuses a job (400, as the service's autorag_is_paused)", async () => {
    await fx.api.search.instances.create({}, { id: "still", type: "r2", source: SOURCE });
    await fx.api.search.instances.update({ id: "still" }, { paused: true });
    fx.clock.advance(3 * 86_400_000);
    assert.deepEqual(await collect(fx.api.search.jobs.list({ id: "still" })), []);
    await assert.rejects(fx.api.search.jobs.create({ id: "still" }), (e: unknown) => {
      assert.ok(e instanceof BadRequestError);
      assert.match(e.message, /paused: instance "still" is paused/);
      return true;
    });
  });

  it("catches up a long clock jump with a bounded history", async () => {
    await fx.api.search.instances.create({}, { id: "busy", type: "r2", source: SOURCE, sync_interval: 900 });
    fx.clock.advance(365 * 86_400_000);
    const jobs = await collect(fx.api.search.jobs.list({ id: "busy" }));
    assert.ok(jobs.length <= 50, String(jobs.length));
    const stats = await fx.api.search.instances.stats({ id: "busy" });
    assert.equal(stats.completed, 6);
    assert.equal(stats.error, 1);
  });
});

describe("search sdk: creates that survive a lost response", () => {
  const fx = useEmulator();

  it("returns the instance when the create landed but the response was lost", async () => {
    await fx.http("POST", "/__emulator/faults", {
      body: { method: "POST", path: "/ai-search/instances$", commitThenDrop: true, times: 1 },
    });
    const inst = await fx.api.search.instances.create({}, { id: "once", type: "r2", source: SOURCE });
    assert.equal(inst.id, "once");
    // The dropped exchange is logged with the status the client never saw, then the lookup.
    assert.deepEqual(
      fx.em.requestLog
        .filter((r) => r.url.includes("/ai-search/"))
        .map((r) => `${r.method} ${r.status}${r.fault ? ` ${r.fault}` : ""}`),
      ["POST 201 drop", "GET 200"],
    );
    assert.equal((await collect(fx.api.search.instances.list())).length, 1);
  });

  it("posts again when the lookup proves the first attempt did not land", async () => {
    await fx.http("POST", "/__emulator/faults", {
      body: { method: "POST", path: "/ai-search/instances$", reset: true, times: 1 },
    });
    const inst = await fx.api.search.instances.create({}, { id: "twice" });
    assert.equal(inst.id, "twice");
    assert.deepEqual(
      fx.em.requestLog
        .filter((r) => r.url.includes("/ai-search/"))
        .map((r) => `${r.method} ${r.status}${r.fault ? ` ${r.fault}` : ""}`),
      ["POST 0 reset", "GET 404", "POST 201"],
      "the reset request never reached a handler: it is logged with status 0",
    );
  });

  it("returns the running job when a job create landed but the response was lost", async () => {
    await fx.api.search.instances.create({}, { id: "kb", type: "r2", source: SOURCE });
    await fx.http("POST", "/__emulator/faults", {
      body: { method: "POST", path: "/jobs$", commitThenDrop: true, times: 1 },
    });
    const job = await fx.api.search.jobs.create({ id: "kb" });
    const jobs = await collect(fx.api.search.jobs.list({ id: "kb" }));
    assert.deepEqual(
      jobs.map((j) => j.id),
      [job.id],
    );
  });
});

describe("search emulator: authentication", () => {
  const fx = useEmulator();

  function routesOf(b: string): [string, string, unknown?][] {
    return [
      ["POST", b, { id: "x" }],
      ["GET", b],
      ["GET", `${b}/x`],
      ["PUT", `${b}/x`, {}],
      ["DELETE", `${b}/x`],
      ["GET", `${b}/x/stats`],
      ["POST", `${b}/x/jobs`],
      ["GET", `${b}/x/jobs`],
      ["GET", `${b}/x/jobs/j`],
      ["PATCH", `${b}/x/jobs/j`, { action: "cancel" }],
      ["GET", `${b}/x/jobs/j/logs`],
    ];
  }

  it("refuses a token missing either permission on every route, in both namespace forms", async () => {
    await seedNamespace(fx, "team-a");
    const editOnly = fx.token("account", ["search:edit"]);
    const runOnly = fx.token("account", ["search:run"]);
    for (const b of [base(fx, undefined), base(fx, "team-a")]) {
      for (const [method, path, body] of routesOf(b)) {
        for (const token of [editOnly, runOnly]) {
          const res = await fx.http(method, path, { token, body });
          assert.equal(res.status, 403, `${method} ${path}`);
          assert.deepEqual(errorsOf(res), [
            { code: 9109, message: "Unauthorized to access requested resource" },
          ]);
        }
      }
    }
  });

  it("accepts an account-level token holding both Edit and Run", async () => {
    const both = fx.client({ token: fx.token("account", ["search:edit", "search:run"]) });
    const inst = await both.search.instances.create({}, { id: "ok" });
    assert.equal(inst.id, "ok");
  });

  it("refuses a missing token, an unknown token and another account", async () => {
    const b = base(fx, undefined);
    const missing = await fx.http("GET", b, { token: null });
    assert.equal(missing.status, 401);
    assert.deepEqual(errorsOf(missing), [{ code: 10000, message: "Authentication error" }]);
    await assert.rejects(
      fx.client({ token: "not-a-token" }).search.instances.get({ id: "x" }),
      (e: unknown) => {
        assert.ok(e instanceof AuthenticationError);
        assert.equal(e.apiCode, 10000);
        return true;
      },
    );
    await assert.rejects(
      fx.api.search.instances.get({ id: "x", accountId: "someone-else" }),
      (e: unknown) => {
        assert.ok(e instanceof PermissionDeniedError);
        assert.equal(e.status, 403);
        assert.equal(e.apiCode, 9109);
        return true;
      },
    );
  });
});
