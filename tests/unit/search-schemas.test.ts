import { strict as assert } from "node:assert";
import {
  CreateInstanceBodySchema,
  SearchJobSchema,
  SearchStatsSchema,
  UpdateInstanceBodySchema,
} from "../../sdk/schemas/search";

function issues(
  schema: {
    safeParse(v: unknown): {
      success: boolean;
      error?: { issues: { path: PropertyKey[]; message: string }[] };
    };
  },
  v: unknown,
): string[] {
  const r = schema.safeParse(v);
  return r.success ? [] : r.error!.issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`);
}

describe("search schemas", () => {
  it("accepts every documented setting at its limits", () => {
    const body = {
      id: "kb_1-a",
      type: "r2",
      source: "my-bucket",
      source_params: {
        prefix: "docs/",
        include_items: ["/docs/**"],
        exclude_items: ["/docs/private/**"],
        r2_jurisdiction: "eu",
        storage_credentials: { access_key_id: "id", secret_access_key: "secret" },
      },
      ai_search_model: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
      embedding_model: "@cf/baai/bge-m3",
      rewrite_model: "@cf/meta/llama-3.1-8b-instruct-fast",
      reranking_model: "@cf/baai/bge-reranker-base",
      chunk: true,
      chunk_size: 64,
      chunk_overlap: 30,
      cache: true,
      cache_threshold: "anything_goes",
      cache_ttl: 60,
      index_method: { keyword: true, vector: false },
      custom_metadata: [
        { field_name: "team", data_type: "text" },
        { field_name: "rank", data_type: "number" },
      ],
      sync_interval: 86_400,
      paused: false,
      token_id: "0f8c1e2a",
    };
    assert.deepEqual(issues(CreateInstanceBodySchema, body), []);
    assert.deepEqual(issues(CreateInstanceBodySchema, { ...body, sync_interval: 900 }), []);
    assert.deepEqual(
      issues(CreateInstanceBodySchema, {
        id: "web",
        type: "web-crawler",
        source: "https://docs.example.com/start",
        source_params: { web_crawler: { parse_type: "feed-rss", store_options: { storage_id: "bucket" } } },
      }),
      [],
    );
  });

  it("names the field and the rule of each violation", () => {
    const table: [unknown, string[]][] = [
      [{ id: "" }, ["id: must not be empty", "id: must contain only lowercase letters, digits, - and _"]],
      [{ id: "a", sync_interval: 900.5 }, ["sync_interval: must be an integer"]],
      [{ id: "a", cache_ttl: 59 }, ["cache_ttl: must be between 60 and 2592000 seconds"]],
      [
        { id: "a", custom_metadata: new Array(6).fill({ field_name: "x", data_type: "text" }) },
        ["custom_metadata: must have at most 5 entries"],
      ],
      [
        { id: "a", custom_metadata: [{ field_name: "1x", data_type: "text" }] },
        [
          "custom_metadata.0.field_name: must start with a letter or _ and contain only letters, digits and _",
        ],
      ],
      [
        { id: "a", type: "web-crawler", source: "not a host" },
        ["source: must be a hostname or http(s) URL when type is web-crawler"],
      ],
      [
        { id: "a", type: "r2", source: "ab" },
        ["source: must be an R2 bucket name (3-63 lowercase letters, digits and -) when type is r2"],
      ],
      [
        { id: "a", source_params: { storage_credentials: { access_key_id: "x" } } },
        ["source_params.storage_credentials.secret_access_key: is required"],
      ],
      [{ id: "a", source_params: { bucket: "x" } }, ["source_params: is not an allowed field"]],
    ];
    for (const [body, expected] of table)
      assert.deepEqual(issues(CreateInstanceBodySchema, body), expected, JSON.stringify(body));
  });

  it("lets an update repeat the source without its type, and refuses an id", () => {
    assert.deepEqual(issues(UpdateInstanceBodySchema, { source: "my-bucket", chunk: false }), []);
    assert.deepEqual(issues(UpdateInstanceBodySchema, { id: "kb" }), [": is not an allowed field"]);
  });

  it("reads responses tolerantly", () => {
    const job = SearchJobSchema.parse({ id: "j", source: "user", started_at: "t", ended_at: null, extra: 1 });
    assert.equal((job as { extra?: number }).extra, 1);
    assert.deepEqual(SearchStatsSchema.parse({ completed: 2 }), {
      queued: 0,
      running: 0,
      completed: 2,
      error: 0,
    });
  });
});
