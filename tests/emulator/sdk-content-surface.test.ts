/**
 * The content area's sdk surface: every sub-resource method called once in the `(ids, params, options?)`
 * convention against the emulator, and every deprecated flat method of 0.1.0 giving what its
 * replacement gives (same result, same local validation error).
 */
import { strict as assert } from "node:assert";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AccountApi } from "../../sdk";
import {
  ContentApi,
  DEPRECATED_CONTENT_METHODS,
  type ConfigRuleRequest,
  type CustomHostname,
  type Zone,
} from "../../sdk/content";
import { useEmulator } from "../helpers/emulator";

const RULE: ConfigRuleRequest = {
  ref: "docs",
  expression: 'starts_with(http.request.uri.path, "/docs/")',
  action: "set_config",
  action_parameters: { content_converter: true },
  description: "docs as markdown",
};

/** The methods of `ContentApi` in release 0.1.0 (sdk/content.ts then). */
const FLAT_METHODS_0_1_0 = [
  "createZone",
  "listZones",
  "findZone",
  "getZone",
  "getZoneSetting",
  "editZoneSetting",
  "getContentConverter",
  "setContentConverter",
  "getConfigRuleset",
  "putConfigRuleset",
  "createCustomHostname",
  "listCustomHostnames",
  "getCustomHostname",
  "updateCustomHostname",
  "deleteCustomHostname",
  "fetchMarkdown",
] as const;

/** An origin with one HTML page, for the markdown fetch. */
async function startOrigin(): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" }).end("<html><body><h1>Hello</h1></body></html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Calls the method a DEPRECATED_CONTENT_METHODS entry names (`"zones.create"`) on an area object. */
function resolveMethod(content: ContentApi, dotted: string): unknown {
  const [resource, method] = dotted.split(".");
  const sub: unknown = Reflect.get(content, resource!);
  assert.ok(typeof sub === "object" && sub !== null, `api.content.${resource} is a sub-resource`);
  return Reflect.get(sub, method!);
}

/** The outcome of a call as comparable data: its result, or the error's class and message. */
async function outcome(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await call() };
  } catch (e) {
    return { error: e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e) };
  }
}

/** JSON of a value with some strings (ids, names of two twin objects) swapped for placeholders. */
function masked(value: unknown, swaps: Record<string, string>): string {
  let text = JSON.stringify(value);
  for (const [from, to] of Object.entries(swaps)) text = text.split(from).join(to);
  return text;
}

describe("content sdk surface: (ids, params, options?)", () => {
  const fx = useEmulator();
  let origin: { url: string; server: Server };

  beforeEach(async () => {
    origin = await startOrigin();
  });
  afterEach(async () => {
    origin.server.closeAllConnections();
    await new Promise<void>((resolve) => origin.server.close(() => resolve()));
  });

  it("calls every sub-resource method once", async () => {
    const content = fx.api.content;
    const zone = await content.zones.create({}, { name: "surface.example.com" });
    assert.equal(zone.name, "surface.example.com");
    assert.equal(
      (await content.zones.create({ accountId: fx.em.accountId }, { name: "b.example.com" })).name,
      "b.example.com",
    );
    assert.deepEqual(
      (await content.zones.list({}, { name: "surface.example.com" }).toArray()).map((z) => z.id),
      [zone.id],
    );
    assert.equal((await content.zones.list().toArray()).length, 2);
    assert.equal((await content.zones.find({}, { name: "surface.example.com" }))?.id, zone.id);
    assert.equal(await content.zones.find({}, { name: "none.example.com" }), undefined);
    assert.equal((await content.zones.get({ zoneId: zone.id })).name, "surface.example.com");

    const zoneId = zone.id;
    assert.equal((await content.contentConverter.set({ zoneId }, { value: "on" })).value, "on");
    assert.equal((await content.contentConverter.get({ zoneId })).value, "on");
    const ttl = await content.settings.edit({ zoneId, settingId: "browser_cache_ttl" }, { value: 7200 });
    assert.equal(ttl.value, 7200);
    assert.deepEqual(await content.settings.get({ zoneId, settingId: "browser_cache_ttl" }), ttl);

    assert.equal(await content.configRuleset.get({ zoneId }), undefined);
    const ruleset = await content.configRuleset.put({ zoneId }, { name: "config rules", rules: [RULE] });
    assert.equal(ruleset.version, "1");
    assert.deepEqual(
      ruleset.rules.map((r) => r.ref),
      ["docs"],
    );
    assert.deepEqual(await content.configRuleset.get({ zoneId }), ruleset);

    const ch = await content.customHostnames.create({ zoneId }, { hostname: "shop.customer.net" });
    assert.equal(ch.hostname, "shop.customer.net");
    assert.deepEqual(
      (await content.customHostnames.list({ zoneId }, { hostname: "shop.customer.net" }).toArray()).map(
        (c) => c.id,
      ),
      [ch.id],
    );
    assert.equal((await content.customHostnames.list({ zoneId }).toArray()).length, 1);
    const updated = await content.customHostnames.update(
      { zoneId, customHostnameId: ch.id },
      { custom_metadata: { content_converter: "enabled" } },
    );
    assert.deepEqual(updated.custom_metadata, { content_converter: "enabled" });
    assert.deepEqual(await content.customHostnames.get({ zoneId, customHostnameId: ch.id }), updated);
    assert.deepEqual(await content.customHostnames.delete({ zoneId, customHostnameId: ch.id }), {
      id: ch.id,
    });

    const set = await fx.http("PUT", `/__emulator/content/zones/${zoneId}/origin`, {
      body: { url: origin.url },
    });
    assert.equal(set.status, 200);
    const page = await content.markdown.fetch(
      {},
      { url: `${fx.em.origin}/__edge/surface.example.com/docs/a` },
    );
    assert.equal(page.converted, true);
    assert.equal(page.converted && page.body, "# Hello");
    const html = await content.markdown.fetch(
      {},
      { url: `${fx.em.origin}/__edge/surface.example.com/docs/a` },
      { accept: "text/html" },
    );
    assert.equal(html.converted, false);
  });

  it("is importable as pulumi-account-api/sdk/content (the package's explicit export of the folder)", () => {
    const published = require("pulumi-account-api/sdk/content") as { ContentApi: unknown };
    assert.equal(typeof published.ContentApi, "function");
  });

  it("has a table naming every flat method of 0.1.0, which are the class's only methods", () => {
    assert.deepEqual(Object.keys(DEPRECATED_CONTENT_METHODS).sort(), [...FLAT_METHODS_0_1_0].sort());
    const own = Object.getOwnPropertyNames(ContentApi.prototype).filter((n) => n !== "constructor");
    assert.deepEqual(own.sort(), [...FLAT_METHODS_0_1_0].sort());
    assert.ok(Object.isFrozen(DEPRECATED_CONTENT_METHODS));
    for (const target of Object.values(DEPRECATED_CONTENT_METHODS))
      assert.equal(typeof resolveMethod(fx.api.content, target), "function", target);
  });

  /**
   * One case per deprecated method: the same operation through the flat method and through its
   * replacement. Writes that make an object act on twins (zone a / zone b, hostname a / b), whose ids
   * and names are masked before comparing; every case also compares a call with an empty id.
   */
  type Case = {
    old: (api: AccountApi) => Promise<unknown>;
    new: (api: AccountApi) => Promise<unknown>;
    swaps?: Record<string, string>;
    invalidOld: (api: AccountApi) => Promise<unknown>;
    invalidNew: (api: AccountApi) => Promise<unknown>;
  };

  it("gives from each deprecated method what its replacement gives", async () => {
    const api = fx.api;
    const c = api.content;
    const zone = await c.zones.create({}, { name: "same.example.com" });
    const zoneId = zone.id;
    await c.contentConverter.set({ zoneId }, { value: "on" });
    await c.configRuleset.put({ zoneId }, { rules: [RULE] });
    const [h1, h2, h3] = await Promise.all(
      ["h1", "h2", "h3"].map((h) => c.customHostnames.create({ zoneId }, { hostname: `${h}.customer.net` })),
    );
    const twins: { a?: Zone; b?: Zone } = {};
    const hostnames: { a?: CustomHostname; b?: CustomHostname } = {};
    const set = await fx.http("PUT", `/__emulator/content/zones/${zoneId}/origin`, {
      body: { url: origin.url },
    });
    assert.equal(set.status, 200);
    const page = `${fx.em.origin}/__edge/same.example.com/docs/a`;

    const cases: Record<string, Case> = {
      createZone: {
        old: async (a) => (twins.a = await a.content.createZone({ name: "twin-a.example.com" })),
        new: async (a) => (twins.b = await a.content.zones.create({}, { name: "twin-b.example.com" })),
        invalidOld: (a) => a.content.createZone({ name: "not a host" }),
        invalidNew: (a) => a.content.zones.create({}, { name: "not a host" }),
      },
      listZones: {
        old: (a) => a.content.listZones({ name: "same.example.com" }).toArray(),
        new: (a) => a.content.zones.list({}, { name: "same.example.com" }).toArray(),
        invalidOld: (a) => a.content.listZones({ name: "not a host" }).toArray(),
        invalidNew: (a) => a.content.zones.list({}, { name: "not a host" }).toArray(),
      },
      findZone: {
        old: (a) => a.content.findZone({ name: "same.example.com" }),
        new: (a) => a.content.zones.find({}, { name: "same.example.com" }),
        invalidOld: (a) => a.content.findZone({ name: "" }),
        invalidNew: (a) => a.content.zones.find({}, { name: "" }),
      },
      getZone: {
        old: (a) => a.content.getZone({ zoneId }),
        new: (a) => a.content.zones.get({ zoneId }),
        invalidOld: (a) => a.content.getZone({ zoneId: "" }),
        invalidNew: (a) => a.content.zones.get({ zoneId: "" }),
      },
      getZoneSetting: {
        old: (a) => a.content.getZoneSetting({ zoneId, settingId: "polish" }),
        new: (a) => a.content.settings.get({ zoneId, settingId: "polish" }),
        invalidOld: (a) => a.content.getZoneSetting({ zoneId, settingId: "Bad-Id" }),
        invalidNew: (a) => a.content.settings.get({ zoneId, settingId: "Bad-Id" }),
      },
      editZoneSetting: {
        old: (a) => a.content.editZoneSetting({ zoneId, settingId: "browser_cache_ttl", value: 7200 }),
        new: (a) => a.content.settings.edit({ zoneId, settingId: "browser_cache_ttl" }, { value: 7200 }),
        invalidOld: (a) => a.content.editZoneSetting({ zoneId, settingId: "browser_cache_ttl", value: 17 }),
        invalidNew: (a) => a.content.settings.edit({ zoneId, settingId: "browser_cache_ttl" }, { value: 17 }),
      },
      getContentConverter: {
        old: (a) => a.content.getContentConverter({ zoneId }),
        new: (a) => a.content.contentConverter.get({ zoneId }),
        invalidOld: (a) => a.content.getContentConverter({ zoneId: "" }),
        invalidNew: (a) => a.content.contentConverter.get({ zoneId: "" }),
      },
      setContentConverter: {
        old: (a) => a.content.setContentConverter({ zoneId, value: "on" }),
        new: (a) => a.content.contentConverter.set({ zoneId }, { value: "on" }),
        // @ts-expect-error an out-of-range value, refused locally
        invalidOld: (a) => a.content.setContentConverter({ zoneId, value: "maybe" }),
        // @ts-expect-error an out-of-range value, refused locally
        invalidNew: (a) => a.content.contentConverter.set({ zoneId }, { value: "maybe" }),
      },
      getConfigRuleset: {
        old: (a) => a.content.getConfigRuleset({ zoneId }),
        new: (a) => a.content.configRuleset.get({ zoneId }),
        invalidOld: (a) => a.content.getConfigRuleset({ zoneId: "" }),
        invalidNew: (a) => a.content.configRuleset.get({ zoneId: "" }),
      },
      putConfigRuleset: {
        // Each PUT makes a new version: the two answers differ by it alone.
        old: async (a) => ({
          ...(await a.content.putConfigRuleset({ zoneId, rules: [RULE] })),
          version: "v",
        }),
        new: async (a) => ({
          ...(await a.content.configRuleset.put({ zoneId }, { rules: [RULE] })),
          version: "v",
        }),
        invalidOld: (a) => a.content.putConfigRuleset({ zoneId, rules: [{ ...RULE, expression: "" }] }),
        invalidNew: (a) => a.content.configRuleset.put({ zoneId }, { rules: [{ ...RULE, expression: "" }] }),
      },
      createCustomHostname: {
        old: async (a) => {
          const ch = await a.content.createCustomHostname({ zoneId, hostname: "twin-a.customer.net" });
          hostnames.a = ch;
          return ch;
        },
        new: async (a) => {
          const ch = await a.content.customHostnames.create({ zoneId }, { hostname: "twin-b.customer.net" });
          hostnames.b = ch;
          return ch;
        },
        invalidOld: (a) => a.content.createCustomHostname({ zoneId, hostname: "" }),
        invalidNew: (a) => a.content.customHostnames.create({ zoneId }, { hostname: "" }),
      },
      listCustomHostnames: {
        old: (a) => a.content.listCustomHostnames({ zoneId, hostname: "h1.customer.net" }).toArray(),
        new: (a) => a.content.customHostnames.list({ zoneId }, { hostname: "h1.customer.net" }).toArray(),
        invalidOld: (a) => a.content.listCustomHostnames({ zoneId, hostname: "not a host" }).toArray(),
        invalidNew: (a) => a.content.customHostnames.list({ zoneId }, { hostname: "not a host" }).toArray(),
      },
      getCustomHostname: {
        old: (a) => a.content.getCustomHostname({ zoneId, customHostnameId: h1!.id }),
        new: (a) => a.content.customHostnames.get({ zoneId, customHostnameId: h1!.id }),
        invalidOld: (a) => a.content.getCustomHostname({ zoneId, customHostnameId: "" }),
        invalidNew: (a) => a.content.customHostnames.get({ zoneId, customHostnameId: "" }),
      },
      updateCustomHostname: {
        old: (a) =>
          a.content.updateCustomHostname({
            zoneId,
            customHostnameId: h1!.id,
            custom_metadata: { content_converter: "enabled" },
          }),
        new: (a) =>
          a.content.customHostnames.update(
            { zoneId, customHostnameId: h1!.id },
            { custom_metadata: { content_converter: "enabled" } },
          ),
        invalidOld: (a) => a.content.updateCustomHostname({ zoneId, customHostnameId: "" }),
        invalidNew: (a) => a.content.customHostnames.update({ zoneId, customHostnameId: "" }),
      },
      deleteCustomHostname: {
        old: async (a) => a.content.deleteCustomHostname({ zoneId, customHostnameId: h2!.id }),
        new: async (a) => a.content.customHostnames.delete({ zoneId, customHostnameId: h3!.id }),
        swaps: { [h2!.id]: "<deleted>", [h3!.id]: "<deleted>" },
        invalidOld: (a) => a.content.deleteCustomHostname({ zoneId: "", customHostnameId: h1!.id }),
        invalidNew: (a) => a.content.customHostnames.delete({ zoneId: "", customHostnameId: h1!.id }),
      },
      fetchMarkdown: {
        old: (a) => a.content.fetchMarkdown(page),
        new: (a) => a.content.markdown.fetch({}, { url: page }),
        invalidOld: (a) => a.content.fetchMarkdown("ftp://example.com/"),
        invalidNew: (a) => a.content.markdown.fetch({}, { url: "ftp://example.com/" }),
      },
    };
    assert.deepEqual(Object.keys(cases).sort(), Object.keys(DEPRECATED_CONTENT_METHODS).sort());

    for (const [name, kase] of Object.entries(cases)) {
      const before = await outcome(() => kase.old(api));
      const after = await outcome(() => kase.new(api));
      const swaps: Record<string, string> = {
        ...kase.swaps,
        ...(twins.a && twins.b
          ? { [twins.a.id]: "<zone>", [twins.b.id]: "<zone>", "twin-a": "twin", "twin-b": "twin" }
          : {}),
        ...(hostnames.a && hostnames.b
          ? {
              [hostnames.a.id]: "<ch>",
              [hostnames.b.id]: "<ch>",
              [hostnames.a.ssl?.id ?? "<ch>"]: "<ssl>",
              [hostnames.b.ssl?.id ?? "<ch>"]: "<ssl>",
              "twin-a": "twin",
              "twin-b": "twin",
            }
          : {}),
      };
      assert.ok(!("error" in (before as object)), `${name}: ${JSON.stringify(before)}`);
      assert.equal(masked(before, swaps), masked(after, swaps), name);
      twins.a = twins.b = undefined;
      hostnames.a = hostnames.b = undefined;

      const requests = fx.em.requestLog.length;
      const badOld = await outcome(() => kase.invalidOld(api));
      const badNew = await outcome(() => kase.invalidNew(api));
      assert.match(String((badOld as { error?: string }).error), /^ValidationError: /, name);
      assert.deepEqual(badOld, badNew, name);
      assert.equal(fx.em.requestLog.length, requests, `${name}: refused locally`);
    }
  });
});
