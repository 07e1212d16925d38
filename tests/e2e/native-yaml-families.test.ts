/**
 * The four kinds of the families (MeetingApp, SearchNamespace, SearchToken, SendingDomain) in a YAML
 * program on the native provider plugin, the full sequence on the real engine against the emulator:
 * up (with the invokes of apps and extensions); a clean `preview --refresh`; out-of-band changes of
 * each kind (the app deleted in the dashboard) that a refreshing preview names; `up --refresh`
 * restoring them; `pulumi import` of an object of each kind
 * made outside, creating nothing; destroy leaving nothing but the app (the API cannot delete one), and
 * saying so. The token's key is a secret: the state holds it only as ciphertext.
 */
import { strict as assert } from "node:assert";
import { nativeProject, type NativeProject } from "./native-project";

const TOKEN_KEY = "yaml-search-token-key-7c2e";

function program(o: { namespaceDescription: string }, zoneId: string): string {
  return `resources:
  app:
    type: account-api:index:MeetingApp
    properties:
      name: yaml-app
  room:
    type: account-api:index:MeetingTemplate
    properties:
      appId: \${app.appId}
      title: Standup
  ns:
    type: account-api:index:SearchNamespace
    properties:
      name: yaml-ns
      description: ${JSON.stringify(o.namespaceDescription)}
  token:
    type: account-api:index:SearchToken
    properties:
      name: yaml-token
      cfApiId: yaml-api-id
      cfApiKey:
        fn::secret: ${TOKEN_KEY}
  mail:
    type: account-api:index:SendingDomain
    properties:
      zoneId: ${zoneId}
      name: mail.example.com
variables:
  apps:
    fn::invoke:
      function: account-api:index:listApps
      arguments: {}
  extensions:
    fn::invoke:
      function: account-api:index:listExtensions
      arguments: {}
outputs:
  app: \${app.appId}
  namespace: \${ns.id}
  token: \${token.id}
  mail: \${mail.id}
  records: \${mail.dnsRecords}
  apps: \${apps}
  extensions: \${extensions}
`;
}

describe("the families' kinds in a YAML program on the native provider plugin (real engine)", function () {
  this.timeout(10 * 60_000);
  let p: NativeProject;
  let zoneId = "";

  before(async function () {
    this.timeout(20 * 60_000);
    p = await nativeProject("native-yaml-families");
    zoneId = (await p.api.content.zones.create({}, { name: "example.com" })).id;
    // The invoke runs as the program is read, before the program's own app exists: this one it lists.
    await p.api.meetings.apps.create({}, { name: "made-by-hand" });
  });

  after(async () => {
    await p?.close();
  });

  it("up, a clean refresh, drift shown and restored, import of each kind, destroy", async () => {
    p.program(program({ namespaceDescription: "Docs" }, zoneId));
    await p.initStack("families");

    const up = await p.ok("up", "--yes", "--skip-preview");
    assert.match(up, /6 created/, "the stack and five resources");
    const outputs = JSON.parse(await p.ok("stack", "output", "--json", "--show-secrets")) as Record<
      string,
      unknown
    >;
    const appId = String(outputs.app);
    assert.match(appId, /^[0-9a-f]{32}$/);
    assert.ok(JSON.stringify(outputs.apps).includes('"name":"made-by-hand"'), "the apps invoke answered");
    assert.ok(Array.isArray(outputs.extensions) && outputs.extensions.length > 0, "extensions listed");
    assert.ok(Array.isArray(outputs.records) && outputs.records.length > 0, "the DNS records are readable");
    assert.ok(!(await p.rawState()).includes(TOKEN_KEY), "the token's key is ciphertext in state");
    assert.ok(!(await p.rawState()).includes(p.em.token), "no API token in state");

    await p.ok("preview", "--refresh", "--expect-no-changes");

    // Out of band: the namespace's description, the sending domain's settings and the token's name
    // change, and the app is deleted in the dashboard (with its meeting).
    await p.api.search.namespaces.update({ name: "yaml-ns" }, { description: "Changed by hand" });
    const mailId = String(outputs.mail).split("/").pop() ?? "";
    await p.api.email.subdomains.edit({ zoneId, subdomainId: mailId }, { preview_enabled: true });
    const tokenId = String(outputs.token);
    await p.api.search.tokens.update(
      { id: tokenId },
      { name: "renamed-by-hand", cf_api_id: "yaml-api-id", cf_api_key: "rotated-by-hand" },
    );
    const dashboard = `${p.em.origin}/__emulator/meetings/accounts/${p.em.accountId}/apps/${appId}`;
    assert.equal((await fetch(dashboard, { method: "DELETE" })).status, 200);
    const drift = await p.ok("preview", "--refresh", "--diff");
    assert.match(
      drift,
      /description: "Changed by hand" => "Docs"/,
      "the preview names the namespace's field",
    );
    assert.match(drift, /previewEnabled/, "the preview names the sending domain's field");
    assert.match(drift, /name: "renamed-by-hand" => "yaml-token"/, "the preview names the token's field");
    assert.match(
      drift,
      /\+ account-api:index:MeetingApp: \(create\)\s+\[urn=[^\]]*MeetingApp::app\]/,
      "the deleted app is made again",
    );
    await p.ok("up", "--refresh", "--yes", "--skip-preview");
    assert.equal((await p.api.search.namespaces.get({ name: "yaml-ns" })).description, "Docs");
    assert.equal((await p.api.search.tokens.get({ id: tokenId })).name, "yaml-token");
    const apps = await p.api.meetings.apps.list();
    assert.equal(apps.filter((a) => a.name === "yaml-app").length, 1, "one app of the program's name");
    await p.ok("preview", "--expect-no-changes");

    // Made outside, then imported: nothing is created.
    const ns = await p.api.search.namespaces.create({}, { name: "yaml-ns-2", description: "Second" });
    const tok = await p.api.search.tokens.create(
      {},
      { name: "yaml-token-2", cf_api_id: "id-2", cf_api_key: "key-2" },
    );
    const sub = await p.api.email.subdomains.create({ zoneId }, { name: "news.example.com" });
    const app = await p.api.meetings.apps.create({}, { name: "yaml-app-2" });
    for (const [kind, name, id] of [
      ["SearchNamespace", "ns2", ns.name],
      ["SearchToken", "token2", tok.id],
      ["SendingDomain", "mail2", `${zoneId}/${sub.tag}`],
      ["MeetingApp", "app2", String(app.id)],
    ] as const) {
      const imported = await p.ok(
        "import",
        `account-api:index:${kind}`,
        name,
        id,
        "--yes",
        "--protect=false",
      );
      assert.match(imported, /1 imported/, `${kind} imported`);
      assert.doesNotMatch(imported, /account-api:index:\S+ \S+ creat/, `${kind}: nothing created`);
    }

    const destroy = await p.ok("destroy", "--yes", "--skip-preview");
    assert.match(destroy, /cannot delete apps/, "the destroy says the apps stay");
    assert.deepEqual(
      (await p.api.search.namespaces.list().toArray()).filter((n) => n.name.startsWith("yaml-ns")),
      [],
      "no namespace left",
    );
    assert.deepEqual(await p.api.search.tokens.list().toArray(), [], "no token left");
    assert.deepEqual(await p.api.email.subdomains.list({ zoneId }), [], "no sending domain left");
  });
});
