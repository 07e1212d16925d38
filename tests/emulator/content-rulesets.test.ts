/**
 * The rulesets collection (`/zones/{zone_id}/rulesets`, by id), as the official Terraform provider
 * manages an `http_config_settings` ruleset, on the same state as the phase entrypoint that ConfigRule
 * (the sdk's `content.configRuleset`) reads and writes.
 */
import { strict as assert } from "node:assert";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

type Rule = { id: string; ref: string; expression: string; action: string; version: string };
type Ruleset = {
  id: string;
  name: string;
  description: string;
  kind: string;
  phase: string;
  version: string;
  last_updated: string;
  rules: Rule[];
};
type Envelope<T> = { success: boolean; errors: { code: number; message: string }[]; result: T };

const PHASE = "http_config_settings";

async function createZone(fx: EmulatorFixture): Promise<string> {
  const zone = await fx.api.content.zones.create({}, { name: "rulesets.example.com" });
  return zone.id;
}

function result<T>(res: { json: unknown }): T {
  return (res.json as Envelope<T>).result;
}

describe("content emulator: the rulesets collection", () => {
  const fx = useEmulator();

  it("serves the official provider's sequence on the entrypoint's state", async () => {
    const zoneId = await createZone(fx);
    const rulesets = `/zones/${zoneId}/rulesets`;
    assert.deepEqual(result(await fx.http("GET", rulesets)), []);

    // Create through the collection (Terraform's cloudflare_ruleset).
    const made = await fx.http("POST", rulesets, {
      body: {
        kind: "zone",
        name: "terraform",
        description: "made by the official provider",
        phase: PHASE,
        rules: [
          {
            ref: "docs-markdown",
            expression: 'starts_with(http.request.uri.path, "/docs")',
            action: "set_config",
            action_parameters: { content_converter: true },
            description: "Markdown for agents under /docs",
            enabled: true,
          },
        ],
      },
    });
    assert.equal(made.status, 200, made.text);
    const created = result<Ruleset>(made);
    assert.equal(created.kind, "zone");
    assert.equal(created.phase, PHASE);
    assert.equal(created.rules.length, 1);

    // Read and list by id.
    const read = await fx.http("GET", `${rulesets}/${created.id}`);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(result(read), created);
    const { rules: _rules, ...summary } = created;
    assert.deepEqual(result(await fx.http("GET", rulesets)), [summary]);

    // ConfigRule's read: the same ruleset is the zone's entrypoint.
    const entrypoint = await fx.api.content.configRuleset.get({ zoneId });
    assert.deepEqual(entrypoint, created);

    // A second ruleset of the same entrypoint phase is refused, as the service does.
    const second = await fx.http("POST", rulesets, { body: { kind: "zone", name: "again", phase: PHASE } });
    assert.equal(second.status, 400, second.text);
    assert.equal((second.json as Envelope<null>).errors[0]!.code, 20217);

    // Update by id (the whole ruleset again; the rule named by its id keeps it).
    const put = await fx.http("PUT", `${rulesets}/${created.id}`, {
      body: {
        kind: "zone",
        name: "terraform",
        description: "updated",
        phase: PHASE,
        rules: [
          {
            id: created.rules[0]!.id,
            expression: 'starts_with(http.request.uri.path, "/guides")',
            action: "set_config",
            action_parameters: { content_converter: true },
          },
        ],
      },
    });
    assert.equal(put.status, 200, put.text);
    const updated = result<Ruleset>(put);
    assert.equal(updated.id, created.id);
    assert.equal(updated.version, "2");
    assert.equal(updated.rules[0]!.id, created.rules[0]!.id);
    assert.equal(updated.rules[0]!.version, "2");

    // ConfigRule's write through the entrypoint, then the provider's read by id sees it.
    const viaEntrypoint = await fx.api.content.configRuleset.put(
      { zoneId },
      {
        rules: [
          ...updated.rules.map((r) => ({
            id: r.id,
            expression: r.expression,
            action: "set_config" as const,
            action_parameters: { content_converter: true },
          })),
          {
            ref: "blog",
            expression: 'starts_with(http.request.uri.path, "/blog")',
            action: "set_config" as const,
            action_parameters: { content_converter: true },
          },
        ],
      },
    );
    assert.equal(viaEntrypoint.id, created.id);
    const reread = result<Ruleset>(await fx.http("GET", `${rulesets}/${created.id}`));
    assert.deepEqual(
      reread.rules.map((r) => r.ref),
      [created.rules[0]!.ref, "blog"],
    );
    assert.equal(reread.description, "updated");

    // Delete by id: 204 with no body; the entrypoint is gone for ConfigRule too.
    const del = await fx.http("DELETE", `${rulesets}/${created.id}`);
    assert.equal(del.status, 204, del.text);
    assert.equal(del.text, "");
    assert.equal(await fx.api.content.configRuleset.get({ zoneId }), undefined);
    assert.equal((await fx.http("GET", `${rulesets}/${created.id}`)).status, 404);
    assert.deepEqual(result(await fx.http("GET", rulesets)), []);
  });

  it("takes an entrypoint made by ConfigRule as the collection's ruleset, by its id", async () => {
    const zoneId = await createZone(fx);
    const entrypoint = await fx.api.content.configRuleset.put(
      { zoneId },
      {
        rules: [
          {
            ref: "docs",
            expression: 'starts_with(http.request.uri.path, "/docs")',
            action: "set_config",
            action_parameters: { content_converter: true },
          },
        ],
      },
    );
    const listed = result<{ id: string; phase: string }[]>(await fx.http("GET", `/zones/${zoneId}/rulesets`));
    assert.deepEqual(
      listed.map((r) => [r.id, r.phase]),
      [[entrypoint.id, PHASE]],
    );
    const byId = await fx.http("GET", `/zones/${zoneId}/rulesets/${entrypoint.id}`);
    assert.deepEqual(result(byId), entrypoint);
  });

  it("refuses what a zone's ruleset cannot be, naming the field", async () => {
    const zoneId = await createZone(fx);
    const rulesets = `/zones/${zoneId}/rulesets`;
    const cases: [unknown, RegExp][] = [
      [{ kind: "custom", name: "x", phase: PHASE }, /kind/],
      [{ kind: "zone", name: "x" }, /phase/],
      [{ kind: "zone", name: "x", phase: "http_request_firewall_custom" }, /phase/],
      [
        {
          kind: "zone",
          name: "x",
          phase: PHASE,
          rules: [
            { expression: "not an expression (", action: "set_config", action_parameters: { fonts: true } },
          ],
        },
        /rules\.0\.expression/,
      ],
    ];
    for (const [body, field] of cases) {
      const res = await fx.http("POST", rulesets, { body });
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
      assert.match(res.text, field);
    }
    assert.deepEqual(result(await fx.http("GET", rulesets)), [], "nothing made");

    const made = result<Ruleset>(
      await fx.http("POST", rulesets, { body: { kind: "zone", name: "x", phase: PHASE } }),
    );
    const moved = await fx.http("PUT", `${rulesets}/${made.id}`, {
      body: { phase: "http_request_late_transform" },
    });
    assert.equal(moved.status, 400, moved.text);
    assert.equal((await fx.http("PUT", `${rulesets}/not-a-ruleset`, { body: {} })).status, 404);
    assert.equal((await fx.http("DELETE", `${rulesets}/not-a-ruleset`)).status, 404);
    const readOnly = fx.token("account", ["zone:read"]);
    assert.equal((await fx.http("GET", rulesets, { token: readOnly })).status, 200);
    assert.equal((await fx.http("DELETE", `${rulesets}/${made.id}`, { token: readOnly })).status, 403);
  });
});
