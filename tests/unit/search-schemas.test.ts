import { strict as assert } from "node:assert";
import {
  ChatCompletionBodySchema,
  CreateInstanceBodySchema,
  ITEM_STATUSES,
  ItemListQuerySchema,
  MESSAGE_ROLES,
  PutItemBodySchema,
  RETRIEVAL_TYPES,
  SearchBodySchema,
  SearchItemSchema,
  SearchJobSchema,
  SearchResultSchema,
  SearchStatsSchema,
  UpdateInstanceBodySchema,
  UploadItemFieldsSchema,
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
      ai_gateway_id: "gw",
      ai_search_model: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
      embedding_model: "@cf/baai/bge-m3",
      rewrite_model: "@cf/meta/llama-3.1-8b-instruct-fast",
      reranking_model: "@cf/baai/bge-reranker-base",
      chunk: true,
      chunk_size: 64,
      chunk_overlap: 30,
      cache: true,
      cache_threshold: "anything_goes",
      cache_ttl: 600,
      index_method: { keyword: true, vector: false },
      indexing_options: { keyword_tokenizer: "trigram" },
      custom_metadata: [
        { field_name: "team", data_type: "text" },
        { field_name: "1st", data_type: "datetime" },
      ],
      fusion_method: "max",
      hybrid_search_enabled: true,
      max_num_results: 50,
      metadata: {
        created_from_aisearch_wizard: true,
        search_for_agents: { hostname: "docs.example.com", zone_id: "z", zone_name: "example.com" },
        worker_domain: "w.example.com",
      },
      public_endpoint_params: {
        authorized_hosts: ["example.com"],
        chat_completions_endpoint: { disabled: true },
        enabled: true,
        mcp: { description: "docs", disabled: false },
        rate_limit: { period_ms: 60_000, requests: 10, technique: "sliding" },
        search_endpoint: { disabled: false },
      },
      reranking: true,
      retrieval_options: { boost_by: [{ field: "timestamp", direction: "desc" }], keyword_match_mode: "or" },
      rewrite_query: true,
      score_threshold: 1,
      sync_interval: 86_400,
      token_id: "0f8c1e2a-4b5c-4d6e-8f90-a1b2c3d4e5f6",
    };
    assert.deepEqual(issues(CreateInstanceBodySchema, body), []);
    assert.deepEqual(issues(CreateInstanceBodySchema, { ...body, sync_interval: 900 }), []);
    assert.deepEqual(
      issues(CreateInstanceBodySchema, {
        id: "web",
        type: "web-crawler",
        source: "https://docs.example.com/start",
        source_params: {
          web_crawler: {
            // The crawler's limits at their edges (the scenario of tests/conformance sets every field).
            parse_type: "crawl",
            crawl_options: { depth: 100_000, max_age: 604_800, source: "links" },
            parse_options: { specific_sitemaps: new Array(10).fill("https://a.example/s.xml") },
            store_options: { storage_id: "bucket", storage_type: "r2", r2_jurisdiction: "eu" },
          },
        },
      }),
      [],
    );
  });

  it("names the field and the rule of each violation", () => {
    const table: [unknown, string[]][] = [
      [{ id: "" }, ["id: must not be empty", "id: must contain only lowercase letters, digits, - and _"]],
      [
        { id: "a", sync_interval: 900.5 },
        ["sync_interval: must be one of 900, 1800, 3600, 7200, 14400, 21600, 43200, 86400 seconds"],
      ],
      [
        { id: "a", cache_ttl: 59 },
        [
          "cache_ttl: must be one of 600, 1800, 3600, 7200, 21600, 43200, 86400, 172800, 259200, 518400 seconds",
        ],
      ],
      [
        { id: "a", embedding_model: "@cf/meta/llama-3.3-70b-instruct-fp8-fast" },
        [
          'embedding_model: must be one of @cf/qwen/qwen3-embedding-0.6b, @cf/baai/bge-m3, @cf/baai/bge-large-en-v1.5, @cf/google/embeddinggemma-300m, google-ai-studio/gemini-embedding-001, google-ai-studio/gemini-embedding-2-preview, openai/text-embedding-3-small, openai/text-embedding-3-large, ""',
        ],
      ],
      [
        {
          id: "a",
          retrieval_options: { boost_by: [{ field: "a" }, { field: "b" }, { field: "c" }, { field: "d" }] },
        },
        ["retrieval_options.boost_by: must have at most 3 entries"],
      ],
      [
        { id: "a", metadata: { search_for_agents: { hostname: "h" } } },
        [
          "metadata.search_for_agents.zone_id: is required",
          "metadata.search_for_agents.zone_name: is required",
        ],
      ],
      [{ id: "a", status: "ready" }, [": is not a known field"]],
      [
        { id: "a", custom_metadata: new Array(6).fill({ field_name: "x", data_type: "text" }) },
        ["custom_metadata: must have at most 5 entries"],
      ],
      [
        { id: "a", custom_metadata: [{ field_name: "x".repeat(65), data_type: "text" }] },
        ["custom_metadata.0.field_name: must be at most 64 characters"],
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
      [{ id: "a", source_params: { bucket: "x" } }, ["source_params: is not a known field"]],
    ];
    for (const [body, expected] of table)
      assert.deepEqual(issues(CreateInstanceBodySchema, body), expected, JSON.stringify(body));
  });

  it("takes in an update what the service's PUT takes, and refuses what only a create takes", () => {
    assert.deepEqual(issues(UpdateInstanceBodySchema, { source: "my-bucket", chunk: false }), []);
    assert.deepEqual(
      issues(UpdateInstanceBodySchema, {
        paused: true,
        summarization: true,
        summarization_model: "",
        system_prompt_ai_search: "Answer briefly.",
        system_prompt_index_summarization: null,
        system_prompt_rewrite_query: "Rewrite.",
        ai_search_model: null,
      }),
      [],
    );
    for (const field of ["id", "type", "hybrid_search_enabled"])
      assert.deepEqual(issues(UpdateInstanceBodySchema, { [field]: "x" }), [": is not a known field"], field);
  });

  it("reads responses tolerantly", () => {
    const job = SearchJobSchema.parse({ id: "j", source: "user", started_at: "t", ended_at: null, extra: 1 });
    assert.equal(SearchJobSchema.parse({ id: "j", source: "user" }).ended_at, undefined);
    assert.equal((job as { extra?: number }).extra, 1);
    assert.deepEqual(SearchStatsSchema.parse({ completed: 2 }), {
      queued: 0,
      running: 0,
      completed: 2,
      error: 0,
    });
  });
});

describe("search schemas: items and retrieval (generated from the contract)", () => {
  it("take the contract's enums", () => {
    assert.deepEqual(ITEM_STATUSES, ["queued", "running", "completed", "error", "skipped", "outdated"]);
    assert.deepEqual(MESSAGE_ROLES, ["system", "developer", "user", "assistant", "tool"]);
    assert.deepEqual(RETRIEVAL_TYPES, ["vector", "keyword", "hybrid"]);
  });

  it("refuse an item body, query or upload in the project's words, naming each field", () => {
    assert.deepEqual(issues(PutItemBodySchema, { key: "", next_action: "INDEX" }), [
      "key: must not be empty",
    ]);
    assert.deepEqual(issues(PutItemBodySchema, { key: "a", next_action: "DELETE" }), [
      "next_action: must be one of INDEX",
    ]);
    assert.deepEqual(issues(ItemListQuerySchema, { per_page: "51", status: "gone" }), [
      "per_page: must be between 0 and 50",
      "status: must be one of queued, running, completed, error, skipped, outdated",
    ]);
    assert.deepEqual(
      issues(UploadItemFieldsSchema, { file: { name: "", content: 1 }, metadata: { n: {} }, wait: true }),
      [
        "file.name: must not be empty",
        "file.content: must be a string or bytes",
        "metadata.n: must be a string, number or boolean",
        ": is not a known field",
      ],
    );
    assert.deepEqual(
      issues(UploadItemFieldsSchema, {
        file: { name: "a.md", content: new Uint8Array([104]) },
        metadata: { n: 1 },
      }),
      [],
    );
  });

  it("refuse a search or chat body in the project's words; one of query and messages is required", () => {
    assert.deepEqual(issues(SearchBodySchema, {}), ["query: is required unless messages is given"]);
    assert.deepEqual(issues(SearchBodySchema, { messages: [] }), ["messages: must not be empty"]);
    assert.deepEqual(
      issues(SearchBodySchema, {
        query: "q",
        ai_search_options: { retrieval: { max_num_results: 51 }, custom_metadata: { team: "a", n: 1 } },
      }),
      ["ai_search_options.retrieval.max_num_results: must be between 1 and 50"],
    );
    assert.deepEqual(issues(ChatCompletionBodySchema, { messages: [{ role: "user", content: null }] }), []);
    assert.deepEqual(issues(ChatCompletionBodySchema, { messages: [{ role: "bot", content: 1 }] }), [
      "messages.0.content: must be a string",
      "messages.0.role: must be one of system, developer, user, assistant, tool",
    ]);
    assert.deepEqual(issues(ChatCompletionBodySchema, {}), ["messages: is required"]);
  });

  it("read answers openly: fields added later are kept", () => {
    const item = SearchItemSchema.parse({
      id: "i",
      key: "a.md",
      status: "indexed-later",
      checksum: "c",
      chunks_count: null,
      created_at: "2026-01-01T00:00:00Z",
      file_size: null,
      last_seen_at: "2026-01-01T00:00:00Z",
      namespace: "default",
      next_action: null,
      source_id: null,
      extra: 1,
    });
    assert.equal(item.status, "indexed-later");
    assert.equal(item["extra"], 1);
    const result = SearchResultSchema.parse({
      search_query: "q",
      chunks: [{ id: "c", type: "text", text: "t", score: 1, item: { key: "a.md", metadata: { n: 1 } } }],
    });
    assert.deepEqual(result.chunks[0]!.item?.metadata, { n: 1 });
  });
});
