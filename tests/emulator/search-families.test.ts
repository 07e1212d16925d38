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
