/**
 * Adoption from the shared lister's objects (provider/discovery/adopt.ts, program.ts) against a real
 * emulator: the identity inputs come from the listing's scope and settings, the TypeScript importId
 * is the lister's `id`, and the YAML program adopts on create exactly where the engine's import
 * could not match.
 */
import { strict as assert } from "node:assert";
import { adoptions, identityOf } from "../../provider/discovery/adopt";
import { discoverAccount } from "../../provider/discovery/list";
import { adoptsOnCreate, importFile, importIdInput } from "../../provider/discovery/program";
import { productionTriggerBody, seedBuildWorld } from "../helpers/builds";
import { useEmulator } from "../helpers/emulator";
import { providerContext } from "../helpers/provider-context";

describe("discover: adopting the listed objects", () => {
  const fx = useEmulator();

  it("reads each object with its identity inputs, and adopts on create where import could not match", async () => {
    const world = await seedBuildWorld(fx);
    const trigger = (await fx.api.builds.triggers.create({}, productionTriggerBody(world))).trigger_uuid;
    await fx.api.builds.environmentVariables.upsert(
      { triggerUuid: trigger },
      { MODE: { value: "prod", is_secret: false }, API_KEY: { value: "k", is_secret: true } },
    );
    const zone = await fx.api.content.zones.create({}, { name: "adopt.example" });
    await fx.api.content.contentConverter.set({ zoneId: zone.id }, { value: "on" });
    await fx.http("POST", "/__emulator/search/namespaces", { body: { name: "team-a" } });
    await fx.api.search.instances.create({}, { id: "kb", type: "r2", source: "docs-bucket" });
    await fx.api.search.instances.create(
      { namespace: "team-a" },
      { id: "kb2", type: "r2", source: "docs-bucket" },
    );
    await fx.api.registrar.registrations.create({}, { domain_name: "adopt-me.com" });

    const { objects } = await discoverAccount(fx.api, { zones: [zone.id] });
    const adopted = await adoptions(objects, providerContext(fx));
    const byKey = new Map(adopted.map((a) => [`${a.object.kind} ${a.object.resourceId}`, a]));
    const get = (key: string) => {
      const a = byKey.get(key);
      assert.ok(a, `${key} is adopted (adopted: ${[...byKey.keys()].join(", ")})`);
      return a;
    };

    const t = get(`BuildTrigger ${trigger}`);
    assert.deepEqual(identityOf(t.object), { repoConnectionUuid: world.repo });
    assert.equal(t.inputs.repoConnectionUuid, world.repo);
    assert.equal(t.inputs.scriptName, "shop");
    assert.equal(importIdInput(t), trigger);
    assert.equal(adoptsOnCreate(t), true);

    const conv = get(`ZoneContentConverter ${zone.id}`);
    assert.deepEqual(conv.identity, { zoneId: zone.id });
    assert.equal(conv.inputs.value, "on");
    assert.equal(adoptsOnCreate(conv), true);

    const named = get("SearchInstance team-a/kb2");
    assert.deepEqual(named.identity, { namespace: "team-a" });
    assert.equal(named.inputs.namespace, "team-a");
    assert.equal(importIdInput(named), "kb2");
    assert.equal(adoptsOnCreate(named), true);
    const plain = get("SearchInstance default/kb");
    assert.deepEqual(plain.identity, {});
    assert.equal(adoptsOnCreate(plain), false, "the default namespace is imported by id alone");

    const ns = get("SearchNamespace team-a");
    assert.deepEqual(ns.identity, {});
    assert.equal(ns.inputs.name, "team-a");
    assert.equal(importIdInput(ns), "team-a");

    const vars = get(`TriggerEnvVars ${trigger}`);
    assert.deepEqual(Object.keys(vars.inputs.variables as object).sort(), ["API_KEY", "MODE"]);
    assert.deepEqual(
      vars.placeholders.map((p) => p.path),
      [["variables", "API_KEY", "value"]],
    );
    assert.equal(adoptsOnCreate(vars), true);

    const domain = get("DomainRegistration adopt-me.com");
    assert.deepEqual(domain.identity, {});
    assert.equal(adoptsOnCreate(domain), false);

    const file = JSON.parse(importFile(adopted)) as { resources: { type: string; id: string }[] };
    assert.ok(
      file.resources.some((r) => r.type === "account-api:index:BuildTrigger" && r.id === `shop/${trigger}`),
    );
    assert.ok(
      file.resources.some((r) => r.type === "account-api:index:SearchInstance" && r.id === "team-a/kb2"),
    );
  });
});
