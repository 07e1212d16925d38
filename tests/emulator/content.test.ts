import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../emulator/index";
import {
  AccountApi,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
  collect,
} from "../../sdk";
import type { ConfigRuleRequest, CustomHostnameSslRequest } from "../../sdk/content";
import { ZONE_SETTINGS } from "../../sdk/schemas/content";
import { useEmulator } from "../helpers/emulator";

type Envelope = { success: boolean; errors: { code: number; message: string }[]; result: unknown };

const rule = (expression: string, on = true, extra: Partial<ConfigRuleRequest> = {}): ConfigRuleRequest => ({
  expression,
  action: "set_config",
  action_parameters: { content_converter: on },
  description: `rule for ${expression}`,
  ...extra,
});

describe("content area: zones, setting, rules, custom hostnames", () => {
  const fx = useEmulator();

  /** Requests the emulator saw under the API prefix, to prove local validation sent nothing. */
  const apiRequests = (): number => fx.em.requestLog.filter((r) => r.url.startsWith("/client/v4/")).length;

  const assertLocal = async (call: () => Promise<unknown>, message: RegExp): Promise<void> => {
    const before = apiRequests();
    await assert.rejects(call, (e: unknown) => e instanceof ValidationError && message.test(e.message));
    assert.equal(apiRequests(), before, "no request was made");
  };

  const assert400 = (res: { status: number; json: unknown }, message: string | RegExp): void => {
    assert.equal(res.status, 400);
    const env = res.json as Envelope;
    assert.equal(env.success, false);
    const messages = env.errors.map((e) => e.message);
    assert.ok(
      messages.some((m) => (typeof message === "string" ? m === message : message.test(m))),
      `expected ${String(message)} in ${JSON.stringify(messages)}`,
    );
  };

  describe("zones", () => {
    it("creates, finds by name and gets a zone", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "Example.COM" });
      assert.equal(zone.name, "example.com");
      assert.equal(zone.account.id, fx.em.accountId);
      assert.equal(zone.status, "active");
      assert.match(zone.id, /^[0-9a-f]{32}$/);
      assert.equal(zone.created_on, "2026-01-01T00:00:00.000Z");

      assert.deepEqual(await fx.api.content.zones.get({ zoneId: zone.id }), zone);
      assert.deepEqual(await fx.api.content.zones.find({}, { name: "example.com" }), zone);
      assert.equal(await fx.api.content.zones.find({}, { name: "other.com" }), undefined);
    });

    it("sends POST /zones with {name, account:{id}} on the wire", async () => {
      const res = await fx.http("POST", "/zones", {
        body: { name: "wire.com", account: { id: fx.em.accountId } },
      });
      assert.equal(res.status, 200);
      const env = res.json as Envelope & { result: { name: string } };
      assert.equal(env.success, true);
      assert.equal(env.result.name, "wire.com");
      const list = await fx.http("GET", "/zones?name=wire.com");
      const listed = list.json as Envelope & { result: unknown[]; result_info: { total_count: number } };
      assert.equal(listed.result.length, 1);
      assert.equal(listed.result_info.total_count, 1);
    });

    it("lists zones page by page", async () => {
      for (let i = 0; i < 55; i++) await fx.api.content.zones.create({}, { name: `z${i}.example.com` });
      const names = (await collect(fx.api.content.zones.list())).map((z) => z.name);
      assert.equal(names.length, 55);
      assert.equal(names[54], "z54.example.com");
      assert.ok(fx.em.requestLog.some((r) => r.url.includes("/zones?page=2&per_page=50")));
    });

    it("refuses a second zone of the same name with 409", async () => {
      await fx.api.content.zones.create({}, { name: "dup.com" });
      await assert.rejects(
        fx.api.content.zones.create({}, { name: "dup.com" }),
        (e: unknown) =>
          e instanceof ConflictError && e.apiCode === 1061 && /zone dup\.com already exists/.test(e.message),
      );
    });

    it("returns 404 for an unknown zone", async () => {
      await assert.rejects(
        fx.api.content.zones.get({ zoneId: "0".repeat(32) }),
        (e: unknown) =>
          e instanceof NotFoundError && e.apiCode === 1002 && /zone 0{32} not found/.test(e.message),
      );
    });

    it("finds the zone after the create's answer was lost instead of creating it twice", async () => {
      await fx.http("POST", "/__emulator/faults", {
        body: { method: "POST", path: "^/client/v4/zones$", commitThenDrop: true, times: 1 },
      });
      const zone = await fx.api.content.zones.create({}, { name: "lost.com" });
      assert.equal(zone.name, "lost.com");
      assert.equal((await collect(fx.api.content.zones.list())).length, 1);
    });

    it("validates locally before any request", async () => {
      await assertLocal(
        () => fx.api.content.zones.create({}, { name: "no_underscores.com" }),
        /createZone: name: must be a hostname/,
      );
      await assertLocal(
        () => fx.api.content.zones.create({}, { name: "single" }),
        /createZone: name: must be a hostname/,
      );
      const before = apiRequests();
      await assert.rejects(
        fx.api.content.zones.create({ accountId: "x".repeat(33) }, { name: "a.com" }),
        /accountId: at most 32 characters/,
      );
      assert.equal(apiRequests(), before);
      await assertLocal(() => fx.api.content.zones.get({ zoneId: "" }), /getZone: zoneId: must not be empty/);
    });

    it("answers 400 naming the field", async () => {
      assert400(
        await fx.http("POST", "/zones", { body: { name: "a.com" } }),
        "account: Invalid input: expected object, received undefined",
      );
      assert400(
        await fx.http("POST", "/zones", { body: { name: "bad name", account: { id: fx.em.accountId } } }),
        /^name: must be a hostname/,
      );
      assert400(
        await fx.http("POST", "/zones", {
          body: { name: "a.com", account: { id: fx.em.accountId }, plan: "pro" },
        }),
        /unrecognized key.*plan/i,
      );
    });
  });

  describe("the content_converter setting", () => {
    it("starts off, turns on with PATCH {value}, and reports modified_on", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "s.com" });
      assert.deepEqual(await fx.api.content.contentConverter.get({ zoneId: zone.id }), {
        id: "content_converter",
        value: "off",
        editable: true,
        modified_on: null,
      });
      fx.clock.advance(60_000);
      const on = await fx.api.content.contentConverter.set({ zoneId: zone.id }, { value: "on" });
      assert.deepEqual(on, {
        id: "content_converter",
        value: "on",
        editable: true,
        modified_on: "2026-01-01T00:01:00.000Z",
      });
      assert.equal((await fx.api.content.contentConverter.get({ zoneId: zone.id })).value, "on");
    });

    it("refuses other values locally and on the wire", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "s.com" });
      await assertLocal(
        () => fx.api.content.contentConverter.set({ zoneId: zone.id }, { value: "yes" as "on" }),
        /setContentConverter: value: must be "on" or "off"/,
      );
      const res = await fx.http("PATCH", `/zones/${zone.id}/settings/content_converter`, {
        body: { value: true },
      });
      assert400(res, 'value: must be "on" or "off"');
    });

    it("answers 404 for an unknown setting or zone, before any rule of a value", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "s.com" });
      const res = await fx.http("GET", `/zones/${zone.id}/settings/no_such_setting`);
      assert.equal(res.status, 404);
      assert.equal((res.json as Envelope).errors[0]!.message, "zone setting no_such_setting not found");
      // content_converter's rule ("on" or "off") is not what judges another id: it is unknown first
      const patch = await fx.http("PATCH", `/zones/${zone.id}/settings/no_such_setting`, {
        body: { value: 17 },
      });
      assert.equal(patch.status, 404);
      // the sdk sends an id outside its catalogue as it is, for the service to judge
      await assert.rejects(
        fx.api.content.settings.edit({ zoneId: zone.id, settingId: "no_such_setting" }, { value: "on" }),
        (e: unknown) =>
          e instanceof NotFoundError && /zone setting no_such_setting not found/.test(e.message),
      );
      await assert.rejects(
        fx.api.content.contentConverter.set({ zoneId: "f".repeat(32) }, { value: "on" }),
        (e: unknown) => e instanceof NotFoundError && /zone f{32} not found/.test(e.message),
      );
    });
  });

  describe("any zone setting of the catalogue", () => {
    it("reads a fresh zone's value and edits it, by value or by enabled", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "cat.com" });
      assert.deepEqual(await fx.api.content.settings.get({ zoneId: zone.id, settingId: "brotli" }), {
        id: "brotli",
        value: "on",
        editable: true,
        modified_on: null,
      });
      fx.clock.advance(1_000);
      const ttl = await fx.api.content.settings.edit(
        { zoneId: zone.id, settingId: "browser_cache_ttl" },
        { value: 7200 },
      );
      assert.deepEqual(ttl, {
        id: "browser_cache_ttl",
        value: 7200,
        editable: true,
        modified_on: "2026-01-01T00:00:01.000Z",
      });
      const ciphers = ["ECDHE-RSA-AES128-GCM-SHA256", "AES128-SHA"];
      await fx.api.content.settings.edit({ zoneId: zone.id, settingId: "ciphers" }, { value: ciphers });
      assert.deepEqual(
        (await fx.api.content.settings.get({ zoneId: zone.id, settingId: "ciphers" })).value,
        ciphers,
      );
      const recommender = await fx.api.content.settings.edit(
        { zoneId: zone.id, settingId: "ssl_recommender" },
        { enabled: true },
      );
      assert.equal(recommender.enabled, true);
      assert.equal(recommender.value, undefined);
      // one setting's change leaves the others, and the content converter, as they were
      assert.equal((await fx.api.content.contentConverter.get({ zoneId: zone.id })).value, "off");
    });

    it("refuses a value its setting does not take, locally and on the wire, naming the field", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "cat.com" });
      const edit = (settingId: string, body: Record<string, unknown>) =>
        fx.http("PATCH", `/zones/${zone.id}/settings/${settingId}`, { body });
      assert400(await edit("brotli", { value: "maybe" }), 'value: must be "on" or "off"');
      assert400(await edit("polish", { value: "webp" }), "value: must be one of off, lossless, lossy");
      assert400(await edit("browser_cache_ttl", { value: 17 }), /^value: must be one of 0, 30, 60/);
      assert400(await edit("ciphers", { value: ["a", "a"] }), "value: must not repeat a cipher");
      assert400(
        await edit("ssl_recommender", { value: "on" }),
        "value: this setting takes enabled, not value",
      );
      assert400(await edit("brotli", { enabled: true }), "enabled: this setting takes value, not enabled");
      assert400(await edit("brotli", {}), "body: must set value or enabled");
      assert400(await edit("brotli", { value: "on", extra: 1 }), "extra: is not a known field");
      await assertLocal(
        () => fx.api.content.settings.edit({ zoneId: zone.id, settingId: "tls_1_3" }, { value: "yes" }),
        /editZoneSetting \(tls_1_3\): value: must be one of on, off, zrt/,
      );
      await assertLocal(
        () => fx.api.content.settings.edit({ zoneId: zone.id, settingId: "Bad Id" }, { value: "on" }),
        /settingId: must be a zone setting id/,
      );
      assert.equal((await fx.api.content.settings.get({ zoneId: zone.id, settingId: "brotli" })).value, "on");
    });

    it("serves every setting of the catalogue with its documented initial value", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "cat.com" });
      for (const [id, shape] of Object.entries(ZONE_SETTINGS)) {
        const got = await fx.api.content.settings.get({ zoneId: zone.id, settingId: id });
        assert.deepEqual(got[shape.key], shape.initial, id);
        assert.equal(shape.schema.safeParse(shape.initial).success, true, `${id}: initial fits its rule`);
      }
    });
  });

  describe("the http_config_settings entrypoint", () => {
    it("is absent (404 → undefined) until the first PUT", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "r.com" });
      const raw = await fx.http("GET", `/zones/${zone.id}/rulesets/phases/http_config_settings/entrypoint`);
      assert.equal(raw.status, 404);
      assert.equal(
        (raw.json as Envelope).errors[0]!.message,
        "entrypoint ruleset of phase http_config_settings not found",
      );
      assert.equal(await fx.api.content.configRuleset.get({ zoneId: zone.id }), undefined);
    });

    it("assigns ids, versions and last_updated; keeps identity by ref and bumps only changed rules", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "r.com" });
      const first = await fx.api.content.configRuleset.put(
        { zoneId: zone.id },
        {
          rules: [
            rule('http.host eq "docs.r.com"', true, { ref: "docs" }),
            rule('starts_with(http.request.uri.path, "/blog/")'),
          ],
        },
      );
      assert.equal(first.kind, "zone");
      assert.equal(first.phase, "http_config_settings");
      assert.equal(first.version, "1");
      assert.equal(first.rules.length, 2);
      const [docs, blog] = first.rules;
      assert.equal(docs!.ref, "docs");
      assert.equal(docs!.version, "1");
      assert.equal(docs!.last_updated, "2026-01-01T00:00:00.000Z");
      assert.match(blog!.id, /^[0-9a-f]{32}$/);
      assert.equal(blog!.ref, blog!.id, "a rule without ref gets its id as ref");
      assert.equal(docs!.enabled, true);

      fx.clock.advance(1000);
      const second = await fx.api.content.configRuleset.put(
        { zoneId: zone.id },
        {
          rules: [
            rule('starts_with(http.request.uri.path, "/blog/")', true, { ref: blog!.ref }),
            rule('http.host eq "docs.r.com"', false, { ref: "docs" }),
            rule('http.host eq "new.r.com"'),
          ],
        },
      );
      assert.equal(second.id, first.id);
      assert.equal(second.version, "2");
      const [blog2, docs2, added] = second.rules;
      assert.equal(blog2!.id, blog!.id);
      assert.equal(blog2!.version, "1", "unchanged rule keeps its version");
      assert.equal(blog2!.last_updated, "2026-01-01T00:00:00.000Z");
      assert.equal(docs2!.id, docs!.id);
      assert.equal(docs2!.version, "2");
      assert.equal(docs2!.last_updated, "2026-01-01T00:00:01.000Z");
      assert.equal(docs2!.action_parameters?.content_converter, false);
      assert.ok(![docs!.id, blog!.id].includes(added!.id));

      // an id from a read keeps identity too; a PUT of nothing empties the rules but keeps the ruleset
      const third = await fx.api.content.configRuleset.put(
        { zoneId: zone.id },
        {
          rules: [{ ...rule('http.host eq "docs.r.com"', false), id: docs!.id }],
        },
      );
      assert.equal(third.version, "3");
      assert.equal(third.rules[0]!.id, docs!.id);
      assert.equal(third.rules[0]!.ref, "docs");
      const empty = await fx.api.content.configRuleset.put({ zoneId: zone.id }, { rules: [] });
      assert.equal(empty.version, "4");
      assert.deepEqual(empty.rules, []);
      assert.deepEqual(await fx.api.content.configRuleset.get({ zoneId: zone.id }), empty);
    });

    it("answers 400 naming the rule index for an unsupported expression", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "r.com" });
      const res = await fx.http("PUT", `/zones/${zone.id}/rulesets/phases/http_config_settings/entrypoint`, {
        body: {
          rules: [rule('http.host eq "a.r.com"'), rule('http.cookie eq "x"'), rule('http.host matches "x"')],
        },
      });
      assert.equal(res.status, 400);
      const errors = (res.json as Envelope).errors;
      assert.equal(errors.length, 2);
      assert.equal(errors[0]!.code, 20021);
      assert.match(
        errors[0]!.message,
        /^rules\.1\.expression: unsupported field "http\.cookie" .* at offset 0$/,
      );
      assert.match(errors[1]!.message, /^rules\.2\.expression: unsupported operator "matches"/);
      await assert.rejects(
        fx.api.content.configRuleset.put({ zoneId: zone.id }, { rules: [rule('http.cookie eq "x"')] }),
        (e: unknown) =>
          e instanceof BadRequestError && e.apiCode === 20021 && /rules\.0\.expression/.test(e.message),
      );
      assert.equal(
        await fx.api.content.configRuleset.get({ zoneId: zone.id }),
        undefined,
        "nothing was stored",
      );
    });

    it("answers 400 naming the field for bad rule bodies", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "r.com" });
      const put = (body: unknown) =>
        fx.http("PUT", `/zones/${zone.id}/rulesets/phases/http_config_settings/entrypoint`, { body });
      assert400(
        await put({ rules: [{ ...rule('http.host eq "a"'), action: "rewrite" }] }),
        "rules.0.action: must be one of set_config",
      );
      assert400(
        await put({
          rules: [{ ...rule('http.host eq "a"'), action_parameters: { content_converter: "on" } }],
        }),
        "rules.0.action_parameters.content_converter: must be a boolean",
      );
      assert400(
        await put({ rules: [{ ...rule('http.host eq "a"'), action_parameters: {} }] }),
        "rules.0.action_parameters: must set at least one configuration parameter",
      );
      assert400(await put({ rules: [rule("")] }), "rules.0.expression: must not be empty");
      assert400(
        await put({ rules: [rule("x".repeat(4097))] }),
        "rules.0.expression: must be at most 4096 characters",
      );
      assert400(
        await put({
          rules: [rule('http.host eq "a"', true, { ref: "x" }), rule('http.host eq "b"', true, { ref: "x" })],
        }),
        "rules.1.ref: must be unique within the ruleset",
      );
      assert400(
        await put({ rules: [{ ...rule('http.host eq "a"'), id: "nope" }] }),
        "rules.0.id: no rule with this id in the entrypoint",
      );
      assert400(await put({}), "rules: is required");
      const phase = await fx.http(
        "PUT",
        `/zones/${zone.id}/rulesets/phases/http_request_firewall_custom/entrypoint`,
        {
          body: { rules: [] },
        },
      );
      assert400(phase, "phase: must be http_config_settings (the only phase the emulator serves)");
    });

    it("validates rules locally", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "r.com" });
      await assertLocal(
        () =>
          fx.api.content.configRuleset.put(
            { zoneId: zone.id },
            {
              rules: [{ ...rule('http.host eq "a"'), action: "block" as "set_config" }],
            },
          ),
        /putConfigRuleset: rules\.0\.action: must be one of set_config/,
      );
      await assertLocal(
        () =>
          fx.api.content.configRuleset.put(
            { zoneId: zone.id },
            {
              rules: [
                rule('http.host eq "a"', true, { ref: "x" }),
                rule('http.host eq "b"', true, { ref: "x" }),
              ],
            },
          ),
        /rules\.1\.ref: must be unique within the ruleset/,
      );
    });
  });

  describe("every field of a set_config rule and of the entrypoint", () => {
    const full: ConfigRuleRequest = {
      ref: "full",
      expression: 'http.host eq "full.r.com"',
      action: "set_config",
      action_parameters: {
        content_converter: true,
        polish: "lossless",
        autominify: { css: true, html: false, js: true },
        security_level: "high",
        disable_zaraz: true,
        webmcp_packs: ["search"],
      },
      description: "every field",
      enabled: false,
      logging: { enabled: true },
      categories: ["docs", "markdown"],
      exposed_credential_check: {
        username_expression: 'http.request.body.form["user"][0]',
        password_expression: 'http.request.body.form["pass"][0]',
      },
      ratelimit: {
        characteristics: ["ip.src"],
        period: 60,
        requests_per_period: 100,
        mitigation_timeout: 600,
      },
    };

    it("stores and returns each one, and moves the rule's version when any changes", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "r.com" });
      const first = await fx.api.content.configRuleset.put(
        { zoneId: zone.id },
        {
          name: "markdown rules",
          description: "managed by tests",
          rules: [full],
        },
      );
      assert.equal(first.name, "markdown rules");
      assert.equal(first.description, "managed by tests");
      const { id, version, last_updated, ...stored } = first.rules[0]!;
      assert.match(id, /^[0-9a-f]{32}$/);
      assert.equal(version, "1");
      assert.equal(last_updated, "2026-01-01T00:00:00.000Z");
      assert.deepEqual(stored, full);

      // the same rule again, with the echoes of a read: nothing moves but the ruleset's version
      const same = await fx.api.content.configRuleset.put(
        { zoneId: zone.id },
        {
          id: first.id,
          version: first.version,
          rules: [{ ...full, id, version, last_updated }],
        },
      );
      assert.equal(same.version, "2");
      assert.equal(same.rules[0]!.version, "1");
      assert.equal(same.name, "markdown rules", "name is kept when left out");

      for (const [n, change] of [
        [2, { logging: { enabled: false } }],
        [3, { categories: ["docs"] }],
        [4, { ratelimit: { characteristics: ["ip.src"], period: 10 } }],
        [5, { action_parameters: { ...full.action_parameters, polish: "lossy" } }],
      ] as [number, Partial<ConfigRuleRequest>][]) {
        const rs = await fx.api.content.configRuleset.put(
          { zoneId: zone.id },
          { rules: [{ ...full, ...change }] },
        );
        assert.equal(rs.rules[0]!.version, String(n), JSON.stringify(change));
      }
    });

    it("refuses what the contract refuses, naming the field", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "r.com" });
      const put = (patch: Record<string, unknown>) =>
        fx.http("PUT", `/zones/${zone.id}/rulesets/phases/http_config_settings/entrypoint`, {
          body: { rules: [{ ...full, ...patch }] },
        });
      assert400(await put({ logging: {} }), "rules.0.logging.enabled: is required");
      assert400(await put({ categories: [] }), /^rules\.0\.categories: must not be empty/);
      assert400(await put({ categories: ["a", "a"] }), "rules.0.categories: must not repeat an entry");
      assert400(await put({ ratelimit: { period: 10 } }), /^rules\.0\.ratelimit\.characteristics: /);
      assert400(
        await put({ action_parameters: { polish: "jpeg" } }),
        "rules.0.action_parameters.polish: must be one of off, lossless, lossy, webp",
      );
      assert400(
        await put({ action_parameters: { disable_rum: false } }),
        "rules.0.action_parameters.disable_rum: must be true (leave it out otherwise)",
      );
      const named = await fx.http(
        "PUT",
        `/zones/${zone.id}/rulesets/phases/http_config_settings/entrypoint`,
        {
          body: { name: "", rules: [] },
        },
      );
      assert400(named, "name: must not be empty");
    });
  });

  describe("custom hostnames", () => {
    it("invents no ssl block for a hostname created without one, and takes ssl: null as no change", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "plain-ssl.com" });
      const created = await fx.api.content.customHostnames.create(
        { zoneId: zone.id },
        { hostname: "a.plain.net" },
      );
      assert.equal(created.ssl, undefined);
      const ids = { zoneId: zone.id, customHostnameId: created.id };
      const raw = await fx.http("PATCH", `/zones/${zone.id}/custom_hostnames/${created.id}`, {
        body: { ssl: null, custom_metadata: { team: "web" } },
      });
      assert.equal(raw.status, 200, raw.text);
      const read = await fx.api.content.customHostnames.get(ids);
      assert.equal(read.ssl, undefined);
      assert.deepEqual(read.custom_metadata, { team: "web" });
      const given = await fx.api.content.customHostnames.update(ids, { ssl: { method: "http" } });
      assert.equal(given.ssl?.method, "http");
      const kept = await fx.api.content.customHostnames.update(ids, { ssl: null });
      assert.deepEqual(kept.ssl, given.ssl);
    });

    it("creates, lists, gets, patches metadata and deletes", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "saas.com" });
      const created = await fx.api.content.customHostnames.create(
        { zoneId: zone.id },
        { hostname: "Shop.Customer.net", ssl: { method: "txt", type: "dv" } },
      );
      assert.equal(created.hostname, "shop.customer.net");
      assert.equal(created.status, "active");
      const { id: sslId, ...ssl } = created.ssl ?? {};
      assert.match(sslId ?? "", /^[0-9a-f-]{36}$/);
      assert.deepEqual(ssl, { status: "active", method: "txt", type: "dv", bundle_method: "ubiquitous" });
      assert.equal(created.custom_metadata, undefined);

      const patched = await fx.api.content.customHostnames.update(
        { zoneId: zone.id, customHostnameId: created.id },
        { custom_metadata: { content_converter: "enabled" } },
      );
      assert.deepEqual(patched.custom_metadata, { content_converter: "enabled" });
      assert.deepEqual(
        await fx.api.content.customHostnames.get({ zoneId: zone.id, customHostnameId: created.id }),
        patched,
      );

      await fx.api.content.customHostnames.create({ zoneId: zone.id }, { hostname: "b.customer.net" });
      const all = await collect(fx.api.content.customHostnames.list({ zoneId: zone.id }));
      assert.deepEqual(
        all.map((h) => h.hostname),
        ["shop.customer.net", "b.customer.net"],
      );
      const one = await collect(
        fx.api.content.customHostnames.list({ zoneId: zone.id }, { hostname: "b.customer.net" }),
      );
      assert.equal(one.length, 1);

      const cleared = await fx.api.content.customHostnames.update(
        { zoneId: zone.id, customHostnameId: created.id },
        { custom_metadata: {} },
      );
      assert.equal(cleared.custom_metadata, undefined);

      assert.deepEqual(
        await fx.api.content.customHostnames.delete({ zoneId: zone.id, customHostnameId: created.id }),
        { id: created.id },
      );
      await assert.rejects(
        fx.api.content.customHostnames.get({ zoneId: zone.id, customHostnameId: created.id }),
        (e: unknown) =>
          e instanceof NotFoundError && e.message.includes(`custom hostname ${created.id} not found`),
      );
      await assert.rejects(
        fx.api.content.customHostnames.delete({ zoneId: zone.id, customHostnameId: created.id }),
        (e: unknown) => e instanceof NotFoundError,
      );
    });

    it("edits every field of the contract, each optional, and never shows a private key", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "saas.com" });
      const created = await fx.api.content.customHostnames.create(
        { zoneId: zone.id },
        {
          hostname: "app.customer.net",
          custom_origin_server: "origin.saas.com",
        },
      );
      assert.equal(created.custom_origin_server, "origin.saas.com");
      const same = await fx.api.content.customHostnames.update({
        zoneId: zone.id,
        customHostnameId: created.id,
      });
      assert.deepEqual(same, created, "an empty edit changes nothing");

      const ssl: CustomHostnameSslRequest = {
        bundle_method: "force",
        certificate_authority: "lets_encrypt",
        cloudflare_branding: false,
        custom_certificate: "-----BEGIN CERTIFICATE-----",
        custom_key: "-----BEGIN PRIVATE KEY-----",
        custom_csr_id: "csr-1",
        method: "email",
        settings: {
          ciphers: ["AES128-SHA"],
          early_hints: "on",
          http2: "off",
          min_tls_version: "1.2",
          tls_1_3: "on",
        },
        type: "dv",
        wildcard: true,
      };
      const edited = await fx.api.content.customHostnames.update(
        { zoneId: zone.id, customHostnameId: created.id },
        {
          ssl,
          custom_origin_sni: ":request_host_header:",
          custom_metadata: { plan: "gold" },
        },
      );
      const { custom_key: _key, ...shown } = ssl;
      const { id: sslId, status, ...rest } = edited.ssl ?? {};
      assert.deepEqual(rest, shown);
      assert.equal(status, "active");
      assert.notEqual(sslId, created.ssl?.id, "a new certificate");
      assert.equal(JSON.stringify(edited).includes("PRIVATE KEY"), false);
      assert.equal(edited.custom_origin_server, "origin.saas.com", "left out, kept");
      assert.equal(edited.custom_origin_sni, ":request_host_header:");
      assert.deepEqual(edited.custom_metadata, { plan: "gold" });

      const bundle = await fx.api.content.customHostnames.update(
        { zoneId: zone.id, customHostnameId: created.id },
        {
          ssl: {
            custom_cert_bundle: [
              { custom_certificate: "RSA", custom_key: "K1" },
              { custom_certificate: "EC", custom_key: "K2" },
            ],
          },
        },
      );
      assert.equal(JSON.stringify(bundle).includes("K1"), false);
      assert.equal(bundle.ssl?.method, "http");
    });

    it("refuses a hostname that exists already, in any zone", async () => {
      const a = await fx.api.content.zones.create({}, { name: "a.com" });
      const b = await fx.api.content.zones.create({}, { name: "b.com" });
      await fx.api.content.customHostnames.create({ zoneId: a.id }, { hostname: "x.customer.net" });
      await assert.rejects(
        fx.api.content.customHostnames.create({ zoneId: b.id }, { hostname: "x.customer.net" }),
        (e: unknown) =>
          e instanceof ConflictError &&
          e.apiCode === 1406 &&
          /custom hostname x\.customer\.net already exists/.test(e.message),
      );
    });

    it("answers 400 naming the field, and validates locally", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "saas.com" });
      const base = `/zones/${zone.id}/custom_hostnames`;
      assert400(
        await fx.http("POST", base, { body: { hostname: "-bad-.com" } }),
        /^hostname: must be a hostname/,
      );
      assert400(
        await fx.http("POST", base, {
          body: { hostname: "ok.com", custom_metadata: { content_converter: true } },
        }),
        "custom_metadata.content_converter: must be a string",
      );
      assert400(
        await fx.http("POST", base, { body: { hostname: "ok.com", ssl: { method: "dns" } } }),
        "ssl.method: must be one of http, txt, email",
      );
      const created = await fx.api.content.customHostnames.create(
        { zoneId: zone.id },
        { hostname: "ok.com" },
      );
      assert400(
        await fx.http("PATCH", `${base}/${created.id}`, { body: { custom_origin_sni: "not a host" } }),
        "custom_origin_sni: must be a hostname or :request_host_header:",
      );
      assert400(
        await fx.http("PATCH", `${base}/${created.id}`, { body: { ssl: { custom_certificate: "PEM" } } }),
        "ssl.custom_key: custom_certificate and custom_key go together",
      );
      assert400(
        await fx.http("PATCH", `${base}/${created.id}`, {
          body: { ssl: { custom_cert_bundle: [], settings: { min_tls_version: "1.4" } } },
        }),
        "ssl.custom_cert_bundle: must not be empty",
      );
      await assertLocal(
        () =>
          fx.api.content.customHostnames.update(
            { zoneId: zone.id, customHostnameId: created.id },
            { custom_metadata: { content_converter: 1 as unknown as string } },
          ),
        /updateCustomHostname: custom_metadata\.content_converter: must be a string/,
      );
      await assertLocal(
        () => fx.api.content.customHostnames.create({ zoneId: zone.id }, { hostname: "nodot" }),
        /createCustomHostname: hostname: must be a hostname/,
      );
    });
  });

  describe("authentication", () => {
    it("refuses a missing or unknown token with 401", async () => {
      const missing = await fx.http("GET", "/zones", { token: null });
      assert.equal(missing.status, 401);
      assert.equal((missing.json as Envelope).errors[0]!.message, "Authentication error");
      const wrong = fx.client({ token: "not-a-token" });
      await assert.rejects(
        wrong.content.zones.list().next(),
        (e: unknown) => e instanceof AuthenticationError && e.apiCode === 10000,
      );
    });

    it("requires the permission of each operation", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "p.com" });
      const reader = fx.client({ token: fx.token("account", ["zone:read"]) });
      assert.equal((await reader.content.zones.get({ zoneId: zone.id })).id, zone.id);
      assert.equal((await reader.content.contentConverter.get({ zoneId: zone.id })).value, "off");
      const denied = (e: unknown): boolean =>
        e instanceof PermissionDeniedError &&
        e.apiCode === 9109 &&
        /Unauthorized to access requested resource/.test(e.message);
      await assert.rejects(reader.content.zones.create({}, { name: "q.com" }), denied);
      await assert.rejects(reader.content.contentConverter.set({ zoneId: zone.id }, { value: "on" }), denied);
      await assert.rejects(reader.content.configRuleset.put({ zoneId: zone.id }, { rules: [] }), denied);
      await assert.rejects(
        reader.content.customHostnames.create({ zoneId: zone.id }, { hostname: "c.net" }),
        denied,
      );

      const settings = fx.client({ token: fx.token("account", ["zone:settings:edit"]) });
      assert.equal(
        (await settings.content.contentConverter.set({ zoneId: zone.id }, { value: "on" })).value,
        "on",
      );
      await assert.rejects(settings.content.zones.get({ zoneId: zone.id }), denied);
      const rules = fx.client({ token: fx.token("account", ["rulesets:edit"]) });
      assert.equal((await rules.content.configRuleset.put({ zoneId: zone.id }, { rules: [] })).version, "1");
      const hostnames = fx.client({ token: fx.token("account", ["custom_hostnames:edit"]) });
      assert.equal(
        (await hostnames.content.customHostnames.create({ zoneId: zone.id }, { hostname: "c.net" })).hostname,
        "c.net",
      );
      const zones = fx.client({ token: fx.token("account", ["zone:edit"]) });
      assert.equal((await zones.content.zones.create({}, { name: "q.com" })).name, "q.com");
    });

    it("refuses a token of another account with 403 and hides its zones from listings", async () => {
      const zone = await fx.api.content.zones.create({}, { name: "mine.com" });
      const other = fx.em.auth.add({
        scope: "account",
        permissions: ["*"] as never[],
        accountId: "other-account",
      }).value;
      const client = fx.client({ token: other, accountId: "other-account" });
      await assert.rejects(
        client.content.zones.get({ zoneId: zone.id }),
        (e: unknown) => e instanceof PermissionDeniedError && e.status === 403,
      );
      await assert.rejects(
        client.content.configRuleset.put({ zoneId: zone.id }, { rules: [] }),
        (e: unknown) => e instanceof PermissionDeniedError,
      );
      assert.deepEqual(await collect(client.content.zones.list()), []);
      const res = await fx.http("POST", "/zones", {
        body: { name: "theirs.com", account: { id: fx.em.accountId } },
        token: other,
      });
      assert.equal(res.status, 403);
    });
  });
});

describe("content area: a state file of an earlier emulator", () => {
  it("reads its one content_converter setting per zone as today's map of settings", async () => {
    const dir = mkdtempSync(join(tmpdir(), "content-state-"));
    const stateFile = join(dir, "state.json");
    const opts = { env: {}, stateFile, accountId: "acct", token: "tok" };
    const client = (url: string) =>
      new AccountApi({ baseUrl: url, token: "tok", accountId: "acct", retry: { maxRetries: 0 }, env: {} });
    try {
      let em = await startEmulator(opts);
      let api = client(em.url);
      const zone = await api.content.zones.create({}, { name: "legacy.com" });
      await api.close();
      await em.stop();
      // What an earlier emulator saved: `settings[zoneId]` was content_converter's `{ value, modified_on }`.
      const saved = JSON.parse(readFileSync(stateFile, "utf8")) as {
        areas: { content: { settings: Record<string, unknown> } };
      };
      saved.areas.content.settings[zone.id] = { value: "on", modified_on: "2025-12-31T00:00:00.000Z" };
      writeFileSync(stateFile, JSON.stringify(saved));

      em = await startEmulator(opts);
      api = client(em.url);
      const converter = await api.content.contentConverter.get({ zoneId: zone.id });
      assert.deepEqual([converter.value, converter.modified_on], ["on", "2025-12-31T00:00:00.000Z"]);
      assert.equal((await api.content.settings.get({ zoneId: zone.id, settingId: "brotli" })).value, "on");
      await api.content.settings.edit({ zoneId: zone.id, settingId: "polish" }, { value: "lossy" });
      assert.equal(
        (await api.content.contentConverter.get({ zoneId: zone.id })).value,
        "on",
        "kept beside others",
      );
      await api.close();
      await em.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
