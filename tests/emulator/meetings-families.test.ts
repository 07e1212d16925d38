/** RealtimeKit apps (issue 26) over real HTTP: list and create, and the meetings made in them. */
import { strict as assert } from "node:assert";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

type App = { id: string; name?: string; created_at: string };
type Body<T> = { success: boolean; data: T; error?: { code: number; message: string } };

function apps(fx: EmulatorFixture): string {
  return `/accounts/${fx.em.accountId}/realtime/kit/apps`;
}

function meetings(fx: EmulatorFixture, app: string): string {
  return `/accounts/${fx.em.accountId}/realtime/kit/${app}/meetings`;
}

async function createApp(fx: EmulatorFixture, name: string): Promise<App> {
  const res = await fx.http("POST", apps(fx), { body: { name } });
  assert.equal(res.status, 200, res.text);
  const body = res.json as Body<{ app: App }>;
  assert.equal(body.success, true);
  return body.data.app;
}

async function listApps(fx: EmulatorFixture): Promise<App[]> {
  const res = await fx.http("GET", apps(fx));
  assert.equal(res.status, 200, res.text);
  return (res.json as Body<App[]>).data;
}

describe("meetings emulator: apps", () => {
  const fx = useEmulator();

  it("creates an app (200, under data.app) with an id of at most 32 characters, and lists it", async () => {
    const app = await createApp(fx, "support");
    assert.match(app.id, /^[0-9a-f]{32}$/);
    assert.equal(app.name, "support");
    assert.equal(app.created_at, new Date(fx.clock.now()).toISOString());
    assert.deepEqual(await listApps(fx), [app]);
  });

  it("makes the meetings of an app created here in that app", async () => {
    const app = await createApp(fx, "classes");
    const made = await fx.http("POST", meetings(fx, app.id), { body: { title: "Monday" } });
    assert.equal(made.status, 201, made.text);
    const listed = (await fx.http("GET", meetings(fx, app.id))).json as Body<{ title: string }[]>;
    assert.deepEqual(
      listed.data.map((m) => m.title),
      ["Monday"],
    );
    assert.deepEqual(await listApps(fx), [app]);
  });

  it("lists, oldest first, the apps that exist because meetings were made in them", async () => {
    await fx.http("POST", meetings(fx, "legacy-app"), { body: { title: "first" } });
    fx.clock.advance(1000);
    const made = await createApp(fx, "new");
    // Reading an app's meetings does not make it an app.
    await fx.http("GET", meetings(fx, "only-read"));
    const listed = await listApps(fx);
    assert.deepEqual(
      listed.map((a) => a.id),
      ["legacy-app", made.id],
    );
    assert.equal(listed[0]!.name, undefined);
    assert.equal(listed[0]!.created_at, "2026-01-01T00:00:00.000Z");
  });

  it("keeps apps to their account", async () => {
    await createApp(fx, "mine");
    const other = await fx.http("GET", `/accounts/0123456789abcdef0123456789abcdef/realtime/kit/apps`);
    assert.equal(other.status, 403);
  });

  it("refuses a create without a name or with an unknown field, in the area's error body", async () => {
    for (const body of [{}, { name: "x", colour: "red" }, { name: 7 }]) {
      const res = await fx.http("POST", apps(fx), { body });
      assert.equal(res.status, 400, JSON.stringify(body));
      const error = (res.json as Body<unknown>).error;
      assert.equal(typeof error?.message, "string");
    }
    assert.deepEqual(await listApps(fx), []);
  });

  it("still serves the meetings of an app whose id is `apps`", async () => {
    const made = await fx.http("POST", meetings(fx, "apps"), { body: { title: "t" } });
    assert.equal(made.status, 201, made.text);
    assert.equal((await fx.http("GET", meetings(fx, "apps"))).status, 200);
  });

  it("lets the control API remove an app with its meetings, as the dashboard does (the API cannot)", async () => {
    const app = await createApp(fx, "gone");
    await fx.http("POST", meetings(fx, app.id), { body: { title: "t" } });
    const control = `/__emulator/meetings/accounts/${fx.em.accountId}/apps/${app.id}`;
    assert.equal((await fx.http("DELETE", control)).status, 200);
    assert.equal((await fx.http("DELETE", control)).status, 404);
    assert.deepEqual(await listApps(fx), []);
    const listed = (await fx.http("GET", meetings(fx, app.id))).json as Body<unknown[]>;
    assert.deepEqual(listed.data, []);
  });
});
