import { strict as assert } from "node:assert";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { keyOfUrn } from "../../provider/core/urn-key";
import { UNKNOWN } from "../../provider/core/values";
import {
  METADATA_EXPRESSION,
  asRequest,
  handler as rule,
  planRemoval,
  planUpsert,
  quote,
  ruleBody,
  ruleExpression,
  updateEntrypoint,
  type ConfigRuleInputs,
  type ConfigRuleOutputs,
  type EntrypointApi,
} from "../../provider/resources/config-rule";
import {
  handler as setting,
  rules as settingRules,
  type ZoneContentConverterInputs,
} from "../../provider/resources/zone-content-converter";
import type { HandlerContext } from "../../provider/types";
import type { ConfigRule as LiveRule, ConfigRuleRequest } from "../../sdk/content";
import { useEmulator } from "../helpers/emulator";
import { offlineContext as offline, providerContext } from "../helpers/provider-context";
import { SlotClaims } from "../../provider/slot-claims";
import { handlerFor } from "../../provider/registry";

const live = (ref: string, expression = `http.host eq "${ref}.com"`, on = true): LiveRule => ({
  id: `id-${ref}`,
  ref,
  version: "1",
  expression,
  action: "set_config",
  action_parameters: { content_converter: on },
  description: "",
  enabled: true,
  last_updated: "2026-01-01T00:00:00.000Z",
});

const foreignRule = (ref: string, expression: string): ConfigRuleRequest => ({
  ref,
  expression,
  action: "set_config",
  action_parameters: { content_converter: false },
  description: "made by hand",
});

describe("content resources: pure planning", () => {
  it("quotes string literals of the expression language", () => {
    assert.equal(quote('a"b\\c'), '"a\\"b\\\\c"');
  });

  describe("ruleExpression", () => {
    const table: [Partial<ConfigRuleInputs>, string][] = [
      [{ host: "Docs.Example.com" }, 'http.host eq "docs.example.com"'],
      [{ pathPrefix: "/docs/" }, 'starts_with(http.request.uri.path, "/docs/")'],
      [
        { customHostnameMetadata: true },
        'lookup_json_string(cf.hostname.metadata, "content_converter") eq "enabled"',
      ],
      [
        { host: "a.com", pathPrefix: '/say "hi"/' },
        'http.host eq "a.com" and starts_with(http.request.uri.path, "/say \\"hi\\"/")',
      ],
      [{ expression: 'http.host in {"a.com" "b.com"}' }, 'http.host in {"a.com" "b.com"}'],
    ];
    for (const [inputs, expected] of table) {
      it(`${JSON.stringify(inputs)} → ${expected}`, () => assert.equal(ruleExpression(inputs), expected));
    }
  });

  describe("ConfigRule check", () => {
    const ZONE = "z".repeat(32);
    const table: [Record<string, unknown>, string[]][] = [
      [{ zoneId: ZONE, host: "a.com" }, []],
      [{ zoneId: ZONE, pathPrefix: "/docs/", host: UNKNOWN }, []],
      [{ zoneId: ZONE, customHostnameMetadata: UNKNOWN, customHostnameIds: ["abc"] }, []],
      [
        { zoneId: ZONE },
        ["expression: one of host, pathPrefix, customHostnameMetadata or expression is required"],
      ],
      [
        { zoneId: ZONE, customHostnameMetadata: false },
        ["expression: one of host, pathPrefix, customHostnameMetadata or expression is required"],
      ],
      [{ host: "a.com" }, ["zoneId: required"]],
      [{ zoneId: "x".repeat(33), host: "a.com" }, ["zoneId: must be at most 32 characters"]],
      [
        { zoneId: ZONE, host: "not a host" },
        ["host: must be a hostname of at least two labels (letters, digits, inner hyphens; at most 253)"],
      ],
      [{ zoneId: ZONE, pathPrefix: "docs/" }, ['pathPrefix: must start with "/"']],
      [
        { zoneId: ZONE, host: "a.com", expression: 'http.host eq "b"' },
        ["expression: cannot be combined with host"],
      ],
      [
        { zoneId: ZONE, host: "a.com", customHostnameIds: ["abc"] },
        ["customHostnameIds: needs customHostnameMetadata: true (the rule must read the metadata it sets)"],
      ],
      [
        { zoneId: ZONE, customHostnameMetadata: true, customHostnameIds: ["a", "a"] },
        ["customHostnameIds: must not repeat an id"],
      ],
      [
        { zoneId: ZONE, customHostnameMetadata: true, customHostnameIds: ["a", "x".repeat(33)] },
        ["customHostnameIds.1: must be at most 32 characters"],
      ],
      [
        { zoneId: ZONE, host: "a.com", actionParameters: { contentConverter: "yes" } },
        ["actionParameters.contentConverter: must be a boolean"],
      ],
      [
        { zoneId: ZONE, host: "a.com", actionParameters: { polish: "jpeg", disableRum: false } },
        [
          "actionParameters.polish: must be one of off, lossless, lossy, webp",
          "actionParameters.disableRum: must be true (leave it out otherwise)",
        ],
      ],
      [
        { zoneId: ZONE, host: "a.com", actionParameters: {} },
        ["actionParameters: must set at least one configuration parameter"],
      ],
      [
        { zoneId: ZONE, host: "a.com", actionParameters: { contentConvertr: true } },
        ["actionParameters.contentConvertr: is not a known field"],
      ],
      [{ zoneId: ZONE, host: "a.com", logging: {} }, ["logging.enabled: is required"]],
      [{ zoneId: ZONE, host: "a.com", categories: [] }, ["categories: must not be empty"]],
      [
        { zoneId: ZONE, host: "a.com", ratelimit: { period: 10, burst: 5 } },
        ["ratelimit.characteristics: is required", "ratelimit.burst: is not a known field"],
      ],
      [
        { zoneId: ZONE, host: "a.com", exposedCredentialCheck: { usernameExpression: "" } },
        [
          "exposedCredentialCheck.usernameExpression: must not be empty",
          "exposedCredentialCheck.passwordExpression: is required",
        ],
      ],
      [
        { zoneId: ZONE, host: "a.com", contentConverter: false },
        [
          "contentConverter: was renamed to actionParameters.contentConverter (write actionParameters: { contentConverter: … })",
        ],
      ],
      [{ zoneId: ZONE, expression: "x".repeat(4097) }, ["expression: must be at most 4096 characters"]],
      [{ zoneId: ZONE, pathPrefix: `/${"x".repeat(4096)}` }, ["expression: must be at most 4096 characters"]],
      [{ zoneId: ZONE, host: "a.com", ref: "" }, ["ref: must not be empty"]],
      [{ zoneId: ZONE, host: "a.com", hostname: "typo" }, ["hostname: is not a known field"]],
      [
        { zoneId: "", host: "not a host", enabled: "no", hostname: "typo" },
        [
          "hostname: is not a known field",
          "zoneId: must not be empty",
          "host: must be a hostname of at least two labels (letters, digits, inner hyphens; at most 253)",
          "enabled: must be a boolean",
        ],
      ],
    ];
    for (const [news, reasons] of table) {
      it(`${JSON.stringify(news).slice(0, 90)} → ${reasons.length ? reasons.join("; ") : "ok"}, before any request`, async () => {
        const r = await rule.check(undefined, news, offline);
        assert.deepEqual((r.failures ?? []).map((f) => f.reason).sort(), [...reasons].sort());
      });
    }

    it("fills defaults and keeps a generated ref stable across checks", async () => {
      const first = (await rule.check(undefined, { zoneId: ZONE, host: "a.com" }, offline)).inputs!;
      assert.deepEqual(
        { ...first, ref: "" },
        {
          zoneId: ZONE,
          host: "a.com",
          actionParameters: { contentConverter: true },
          description: "",
          enabled: true,
          ref: "",
        },
      );
      assert.match(first.ref!, /^pulumi-[0-9a-f]{16}$/);
      const again = await rule.check(first, { zoneId: ZONE, host: "b.com" }, offline);
      assert.equal(again.inputs!.ref, first.ref);
      const given = await rule.check(first, { zoneId: ZONE, host: "b.com", ref: "mine" }, offline);
      assert.equal(given.inputs!.ref, "mine");
      const unknownRef = await rule.check(first, { zoneId: ZONE, host: "b.com", ref: UNKNOWN }, offline);
      assert.equal(unknownRef.inputs!.ref, UNKNOWN);
    });

    it("derives the ref from the URN a host passes: the same after the state is lost, never stored", async () => {
      const urn = "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/account-api:ConfigRule::docs";
      const news = { zoneId: ZONE, host: "a.com", __urn: urn };
      const first = (await rule.check(undefined, news, offline)).inputs!;
      assert.equal(first.ref, `pulumi-${keyOfUrn(urn)}`);
      assert.equal("__urn" in first, false);
      assert.equal((await rule.check(undefined, news, offline)).inputs!.ref, first.ref);
      const other = await rule.check(undefined, { ...news, __urn: `${urn}-2` }, offline);
      assert.notEqual(other.inputs!.ref, first.ref);
      // A ref stored by an earlier release (random) is kept: no replacement on upgrade.
      const stored = { ...first, ref: "pulumi-0123456789abcdef" };
      assert.equal((await rule.check(stored, news, offline)).inputs!.ref, stored.ref);
    });
  });

  describe("ZoneContentConverter check", () => {
    const Z = "z".repeat(32);
    const table: [Record<string, unknown>, string[]][] = [
      [{ zoneId: "z1" }, []],
      [{ zoneId: "z1", value: "off" }, []],
      [{ zoneId: UNKNOWN, importId: "z1", value: UNKNOWN }, []],
      [{ zoneId: "z1", value: "yes" }, ['value: must be "on" or "off"']],
      [{}, ["zoneId: required"]],
      [{ zoneId: 7 }, ["zoneId: must be a string"]],
      [{ zoneId: `${Z}z` }, ["zoneId: must be at most 32 characters"]],
      [{ zoneId: "z1", importId: "z2" }, ["importId: must equal zoneId (the setting's id is its zone's)"]],
      [{ zoneId: "z1", enabled: true }, ["enabled: is not a known field"]],
      [
        { zoneId: "", value: "yes", enabled: true },
        ["zoneId: must not be empty", 'value: must be "on" or "off"', "enabled: is not a known field"],
      ],
    ];
    for (const [news, reasons] of table) {
      it(`${JSON.stringify(news)} → ${reasons.join("; ") || "ok"}, before any request`, async () => {
        const r = await setting.check(undefined, news, offline);
        assert.deepEqual(
          (r.failures ?? []).map((f) => f.reason),
          reasons,
        );
      });
    }

    it("defaults the value to on, and takes the outputs it gave back as inputs", async () => {
      const r = await setting.check(undefined, { zoneId: "z1", editable: true, modifiedOn: null }, offline);
      assert.deepEqual(r, { inputs: { zoneId: "z1", value: "on" }, failures: [] });
    });

    it("importId names the zone: rules", () => {
      const known = () => true;
      assert.deepEqual(settingRules({ zoneId: "z1", value: "on", importId: "z1" }, known), []);
      assert.deepEqual(
        settingRules({ zoneId: "z1", value: "on", importId: "z2" }, (k) => k !== "zoneId"),
        [],
      );
    });

    it("replaces, deleting first, only when the zone or the account changes", async () => {
      const olds = { zoneId: "z1", value: "on" as const, editable: true, modifiedOn: null };
      const table: [Partial<ZoneContentConverterInputs>, { changes: boolean; replaces: string[] }][] = [
        [{}, { changes: false, replaces: [] }],
        [{ importId: "z1" }, { changes: false, replaces: [] }],
        [{ value: "off" }, { changes: true, replaces: [] }],
        [{ zoneId: "z2" }, { changes: true, replaces: ["zoneId"] }],
        [{ accountId: "other" }, { changes: true, replaces: ["accountId"] }],
      ];
      for (const [change, expected] of table) {
        const d = await setting.diff("z1", olds, { zoneId: "z1", value: "on", ...change }, offline);
        assert.deepEqual(d, { ...expected, deleteBeforeReplace: expected.replaces.length > 0 });
      }
    });
  });

  describe("planning the entrypoint", () => {
    const mine: ConfigRuleRequest = {
      ref: "mine",
      expression: 'http.host eq "mine.com"',
      action: "set_config",
      action_parameters: { content_converter: true },
      description: "",
      enabled: true,
    };

    it("builds its rule from the inputs", async () => {
      const ins = (
        await rule.check(
          undefined,
          {
            zoneId: "z",
            pathPrefix: "/d/",
            ref: "r",
            actionParameters: { contentConverter: false, rocketLoader: true, autominify: { css: true } },
            logging: { enabled: true },
            categories: ["docs"],
            exposedCredentialCheck: { usernameExpression: "u", passwordExpression: "p" },
            ratelimit: { characteristics: ["ip.src"], period: 60, requestsPerPeriod: 10 },
          },
          offline,
        )
      ).inputs!;
      assert.deepEqual(ruleBody(ins), {
        ref: "r",
        expression: 'starts_with(http.request.uri.path, "/d/")',
        action: "set_config",
        action_parameters: { content_converter: false, rocket_loader: true, autominify: { css: true } },
        description: "",
        enabled: true,
        logging: { enabled: true },
        categories: ["docs"],
        exposed_credential_check: { username_expression: "u", password_expression: "p" },
        ratelimit: { characteristics: ["ip.src"], period: 60, requests_per_period: 10 },
      });
    });

    it("appends its rule and writes every other rule back with its id and every parameter", () => {
      const polished: LiveRule = {
        ...live("b"),
        action_parameters: { content_converter: false, polish: "lossless" },
      };
      const planned = planUpsert([live("a"), polished], mine)!;
      assert.deepEqual(
        planned.map((r) => [r.id, r.ref]),
        [
          ["id-a", "a"],
          ["id-b", "b"],
          [undefined, "mine"],
        ],
      );
      assert.deepEqual(planned[1]!.action_parameters, { content_converter: false, polish: "lossless" });
    });

    it("writes a foreign rule back whole, fields the sdk does not type included", () => {
      const foreign: LiveRule = {
        ...live("f"),
        action_parameters: { content_converter: true, future_param: "x" },
        ratelimit: { characteristics: ["ip.src"], period: 10, future_field: 1 },
        logging: { enabled: true },
        categories: ["a"],
      };
      const [back] = planUpsert([foreign], mine)!;
      assert.deepEqual(back!.action_parameters, { content_converter: true, future_param: "x" });
      assert.deepEqual(back!.ratelimit, { characteristics: ["ip.src"], period: 10, future_field: 1 });
      assert.deepEqual(back!.logging, { enabled: true });
      assert.deepEqual(back!.categories, ["a"]);
      // and an own rule that already has every wanted field plans nothing
      const full = { ...mine, logging: { enabled: true }, categories: ["docs"] };
      assert.equal(
        planUpsert([{ ...live("mine", mine.expression), ...full, id: "id-mine" }], full),
        undefined,
      );
    });

    it("replaces its own rule in place, and plans nothing when it is already as wanted", () => {
      const current = [live("a"), live("mine", 'http.host eq "old.com"'), live("b")];
      const planned = planUpsert(current, mine)!;
      assert.equal(planned[1]!.id, "id-mine");
      assert.equal(planned[1]!.expression, 'http.host eq "mine.com"');
      assert.equal(planned.length, 3);
      assert.equal(planUpsert([live("a"), live("mine", 'http.host eq "mine.com"')], mine), undefined);
    });

    it("adopts a rule by id or ref, taking it over in place", () => {
      const planned = planUpsert([live("a"), live("hand")], mine, "id-hand")!;
      assert.deepEqual(planned[1], { ...mine, id: "id-hand" });
      assert.deepEqual(planUpsert([live("hand")], mine, "hand")![0], { ...mine, id: "id-hand" });
    });

    it("removes only its own rule", () => {
      assert.deepEqual(
        planRemoval([live("a"), live("mine"), live("b")], "mine")!.map((r) => r.ref),
        ["a", "b"],
      );
      assert.equal(planRemoval([live("a")], "mine"), undefined);
    });
  });

  it("diff: zone and ref replace; matcher and action changes update in place; importId never counts", async () => {
    const inputs = async (news: Record<string, unknown>): Promise<ConfigRuleInputs> =>
      (await rule.check(undefined, news, offline)).inputs!;
    const olds: ConfigRuleOutputs = {
      ...(await inputs({ zoneId: "z", host: "a.com", ref: "r" })),
      ruleId: "i",
      rulesetId: "s",
      ruleVersion: "1",
      lastUpdated: "t",
      ruleExpression: 'http.host eq "a.com"',
    };
    const same = await inputs({ zoneId: "z", host: "a.com", ref: "r", importId: "x" });
    assert.deepEqual(await rule.diff("z/r", olds, same, offline), {
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    const moved = await inputs({
      zoneId: "z",
      pathPrefix: "/d/",
      ref: "r",
      actionParameters: { contentConverter: false },
    });
    assert.deepEqual(await rule.diff("z/r", olds, moved, offline), {
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    assert.deepEqual((await rule.diff("z/r", olds, { ...same, zoneId: "y", ref: "q" }, offline)).replaces, [
      "zoneId",
      "ref",
    ]);
  });
});

describe("content resources against the emulator", () => {
  const fx = useEmulator();
  let ctx: HandlerContext;
  let logs: string[];
  let zoneId: string;

  beforeEach(async () => {
    logs = [];
    ctx = providerContext(fx, logs);
    zoneId = (await fx.api.content.zones.create({}, { name: "example.com" })).id;
  });

  const checked = async (
    news: Record<string, unknown>,
    olds?: ConfigRuleInputs,
  ): Promise<ConfigRuleInputs> => {
    // Each check a deployment of its own: the program's slot claims start empty.
    const r = await rule.check(olds, news, { ...ctx, claims: new SlotClaims() });
    assert.deepEqual(r.failures ?? [], []);
    return r.inputs!;
  };
  const refs = async (): Promise<string[]> =>
    ((await fx.api.content.configRuleset.get({ zoneId }))?.rules ?? []).map((r) => r.ref ?? "");

  it("refuses at check a second ConfigRule of the program with the same ref in the zone", async () => {
    const news = { zoneId, host: "a.example.com", ref: "docs" };
    assert.deepEqual((await rule.check(undefined, news, ctx)).failures, []);
    assert.deepEqual((await rule.check(undefined, news, ctx)).failures, [], "the same resource again");
    const other = await rule.check(undefined, { ...news, host: "b.example.com" }, ctx);
    assert.deepEqual(
      other.failures!.map((f) => f.reason),
      [`ref: another ConfigRule of this program also takes ref "docs" in zone ${zoneId}`],
    );
  });

  describe("ZoneContentConverter", () => {
    const inputs = async (news: Record<string, unknown>): Promise<ZoneContentConverterInputs> =>
      (await setting.check(undefined, news, ctx)).inputs!;

    it("turns the setting on, reads it back without drift, shows out-of-band drift, updates and turns off on delete", async () => {
      const ins = await inputs({ zoneId });
      assert.equal(ins.value, "on");
      const { id, outs } = await setting.create(ins, ctx);
      assert.equal(id, zoneId);
      assert.equal(outs.value, "on");
      assert.equal((await fx.api.content.contentConverter.get({ zoneId })).value, "on");

      const read = await setting.read(id, outs, ctx);
      assert.deepEqual(read!.inputs, ins);
      assert.deepEqual(read!.props, outs);

      await fx.api.content.contentConverter.set({ zoneId }, { value: "off" });
      const drifted = await setting.read(id, outs, ctx);
      assert.equal(drifted!.inputs.value, "off");
      assert.equal((await setting.diff(id, drifted!.props, ins, ctx)).changes, true);
      await setting.update(id, drifted!.props, ins, ctx);
      assert.equal((await fx.api.content.contentConverter.get({ zoneId })).value, "on");

      await setting.delete(id, outs, ctx);
      assert.equal((await fx.api.content.contentConverter.get({ zoneId })).value, "off");
      assert.deepEqual(logs, [
        `ZoneContentConverter: content_converter of zone ${zoneId} set off (a zone setting cannot be deleted)`,
      ]);
    });

    it("propagates a read error other than a 404", async () => {
      const { id, outs } = await setting.create(await inputs({ zoneId }), ctx);
      fx.em.faults.add({ method: "GET", path: "/settings/content_converter$", status: 500 });
      await assert.rejects(setting.read(id, outs, ctx), (e: Error) => e.name !== "NotFoundError");
      fx.em.faults.clear();
      assert.equal((await setting.read(id, outs, ctx))!.id, id);
    });

    it("treats a missing zone as gone on read and delete", async () => {
      const ghost = "0".repeat(32);
      const outs = { zoneId: ghost, value: "on" as const, editable: true, modifiedOn: null };
      assert.equal(await setting.read(ghost, outs, ctx), undefined);
      await setting.delete(ghost, outs, ctx);
      assert.deepEqual(logs, []);
    });

    it("adopts through importId and fails clearly when the zone is missing", async () => {
      const { id, outs } = await setting.create(
        await inputs({ zoneId, importId: zoneId, value: "off" }),
        ctx,
      );
      assert.equal(id, zoneId);
      assert.deepEqual([outs.value, outs.editable], ["off", true]);
      assert.equal((await fx.api.content.contentConverter.get({ zoneId })).value, "off");
      await setting.create(await inputs({ zoneId, importId: zoneId, value: "on" }), ctx);
      assert.equal(
        (await fx.api.content.contentConverter.get({ zoneId })).value,
        "on",
        "adoption applies the inputs",
      );
      const ghost = "0".repeat(32);
      await assert.rejects(
        setting.create(await inputs({ zoneId: ghost, importId: ghost }), ctx),
        /importId: zone 0{32} not found; nothing to adopt/,
      );
    });
  });

  describe("ConfigRule", () => {
    it("creates several rules of one zone in parallel and keeps every rule it does not own", async () => {
      // A rule made by hand that also sets a parameter this package does not model.
      const hand = foreignRule("hand", 'http.host eq "hand.example.com"');
      await fx.api.content.configRuleset.put(
        { zoneId },
        {
          rules: [{ ...hand, action_parameters: { ...hand.action_parameters, polish: "lossless" } }],
        },
      );
      const all = await Promise.all(
        ["a", "b", "c", "d", "e"].map(async (name) =>
          rule.create(await checked({ zoneId, host: `${name}.example.com`, ref: name }), ctx),
        ),
      );
      assert.deepEqual((await refs()).sort(), ["a", "b", "c", "d", "e", "hand"]);
      assert.deepEqual(
        all.map((r) => r.id),
        ["a", "b", "c", "d", "e"].map((n) => `${zoneId}/${n}`),
      );
      const kept = (await fx.api.content.configRuleset.get({ zoneId }))!.rules.find((r) => r.ref === "hand")!;
      assert.equal(kept.description, "made by hand");
      assert.equal(kept.version, "1", "the foreign rule was never changed");
      assert.deepEqual(kept.action_parameters, { ...hand.action_parameters, polish: "lossless" });

      await Promise.all(all.slice(0, 3).map(({ id, outs }) => rule.delete(id, outs, ctx)));
      assert.deepEqual((await refs()).sort(), ["d", "e", "hand"]);
    });

    it("reads without drift, shows an out-of-band change, and update restores it", async () => {
      const ins = await checked({ zoneId, pathPrefix: "/docs/", description: "docs" });
      const { id, outs } = await rule.create(ins, ctx);
      assert.equal(id, `${zoneId}/${ins.ref}`);
      assert.equal(outs.ruleExpression, 'starts_with(http.request.uri.path, "/docs/")');
      assert.match(String(outs.ruleId), /^[0-9a-f]{32}$/);
      assert.equal(outs.ruleVersion, "1");
      assert.equal(outs.rulesetId, (await fx.api.content.configRuleset.get({ zoneId }))!.id);
      const read = await rule.read(id, outs, ctx);
      assert.deepEqual(read!.inputs, ins);
      assert.deepEqual(read!.props, outs);
      assert.equal((await rule.diff(id, read!.props, ins, ctx)).changes, false);

      const rs = (await fx.api.content.configRuleset.get({ zoneId }))!;
      await fx.api.content.configRuleset.put(
        { zoneId },
        {
          rules: rs.rules.map((r) => ({
            ref: r.ref!,
            expression: 'starts_with(http.request.uri.path, "/blog/")',
            action: "set_config" as const,
            action_parameters: { content_converter: false, polish: "lossy" },
            description: "docs",
            logging: { enabled: true },
            categories: ["hand"],
          })),
        },
      );
      const drifted = (await rule.read(id, outs, ctx))!;
      assert.deepEqual(drifted.inputs, {
        zoneId,
        ref: ins.ref,
        expression: 'starts_with(http.request.uri.path, "/blog/")',
        actionParameters: { contentConverter: false, polish: "lossy" },
        description: "docs",
        enabled: true,
        logging: { enabled: true },
        categories: ["hand"],
      });
      assert.equal((await rule.diff(id, drifted.props, ins, ctx)).changes, true);
      const { outs: fixed } = await rule.update(id, drifted.props, ins, ctx);
      assert.equal(fixed.ruleExpression, 'starts_with(http.request.uri.path, "/docs/")');
      assert.equal(fixed.ruleId, outs.ruleId, "the rule kept its id");
      assert.equal(fixed.ruleVersion, "3");
      assert.deepEqual((await rule.read(id, fixed, ctx))!.inputs, ins);
      const restored = (await fx.api.content.configRuleset.get({ zoneId }))!.rules[0]!;
      assert.deepEqual(restored.action_parameters, { content_converter: true });
      assert.equal(restored.logging, undefined, "a field the program does not set is taken away again");
      assert.equal(restored.categories, undefined);
    });

    it("reads back every field it sets, with no drift, and shows a change to any of them", async () => {
      const ins = await checked({
        zoneId,
        host: "full.example.com",
        actionParameters: { contentConverter: true, rocketLoader: false, securityLevel: "high" },
        logging: { enabled: true },
        categories: ["docs", "markdown"],
        exposedCredentialCheck: { usernameExpression: "u", passwordExpression: "p" },
        ratelimit: { characteristics: ["ip.src"], period: 60, requestsPerPeriod: 100 },
        enabled: false,
      });
      const { id, outs } = await rule.create(ins, ctx);
      const read = (await rule.read(id, outs, ctx))!;
      assert.deepEqual(read.inputs, ins);
      assert.equal((await rule.diff(id, read.props, ins, ctx)).changes, false);
      const rs = (await fx.api.content.configRuleset.get({ zoneId }))!;
      const [mine] = rs.rules;
      await fx.api.content.configRuleset.put(
        { zoneId },
        {
          rules: [{ ...asRequest(mine!), ratelimit: { characteristics: ["ip.src"], period: 10 } }],
        },
      );
      const drifted = (await rule.read(id, outs, ctx))!;
      assert.deepEqual(drifted.inputs.ratelimit, { characteristics: ["ip.src"], period: 10 });
      assert.deepEqual((await rule.diff(id, drifted.props, ins, ctx)).changes, true);
    });

    it("upgrades a state of the earlier release (contentConverter) without a change or a replace", async () => {
      const ins = await checked({
        zoneId,
        pathPrefix: "/old/",
        actionParameters: { contentConverter: false },
      });
      const { id, outs } = await rule.create(ins, ctx);
      // What the earlier release stored: the parameter flat, no actionParameters. The runtime hands
      // stored state over untyped.
      const untyped = handlerFor("ConfigRule");
      const { actionParameters: _ap, ...rest } = outs;
      const stored: Record<string, unknown> = { ...rest, contentConverter: false };
      assert.deepEqual(await untyped.diff(id, stored, ins, ctx), {
        changes: false,
        replaces: [],
        deleteBeforeReplace: false,
      });
      const read = (await untyped.read(id, stored, ctx))!;
      assert.deepEqual(read.inputs, ins);
      assert.equal("contentConverter" in read.props, false);
      // the program of the earlier release is told the new name at check, before anything happens
      const old = await untyped.check(
        stored,
        { zoneId, pathPrefix: "/old/", contentConverter: false },
        offline,
      );
      assert.deepEqual(
        old.failures?.map((f) => f.reason),
        [
          "contentConverter: was renamed to actionParameters.contentConverter (write actionParameters: { contentConverter: … })",
        ],
      );
      // a changed value on top of an old state is an update in place
      const news = await checked({ zoneId, pathPrefix: "/old/", ref: ins.ref });
      const diff = await untyped.diff(id, stored, news, ctx);
      assert.deepEqual(diff, { changes: true, replaces: [], deleteBeforeReplace: false });
      await untyped.delete(id, stored, ctx);
      assert.deepEqual((await fx.api.content.configRuleset.get({ zoneId }))!.rules, []);
    });

    it("is gone on read when its rule, the entrypoint or the zone is gone; other failures propagate", async () => {
      const ins = await checked({ zoneId, host: "a.example.com" });
      const { id, outs } = await rule.create(ins, ctx);
      fx.em.faults.add({
        method: "GET",
        path: "/rulesets/phases/http_config_settings/entrypoint$",
        status: 500,
      });
      await assert.rejects(rule.read(id, outs, ctx), (e: Error) => e.name !== "NotFoundError");
      fx.em.faults.clear();
      assert.equal((await rule.read(id, outs, ctx))!.id, id);

      await fx.api.content.configRuleset.put({ zoneId }, { rules: [] });
      assert.equal(await rule.read(id, outs, ctx), undefined);
      const ghost = { ...outs, zoneId: "0".repeat(32) };
      assert.equal(await rule.read(`${ghost.zoneId}/${ghost.ref}`, ghost, ctx), undefined);
      await rule.delete(id, ghost, ctx);
    });

    it("refuses to take over an existing ref without importId, and adopts with it", async () => {
      await fx.api.content.configRuleset.put(
        { zoneId },
        { rules: [foreignRule("hand", 'http.host eq "old.example.com"')] },
      );
      const handId = (await fx.api.content.configRuleset.get({ zoneId }))!.rules[0]!.id;
      await assert.rejects(
        rule.create(await checked({ zoneId, host: "a.example.com", ref: "hand" }), ctx),
        new RegExp(
          `^ResourceInputError: ref: a config rule with ref "hand" in zone ${zoneId} already exists \\(${zoneId}/hand\\) with other settings \\([^)]*\\); set importId: "hand" to adopt it$`,
        ),
      );
      await assert.rejects(
        rule.create(await checked({ zoneId, host: "a.example.com", importId: "nope" }), ctx),
        /^ResourceInputError: importId: config rule nope not found; nothing to adopt$/,
      );
      const adopted = await rule.create(
        await checked({ zoneId, host: "a.example.com", ref: "managed", importId: handId }),
        ctx,
      );
      assert.equal(adopted.id, `${zoneId}/managed`);
      assert.equal(adopted.outs.ruleId, handId);
      assert.deepEqual(await refs(), ["managed"]);
      assert.equal(
        (
          await rule.diff(
            adopted.id,
            adopted.outs,
            (await rule.read(adopted.id, adopted.outs, ctx))!.inputs,
            ctx,
          )
        ).changes,
        false,
      );

      // by ref, or by the resource id the refusal names
      await fx.api.content.configRuleset.put(
        { zoneId },
        { rules: [foreignRule("hand", 'http.host eq "old.example.com"')] },
      );
      const byRef = await rule.create(
        await checked({ zoneId, host: "b.example.com", ref: "b", importId: "hand" }),
        ctx,
      );
      assert.deepEqual(await refs(), ["b"]);
      await rule.delete(byRef.id, byRef.outs, ctx);
      await fx.api.content.configRuleset.put(
        { zoneId },
        { rules: [foreignRule("hand", 'http.host eq "old.example.com"')] },
      );
      await rule.create(
        await checked({ zoneId, host: "c.example.com", ref: "c", importId: `${zoneId}/hand` }),
        ctx,
      );
      assert.deepEqual(await refs(), ["c"]);
    });

    it("opts custom hostnames in through metadata, keeping other keys, and takes it back on delete", async () => {
      const shop = await fx.api.content.customHostnames.create(
        { zoneId },
        { hostname: "shop.customer.net", custom_metadata: { tier: "gold" } },
      );
      const blog = await fx.api.content.customHostnames.create({ zoneId }, { hostname: "blog.customer.net" });
      const ins = await checked({
        zoneId,
        customHostnameMetadata: true,
        customHostnameIds: [shop.id, blog.id],
      });
      const { id, outs } = await rule.create(ins, ctx);
      assert.equal(outs.ruleExpression, METADATA_EXPRESSION);
      const meta = async (chid: string) =>
        (await fx.api.content.customHostnames.get({ zoneId, customHostnameId: chid })).custom_metadata;
      assert.deepEqual(await meta(shop.id), { tier: "gold", content_converter: "enabled" });
      assert.deepEqual(await meta(blog.id), { content_converter: "enabled" });
      assert.deepEqual((await rule.read(id, outs, ctx))!.inputs, ins);

      // drift: someone opts blog out; read shows it, update puts it back
      await fx.api.content.customHostnames.update(
        { zoneId, customHostnameId: blog.id },
        { custom_metadata: {} },
      );
      const drifted = (await rule.read(id, outs, ctx))!;
      assert.deepEqual(drifted.inputs.customHostnameIds, [shop.id]);
      await rule.update(id, drifted.props, ins, ctx);
      assert.deepEqual(await meta(blog.id), { content_converter: "enabled" });

      // dropping a hostname from the list opts it out
      const fewer = await checked(
        { zoneId, customHostnameMetadata: true, customHostnameIds: [shop.id] },
        ins,
      );
      const { outs: after } = await rule.update(id, outs, fewer, ctx);
      assert.equal(await meta(blog.id), undefined);

      await rule.delete(id, after, ctx);
      assert.deepEqual(await meta(shop.id), { tier: "gold" });
      assert.deepEqual(await refs(), []);
    });

    it("records the rule it made when opting a hostname in fails", async () => {
      const ins = await checked({
        zoneId,
        customHostnameMetadata: true,
        customHostnameIds: ["f".repeat(32)],
      });
      await assert.rejects(
        rule.create(ins, ctx),
        (e: Error & { id?: string; properties?: { ruleId?: string } }) => {
          assert.equal(e.name, "PartialCreateError");
          assert.equal(e.id, `${zoneId}/${ins.ref}`);
          assert.match(String(e.message), /^customHostnameIds: /);
          assert.ok(e.properties?.ruleId);
          return true;
        },
      );
      assert.deepEqual(await refs(), [ins.ref]);
    });

    const through = (api: EntrypointApi) => ({
      api: { content: { configRuleset: api } },
      serialize: ctx.serialize,
    });

    it("starts over, after a backoff, when the entrypoint changed between its read and its write", async () => {
      const real = fx.client();
      const other = fx.client();
      let reads = 0;
      const api: EntrypointApi = {
        get: async (p) => {
          if (++reads === 2) {
            // another writer lands between our read and our re-check
            await other.content.configRuleset.put(
              { zoneId },
              { rules: [foreignRule("hand", 'http.host eq "h.example.com"')] },
            );
          }
          return real.content.configRuleset.get(p);
        },
        put: (ids, p) => real.content.configRuleset.put(ids, p),
      };
      const ins = await checked({ zoneId, host: "a.example.com", ref: "mine" });
      const sleeps: number[] = [];
      const result = await updateEntrypoint(
        through(api),
        zoneId,
        (rules) => planUpsert(rules, ruleBody(ins)),
        {
          sleep: async (ms) => {
            sleeps.push(ms);
          },
          random: () => 0,
        },
      );
      assert.deepEqual(
        sleeps,
        [25, 100],
        "one more attempt after the first step of the backoff, then the pause before the write is verified",
      );
      assert.deepEqual(
        result!.rules.map((r) => r.ref),
        ["hand", "mine"],
      );
      assert.equal(result!.version, "2");
    });

    it("gives up with a clear error when the entrypoint never holds still, backing off more each time", async () => {
      const real = fx.client();
      let n = 0;
      const api: EntrypointApi = {
        get: async (p) => {
          await real.content.configRuleset.put(
            { zoneId },
            { rules: [foreignRule(`r${++n}`, 'http.host eq "x.example.com"')] },
          );
          return real.content.configRuleset.get(p);
        },
        put: () => assert.fail("never gets to write"),
      };
      const sleeps: number[] = [];
      await assert.rejects(
        updateEntrypoint(
          through(api),
          zoneId,
          (rules) => planUpsert(rules, foreignRule("mine", 'http.host eq "m.example.com"')),
          {
            maxAttempts: 3,
            sleep: async (ms) => {
              sleeps.push(ms);
            },
            random: () => 0.999,
          },
        ),
        new RegExp(
          `zone ${zoneId}: the http_config_settings entrypoint kept changing during 3 attempts; try again`,
        ),
      );
      assert.deepEqual(sleeps, [50, 100]);
    });

    it("makes the edge convert what the rule matches", async () => {
      const server: Server = createServer((_req, res) => {
        res.writeHead(200, { "content-type": "text/html" }).end("<h1>Hello</h1>");
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      try {
        await fx.http("PUT", `/__emulator/content/zones/${zoneId}/origin`, {
          body: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
        });
        await rule.create(await checked({ zoneId, pathPrefix: "/docs/" }), ctx);
        const docs = await fx.api.content.markdown.fetch(
          {},
          { url: `${fx.em.origin}/__edge/example.com/docs/x` },
        );
        assert.equal(docs.converted && docs.body, "# Hello");
        const other = await fx.api.content.markdown.fetch(
          {},
          { url: `${fx.em.origin}/__edge/example.com/blog/x` },
        );
        assert.equal(other.converted, false);
      } finally {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    });
  });
});
