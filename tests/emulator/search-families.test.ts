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
    assert.equal(made.status, 200, made.text);
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
    assert.equal(ok.status, 200, ok.text);
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
