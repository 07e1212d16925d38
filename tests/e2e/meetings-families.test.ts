/**
 * MeetingApp on the real engine, with a MeetingTemplate in it taking the app's id, in one stack:
 * up; a refreshed preview with no change; the app deleted in the dashboard (the API cannot), which a
 * refreshed preview shows as to be made again; `up --refresh` making it (and its meeting) again;
 * adoption through importId; a name change refused at preview; destroy leaving the app, saying so.
 */
import { strict as assert } from "node:assert";
import { MeetingApp } from "../../provider/resources/meeting-app";
import { MeetingTemplate } from "../../provider/resources/meeting-template";
import { useE2E } from "./harness";

const NAME = "families-app";

describe("MeetingApp end to end", function () {
  this.timeout(600_000);
  const e2e = useE2E("meetings-families");

  it("goes up, refreshes clean, sees and restores a deleted app, adopts by importId, refuses a rename, destroys leaving the app", async () => {
    const api = e2e.api;
    // What the program declares, changed between steps (the engine runs the program again each time).
    const program = { resource: "app", name: NAME, importId: undefined as string | undefined };
    const stack = await e2e.stack(async () => {
      const { importId } = program;
      const app = new MeetingApp(program.resource, { name: program.name, ...(importId ? { importId } : {}) });
      const m = new MeetingTemplate("standup", { appId: app.id, title: "Standup" });
      return { appId: app.appId, createdAt: app.createdAt, meetingId: m.id };
    });
    const appsNamed = async () => (await api.meetings.apps.list()).filter((a) => a.name === NAME);

    const up = await stack.up();
    assert.equal(up.summary.resourceChanges?.create, 3);
    const first = String(up.outputs.appId?.value);
    assert.deepEqual(
      (await appsNamed()).map((a) => a.id),
      [first],
    );
    assert.match(String(up.outputs.createdAt?.value), /^\d{4}-\d\d-\d\dT/);
    const meetingId = String(up.outputs.meetingId?.value);
    assert.equal((await api.meetings.meetings.get({ appId: first, meetingId })).title, "Standup");

    await stack.preview({ refresh: true, expectNoChanges: true });

    // Deleted in the dashboard, with its meetings: a refreshed preview makes both again.
    const control = `${e2e.emulator.origin}/__emulator/meetings/accounts/${e2e.emulator.accountId}/apps/${first}`;
    assert.equal((await fetch(control, { method: "DELETE" })).status, 200);
    const drift = await stack.preview({ refresh: true });
    assert.equal(drift.changeSummary.create, 2, JSON.stringify(drift.changeSummary));

    const restored = await stack.stack.up({ refresh: true, onOutput: (l) => stack.output.push(l) });
    assert.equal(restored.summary.result, "succeeded");
    const second = String(restored.outputs.appId?.value);
    assert.notEqual(second, first);
    assert.deepEqual(
      (await appsNamed()).map((a) => a.id),
      [second],
    );
    const remade = await api.meetings.meetings.listAll({ appId: second });
    assert.deepEqual(
      remade.map((m) => m.title),
      ["Standup"],
    );

    // Adopted by importId under another resource name: the old resource's delete leaves the app.
    Object.assign(program, { resource: "adopted", importId: second });
    const adopted = await stack.up();
    assert.equal(adopted.outputs.appId?.value, second);
    assert.deepEqual(adopted.summary.resourceChanges, { create: 1, delete: 1, same: 2 });
    assert.equal((await appsNamed()).length, 1, "no second app");
    await stack.preview({ refresh: true, expectNoChanges: true });

    // A rename would leave the app behind: refused at preview, naming the field.
    program.name = "renamed-app";
    await assert.rejects(stack.preview(), /name: cannot change from "families-app" to "renamed-app"/);
    program.name = NAME;

    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
    assert.deepEqual(
      (await appsNamed()).map((a) => a.id),
      [second],
      "the app stays",
    );
    assert.ok(
      stack.output.some((l) =>
        l.includes(`app ${second} ("${NAME}") left in place (the API cannot delete apps)`),
      ),
      "the destroy output says the app was left",
    );
    const meeting = (await api.meetings.meetings.listAll({ appId: second }))[0];
    assert.equal(meeting?.status, "INACTIVE");
  });
});
