/**
 * The requests each kind sends, read from the emulator's request log: check and create of a new
 * resource send what the plain script sends (the same API calls made directly with the sdk), and read
 * what its refresh sends. Then, for each kind whose look-up before create moved behind the API's
 * refusal, an object the emulator already holds: an earlier attempt's is adopted, another's refused
 * naming importId.
 */
import { strict as assert } from "node:assert";
import { handlerFor } from "../../provider/registry";
import type { ResourceHandler, ResourceKind } from "../../provider/types";
import { TriggerCreateBodySchema } from "../../sdk/schemas/builds";
import { toWire } from "../../provider/core/define";
import { BuildTriggerSpec } from "../../provider/resources/build-trigger";
import { createBody, handler as searchInstance } from "../../provider/resources/search-instance";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";
import { providerContext } from "../helpers/provider-context";
import { productionTrigger, productionTriggerBody, seedBuildWorld } from "../helpers/builds";
import { runGetSearchInstanceStats } from "../../provider/functions/search-logic";
import { REGISTRANT_WIRE } from "../helpers/registrar";

type Handler = ResourceHandler<object, object>;

const REPO = {
  providerType: "github",
  providerAccountId: "acme",
  providerAccountName: "Acme",
  repoId: "r1",
  repoName: "shop",
};
const handler = (kind: ResourceKind): Handler => handlerFor(kind);

/** The log since the last call, as `METHOD path` with the account and server-made ids generalised. */
function takeLog(fx: EmulatorFixture): string[] {
  const lines = fx.em.requestLog.splice(0).map((e) => {
    const path = e.url.replace(/^\/client\/v4/, "").split("?")[0] ?? "";
    return `${e.method} ${path
      .replace(`/accounts/${fx.em.accountId}`, "/accounts/A")
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ":uuid")
      .replace(/\b[0-9a-f]{32}\b/g, ":hex")}`;
  });
  return lines;
}

/** Check then create, as the engine's `up` of a new resource; answers the id, outputs and requests. */
async function up(fx: EmulatorFixture, kind: ResourceKind, news: Record<string, unknown>) {
  const h = handler(kind);
  const ctx = providerContext(fx);
  takeLog(fx);
  const checked = await h.check(undefined, news, ctx);
  assert.deepEqual(checked.failures ?? [], [], `${kind} checks`);
  const made = await h.create(checked.inputs!, ctx);
  return { ...made, inputs: checked.inputs!, sent: takeLog(fx), ctx, h };
}

async function refresh(fx: EmulatorFixture, h: Handler, id: string, outs: object) {
  const read = await h.read(id, outs, providerContext(fx));
  assert.ok(read, "the object is there");
  return { read, sent: takeLog(fx) };
}

describe("requests per kind: create and read send what the plain script sends", function () {
  this.timeout(20_000);
  const fx = useEmulator();

  it("RepoConnection: PUT (the upsert); read lists the connections", async () => {
    const { id, outs, sent, h } = await up(fx, "RepoConnection", REPO);
    assert.deepEqual(sent, ["PUT /accounts/A/builds/repos/connections"]);
    assert.deepEqual((await refresh(fx, h, id, outs)).sent, ["GET /accounts/A/builds/repos/connections"]);
  });

  it("BuildTrigger: POST, nothing at check; read lists the script's triggers", async () => {
    const w = await seedBuildWorld(fx);
    const { id, outs, sent, h } = await up(fx, "BuildTrigger", {
      externalScriptId: w.tag,
      repoConnectionUuid: w.repo,
      buildTokenUuid: w.token,
      kind: "production",
      buildCommand: "npm run build",
    });
    assert.deepEqual(sent, ["POST /accounts/A/builds/triggers"]);
    assert.deepEqual((await refresh(fx, h, id, outs)).sent, [
      "GET /accounts/A/builds/workers/:uuid/triggers",
    ]);
  });

  it("TriggerEnvVars: PATCH; read GETs the variables", async () => {
    const w = await seedBuildWorld(fx);
    const t = { trigger_uuid: await productionTrigger(fx, w) };
    const { id, outs, sent, h } = await up(fx, "TriggerEnvVars", {
      triggerUuid: t.trigger_uuid,
      variables: { MODE: { value: "fast" }, TOKEN: { value: "s", isSecret: true } },
    });
    assert.deepEqual(sent, ["PATCH /accounts/A/builds/triggers/:uuid/environment_variables"]);
    assert.deepEqual((await refresh(fx, h, id, outs)).sent, [
      "GET /accounts/A/builds/triggers/:uuid/environment_variables",
    ]);
  });

  it("SearchInstance: POST; read GETs the instance; the stats only with readStats", async () => {
    const base = { instanceId: "kb", type: "web-crawler", source: "docs.example.com", syncInterval: 3600 };
    const plain = await up(fx, "SearchInstance", base);
    assert.deepEqual(plain.sent, ["POST /accounts/A/ai-search/instances"]);
    assert.equal(Reflect.get(plain.outs, "stats"), undefined);
    const read = await refresh(fx, plain.h, plain.id, plain.outs);
    assert.deepEqual(read.sent, ["GET /accounts/A/ai-search/instances/kb"]);
    assert.equal(Reflect.get(read.read.props, "stats"), undefined);

    const withStats = await up(fx, "SearchInstance", { ...base, instanceId: "kb2", readStats: true });
    assert.deepEqual(withStats.sent, [
      "POST /accounts/A/ai-search/instances",
      "GET /accounts/A/ai-search/instances/kb2/stats",
    ]);
    assert.deepEqual(Reflect.get(withStats.outs, "stats"), { queued: 0, running: 0, completed: 0, error: 0 });
    const again = await refresh(fx, withStats.h, withStats.id, withStats.outs);
    assert.deepEqual(again.sent, [
      "GET /accounts/A/ai-search/instances/kb2",
      "GET /accounts/A/ai-search/instances/kb2/stats",
    ]);
  });

  it("SearchNamespace: POST; read GETs the namespace", async () => {
    const made = await up(fx, "SearchNamespace", { name: "team-a", description: "Team A" });
    assert.deepEqual(made.sent, ["POST /accounts/A/ai-search/namespaces"]);
    const read = await refresh(fx, made.h, made.id, made.outs);
    assert.deepEqual(read.sent, ["GET /accounts/A/ai-search/namespaces/team-a"]);
  });

  it("getSearchInstanceStats: one GET of the stats, where the program asks", async () => {
    await fx.api.search.instances.create({}, { id: "kb", type: "web-crawler", source: "docs.example.com" });
    await fx.api.search.jobs.create({ id: "kb" });
    fx.clock.advance(60_000);
    takeLog(fx);
    const stats = await runGetSearchInstanceStats(fx.api, { instanceId: "kb" });
    assert.deepEqual(takeLog(fx), ["GET /accounts/A/ai-search/instances/kb/stats"]);
    assert.equal(stats.completed, 3);
    assert.equal(typeof stats.lastActivity, "string");
  });

  it("SearchInstance: changing only readStats reads the instance (and its stats), never PUTs it", async () => {
    const { id, outs, inputs, h, ctx } = await up(fx, "SearchInstance", {
      instanceId: "kb",
      type: "web-crawler",
      source: "docs.example.com",
    });
    const news = { ...inputs, readStats: true };
    assert.deepEqual(await h.diff(id, outs, news, ctx), {
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    const { outs: updated } = await h.update(id, outs, news, ctx);
    assert.deepEqual(takeLog(fx), [
      "GET /accounts/A/ai-search/instances/kb",
      "GET /accounts/A/ai-search/instances/kb/stats",
    ]);
    assert.deepEqual(Reflect.get(updated, "stats"), { queued: 0, running: 0, completed: 0, error: 0 });
    await h.update(id, updated, inputs, ctx);
    assert.deepEqual(takeLog(fx), ["GET /accounts/A/ai-search/instances/kb"]);
  });

  it("MeetingTemplate: the marker's look-up (the API takes a second meeting), then POST; read GETs the meeting", async () => {
    const { id, outs, sent, h } = await up(fx, "MeetingTemplate", {
      appId: "app-1",
      title: "Standup",
      persistChat: true,
    });
    // The one look-up before create: nothing the API says would tell that a killed run made it.
    assert.deepEqual(sent, [
      "GET /accounts/A/realtime/kit/app-1/meetings",
      "POST /accounts/A/realtime/kit/app-1/meetings",
    ]);
    assert.deepEqual((await refresh(fx, h, id, outs)).sent, [
      "GET /accounts/A/realtime/kit/app-1/meetings/:uuid",
    ]);
  });

  it("SearchToken: the name's look-up (the API takes a second token of a name), then POST; read GETs the token", async () => {
    const { id, outs, sent, h } = await up(fx, "SearchToken", {
      name: "docs-reader",
      cfApiId: "key-id",
      cfApiKey: "s3cret",
    });
    assert.deepEqual(sent, ["GET /accounts/A/ai-search/tokens", "POST /accounts/A/ai-search/tokens"]);
    assert.deepEqual((await refresh(fx, h, id, outs)).sent, ["GET /accounts/A/ai-search/tokens/:uuid"]);
  });

  it("ZoneContentConverter: PATCH of the setting; read GETs it", async () => {
    const zoneId = (await fx.api.content.zones.create({}, { name: "example.com" })).id;
    const { id, outs, sent, h } = await up(fx, "ZoneContentConverter", { zoneId });
    assert.deepEqual(sent, ["PATCH /zones/:hex/settings/content_converter"]);
    assert.deepEqual((await refresh(fx, h, id, outs)).sent, ["GET /zones/:hex/settings/content_converter"]);
  });

  it("ConfigRule: the look-up and the placement share one read; read GETs the entrypoint", async () => {
    const zoneId = (await fx.api.content.zones.create({}, { name: "example.com" })).id;
    const { id, outs, sent, h } = await up(fx, "ConfigRule", { zoneId, pathPrefix: "/docs/" });
    const entrypoint = "/zones/:hex/rulesets/phases/http_config_settings/entrypoint";
    // The plain script's read and PUT, with the version re-read before the PUT and the check after
    // it that keep a writer of another program from undoing the rule unseen (docs/reliability.md).
    assert.deepEqual(sent, [
      `GET ${entrypoint}`,
      `GET ${entrypoint}`,
      `PUT ${entrypoint}`,
      `GET ${entrypoint}`,
    ]);
    assert.deepEqual((await refresh(fx, h, id, outs)).sent, [`GET ${entrypoint}`]);
  });

  it("DomainRegistration: the extensions at check (once per client), the authoritative check (the price guard's), then POST; read GETs it", async () => {
    const { id, outs, sent, h } = await up(fx, "DomainRegistration", {
      domainName: "fresh.com",
      years: 1,
      maxCost: { amount: "20.00", currency: "USD" },
      contacts: { registrant: REGISTRANT_WIRE },
    });
    assert.deepEqual(sent, [
      "GET /accounts/A/registrar/extensions",
      "POST /accounts/A/registrar/domain-check",
      "POST /accounts/A/registrar/registrations",
    ]);
    assert.deepEqual((await refresh(fx, h, id, outs)).sent, [
      "GET /accounts/A/registrar/registrations/fresh.com",
    ]);
  });
});

describe("requests per kind: an object the API already holds, found through the create's refusal", function () {
  this.timeout(20_000);
  const fx = useEmulator();

  it("BuildTrigger: the slot's 400 leads to the look-up; an earlier attempt's is adopted, another's refused", async () => {
    const w = await seedBuildWorld(fx);
    const news = {
      externalScriptId: w.tag,
      repoConnectionUuid: w.repo,
      buildTokenUuid: w.token,
      kind: "production",
      buildCommand: "npm run build",
    };
    const h = handler("BuildTrigger");
    const inputs = (await h.check(undefined, news, providerContext(fx))).inputs!;
    const earlier = await fx.api.builds.triggers.create(
      {},
      TriggerCreateBodySchema.parse(toWire(BuildTriggerSpec, inputs)),
    );
    takeLog(fx);
    const adopted = await h.create(inputs, providerContext(fx));
    assert.equal(adopted.id, earlier.trigger_uuid);
    assert.deepEqual(takeLog(fx), [
      "POST /accounts/A/builds/triggers",
      "GET /accounts/A/builds/workers/:uuid/triggers",
    ]);
    assert.equal(fx.em.requestLog.length, 0);

    const other = (await h.check(undefined, { ...news, triggerName: "mine" }, providerContext(fx))).inputs!;
    await assert.rejects(
      h.create(other, providerContext(fx)),
      new RegExp(
        `kind: a trigger for the production slot of script ${w.tag} already exists \\(${earlier.trigger_uuid}\\) ` +
          `with other settings \\(triggerName\\); set importId: "${earlier.trigger_uuid}" to adopt it$`,
      ),
    );
    assert.equal((await fx.api.builds.triggers.list({ scriptTag: w.tag })).length, 1);
  });

  it("BuildTrigger: a 400 with nothing in the slot is the create's own error", async () => {
    const w = await seedBuildWorld(fx);
    const h = handler("BuildTrigger");
    const news = {
      externalScriptId: w.tag,
      repoConnectionUuid: w.repo,
      buildTokenUuid: "00000000-0000-4000-8000-0000000000aa",
      kind: "production",
    };
    const inputs = (await h.check(undefined, news, providerContext(fx))).inputs!;
    takeLog(fx);
    await assert.rejects(h.create(inputs, providerContext(fx)), (e: Error & { status?: number }) => {
      assert.equal(e.status, 400);
      assert.match(e.message, /build_token_uuid/);
      return true;
    });
    assert.deepEqual(takeLog(fx), [
      "POST /accounts/A/builds/triggers",
      "GET /accounts/A/builds/workers/:uuid/triggers",
    ]);
  });

  it("SearchInstance: the id in use leads to the look-up; an earlier attempt's is adopted, another's refused", async () => {
    const h = searchInstance;
    const news = { instanceId: "kb", type: "web-crawler", source: "docs.example.com" };
    const inputs = (await h.check(undefined, news, providerContext(fx))).inputs!;
    await fx.api.search.instances.create({}, createBody(inputs));
    takeLog(fx);
    const adopted = await h.create(inputs, providerContext(fx));
    assert.equal(adopted.id, "default/kb");
    assert.deepEqual(takeLog(fx), [
      "POST /accounts/A/ai-search/instances",
      "GET /accounts/A/ai-search/instances/kb",
    ]);

    const other = (await h.check(undefined, { ...news, source: "other.example.com" }, providerContext(fx)))
      .inputs!;
    await assert.rejects(
      h.create(other, providerContext(fx)),
      /instanceId: a search instance "kb" in namespace "default" already exists \(default\/kb\) with other settings \(source\); set importId: "kb" to adopt it$/,
    );
  });

  it("ConfigRule: the placement's read finds the rule; a generated ref is adopted, a named one of other settings refused", async () => {
    const zoneId = (await fx.api.content.zones.create({}, { name: "example.com" })).id;
    const ref = "pulumi-0123456789abcdef";
    await fx.api.content.configRuleset.put(
      { zoneId },
      {
        rules: [
          {
            ref,
            expression: 'http.host eq "old.example.com"',
            action: "set_config",
            action_parameters: { content_converter: true },
          },
          {
            ref: "docs",
            expression: 'http.host eq "x.com"',
            action: "set_config",
            action_parameters: { content_converter: true },
          },
        ],
      },
    );
    const h = handler("ConfigRule");
    const ours = (await h.check(undefined, { zoneId, host: "new.example.com", ref }, providerContext(fx)))
      .inputs!;
    takeLog(fx);
    const adopted = await h.create(ours, providerContext(fx));
    assert.equal(adopted.id, `${zoneId}/${ref}`);
    const entrypoint = "/zones/:hex/rulesets/phases/http_config_settings/entrypoint";
    assert.deepEqual(takeLog(fx), [
      `GET ${entrypoint}`,
      `GET ${entrypoint}`,
      `PUT ${entrypoint}`,
      `GET ${entrypoint}`,
    ]);
    const rules = (await fx.api.content.configRuleset.get({ zoneId }))!.rules;
    assert.deepEqual(
      rules.map((r) => [r.ref, r.expression]),
      [
        [ref, 'http.host eq "new.example.com"'],
        ["docs", 'http.host eq "x.com"'],
      ],
    );

    const named = (
      await h.check(undefined, { zoneId, host: "docs.example.com", ref: "docs" }, providerContext(fx))
    ).inputs!;
    await assert.rejects(
      h.create(named, providerContext(fx)),
      /ref: a config rule with ref "docs" in zone [0-9a-f]+ already exists \([0-9a-f]+\/docs\) with other settings \(.*\); set importId: "docs" to adopt it$/,
    );
    assert.equal((await fx.api.content.configRuleset.get({ zoneId }))!.rules.length, 2, "nothing written");
  });

  it("DomainRegistration: the check's domain_unavailable leads to the look-up; its own is adopted, another's refused", async () => {
    const h = handler("DomainRegistration");
    await fx.api.registrar.registrations.create(
      {},
      {
        domain_name: "mine.com",
        years: 1,
        contacts: { registrant: REGISTRANT_WIRE },
      },
    );
    await fx.api.registrar.registrations.create(
      {},
      {
        domain_name: "theirs.com",
        years: 1,
        auto_renew: true,
        contacts: { registrant: REGISTRANT_WIRE },
      },
    );
    const news = {
      years: 1,
      maxCost: { amount: "20.00", currency: "USD" },
      contacts: { registrant: REGISTRANT_WIRE },
    };
    const mine = (await h.check(undefined, { ...news, domainName: "mine.com" }, providerContext(fx))).inputs!;
    takeLog(fx);
    const adopted = await h.create(mine, providerContext(fx));
    assert.equal(adopted.id, "mine.com");
    assert.deepEqual(takeLog(fx), [
      "POST /accounts/A/registrar/domain-check",
      "GET /accounts/A/registrar/registrations/mine.com",
    ]);

    const theirs = (await h.check(undefined, { ...news, domainName: "theirs.com" }, providerContext(fx)))
      .inputs!;
    await assert.rejects(
      h.create(theirs, providerContext(fx)),
      /domainName: a registration with this domainName already exists \(theirs\.com\) with other settings \(autoRenew\); set importId: "theirs\.com" to adopt it$/,
    );
    const unknown = (
      await h.check(undefined, { ...news, domainName: "stale-shoes.com" }, providerContext(fx))
    ).inputs!;
    await assert.rejects(
      h.create(unknown, providerContext(fx)),
      /domainName: stale-shoes\.com: cannot be registered \(domain_unavailable\)$/,
    );
    assert.equal(
      fx.em.requestLog.filter((e) => e.method === "POST" && e.url.endsWith("/registrations")).length,
      0,
      "nothing registered again",
    );
  });

  it("TriggerEnvVars: one PATCH over variables already there; a key another writer set takes the program's value, said in the log", async () => {
    const w = await seedBuildWorld(fx);
    const t = { trigger_uuid: await productionTrigger(fx, w) };
    await fx.api.builds.environmentVariables.upsert(
      { triggerUuid: t.trigger_uuid },
      { MODE: { value: "by hand", is_secret: false } },
    );
    fx.clock.advance(1_000);
    const logs: string[] = [];
    const h = handler("TriggerEnvVars");
    const ctx = providerContext(fx, logs);
    const news = {
      triggerUuid: t.trigger_uuid,
      variables: { MODE: { value: "fast" }, UNIT: { value: "1" } },
    };
    const inputs = (await h.check(undefined, news, ctx)).inputs!;
    takeLog(fx);
    await h.create(inputs, ctx);
    assert.deepEqual(takeLog(fx), ["PATCH /accounts/A/builds/triggers/:uuid/environment_variables"]);
    assert.deepEqual(logs, [
      `TriggerEnvVars: MODE already set on trigger ${t.trigger_uuid} before this resource; now the program's values`,
    ]);
    const live = await fx.api.builds.environmentVariables.list({ triggerUuid: t.trigger_uuid });
    assert.deepEqual([live.MODE?.value, live.UNIT?.value], ["fast", "1"]);
    // Sent again after a lost answer: the same values, and nothing was there before the first.
    const preview = await fx.api.builds.triggers.create(
      {},
      productionTriggerBody(w, { trigger_name: "v", branch_includes: ["*"] }),
    );
    const fresh = (await h.check(undefined, { ...news, triggerUuid: preview.trigger_uuid }, ctx)).inputs!;
    logs.length = 0;
    await h.create(fresh, ctx);
    fx.clock.advance(1_000);
    await h.create(fresh, ctx);
    assert.deepEqual(logs, []);
  });

  it("RepoConnection: the upsert writes an earlier attempt's connection again: the same object", async () => {
    const news = REPO;
    const h = handler("RepoConnection");
    const first = await h.create(
      (await h.check(undefined, news, providerContext(fx))).inputs!,
      providerContext(fx),
    );
    const again = await h.create(
      (await h.check(undefined, news, providerContext(fx))).inputs!,
      providerContext(fx),
    );
    assert.equal(again.id, first.id);
    assert.equal((await fx.api.builds.repos.connections.list()).length, 1);
  });
});
