/**
 * The search families' operations against the contract: namespaces (create, list, read, update,
 * delete, and the namespace-wide search and chat over several instances) and service tokens (create,
 * list, read, update, delete), each success and each documented 4xx the emulator produces.
 * The namespace-wide search and chat are asserted last but one, and a route the emulator does not
 * serve is reported by name (the scenario goes on, then fails saying which).
 */
import { strict as assert } from "node:assert";
import type { z } from "zod";
import * as G from "../../../../sdk/generated/search";
import type { AreaScenario, ConformanceKit } from "../../kit";
import { FULL_OPTIONS } from "../search";
import { callFor, expectCall, expectRaw } from "./exchange";

const MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

/** Every field of the namespace-wide search body: an instance search's options, over two instances. */
const SEARCH_BODY: z.input<typeof G.AiSearchNamespaceMultiInstanceSearchBody> = {
  query: "how do I deploy",
  ai_search_options: { ...FULL_OPTIONS, instance_ids: ["kb", "faq"] },
};

/** The chat body with the options its schema takes. */
const CHAT_BODY: z.input<typeof G.AiSearchNamespaceMultiInstanceChatCompletionBody> = {
  messages: [
    { role: "system", content: "Answer briefly." },
    { role: "user", content: "How do I deploy?" },
  ],
  model: MODEL,
  stream: false,
  ai_search_options: {
    instance_ids: ["kb", "faq"],
    cache: { enabled: false },
    retrieval: { max_num_results: 5, retrieval_type: "vector", return_on_failure: true },
  },
};

async function namespaces(kit: ConformanceKit, notServed: string[]): Promise<void> {
  const base = `/accounts/${kit.accountId}/ai-search/namespaces`;
  const create: z.input<typeof G.AiSearchCreateNamespaceBody> = { name: "team", description: "The team's" };
  // Its status is judged by the report (the contract's 201), not asserted here: the rest still runs.
  for (const body of [create, { name: "spare" }]) {
    const made = await kit.call("POST", base, body);
    assert.ok(made.status < 300, `POST ${base}: ${made.status} ${JSON.stringify(made.body)}`);
  }
  await expectCall(kit, 409, "POST", base, create);
  await expectRaw(kit, 400, "POST", base, { name: "Not A Name" });
  await expectCall(kit, 403, "POST", `/accounts/0123456789abcdef0123456789abcdef/ai-search/namespaces`, {
    name: "elsewhere",
  });

  const listed = await callFor(
    kit,
    G.AiSearchListNamespacesResult,
    "GET",
    `${base}?page=1&per_page=10&search=te`,
  );
  assert.deepEqual(
    listed.map((n) => n.name),
    ["team"],
  );
  await expectRaw(kit, 400, "GET", `${base}?per_page=0`);

  await callFor(kit, G.AiSearchFetchNamespaceResult, "GET", `${base}/team`);
  await expectCall(kit, 404, "GET", `${base}/missing`);
  const update: z.input<typeof G.AiSearchUpdateNamespaceBody> = { description: "Changed" };
  const updated = await callFor(kit, G.AiSearchUpdateNamespaceResult, "PUT", `${base}/team`, update);
  assert.equal(updated.description, "Changed");
  await expectRaw(kit, 400, "PUT", `${base}/team`, { description: "x".repeat(257) });
  await expectCall(kit, 404, "PUT", `${base}/missing`, update);

  // Two instances in the namespace, searched and asked together.
  const s = kit.api.search;
  await s.instances.create({ namespace: "team" }, { id: "kb", type: "r2", source: "docs-bucket" });
  await s.instances.create({ namespace: "team" }, { id: "faq", type: "r2", source: "docs-bucket" });
  const wide = [
    { op: "search", body: SEARCH_BODY, schema: G.AiSearchNamespaceMultiInstanceSearchResult },
    { op: "chat/completions", body: CHAT_BODY, schema: G.AiSearchNamespaceMultiInstanceChatCompletionResult },
  ] as const;
  for (const { op, body, schema } of wide) {
    const at = `${base}/team/${op}`;
    const first = await kit.call("POST", at, body);
    if (first.status === 404 && JSON.stringify(first.body).toLowerCase().includes("route")) {
      notServed.push(
        `POST ${base}/{name}/${op}: not served by the emulator (404 ${JSON.stringify(first.body)})`,
      );
      continue;
    }
    assert.equal(first.status, 200, `POST ${at}: ${first.status} ${JSON.stringify(first.body)}`);
    // Search answers in the envelope; chat answers its completion as the body (as an instance's does).
    schema.parse(op === "search" ? Reflect.get(first.body as object, "result") : first.body);
    await expectRaw(kit, 400, "POST", at, { ...body, ai_search_options: { instance_ids: [] } });
    await expectCall(kit, 404, "POST", `${base}/missing/${op}`, body);
  }

  await expectCall(kit, 200, "DELETE", `${base}/spare`);
  await expectCall(kit, 404, "DELETE", `${base}/spare`);
  await expectRaw(kit, 400, "DELETE", `${base}/default`);
}

async function tokens(kit: ConformanceKit): Promise<void> {
  const base = `/accounts/${kit.accountId}/ai-search/tokens`;
  const body: z.input<typeof G.AiSearchCreateTokensBody> = {
    name: "crawler",
    cf_api_id: "0123456789abcdef0123456789abcdef",
    cf_api_key: "conformance-secret",
    legacy: false,
  };
  const made = await callFor(kit, G.AiSearchCreateTokensResult, "POST", base, body, { status: 201 });
  assert.equal(Reflect.get(made, "cf_api_key"), undefined, "the key is never answered");
  await expectRaw(kit, 400, "POST", base, { name: "no key" });

  await callFor(kit, G.AiSearchListTokensResult, "GET", `${base}?page=1&per_page=5&search=craw`);
  await expectRaw(kit, 400, "GET", `${base}?per_page=101`);

  const at = `${base}/${made.id}`;
  const missing = `${base}/00000000-0000-4000-8000-000000000000`;
  await callFor(kit, G.AiSearchFetchTokensResult, "GET", at);
  await expectCall(kit, 404, "GET", missing);
  await expectCall(kit, 400, "GET", `${base}/not-a-token-id`);

  await callFor(kit, G.AiSearchUpdateTokensResult, "PUT", at, { ...body, name: "crawler 2", legacy: true });
  await expectRaw(kit, 400, "PUT", at, { name: "no id or key" });
  await expectCall(kit, 404, "PUT", missing, body);

  // In use by an instance: 409 until the instance is gone.
  await kit.api.search.instances.create(
    {},
    { id: "uses-token", type: "r2", source: "docs-bucket", token_id: made.id },
  );
  await expectCall(kit, 409, "DELETE", at);
  await kit.api.search.instances.delete({ id: "uses-token" });
  await expectCall(kit, 200, "DELETE", at);
  await expectCall(kit, 404, "DELETE", at);
  await expectCall(kit, 400, "DELETE", `${base}/not-a-token-id`);
}

export const scenario: AreaScenario = {
  area: "search",
  part: "families",
  async run(kit) {
    const notServed: string[] = [];
    await namespaces(kit, notServed);
    await tokens(kit);
    if (notServed.length) throw new Error(notServed.join("\n"));
  },
};
