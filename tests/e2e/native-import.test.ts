/**
 * `pulumi import` through the native provider plugin, for every kind: objects made in the emulator
 * with the sdk are adopted by `pulumi import <token> <name> <id>` (each kind's import id: its resource
 * id, or `<scriptName>/<triggerUuid>`, `<appId>/<meetingId>`, `<zoneId>/<ref>`), and several at once
 * with `--file`. Nothing is created; the generated YAML names each resource and, written into the
 * program, previews with no change.
 */
import { strict as assert } from "node:assert";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { request } from "undici";
import { nativeProject, type NativeProject } from "./native-project";

interface Import {
  kind: string;
  name: string;
  id: string;
}

/** The `resources:` entries of a generated YAML program, without its first line. */
function resourcesOf(generated: string): string {
  const at = generated.indexOf("resources:\n");
  assert.ok(at >= 0, `no resources in the generated code:\n${generated}`);
  return generated.slice(at + "resources:\n".length).replace(/\n+$/, "\n");
}

describe("pulumi import through the native provider plugin (real engine)", function () {
  this.timeout(10 * 60_000);
  let p: NativeProject;
  const single: Import[] = [];
  const several: Import[] = [];

  before(async function () {
    this.timeout(20 * 60_000);
    p = await nativeProject("native-import");
    const { api } = p;
    const put = await request(`${p.em.url}/accounts/${p.em.accountId}/workers/scripts/shop`, {
      method: "PUT",
      headers: { authorization: `Bearer ${p.em.token}`, "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(put.statusCode, 200);
    const tag = ((await put.body.json()) as { result: { tag: string } }).result.tag;
    const repo = await api.builds.repos.connections.upsert(
      {},
      {
        provider_type: "github",
        provider_account_id: "acme",
        provider_account_name: "Acme",
        repo_id: "shop",
        repo_name: "shop",
      },
    );
    const [token] = await api.builds.tokens.list();
    assert.ok(token);
    const trigger = await api.builds.triggers.create(
      {},
      {
        external_script_id: tag,
        repo_connection_uuid: repo.repo_connection_uuid,
        build_token_uuid: token.build_token_uuid,
        trigger_name: "production",
        build_command: "npm run build",
        deploy_command: "npx wrangler deploy",
        root_directory: "/",
        branch_includes: ["main"],
      },
    );
    await api.builds.environmentVariables.upsert(
      { triggerUuid: trigger.trigger_uuid },
      { MODE: { value: "fast", is_secret: false } },
    );
    const zone = await api.content.zones.create({}, { name: "example.com" });
    await api.content.contentConverter.set({ zoneId: zone.id }, { value: "on" });
    await api.content.configRuleset.put(
      { zoneId: zone.id },
      {
        rules: [
          {
            ref: "docs-rule",
            expression: 'http.host eq "docs.example.com"',
            action: "set_config",
            action_parameters: { content_converter: true },
            description: "docs",
          },
        ],
      },
    );
    const meeting = await api.meetings.meetings.create({ appId: "app-import" }, { title: "Weekly sync" });
    await api.registrar.registrations.create({}, { domain_name: "imported-site.com", auto_renew: true });
    await api.search.instances.create({}, { id: "imp-kb", chunk_size: 300 });
    single.push(
      { kind: "SearchInstance", name: "kb", id: "default/imp-kb" },
      { kind: "RepoConnection", name: "repo", id: repo.repo_connection_uuid },
      { kind: "BuildTrigger", name: "prod", id: `shop/${trigger.trigger_uuid}` },
      { kind: "TriggerEnvVars", name: "vars", id: trigger.trigger_uuid },
      { kind: "ZoneContentConverter", name: "converter", id: zone.id },
      { kind: "ConfigRule", name: "docs", id: `${zone.id}/docs-rule` },
      { kind: "MeetingTemplate", name: "sync", id: `app-import/${meeting.id}` },
      { kind: "DomainRegistration", name: "site", id: "imported-site.com" },
    );
    // For --file: a second object of three kinds.
    const other = await api.content.zones.create({}, { name: "other.example.com" });
    await api.content.contentConverter.set({ zoneId: other.id }, { value: "off" });
    await api.search.instances.create({}, { id: "imp-kb-2", chunk_size: 512 });
    const meeting2 = await api.meetings.meetings.create({ appId: "app-import" }, { title: "Retro" });
    several.push(
      { kind: "SearchInstance", name: "kb2", id: "default/imp-kb-2" },
      { kind: "ZoneContentConverter", name: "converter2", id: other.id },
      { kind: "MeetingTemplate", name: "retro", id: `app-import/${meeting2.id}` },
    );
  });

  after(async () => {
    await p?.close();
  });

  it("adopts an object of every kind, then several from a file, creating nothing; the generated program previews clean", async () => {
    p.program("resources: {}\n");
    await p.initStack("imports");
    const generated: string[] = [];
    for (const i of single) {
      const out = join(p.dir, `${i.name}.gen.yaml`);
      const res = await p.ok(
        "import",
        `account-api:index:${i.kind}`,
        i.name,
        i.id,
        "--yes",
        "--protect=false",
        "--out",
        out,
      );
      assert.match(res, /1 imported/, `${i.kind}: imported`);
      assert.doesNotMatch(res, /account-api:index:\S+ \S+ creat/, `${i.kind}: nothing created`);
      const code = readFileSync(out, "utf8");
      assert.match(
        code,
        new RegExp(`^  ${i.name}:\\n    type: account-api:(index:)?${i.kind}\\n`, "m"),
        code,
      );
      generated.push(resourcesOf(code));
    }

    const file = join(p.dir, "imports.json");
    writeFileSync(
      file,
      JSON.stringify({
        resources: several.map((i) => ({ type: `account-api:index:${i.kind}`, name: i.name, id: i.id })),
      }),
    );
    const out = join(p.dir, "several.gen.yaml");
    const res = await p.ok("import", "--file", file, "--yes", "--protect=false", "--out", out);
    assert.match(res, /3 imported/);
    assert.doesNotMatch(res, /account-api:index:\S+ \S+ creat/, "nothing created");
    const code = readFileSync(out, "utf8");
    for (const i of several)
      assert.match(code, new RegExp(`^  ${i.name}:\\n    type: account-api:(index:)?${i.kind}\\n`, "m"));
    generated.push(resourcesOf(code));

    // The generated code written into the program: the imported state reads back clean, but for a
    // meeting's marker keyword, which the first up writes (how a MeetingTemplate knows its own).
    p.program(`resources:\n${generated.join("")}`);
    const first = await p.ok("preview", "--diff");
    assert.match(first, /2 to update/, "the two meetings");
    const updates = [...first.matchAll(/^\s+~ account-api:index:(\w+): \(update\)/gm)].map((m) => m[1]);
    assert.deepEqual(updates, ["MeetingTemplate", "MeetingTemplate"]);
    assert.match(first, /\+ aiConfig/);
    await p.ok("up", "--yes", "--skip-preview");
    await p.ok("preview", "--expect-no-changes");
    await p.ok("preview", "--refresh", "--expect-no-changes");
    assert.equal((await p.api.search.instances.get({ id: "imp-kb" })).chunk_size, 300, "untouched");
  });
});
