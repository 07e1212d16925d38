/** The shared account lister (provider/discovery/list.ts) against a real emulator. */
import { strict as assert } from "node:assert";
import { discoverAccount, listAccount, ZoneNotFoundError } from "../../provider/discovery/list";
import { importTarget } from "../../provider/native/import-ids";
import { productionTriggerBody, seedBuildWorld } from "../helpers/builds";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

/** One object of each kind made through the sdk, outside any program; and what must not be listed. */
async function seedAccount(fx: EmulatorFixture) {
  const world = await seedBuildWorld(fx);
  const trigger = await fx.api.builds.triggers.create({}, productionTriggerBody(world));
  await fx.api.builds.environmentVariables.upsert(
    { triggerUuid: trigger.trigger_uuid },
    { MODE: { value: "prod", is_secret: false } },
  );
  const zone = await fx.api.content.zones.create({}, { name: "example.com" });
  const quiet = await fx.api.content.zones.create({}, { name: "quiet.org" });
  await fx.api.content.contentConverter.set({ zoneId: zone.id }, { value: "on" });
  await fx.api.content.configRuleset.put(
    { zoneId: zone.id },
    {
      rules: [
        {
          ref: "docs",
          expression: 'starts_with(http.request.uri.path, "/docs/")',
          action: "set_config",
          action_parameters: { content_converter: true },
        },
      ],
    },
  );
  const meeting = await fx.api.meetings.meetings.create({ appId: "app-a" }, { title: "standup" });
  const old = await fx.api.meetings.meetings.create({ appId: "app-a" }, { title: "retired" });
  await fx.api.meetings.meetings.update({ appId: "app-a", meetingId: old.id }, { status: "INACTIVE" });
  await fx.api.registrar.registrations.create({}, { domain_name: "acme.dev" });
  await fx.http("POST", "/__emulator/search/namespaces", { body: { name: "team-a" } });
  await fx.api.search.instances.create({}, { id: "kb", type: "r2", source: "docs-bucket" });
  await fx.api.search.instances.create(
    { namespace: "team-a" },
    { id: "kb2", type: "r2", source: "docs-bucket" },
  );
  const app = await fx.api.meetings.apps.create({}, { name: "support" });
  const help = await fx.api.meetings.meetings.create({ appId: app.id! }, { title: "help desk" });
  return {
    world,
    trigger: trigger.trigger_uuid,
    zone,
    quiet,
    meeting: meeting.id,
    app: app.id!,
    help: help.id,
  };
}

describe("discovery: listAccount", () => {
  const fx = useEmulator();

  it("lists every object of every kind, in every app, with the ids a resource, a stack and `pulumi import` take", async () => {
    const s = await seedAccount(fx);
    const { objects, gaps } = await discoverAccount(fx.api);
    const rows = objects
      .map((o) => `${o.kind} id=${o.id} resourceId=${o.resourceId} importId=${o.importId}`)
      .sort();
    assert.deepEqual(
      rows,
      [
        `BuildTrigger id=${s.trigger} resourceId=${s.trigger} importId=shop/${s.trigger}`,
        `ConfigRule id=docs resourceId=${s.zone.id}/docs importId=${s.zone.id}/docs`,
        `DomainRegistration id=acme.dev resourceId=acme.dev importId=acme.dev`,
        `MeetingApp id=${s.app} resourceId=${s.app} importId=${s.app}`,
        `MeetingTemplate id=${s.meeting} resourceId=${s.meeting} importId=app-a/${s.meeting}`,
        `MeetingTemplate id=${s.help} resourceId=${s.help} importId=${s.app}/${s.help}`,
        `RepoConnection id=${s.world.repo} resourceId=${s.world.repo} importId=${s.world.repo}`,
        `SearchInstance id=kb resourceId=default/kb importId=default/kb`,
        `SearchInstance id=kb2 resourceId=team-a/kb2 importId=team-a/kb2`,
        // `default` is no SearchNamespace: it always exists and cannot be deleted.
        `SearchNamespace id=team-a resourceId=team-a importId=team-a`,
        `TriggerEnvVars id=${s.trigger} resourceId=${s.trigger} importId=${s.trigger}`,
        `ZoneContentConverter id=${s.zone.id} resourceId=${s.zone.id} importId=${s.zone.id}`,
      ].sort(),
    );
    assert.deepEqual(gaps, []);
    // Every import id is one the native provider's import reads.
    for (const o of objects) assert.doesNotThrow(() => importTarget(o.kind, o.importId), o.importId);
    const rule = objects.find((o) => o.kind === "ConfigRule");
    assert.deepEqual(rule?.scope, { zoneId: s.zone.id, zoneName: "example.com" });
    assert.equal(rule?.settings.expression, 'starts_with(http.request.uri.path, "/docs/")');
    const inst = objects.find((o) => o.id === "kb2");
    assert.deepEqual(inst?.scope, { namespace: "team-a" });
    const vars = objects.find((o) => o.kind === "TriggerEnvVars");
    assert.deepEqual(Object.keys((vars?.settings.variables ?? {}) as object), ["MODE"]);
  });

  it("takes apps and zones as filters, and finds zones by id or name", async () => {
    const s = await seedAccount(fx);
    const { objects, gaps } = await discoverAccount(fx.api, { zones: ["quiet.org"], apps: [s.app] });
    assert.deepEqual(gaps, []);
    assert.deepEqual(
      objects
        .filter((o) => o.kind.startsWith("Meeting"))
        .map((o) => `${o.kind} ${o.name}`)
        .sort(),
      ["MeetingApp support", `MeetingTemplate ${s.app}/help desk`],
      "only the app named",
    );
    assert.ok(!objects.some((o) => o.scope.zoneId === s.zone.id), "only the zone named");
    const byId = await listAccount(fx.api, { zones: [s.zone.id] });
    assert.equal(byId.filter((o) => o.kind === "ConfigRule").length, 1);
    await assert.rejects(listAccount(fx.api, { zones: ["nope.net"] }), (err: unknown) => {
      assert.ok(err instanceof ZoneNotFoundError);
      assert.match(err.message, /zone "nope\.net": no zone of the account has this id or name \(its zones: /);
      return true;
    });
  });

  it("pages through listings longer than a page", async () => {
    for (let i = 0; i < 23; i++) await fx.api.meetings.meetings.create({ appId: "big" }, { title: `m${i}` });
    const all = await listAccount(fx.api, { apps: ["big"] });
    assert.equal(all.filter((o) => o.kind === "MeetingTemplate").length, 23);
  });
});
