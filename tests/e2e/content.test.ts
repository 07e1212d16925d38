/**
 * ZoneContentConverter and ConfigRule on the real engine: three rules of one zone created in parallel
 * beside a rule made by hand, custom-hostname metadata, out-of-band drift seen by refresh and
 * reconciled by up, destroy leaving the hand-made rule and the setting off, and adoption by importId.
 */
import { strict as assert } from "node:assert";
import { ConfigRule } from "../../provider/resources/config-rule";
import { ZoneContentConverter } from "../../provider/resources/zone-content-converter";
import type { AccountApi } from "../../sdk";
import { useE2E } from "./harness";

describe("content end to end (real engine)", function () {
  this.timeout(600_000);
  const e2e = useE2E("content");
  let api: AccountApi;
  let zoneId: string;
  let shopId: string;

  before(async () => {
    api = e2e.api;
    zoneId = (await api.content.zones.create({}, { name: "e2e.example.com" })).id;
    shopId = (
      await api.content.customHostnames.create(
        { zoneId },
        { hostname: "shop.customer.net", custom_metadata: { tier: "gold" } },
      )
    ).id;
  });

  const putHandRule = () =>
    api.content.configRuleset.put(
      { zoneId },
      {
        rules: [
          {
            ref: "hand",
            expression: 'http.host eq "hand.e2e.example.com"',
            action: "set_config",
            action_parameters: { content_converter: true },
            description: "made by hand",
          },
        ],
      },
    );
  const rules = async () => (await api.content.configRuleset.get({ zoneId }))?.rules ?? [];

  it("goes up in parallel, keeps foreign rules, reconciles drift and destroys", async () => {
    await putHandRule();
    const stack = await e2e.stack(async () => {
      const setting = new ZoneContentConverter("setting", { zoneId });
      const privateOff = new ConfigRule("private", {
        zoneId,
        pathPrefix: "/private/",
        actionParameters: { contentConverter: false },
        ref: "private",
      });
      const docs = new ConfigRule("docs", { zoneId, host: "docs.e2e.example.com", ref: "docs" });
      const saas = new ConfigRule("saas", {
        zoneId,
        customHostnameMetadata: true,
        customHostnameIds: [shopId],
        ref: "saas",
      });
      return {
        value: setting.value,
        docsExpr: docs.ruleExpression,
        saasRule: saas.ruleId,
        privateRef: privateOff.ref,
      };
    });

    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    assert.equal(up.summary.resourceChanges?.create, 5);
    assert.equal(up.outputs.value?.value, "on");
    assert.equal(up.outputs.docsExpr?.value, 'http.host eq "docs.e2e.example.com"');
    assert.deepEqual((await rules()).map((r) => r.ref).sort(), ["docs", "hand", "private", "saas"]);
    assert.equal((await api.content.contentConverter.get({ zoneId })).value, "on");
    const shop = await api.content.customHostnames.get({ zoneId, customHostnameId: shopId });
    assert.deepEqual(shop.custom_metadata, { tier: "gold", content_converter: "enabled" });

    await stack.preview({ expectNoChanges: true });

    // out of band: the setting off, the docs rule pointed elsewhere, the private rule given logging and
    // another parameter, the hostname opted out
    await api.content.contentConverter.set({ zoneId }, { value: "off" });
    await api.content.configRuleset.put(
      { zoneId },
      {
        rules: (await rules()).map((r) => ({
          id: r.id,
          expression: r.ref === "docs" ? 'http.host eq "elsewhere.e2e.example.com"' : r.expression,
          action: "set_config" as const,
          action_parameters: {
            content_converter: r.action_parameters!.content_converter === true,
            ...(r.ref === "private" ? { polish: "lossy" as const } : {}),
          },
          description: r.description ?? "",
          ...(r.ref === "private" ? { logging: { enabled: true } } : {}),
        })),
      },
    );
    await api.content.customHostnames.update(
      { zoneId, customHostnameId: shopId },
      { custom_metadata: { tier: "gold" } },
    );

    const refresh = await stack.refresh();
    assert.ok(
      (refresh.summary.resourceChanges?.update ?? 0) >= 4,
      JSON.stringify(refresh.summary.resourceChanges),
    );

    const fix = await stack.up();
    assert.equal(fix.summary.resourceChanges?.update, 4);
    const privateRule = (await rules()).find((r) => r.ref === "private")!;
    assert.deepEqual(privateRule.action_parameters, { content_converter: false });
    assert.equal(privateRule.logging, undefined, "up took the out-of-band logging away again");
    assert.equal((await api.content.contentConverter.get({ zoneId })).value, "on");
    const docs = (await rules()).find((r) => r.ref === "docs")!;
    assert.equal(docs.expression, 'http.host eq "docs.e2e.example.com"');
    assert.equal(
      (await api.content.customHostnames.get({ zoneId, customHostnameId: shopId })).custom_metadata
        ?.content_converter,
      "enabled",
    );
    assert.ok(
      (await rules()).some((r) => r.ref === "hand"),
      "the hand-made rule survived",
    );

    await stack.preview({ expectNoChanges: true });

    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
    assert.deepEqual(
      (await rules()).map((r) => r.ref),
      ["hand"],
    );
    assert.equal((await api.content.contentConverter.get({ zoneId })).value, "off");
    assert.deepEqual(
      (await api.content.customHostnames.get({ zoneId, customHostnameId: shopId })).custom_metadata,
      {
        tier: "gold",
      },
    );
    assert.ok(
      stack.output.some((l) => l.includes("set off (a zone setting cannot be deleted)")),
      "the destroy output says the setting was turned off",
    );
  });

  it("refuses the earlier input name at preview, naming the new one", async () => {
    const stack = await e2e.stack(async () => {
      // A program written for the earlier release (a JavaScript program would not see the type).
      const earlier: Record<string, unknown> = { contentConverter: false };
      new ConfigRule("earlier", { zoneId, pathPrefix: "/old/", ...earlier });
      return {};
    });
    await assert.rejects(stack.preview(), (e: Error) =>
      /contentConverter: was renamed to actionParameters\.contentConverter/.test(e.message),
    );
    assert.deepEqual(
      (await rules()).filter((r) => r.ref !== "hand").map((r) => r.ref),
      [],
      "nothing was written",
    );
  });

  it("adopts an existing rule and the setting through importId", async () => {
    await putHandRule();
    const handId = (await rules()).find((r) => r.ref === "hand")!.id;
    const stack = await e2e.stack(async () => {
      const rule = new ConfigRule("adopted", {
        zoneId,
        importId: handId,
        ref: "managed",
        pathPrefix: "/docs/",
        description: "managed now",
      });
      const setting = new ZoneContentConverter("setting", { zoneId, importId: zoneId, value: "off" });
      return { ruleId: rule.ruleId, value: setting.value };
    });
    const up = await stack.up();
    assert.equal(up.outputs.ruleId?.value, handId);
    const adopted = (await rules()).find((r) => r.id === handId)!;
    assert.equal(adopted.ref, "managed");
    assert.equal(adopted.expression, 'starts_with(http.request.uri.path, "/docs/")');
    await stack.preview({ expectNoChanges: true });
    await stack.destroy();
    assert.deepEqual(await rules(), []);
  });
});
