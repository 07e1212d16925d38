/**
 * The control routes behind the console's registrar, search, meetings and markdown pages (issue 28):
 * what each overview shows (and that none shows a token), and the registrar's moves, refused where the
 * workflow's rules forbid them with the workflow and the rule named.
 */
import { strict as assert } from "node:assert";
import { SCAN_MS, ITEM_MS } from "../../emulator/search/sync";
import { BLOCKED_MS, DETOUR_AT_MS } from "../../emulator/registrar/workflow";
import { useEmulator } from "../helpers/emulator";

type Envelope<T> = { result: T; errors: { message: string }[] };

describe("console control routes (registrar, search, meetings, markdown)", () => {
  const fx = useEmulator();
  const get = async <T>(path: string): Promise<T> => {
    const res = await fx.http("GET", `/__emulator${path}`, { token: null });
    assert.equal(res.status, 200, res.text);
    return (res.json as Envelope<T>).result;
  };
  const move = (domain: string, state: string) =>
    fx.http("POST", `/__emulator/registrar/workflows/${domain}/registration/move`, {
      body: { state },
      token: null,
    });
  type Wf = { kind: string; state: string; waiting_on: string | null; context: { domain_name: string } };

  describe("registrar", () => {
    it("lists registrations and workflows with what each waits on", async () => {
      await fx.api.registrar.registrations.create({}, { domain_name: "blocked-wait.com" });
      const [pending] = await get<Wf[]>("/registrar/workflows");
      assert.equal(pending?.state, "pending");
      assert.match(pending?.waiting_on ?? "", /^the registry to pick it up \(in_progress at /);
      fx.clock.advance(DETOUR_AT_MS);
      const [blocked] = await get<Wf[]>("/registrar/workflows");
      assert.equal(blocked?.state, "blocked");
      assert.match(blocked?.waiting_on ?? "", /^a third party \(in_progress at /);
      const regs = await get<{ domain_name: string; status: string }[]>("/registrar/registrations");
      assert.deepEqual(
        regs.map((r) => `${r.domain_name} ${r.status}`),
        ["blocked-wait.com registration_pending"],
      );
    });

    it("moves an unfinished workflow and refuses what the rules forbid, naming the workflow and the rule", async () => {
      await fx.api.registrar.registrations.create({}, { domain_name: "blocked-move.com" });
      fx.clock.advance(DETOUR_AT_MS);
      const same = await move("blocked-move.com", "blocked");
      assert.equal(same.status, 409);
      assert.match(
        same.text,
        /registration workflow for blocked-move\.com cannot move to blocked: it is already blocked/,
      );

      const toAction = await move("blocked-move.com", "action_required");
      assert.equal(toAction.status, 200, toAction.text);
      assert.equal((toAction.json as Envelope<Wf>).result.state, "action_required");
      // A forced state stays until the next move: the blocked lift planned before is gone.
      fx.clock.advance(BLOCKED_MS * 2);
      const [held] = await get<Wf[]>("/registrar/workflows");
      assert.equal(held?.state, "action_required");
      assert.match(held?.waiting_on ?? "", /^the user: Verify the registrant email/);

      assert.equal((await move("blocked-move.com", "succeeded")).status, 200);
      const reg = await fx.api.registrar.registrations.get({ domainName: "blocked-move.com" });
      assert.equal(reg.status, "active");
      const again = await move("blocked-move.com", "failed");
      assert.equal(again.status, 409);
      assert.match(
        again.text,
        /cannot move to failed: it is succeeded: a finished workflow does not move again/,
      );

      const bad = await move("blocked-move.com", "pending");
      assert.equal(bad.status, 400);
      assert.equal(
        (bad.json as Envelope<null>).errors[0]?.message,
        'state: must be one of "action_required", "blocked", "failed", "succeeded"',
      );
      const missing = await move("nowhere.com", "failed");
      assert.equal(missing.status, 404);
    });

    it("the move keeps the control API's trust checks: cross-site, non-JSON and a foreign Host are refused", async () => {
      await fx.api.registrar.registrations.create({}, { domain_name: "blocked-trust.com" });
      const at = "/__emulator/registrar/workflows/blocked-trust.com/registration/move";
      const body = JSON.stringify({ state: "failed" });
      const json = { "content-type": "application/json" };
      const crossSite = await fx.http("POST", at, {
        body,
        token: null,
        headers: { ...json, "sec-fetch-site": "cross-site" },
      });
      assert.equal(crossSite.status, 403, crossSite.text);
      const plain = await fx.http("POST", at, {
        body,
        token: null,
        headers: { "content-type": "text/plain" },
      });
      assert.equal(plain.status, 415, plain.text);
      const port = new URL(fx.em.origin).port;
      const rebound = await fx.http("GET", "/__emulator/registrar/workflows", {
        token: null,
        headers: { host: `evil.example:${port}` },
      });
      assert.equal(rebound.status, 403, rebound.text);
      const [wf] = await get<Wf[]>("/registrar/workflows");
      assert.equal(wf?.state, "pending", "nothing moved");
    });

    it("a workflow moved to failed takes its registration away", async () => {
      await fx.api.registrar.registrations.create({}, { domain_name: "blocked-fail.com" });
      assert.equal((await move("blocked-fail.com", "failed")).status, 200);
      assert.deepEqual(await get("/registrar/registrations"), []);
      const [wf] = await get<(Wf & { error: { code: string } })[]>("/registrar/workflows");
      assert.equal(wf?.state, "failed");
      assert.equal(wf?.error.code, "registry_rejected");
      assert.equal(wf?.waiting_on, null);
    });
  });

  it("search: instances with their jobs (logs included) and items", async () => {
    await fx.api.search.instances.create({}, { id: "kb", type: "r2", source: "docs-bucket" });
    await fx.api.search.jobs.create({ id: "kb" });
    fx.clock.advance(SCAN_MS + 7 * ITEM_MS);
    type Overview = {
      name: string;
      instances: {
        instance: { id: string; status: string };
        jobs: { id: string; ended_at?: string; logs: { message: string }[] }[];
        items: { key: string; status: string }[];
      }[];
    }[];
    const [ns] = await get<Overview>("/search/overview");
    assert.equal(ns?.name, "default");
    const kb = ns?.instances[0];
    assert.equal(kb?.instance.id, "kb");
    assert.equal(kb?.jobs.length, 1);
    assert.ok(kb?.jobs[0]?.ended_at);
    assert.ok((kb?.jobs[0]?.logs.length ?? 0) > 0);
    assert.equal(kb?.items.length, 7);
    assert.ok(kb?.items.some((i) => i.key === "doc-5.md" && i.status === "error"));
  });

  it("meetings: apps, meetings and sessions by name, never a participant's token", async () => {
    const app = await fx.api.meetings.apps.create({}, { name: "support" });
    assert.ok(app.id);
    const meeting = await fx.api.meetings.meetings.create({ appId: app.id }, { title: "Standup" });
    assert.ok(meeting.id);
    const p = await fx.api.meetings.participants.add(
      { appId: app.id, meetingId: meeting.id },
      { custom_participant_id: "ada", preset_name: "host", name: "Ada" },
    );
    const joined = await fx.http(
      "POST",
      `/__emulator/meetings/accounts/${fx.em.accountId}/apps/${app.id}/meetings/${meeting.id}/join`,
      { body: { token: p.token }, token: null },
    );
    assert.equal(joined.status, 200, joined.text);
    const res = await fx.http("GET", "/__emulator/meetings/overview", { token: null });
    assert.ok(!res.text.includes(p.token!), "no participant token in the overview");
    type Apps = {
      name: string;
      meetings: {
        title: string;
        participants: number;
        session: { status: string; live_participants: { name: string }[] };
      }[];
    }[];
    const [shown] = (res.json as Envelope<Apps>).result;
    assert.equal(shown?.name, "support");
    assert.equal(shown?.meetings[0]?.title, "Standup");
    assert.equal(shown?.meetings[0]?.participants, 1);
    assert.equal(shown?.meetings[0]?.session.status, "LIVE");
    assert.deepEqual(
      shown?.meetings[0]?.session.live_participants.map((x) => x.name),
      ["Ada"],
    );
  });

  it("markdown: zones with content_converter, their rules in order and their origin", async () => {
    const zone = await fx.api.content.zones.create({}, { name: "example.com" });
    await fx.api.content.contentConverter.set({ zoneId: zone.id }, { value: "on" });
    await fx.api.content.configRuleset.put(
      { zoneId: zone.id },
      {
        rules: [
          {
            expression: 'starts_with(http.request.uri.path, "/blog")',
            action: "set_config",
            action_parameters: { content_converter: false },
            description: "not the blog",
            enabled: true,
          },
        ],
      },
    );
    const set = await fx.http("PUT", `/__emulator/content/zones/${zone.id}/origin`, {
      body: { url: "http://127.0.0.1:9" },
      token: null,
    });
    assert.equal(set.status, 200, set.text);
    type Zones = {
      zone: { name: string };
      content_converter: { value: string };
      rules: { expression: string; action_parameters: { content_converter: boolean } }[];
      origin: string | null;
    }[];
    const [z] = await get<Zones>("/content/zones");
    assert.equal(z?.zone.name, "example.com");
    assert.equal(z?.content_converter.value, "on");
    assert.equal(z?.rules[0]?.action_parameters.content_converter, false);
    assert.equal(z?.origin, "http://127.0.0.1:9");
  });
});
