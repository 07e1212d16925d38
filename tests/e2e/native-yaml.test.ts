/**
 * A YAML program on the native provider plugin, the full sequence on the real engine against the
 * emulator: up, a clean `preview --refresh`, an out-of-band change that refresh shows, `up --refresh`
 * restoring it, an edit whose preview names the field, destroy leaving nothing. Several kinds (a
 * secret input, secret leaves, a server-assigned id consumed by another resource) and one invoke; the
 * state holds no token and every secret as ciphertext.
 */
import { strict as assert } from "node:assert";
import { request } from "undici";
import { nativeProject, type NativeProject } from "./native-project";

interface Checkpoint {
  deployment: {
    resources: { type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }[];
  };
}

const SECRET_VARIABLE = "yaml-build-secret-value";
const SECRET_KEY = "yaml-storage-secret-key";

function program(
  o: { chunkSize: number; buildCommand: string },
  world: { repo: string; token: string; zone: string },
): string {
  return `resources:
  kb:
    type: account-api:index:SearchInstance
    properties:
      instanceId: yaml-kb
      chunkSize: ${o.chunkSize}
      storageCredentials:
        accessKeyId: AKID-YAML
        secretAccessKey: ${SECRET_KEY}
  prod:
    type: account-api:index:BuildTrigger
    properties:
      scriptName: shop
      kind: production
      repoConnectionUuid: ${world.repo}
      buildTokenUuid: ${world.token}
      buildCommand: ${o.buildCommand}
  vars:
    type: account-api:index:TriggerEnvVars
    properties:
      triggerUuid: \${prod.id}
      variables:
        MODE:
          value: fast
        API_KEY:
          value: ${SECRET_VARIABLE}
          isSecret: true
  docs:
    type: account-api:index:ConfigRule
    properties:
      zoneId: ${world.zone}
      host: docs.example.com
variables:
  domain:
    fn::invoke:
      function: account-api:index:checkDomain
      arguments:
        domainName: yaml-free-name.com
outputs:
  kb: \${kb.id}
  trigger: \${prod.id}
  rule: \${docs.id}
  registrable: \${domain.registrable}
`;
}

describe("a YAML program on the native provider plugin (real engine)", function () {
  this.timeout(10 * 60_000);
  let p: NativeProject;
  let world: { repo: string; token: string; zone: string };
  let tag = "";

  before(async function () {
    this.timeout(20 * 60_000);
    p = await nativeProject("native-yaml");
    const put = await request(`${p.em.url}/accounts/${p.em.accountId}/workers/scripts/shop`, {
      method: "PUT",
      headers: { authorization: `Bearer ${p.em.token}`, "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(put.statusCode, 200);
    tag = ((await put.body.json()) as { result: { tag: string } }).result.tag;
    const repo = await p.api.builds.repos.connections.upsert(
      {},
      {
        provider_type: "github",
        provider_account_id: "acme",
        provider_account_name: "Acme",
        repo_id: "shop",
        repo_name: "shop",
      },
    );
    const [token] = await p.api.builds.tokens.list();
    assert.ok(token);
    const zone = await p.api.content.zones.create({}, { name: "example.com" });
    world = { repo: repo.repo_connection_uuid, token: token.build_token_uuid, zone: zone.id };
  });

  after(async () => {
    await p?.close();
  });

  it("up, a clean refresh, drift shown and restored, an edit named by field, destroy leaving nothing", async () => {
    p.program(program({ chunkSize: 300, buildCommand: "npm run build" }, world));
    // Set in plain text: the provider's CheckConfig makes the token a secret in the state it keeps.
    await p.initStack("ci", { plainToken: true });

    // A first preview: the trigger's id, which the variables take, is unknown until up.
    assert.match(await p.ok("preview"), /5 to create/);
    const up = await p.ok("up", "--yes", "--skip-preview");
    assert.match(up, /5 created/, "the stack and four resources");
    const outputs = JSON.parse(await p.ok("stack", "output", "--json")) as Record<string, unknown>;
    assert.equal(outputs.kb, "default/yaml-kb");
    assert.equal(outputs.registrable, true, "the invoke answered");
    const triggerUuid = String(outputs.trigger);
    assert.match(String(outputs.rule), new RegExp(`^${world.zone}/pulumi-`), "a rule's id is <zoneId>/<ref>");

    const state = await p.rawState();
    const resources = (JSON.parse(state) as Checkpoint).deployment.resources;
    assert.ok(!state.includes(p.em.token), "no token in state");
    const provider = resources.find((r) => r.type === "pulumi:providers:account-api");
    assert.ok(
      JSON.stringify(provider?.inputs?.apiToken).includes("ciphertext"),
      "the provider's token is a secret",
    );
    assert.ok(!state.includes(SECRET_VARIABLE), "the secret variable is ciphertext");
    assert.ok(!state.includes(SECRET_KEY), "the secret input is ciphertext");
    const kb = resources.find((r) => r.type === "account-api:index:SearchInstance");
    assert.ok(JSON.stringify(kb?.outputs?.storageCredentials).includes("ciphertext"));
    const vars = resources.find((r) => r.type === "account-api:index:TriggerEnvVars");
    assert.match(JSON.stringify(vars?.outputs?.variables), /"value":"fast"/, "a plain neighbour stays plain");
    assert.equal((await p.api.builds.environmentVariables.list({ triggerUuid })).API_KEY?.is_secret, true);

    await p.ok("preview", "--refresh", "--expect-no-changes");

    // Out of band: the instance's chunk size changes; refresh shows it, up --refresh puts it back.
    await p.api.search.instances.update({ id: "yaml-kb" }, { chunk_size: 512 });
    const drift = await p.ok("preview", "--refresh", "--diff");
    assert.match(drift, /chunkSize: 512 => 300/, "the preview names the drifted field");
    await p.ok("up", "--refresh", "--yes", "--skip-preview");
    assert.equal((await p.api.search.instances.get({ id: "yaml-kb" })).chunk_size, 300);
    await p.ok("preview", "--expect-no-changes");

    // An edit: the preview names each field, and up applies it in place.
    p.program(program({ chunkSize: 256, buildCommand: "npm run build:prod" }, world));
    const edit = await p.ok("preview", "--diff");
    assert.match(edit, /chunkSize: 300 => 256/);
    assert.match(edit, /buildCommand: "npm run build" => "npm run build:prod"/);
    assert.match(edit, /2 to update/);
    const applied = await p.ok("up", "--yes", "--skip-preview");
    assert.match(applied, /2 updated/);
    assert.match(
      applied,
      /SearchInstance kb updated \([^)]*\) \[diff: ~chunkSize\]/,
      "the detailed diff names the field",
    );
    assert.equal((await p.api.search.instances.get({ id: "yaml-kb" })).chunk_size, 256);
    const triggers = await p.api.builds.triggers.list({ scriptTag: tag });
    assert.equal(triggers.find((t) => t.trigger_uuid === triggerUuid)?.build_command, "npm run build:prod");

    await p.ok("destroy", "--yes", "--skip-preview");
    await assert.rejects(p.api.search.instances.get({ id: "yaml-kb" }), /404/);
    assert.deepEqual(await p.api.builds.triggers.list({ scriptTag: tag }), []);
    const ruleset = await p.api.content.configRuleset.get({ zoneId: world.zone });
    assert.deepEqual(ruleset?.rules ?? [], []);
  });
});
