import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { shimOf } from "../../provider/shims";
import { RESOURCE_KINDS } from "../../provider/types";
import { useEmulator } from "../helpers/emulator";
import { seedBuildWorld } from "../helpers/builds";

describe("provider objects", () => {
  for (const kind of RESOURCE_KINDS) {
    it(`${kind}: one object for the kind, its module's exports, capturing nothing but the kind`, async () => {
      const shim = shimOf(kind);
      const file = kind.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase();
      assert.equal(require(`../../provider/shims/${file}`), shimOf(kind));
      const serialized = await pulumi.runtime.serializeFunction(() => shim, { allowSecrets: false });
      const text = serialized.text;
      assert.ok(text.includes('require("pulumi-account-api/provider/runtime")'));
      assert.ok(text.includes(JSON.stringify(kind)));
      assert.ok(!/undici|zod|Agent/.test(text), "no client or schema is captured");
      assert.equal(serialized.containsSecrets, false);
    });
  }
});

describe("0.1.x provider objects still run", () => {
  const fx = useEmulator();
  const legacy: { providers: Record<string, string> } = JSON.parse(
    readFileSync(join(__dirname, "..", "fixtures", "provider-0.1.x.json"), "utf8"),
  );

  it("a stored 0.1.x BuildTrigger provider configures, creates, reads and deletes through today's runtime", async () => {
    const s = await seedBuildWorld(fx);
    const text = legacy.providers.BuildTrigger!;
    // What the engine's dynamic-provider host does with the stored string.
    const mod = { exports: {} as { handler?: () => pulumi.dynamic.ResourceProvider } };
    new Function("exports", "require", "module", text)(mod.exports, require, mod);
    const provider = mod.exports.handler!();
    const config = new Map([
      ["account-api:baseUrl", fx.em.url],
      ["account-api:accountId", fx.em.accountId],
      ["account-api:apiToken", fx.em.token],
    ]);
    await provider.configure!({ config: { get: (k: string) => config.get(k) } } as never);
    const news = {
      externalScriptId: s.tag,
      repoConnectionUuid: s.repo,
      buildTokenUuid: s.token,
      kind: "production",
      __provider: text,
    };
    const checked = await provider.check!({}, news);
    assert.deepEqual(checked.failures, []);
    assert.equal(checked.inputs.__provider, text);
    const created = await provider.create!(checked.inputs);
    const read = await provider.read!(created.id, created.outs);
    assert.equal(read.id, created.id);
    await provider.delete!(created.id, created.outs);
    assert.deepEqual(await fx.api.builds.triggers.list({ scriptTag: s.tag }), []);
  });
});
