/**
 * MeetingApp against the emulator through its handler: the name is the key (a create adopts an app
 * that has it instead of making a second), a name change is refused at check, read finds the app in
 * the listing (gone once the dashboard deleted it), importId adopts only under the app's own name,
 * and delete leaves the app, saying so.
 */
import { strict as assert } from "node:assert";
import * as ma from "../../provider/resources/meeting-app";
import { useEmulator } from "../helpers/emulator";
import { offlineContext as offline, providerContext } from "../helpers/provider-context";

describe("MeetingApp: check without the API", () => {
  it("takes a name and nothing else, before any request", async () => {
    assert.deepEqual((await ma.handler.check(undefined, { name: "support" }, offline)).failures, []);
    const missing = await ma.handler.check(undefined, {}, offline);
    assert.deepEqual(
      missing.failures?.map((f) => f.property),
      ["name"],
    );
  });

  it("refuses a name change at preview, saying the first app would be left behind", async () => {
    const same = await ma.handler.check({ name: "support" }, { name: "support" }, offline);
    assert.deepEqual(same.failures, []);
    const renamed = await ma.handler.check({ name: "support" }, { name: "helpdesk" }, offline);
    assert.equal(renamed.failures?.length, 1);
    assert.equal(renamed.failures?.[0]?.property, "name");
    assert.match(
      renamed.failures?.[0]?.reason ?? "",
      /^name: cannot change from "support" to "helpdesk": the API can neither rename nor delete an app/,
    );
  });
});

describe("MeetingApp: the handler against the emulator", () => {
  const fx = useEmulator();
  const logs: string[] = [];
  const ctx = () => providerContext(fx, logs);
  const removeInDashboard = (id: string) =>
    fx.http("DELETE", `/__emulator/meetings/accounts/${fx.em.accountId}/apps/${id}`);

  beforeEach(() => void (logs.length = 0));

  it("creates the app, with its id as the resource id and the appId output, and reads it back", async () => {
    const made = await ma.handler.create({ name: "support" }, ctx());
    assert.match(made.id, /^[0-9a-f]{32}$/);
    assert.equal(made.outs.appId, made.id);
    assert.equal(made.outs.createdAt, new Date(fx.clock.now()).toISOString());
    const read = await ma.handler.read(made.id, made.outs, ctx());
    assert.deepEqual(read?.inputs, { name: "support" });
    const diff = await ma.handler.diff(made.id, made.outs, { name: "support" }, ctx());
    assert.equal(diff.changes, false);
  });

  it("adopts the app that already has the name instead of making a second one", async () => {
    const app = await fx.api.meetings.apps.create({}, { name: "classes" });
    const made = await ma.handler.create({ name: "classes" }, ctx());
    assert.equal(made.id, app.id);
    assert.ok(
      logs.some((l) => l.includes(`app ${app.id} is this resource's own; adopted`)),
      logs.join("\n"),
    );
    assert.equal((await fx.api.meetings.apps.list()).length, 1);
  });

  it("reads an app deleted in the dashboard as gone, and the next create makes it again", async () => {
    const made = await ma.handler.create({ name: "gone" }, ctx());
    assert.equal((await removeInDashboard(made.id)).status, 200);
    assert.equal(await ma.handler.read(made.id, made.outs, ctx()), undefined);
    const again = await ma.handler.create({ name: "gone" }, ctx());
    assert.notEqual(again.id, made.id);
  });

  it("adopts by importId under the app's own name, and refuses another name", async () => {
    const app = await fx.api.meetings.apps.create({}, { name: "events" });
    const adopted = await ma.handler.create({ name: "events", importId: app.id }, ctx());
    assert.equal(adopted.id, app.id);
    await assert.rejects(
      ma.handler.create({ name: "other", importId: app.id }, ctx()),
      /name: app [0-9a-f]{32} is named "events", and the API cannot rename an app/,
    );
    await assert.rejects(ma.handler.create({ name: "x", importId: "nope" }, ctx()), /app nope not found/);
  });

  it("imports by id alone: read answers the name", async () => {
    const app = await fx.api.meetings.apps.create({}, { name: "imported" });
    // What an import hands read: no stored state.
    const read = await ma.handler.read(app.id!, {} as ma.MeetingAppOutputs, ctx());
    assert.deepEqual(read?.inputs, { name: "imported" });
    assert.equal(read?.props.appId, app.id);
  });

  it("leaves the app on delete and says so (the API cannot delete apps)", async () => {
    const made = await ma.handler.create({ name: "kept" }, ctx());
    const before = fx.em.requestLog.length;
    await ma.handler.delete(made.id, made.outs, ctx());
    assert.equal(fx.em.requestLog.length, before, "no request");
    assert.deepEqual(logs.slice(-1), [
      `MeetingApp: app ${made.id} ("kept") left in place (the API cannot delete apps)`,
    ]);
    assert.deepEqual(
      (await fx.api.meetings.apps.list()).map((a) => a.id),
      [made.id],
    );
  });
});
