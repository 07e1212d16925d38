/**
 * The search area's families (issue 26) over real HTTP: namespaces on the contract's schemas and
 * search service tokens.
 */
import { strict as assert } from "node:assert";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

type Envelope<T = unknown> = {
  success: boolean;
  errors: { code: number; message: string; path?: string[] }[];
  result: T;
  result_info?: Record<string, number>;
};

function envelope<T>(res: { json: unknown }): Envelope<T> {
  return res.json as Envelope<T>;
}

function namespaces(fx: EmulatorFixture, name?: string): string {
  const base = `/accounts/${fx.em.accountId}/ai-search/namespaces`;
  return name === undefined ? base : `${base}/${name}`;
}

describe("search emulator: namespaces (public operations)", () => {
  const fx = useEmulator();

  it("creates, reads, lists, updates and deletes a namespace with the contract's fields", async () => {
    const made = await fx.http("POST", namespaces(fx), { body: { name: "team-a", description: "Team A" } });
    assert.equal(made.status, 201, made.text);
    const ns = envelope<Record<string, unknown>>(made).result;
    assert.equal(ns.name, "team-a");
    assert.equal(ns.description, "Team A");
    assert.match(String(ns.created_at), /^\d{4}-\d\d-\d\dT/);

    const read = envelope<Record<string, unknown>>(await fx.http("GET", namespaces(fx, "team-a"))).result;
    assert.deepEqual(read, ns);

    const list = envelope<{ name: string }[]>(await fx.http("GET", `${namespaces(fx)}?per_page=1&page=2`));
    assert.deepEqual(
      list.result.map((n) => n.name),
      ["team-a"],
    );
    assert.equal(list.result_info?.total_count, 2);

    const put = await fx.http("PUT", namespaces(fx, "team-a"), { body: { description: null } });
    assert.equal(put.status, 200, put.text);
    assert.equal(envelope<{ description: unknown }>(put).result.description, null);

    const del = await fx.http("DELETE", namespaces(fx, "team-a"));
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(envelope(del).result, {});
    assert.equal((await fx.http("GET", namespaces(fx, "team-a"))).status, 404);
  });

  it("takes a description of up to 256 characters, as the contract says", async () => {
    const ok = await fx.http("POST", namespaces(fx), {
      body: { name: "long", description: "d".repeat(256) },
    });
    assert.equal(ok.status, 201, ok.text);
    const over = await fx.http("PUT", namespaces(fx, "long"), { body: { description: "d".repeat(257) } });
    assert.equal(over.status, 400);
    assert.deepEqual(envelope(over).errors[0]?.path, ["description"]);
    assert.match(envelope(over).errors[0]!.message, /description: must be at most 256 characters/);
  });

  it("accepts a PUT that repeats the path's name, and refuses one that names another", async () => {
    await fx.http("POST", namespaces(fx), { body: { name: "team-a" } });
    const same = await fx.http("PUT", namespaces(fx, "team-a"), {
      body: { name: "team-a", description: "x" },
    });
    assert.equal(same.status, 200, same.text);
    assert.equal(envelope<{ description: string }>(same).result.description, "x");

    const other = await fx.http("PUT", namespaces(fx, "team-a"), {
      body: { name: "team-b", description: "y" },
    });
    assert.equal(other.status, 400);
    const [error] = envelope(other).errors;
    assert.deepEqual(error?.path, ["name"]);
    assert.match(error!.message, /^name: must equal the namespace in the path \("team-a"\)/);
    const kept = envelope<{ description: string }>(await fx.http("GET", namespaces(fx, "team-a"))).result;
    assert.equal(kept.description, "x");
  });

  it("answers 404 for a PUT on an unknown namespace, whatever name the body repeats", async () => {
    const res = await fx.http("PUT", namespaces(fx, "ghost"), { body: { name: "other" } });
    assert.equal(res.status, 404);
  });

  it("refuses fields the contract and the public client do not have, and keeps public_endpoint_params", async () => {
    const bad = await fx.http("POST", namespaces(fx), { body: { name: "x", colour: "red" } });
    assert.equal(bad.status, 400);
    assert.deepEqual(envelope(bad).errors[0]?.path, ["colour"]);
    const params = { enabled: true, authorized_hosts: ["example.com"] };
    const made = await fx.http("POST", namespaces(fx), {
      body: { name: "pub", public_endpoint_params: params },
    });
    assert.deepEqual(
      envelope<{ public_endpoint_params: unknown }>(made).result.public_endpoint_params,
      params,
    );
  });

  it("never deletes the default namespace", async () => {
    const res = await fx.http("DELETE", namespaces(fx, "default"));
    assert.equal(res.status, 400);
    assert.deepEqual(envelope(res).errors[0]?.path, ["name"]);
    assert.equal((await fx.http("GET", namespaces(fx, "default"))).status, 200);
  });
});

describe("search emulator: retrieval across a namespace's instances", () => {
  const fx = useEmulator();

  /** Namespace "team" with two instances, each holding one uploaded note. */
  async function team(): Promise<void> {
    await fx.api.search.namespaces.create({}, { name: "team" });
    const notes: [string, string, string][] = [
      ["guides", "guide.md", "# Guide\n\nRollbacks take seconds. They redeploy the last version."],
      ["runbooks", "runbook.md", "Rollbacks and rollbacks again: a rollback runbook for rollbacks."],
    ];
    for (const [id, name, content] of notes) {
      await fx.api.search.instances.create({ namespace: "team" }, { id });
      await fx.api.search.items.upload({ namespace: "team", id }, { file: { name, content } });
    }
  }

  it("ranks the chunks of every instance named together, each naming its instance", async () => {
    await team();
    const found = await fx.api.search.namespaces.search(
      { name: "team" },
      { query: "rollbacks", ai_search_options: { instance_ids: ["guides", "runbooks"] } },
    );
    assert.equal(found.search_query, "rollbacks");
    assert.deepEqual(
      found.chunks.map((c) => `${c.instance_id} ${c.item?.key}`),
      ["runbooks runbook.md", "guides guide.md"],
    );
    assert.ok(found.chunks[0]!.score > found.chunks[1]!.score);
    assert.equal(found.errors, undefined);

    const one = await fx.api.search.namespaces.search(
      { name: "team" },
      {
        messages: [{ role: "user", content: "rollbacks" }],
        ai_search_options: { instance_ids: ["guides", "runbooks"], retrieval: { max_num_results: 1 } },
      },
    );
    assert.deepEqual(
      one.chunks.map((c) => c.instance_id),
      ["runbooks"],
    );
  });

  it("reports an instance the namespace lacks in errors, and is a 404 when it lacks them all", async () => {
    await team();
    const partial = await fx.api.search.namespaces.search(
      { name: "team" },
      { query: "rollbacks", ai_search_options: { instance_ids: ["guides", "gone"] } },
    );
    assert.deepEqual(
      partial.chunks.map((c) => c.instance_id),
      ["guides"],
    );
    assert.deepEqual(partial.errors, [
      { instance_id: "gone", message: 'instance "gone" not found in namespace "team"' },
    ]);
    const none = await fx.http("POST", `${namespaces(fx, "team")}/search`, {
      body: { query: "rollbacks", ai_search_options: { instance_ids: ["gone"] } },
    });
    assert.equal(none.status, 404, none.text);
    const unknownNs = await fx.http("POST", `${namespaces(fx, "nowhere")}/search`, {
      body: { query: "x", ai_search_options: { instance_ids: ["guides"] } },
    });
    assert.equal(unknownNs.status, 404, unknownNs.text);
    const noIds = await fx.http("POST", `${namespaces(fx, "team")}/search`, { body: { query: "x" } });
    assert.equal(noIds.status, 400, noIds.text);
    assert.deepEqual(envelope(noIds).errors[0]?.path, ["ai_search_options"]);
  });

  it("answers a chat from the merged chunks, outside the envelope", async () => {
    await team();
    const body = {
      messages: [{ role: "user" as const, content: "rollbacks" }],
      ai_search_options: { instance_ids: ["guides", "runbooks"] },
    };
    const answer = await fx.api.search.namespaces.chatCompletions({ name: "team" }, body);
    assert.equal(answer.object, "chat.completion");
    assert.equal(answer.model, "@cf/meta/llama-3.3-70b-instruct-fp8-fast");
    assert.equal(
      answer.choices[0]!.message.content,
      "From runbook.md, guide.md: Rollbacks and rollbacks again: a rollback runbook for rollbacks.",
    );
    assert.deepEqual(
      answer.chunks.map((c) => c.instance_id),
      ["runbooks", "guides"],
    );
    const raw = await fx.http("POST", `${namespaces(fx, "team")}/chat/completions`, { body });
    assert.equal(raw.status, 200, raw.text);
    const json = raw.json as Record<string, unknown>;
    assert.equal(json.result, undefined, "no envelope: the OpenAI-style body itself");
    assert.equal(json.id, answer.id);
    const bad = await fx.http("POST", `${namespaces(fx, "team")}/chat/completions`, {
      body: { messages: [], ai_search_options: { instance_ids: ["guides"] } },
    });
    assert.equal(bad.status, 400, bad.text);
  });
});

describe("search emulator: an instance's create takes the update's settings (official Terraform provider)", () => {
  const fx = useEmulator();

  it("accepts, stores and reads back paused and summarization on create, under both bases", async () => {
    await fx.api.search.namespaces.create({}, { name: "team" });
    for (const base of [
      `/accounts/${fx.em.accountId}/ai-search/instances`,
      `${namespaces(fx, "team")}/instances`,
    ]) {
      const made = await fx.http("POST", base, {
        body: {
          id: "tf",
          paused: true,
          summarization: true,
          summarization_model: "@cf/meta/llama-3.1-8b-instruct-fast",
          system_prompt_index_summarization: "Summarize briefly.",
        },
      });
      assert.equal(made.status, 201, made.text);
      const read = envelope<Record<string, unknown>>(await fx.http("GET", `${base}/tf`)).result;
      assert.equal(read.paused, true);
      assert.equal(read.status, "paused");
      assert.equal(read.summarization, true);
      assert.equal(read.summarization_model, "@cf/meta/llama-3.1-8b-instruct-fast");
      assert.equal(read.system_prompt_index_summarization, "Summarize briefly.");
    }
  });
});

describe("search emulator: service tokens", () => {
  const fx = useEmulator();
  const SECRET = "cf-api-key-secret-value";

  function tokens(id?: string): string {
    const base = `/accounts/${fx.em.accountId}/ai-search/tokens`;
    return id === undefined ? base : `${base}/${id}`;
  }

  async function createToken(name: string): Promise<Record<string, unknown>> {
    const res = await fx.http("POST", tokens(), {
      body: { name, cf_api_id: `id-${name}`, cf_api_key: SECRET },
    });
    assert.equal(res.status, 201, res.text);
    return envelope<Record<string, unknown>>(res).result;
  }

  it("creates a token (201) with the contract's fields and never answers its secret", async () => {
    const made = await createToken("r2-reader");
    assert.match(String(made.id), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(made.name, "r2-reader");
    assert.equal(made.cf_api_id, "id-r2-reader");
    assert.equal(made.legacy, true);
    assert.equal(made.enabled, true);
    assert.equal(made.created_at, made.modified_at);
    assert.equal(typeof made.created_by, "string");
    const read = await fx.http("GET", tokens(String(made.id)));
    assert.deepEqual(envelope(read).result, made);
    const list = await fx.http("GET", tokens());
    assert.deepEqual(envelope(list).result, [made]);
    for (const res of [read, list])
      assert.ok(!res.text.includes(SECRET), "the secret must never be answered");
    assert.ok(!JSON.stringify(made).includes(SECRET));
  });

  it("lists oldest first, by page, and filters on the name", async () => {
    for (const name of ["alpha", "beta", "gamma"]) {
      await createToken(name);
      fx.clock.advance(1000);
    }
    const page = envelope<{ name: string }[]>(await fx.http("GET", `${tokens()}?per_page=2&page=2`));
    assert.deepEqual(
      page.result.map((t) => t.name),
      ["gamma"],
    );
    assert.deepEqual(page.result_info, { page: 2, per_page: 2, count: 1, total_count: 3 });
    const found = envelope<{ name: string }[]>(await fx.http("GET", `${tokens()}?search=ET`));
    assert.deepEqual(
      found.result.map((t) => t.name),
      ["beta"],
    );
  });

  it("replaces a token with a whole PUT, keeping its id and creation time", async () => {
    const made = await createToken("old");
    fx.clock.advance(5000);
    const body = { name: "new", cf_api_id: "id-new", cf_api_key: "another-secret", legacy: false };
    const res = await fx.http("PUT", tokens(String(made.id)), { body });
    assert.equal(res.status, 200, res.text);
    const updated = envelope<Record<string, unknown>>(res).result;
    assert.equal(updated.id, made.id);
    assert.equal(updated.name, "new");
    assert.equal(updated.cf_api_id, "id-new");
    assert.equal(updated.legacy, false);
    assert.equal(updated.created_at, made.created_at);
    assert.notEqual(updated.modified_at, made.modified_at);
    assert.ok(!res.text.includes("another-secret"));

    const partial = await fx.http("PUT", tokens(String(made.id)), { body: { name: "only" } });
    assert.equal(partial.status, 400);
    assert.deepEqual(
      envelope(partial)
        .errors.map((e) => e.path?.join("."))
        .sort(),
      ["cf_api_id", "cf_api_key"],
    );
  });

  it("refuses a create without the secret or with an unknown field, naming the field", async () => {
    const missing = await fx.http("POST", tokens(), { body: { name: "x", cf_api_id: "i" } });
    assert.equal(missing.status, 400);
    assert.deepEqual(envelope(missing).errors[0]?.path, ["cf_api_key"]);
    const extra = await fx.http("POST", tokens(), {
      body: { name: "x", cf_api_id: "i", cf_api_key: "k", enabled: false },
    });
    assert.equal(extra.status, 400);
    assert.deepEqual(envelope(extra).errors[0]?.path, ["enabled"]);
  });

  it("deletes a token (answering {}), then answers 404 for it", async () => {
    const made = await createToken("gone");
    const del = await fx.http("DELETE", tokens(String(made.id)));
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(envelope(del).result, {});
    assert.equal((await fx.http("GET", tokens(String(made.id)))).status, 404);
    assert.equal((await fx.http("DELETE", tokens(String(made.id)))).status, 404);
    assert.equal(
      (
        await fx.http("PUT", tokens(String(made.id)), {
          body: { name: "a", cf_api_id: "b", cf_api_key: "c" },
        })
      ).status,
      404,
    );
    for (const method of ["GET", "DELETE"])
      assert.equal(
        (await fx.http(method, tokens("not-a-uuid"))).status,
        400,
        `${method}: an id that is no UUID`,
      );
  });

  it("refuses (409) to delete a token an instance names by token_id, until the instance is gone", async () => {
    const made = await createToken("in-use");
    const instances = `/accounts/${fx.em.accountId}/ai-search/instances`;
    const inst = await fx.http("POST", instances, {
      body: { id: "kb", type: "r2", source: "docs-bucket", token_id: made.id },
    });
    assert.equal(inst.status, 201, inst.text);
    const refused = await fx.http("DELETE", tokens(String(made.id)));
    assert.equal(refused.status, 409);
    assert.match(envelope(refused).errors[0]!.message, /is used by instance "kb"/);
    await fx.http("DELETE", `${instances}/kb`);
    assert.equal((await fx.http("DELETE", tokens(String(made.id)))).status, 200);
  });

  it("keeps an account's tokens to that account", async () => {
    await createToken("mine");
    const other = await fx.http("GET", `/accounts/0123456789abcdef0123456789abcdef/ai-search/tokens`);
    assert.equal(other.status, 403);
  });
});
