/**
 * The search area's conformance scenario: every one of its 37 operations, in the default namespace
 * and in a named one, through the sdk: each success, each documented 4xx the emulator produces (404
 * on a missing id, 400 on a bad body or query via `raw`, 403 on another account), and one call per
 * body with every request field of the contract set.
 */
import { isAdvanceable } from "../../../emulator/clock";
import { ITEM_MS, SCAN_MS } from "../../../emulator/search/sync";
import { collect } from "../../../sdk/paging";
import type { CreateInstanceBody, UpdateInstanceBody } from "../../../sdk/search";
import type { AiSearchOptions } from "../../../sdk/schemas/search";
import type { AreaScenario, ConformanceKit } from "../kit";

const TOKEN = "0f8c1e2a-4b5c-4d6e-8f90-a1b2c3d4e5f6";
const MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";
/** docs-bucket holds 7 synthetic items; a job over it takes the scan and 7 steps. */
const SOURCE = "docs-bucket";
const JOB_MS = SCAN_MS + 7 * ITEM_MS;

/** Every field of the contract's create body (the settings the update shares, and the create's own). */
const FULL_SETTINGS = {
  source_params: {
    prefix: "docs/",
    include_items: ["/docs/**"],
    exclude_items: ["/docs/private/**"],
    r2_jurisdiction: "default",
    web_crawler: {
      parse_type: "crawl",
      crawl_options: {
        depth: 3,
        include_external_links: false,
        include_subdomains: true,
        max_age: 86_400,
        source: "all",
      },
      parse_options: {
        content_selector: [{ path: "/docs/**", selector: "main" }],
        include_headers: { "X-Docs-Crawler": "conformance" },
        include_images: true,
        specific_sitemaps: ["https://docs.example.com/sitemap.xml"],
        use_browser_rendering: false,
      },
      store_options: { storage_id: "crawl-store", storage_type: "r2", r2_jurisdiction: "default" },
    },
  },
  ai_gateway_id: "gateway-1",
  ai_search_model: MODEL,
  embedding_model: "@cf/baai/bge-m3",
  rewrite_model: "@cf/meta/llama-3.1-8b-instruct-fast",
  reranking_model: "@cf/baai/bge-reranker-base",
  cache: true,
  cache_threshold: "flexible_friend",
  chunk: true,
  chunk_size: 512,
  chunk_overlap: 15,
  custom_metadata: [
    { field_name: "team", data_type: "text" },
    { field_name: "published", data_type: "datetime" },
  ],
  fusion_method: "max",
  index_method: { keyword: true, vector: true },
  indexing_options: { keyword_tokenizer: "trigram" },
  max_num_results: 20,
  metadata: {
    created_from_aisearch_wizard: false,
    search_for_agents: { hostname: "docs.example.com", zone_id: "zone-1", zone_name: "example.com" },
    worker_domain: "search.example.workers.dev",
  },
  public_endpoint_params: {
    authorized_hosts: ["docs.example.com"],
    chat_completions_endpoint: { disabled: false },
    enabled: true,
    mcp: { description: "Docs search", disabled: false },
    rate_limit: { period_ms: 60_000, requests: 100, technique: "sliding" },
    search_endpoint: { disabled: false },
  },
  reranking: true,
  retrieval_options: {
    boost_by: [{ field: "timestamp", direction: "desc" }],
    keyword_match_mode: "or",
  },
  rewrite_query: true,
  score_threshold: 0.3,
  sync_interval: 3600,
  token_id: TOKEN,
} as const satisfies Omit<UpdateInstanceBody, "source">;

const FULL_CREATE: CreateInstanceBody = {
  id: "full",
  type: "web-crawler",
  source: "docs.example.com",
  hybrid_search_enabled: true,
  ...FULL_SETTINGS,
};

const FULL_UPDATE: UpdateInstanceBody = {
  ...FULL_SETTINGS,
  chunk_size: 1024,
  paused: false,
  summarization: true,
  summarization_model: "openai/gpt-5-mini",
  system_prompt_ai_search: "Answer from the documentation only.",
  system_prompt_index_summarization: "Summarize each page in one sentence.",
  system_prompt_rewrite_query: "Rewrite the question as keywords.",
};

/** Every option of a search or chat request. */
export const FULL_OPTIONS: AiSearchOptions = {
  cache: { cache_threshold: "close_enough", enabled: true },
  query_rewrite: { enabled: true, model: MODEL, rewrite_prompt: "Rewrite as keywords." },
  reranking: { enabled: true, match_threshold: 0.2, model: "@cf/baai/bge-reranker-base" },
  retrieval: {
    boost_by: [{ field: "timestamp", direction: "desc" }],
    context_expansion: 1,
    filters: { folder: "" },
    fusion_method: "rrf",
    keyword_match_mode: "or",
    match_threshold: 0.1,
    max_num_results: 5,
    retrieval_type: "hybrid",
    return_on_failure: true,
  },
};

function advance(kit: ConformanceKit, ms: number): void {
  if (!isAdvanceable(kit.emulator.clock)) throw new Error("the conformance emulator's clock cannot advance");
  kit.emulator.clock.advance(ms);
}

/** A raw request whose answer must have this status (a body or query the sdk refuses on purpose). */
async function expectRaw(
  kit: ConformanceKit,
  status: number,
  method: string,
  path: string,
  body?: unknown,
): Promise<void> {
  const res = await kit.raw(method, path, body);
  if (res.status !== status)
    throw new Error(`${method} ${path}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
}

/** The operations both bases serve: instances, stats, jobs and their logs, search and chat. */
async function instanceOperations(kit: ConformanceKit, namespace?: string): Promise<void> {
  const s = kit.api.search;
  const where = namespace === undefined ? {} : { namespace };
  const base =
    namespace === undefined
      ? `/accounts/${kit.accountId}/ai-search/instances`
      : `/accounts/${kit.accountId}/ai-search/namespaces/${namespace}/instances`;

  // Create (201): every field, and a plain r2 instance the jobs run on.
  await s.instances.create(where, FULL_CREATE);
  await s.instances.create(where, { id: "kb", type: "r2", source: SOURCE });
  await expectRaw(kit, 400, "POST", base, { id: "Not An Id" });
  await kit.expectStatus(s.instances.create({ ...where, accountId: "another-account" }, { id: "x" }), 403);

  // List, read, update, stats.
  await collect(s.instances.list(where, { search: "kb", order_by_direction: "asc", perPage: 10 }));
  await expectRaw(kit, 400, "GET", `${base}?per_page=0`);
  await s.instances.get({ ...where, id: "full" });
  await kit.expectStatus(s.instances.get({ ...where, id: "missing" }), 404);
  await s.instances.update({ ...where, id: "full" }, FULL_UPDATE);
  await expectRaw(kit, 400, "PUT", `${base}/full`, { chunk_size: 1 });
  await kit.expectStatus(s.instances.update({ ...where, id: "missing" }, { chunk_size: 512 }), 404);
  await s.instances.stats({ ...where, id: "kb" });
  await kit.expectStatus(s.instances.stats({ ...where, id: "missing" }), 404);

  // Jobs: a first one replaced by a second (which runs to its end), one cancelled.
  const first = await s.jobs.create({ ...where, id: "kb" }, { description: "conformance sync" });
  await expectRaw(kit, 400, "POST", `${base}/kb/jobs`, { description: "x".repeat(256) });
  await kit.expectStatus(s.jobs.create({ ...where, id: "missing" }), 404);
  const second = await s.jobs.create({ ...where, id: "kb" });
  await collect(s.jobs.list({ ...where, id: "kb" }, { perPage: 50 }));
  await expectRaw(kit, 400, "GET", `${base}/kb/jobs?per_page=51`);
  await kit.expectStatus(collect(s.jobs.list({ ...where, id: "missing" })), 404);
  await s.jobs.get({ ...where, id: "kb", jobId: first.id });
  await kit.expectStatus(s.jobs.get({ ...where, id: "kb", jobId: "missing" }), 404);
  advance(kit, JOB_MS);
  await s.jobs.get({ ...where, id: "kb", jobId: second.id });
  await collect(s.jobs.logs({ ...where, id: "kb", jobId: second.id }, { perPage: 500 }));
  await expectRaw(kit, 400, "GET", `${base}/kb/jobs/${second.id}/logs?per_page=501`);
  await kit.expectStatus(collect(s.jobs.logs({ ...where, id: "kb", jobId: "missing" })), 404);
  const third = await s.jobs.create({ ...where, id: "kb" });
  await s.jobs.cancel({ ...where, id: "kb", jobId: third.id });
  await expectRaw(kit, 400, "PATCH", `${base}/kb/jobs/${third.id}`, { action: "stop" });
  await kit.expectStatus(s.jobs.cancel({ ...where, id: "kb", jobId: "missing" }), 404);

  // Retrieval over what the job indexed.
  await s.instances.search({ ...where, id: "kb" }, { query: "rollback" });
  await s.instances.search(
    { ...where, id: "kb" },
    {
      query: "cache purge",
      messages: [{ role: "user", content: "How do I purge the cache?" }],
      ai_search_options: FULL_OPTIONS,
    },
  );
  await expectRaw(kit, 400, "POST", `${base}/kb/search`, { query: "" });
  await kit.expectStatus(s.instances.search({ ...where, id: "missing" }, { query: "x" }), 404);
  await s.instances.chatCompletions(
    { ...where, id: "kb" },
    {
      model: MODEL,
      stream: false,
      messages: [
        { role: "system", content: "Answer briefly." },
        { role: "user", content: "What is a rollback?" },
      ],
      ai_search_options: FULL_OPTIONS,
    },
  );
  await expectRaw(kit, 400, "POST", `${base}/kb/chat/completions`, { messages: [] });
  await kit.expectStatus(
    s.instances.chatCompletions({ ...where, id: "missing" }, { messages: [{ role: "user", content: "x" }] }),
    404,
  );

  await s.instances.delete({ ...where, id: "full" });
  await kit.expectStatus(s.instances.delete({ ...where, id: "full" }), 404);
}

/** What only the namespaced base serves: moves, the cache purge and items. */
async function namespacedOperations(kit: ConformanceKit, namespace: string): Promise<void> {
  const s = kit.api.search;
  const where = { namespace };
  const at = `/accounts/${kit.accountId}/ai-search/namespaces/${namespace}/instances/kb`;

  // Items of the instance `instanceOperations` indexed: upload, (re)index by key, list, read.
  const uploaded = await s.items.upload(
    { ...where, id: "kb" },
    {
      file: { name: "notes/guide.md", content: "# Guide\n\nRollbacks take seconds.", type: "text/markdown" },
      metadata: { team: "docs" },
      wait_for_completion: true,
    },
  );
  await expectRaw(kit, 400, "POST", `${at}/items`, { file: "not multipart" });
  await kit.expectStatus(
    s.items.upload({ ...where, id: "missing" }, { file: { name: "a.md", content: "a" } }),
    404,
  );
  const put = await s.items.createOrUpdate(
    { ...where, id: "kb" },
    { key: "doc-2.md", wait_for_completion: false },
  );
  await expectRaw(kit, 400, "PUT", `${at}/items`, { key: "doc-2.md", next_action: "DELETE" });
  await kit.expectStatus(s.items.createOrUpdate({ ...where, id: "kb" }, { key: "nowhere.md" }), 404);
  await collect(
    s.items.list({ ...where, id: "kb" }, { perPage: 50, sort_by: "modified_at", status: "completed" }),
  );
  await expectRaw(kit, 400, "GET", `${at}/items?per_page=51`);
  await kit.expectStatus(collect(s.items.list({ ...where, id: "missing" })), 404);
  await s.items.get({ ...where, id: "kb", itemId: uploaded.id });
  await kit.expectStatus(s.items.get({ ...where, id: "kb", itemId: "missing" }), 404);
  await s.items.sync({ ...where, id: "kb", itemId: put.id }, { wait_for_completion: true });
  await expectRaw(kit, 400, "PATCH", `${at}/items/${put.id}`, { next_action: "DELETE" });
  await kit.expectStatus(s.items.sync({ ...where, id: "kb", itemId: "missing" }), 404);
  await collect(s.items.chunks({ ...where, id: "kb", itemId: uploaded.id }, { limit: 100 }));
  await expectRaw(kit, 400, "GET", `${at}/items/${uploaded.id}/chunks?limit=0`);
  await kit.expectStatus(collect(s.items.chunks({ ...where, id: "kb", itemId: "missing" })), 404);
  await s.items.download({ ...where, id: "kb", itemId: uploaded.id });
  await expectRaw(kit, 400, "GET", `${at}/items/${"x".repeat(65)}/download`);
  await kit.expectStatus(s.items.download({ ...where, id: "kb", itemId: "missing" }), 404);
  await collect(s.items.logs({ ...where, id: "kb", itemId: put.id }, { limit: 1 }));
  await expectRaw(kit, 400, "GET", `${at}/items/${put.id}/logs?limit=0`);
  await kit.expectStatus(collect(s.items.logs({ ...where, id: "kb", itemId: "missing" })), 404);
  await s.items.delete({ ...where, id: "kb", itemId: uploaded.id });
  await expectRaw(kit, 400, "DELETE", `${at}/items/${"x".repeat(65)}`);
  await kit.expectStatus(s.items.delete({ ...where, id: "kb", itemId: uploaded.id }), 404);

  // The answer cache.
  await s.instances.purgeCache({ ...where, id: "kb" });
  await kit.expectStatus(s.instances.purgeCache({ ...where, id: "missing" }), 404);

  // Move to the default namespace; a bad target name is refused before anything moves.
  await s.instances.move({ ...where, id: "kb" }, { new_namespace: "default" });
  await expectRaw(kit, 400, "PATCH", `/accounts/${kit.accountId}/ai-search/namespaces/default/instances/kb`, {
    new_namespace: "Not A Namespace",
  });
  await kit.expectStatus(s.instances.move({ ...where, id: "missing" }, { new_namespace: "default" }), 404);
}

export const scenario: AreaScenario = {
  area: "search",
  async run(kit) {
    // A named namespace, through the families' operation (its status is judged by the families'
    // scenario, scenarios/families/search.ts: here it only sets up).
    const ns = await kit.raw("POST", `/accounts/${kit.accountId}/ai-search/namespaces`, { name: "team" });
    if (ns.status >= 300) throw new Error(`namespace create: ${ns.status} ${JSON.stringify(ns.body)}`);
    await instanceOperations(kit);
    // The default instance leaves the way for the named one's move to the default namespace.
    await kit.api.search.instances.delete({ id: "kb" });
    await instanceOperations(kit, "team");
    await namespacedOperations(kit, "team");
  },
};
