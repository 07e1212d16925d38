/**
 * Conformance scenario of the content area: zone settings, the http_config_settings entrypoint and
 * custom hostnames (get, edit, delete). Each operation succeeds once with every request field set,
 * and answers its 4xx: 404 for a missing setting, entrypoint or hostname, 400 for a bad body (`raw`).
 * Zones and custom hostnames are made with the sdk's create calls, which the contract does not list.
 */
import type { AreaScenario, ConformanceKit } from "../kit";

async function expectRaw(kit: ConformanceKit, method: string, path: string, body: unknown, status: number) {
  const res = await kit.raw(method, path, body);
  if (res.status !== status)
    throw new Error(`${method} ${path}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
}

export const scenario: AreaScenario = {
  area: "content",
  async run(kit) {
    const { content } = kit.api;
    const zone = await content.zones.create({}, { name: "conformance.example.com" });
    const zoneId = zone.id;

    // ---- zone settings ----
    await content.contentConverter.get({ zoneId });
    await content.contentConverter.set({ zoneId }, { value: "on" });
    await content.settings.get({ zoneId, settingId: "content_converter" });
    // Both fields of the edit body at once: no catalogued setting takes both, so an id outside the
    // catalogue carries them (the sdk sends such an id as it is) and answers the 404.
    await kit.expectStatus(
      content.settings.edit({ zoneId, settingId: "no_such_setting" }, { value: "on", enabled: true }),
      404,
    );
    await kit.expectStatus(content.settings.get({ zoneId, settingId: "no_such_setting" }), 404);
    await expectRaw(kit, "PATCH", `/zones/${zoneId}/settings/content_converter`, { value: "maybe" }, 400);

    // ---- the entrypoint ----
    const entrypoint = `/zones/${zoneId}/rulesets/phases/http_config_settings/entrypoint`;
    await expectRaw(kit, "GET", entrypoint, undefined, 404);
    const first = await content.configRuleset.put(
      { zoneId },
      {
        name: "markdown",
        description: "conformance",
        rules: [
          {
            ref: "docs",
            expression: 'starts_with(http.request.uri.path, "/docs/")',
            action: "set_config",
            action_parameters: { content_converter: true, polish: "lossless", autominify: { css: true } },
            description: "docs as markdown",
            enabled: true,
            logging: { enabled: true },
            categories: ["docs"],
            exposed_credential_check: { username_expression: "http.host", password_expression: "http.host" },
            ratelimit: { characteristics: ["ip.src"], period: 60, requests_per_period: 100 },
          },
        ],
      },
    );
    const [rule] = first.rules;
    if (!rule) throw new Error("the entrypoint came back without its rule");
    // Every field the body takes: the ruleset's echoes of a read, and a rule sent back with its own.
    await content.configRuleset.put(
      { zoneId },
      {
        id: first.id,
        version: first.version,
        name: "markdown",
        description: "conformance, again",
        rules: [
          {
            id: rule.id,
            ref: "docs",
            version: rule.version,
            last_updated: rule.last_updated,
            expression: rule.expression,
            action: "set_config",
            action_parameters: { content_converter: false },
            description: "docs stay HTML",
            enabled: false,
            logging: { enabled: false },
            categories: ["docs", "html"],
            exposed_credential_check: { username_expression: "http.host", password_expression: "http.host" },
            ratelimit: {
              characteristics: ["ip.src", "cf.colo.id"],
              period: 10,
              counting_expression: "http.host",
              mitigation_timeout: 60,
              requests_per_period: 5,
              requests_to_origin: true,
              score_per_period: 1,
              score_response_header_name: "x-score",
            },
          },
        ],
      },
    );
    await content.configRuleset.get({ zoneId });
    await expectRaw(kit, "PUT", entrypoint, { rules: [{ expression: "", action: "rewrite" }] }, 400);

    // ---- custom hostnames ----
    const ch = await content.customHostnames.create({ zoneId }, { hostname: "shop.customer.example.net" });
    const chPath = `/zones/${zoneId}/custom_hostnames/${ch.id}`;
    await content.customHostnames.get({ zoneId, customHostnameId: ch.id });
    await content.customHostnames.update(
      { zoneId, customHostnameId: ch.id },
      {
        custom_metadata: { content_converter: "enabled", plan: "pro" },
        custom_origin_server: "origin.conformance.example.com",
        custom_origin_sni: ":request_host_header:",
        ssl: {
          bundle_method: "optimal",
          certificate_authority: "google",
          cloudflare_branding: false,
          custom_cert_bundle: [{ custom_certificate: "-----BEGIN CERTIFICATE-----", custom_key: "KEY" }],
          custom_certificate: "-----BEGIN CERTIFICATE-----",
          custom_csr_id: "7b163417-1d2b-4c84-a38a-2fb7a0cd7752",
          custom_key: "-----BEGIN PRIVATE KEY-----",
          method: "txt",
          settings: {
            ciphers: ["ECDHE-RSA-AES128-GCM-SHA256"],
            early_hints: "on",
            http2: "on",
            min_tls_version: "1.2",
            tls_1_3: "on",
          },
          type: "dv",
          wildcard: false,
        },
      },
    );
    await content.customHostnames.update({ zoneId, customHostnameId: ch.id });
    await expectRaw(kit, "PATCH", chPath, { ssl: { method: "dns" } }, 400);
    await content.customHostnames.delete({ zoneId, customHostnameId: ch.id });
    await kit.expectStatus(content.customHostnames.get({ zoneId, customHostnameId: ch.id }), 404);
    await kit.expectStatus(
      content.customHostnames.update({ zoneId, customHostnameId: ch.id }, { custom_metadata: {} }),
      404,
    );
    await kit.expectStatus(content.customHostnames.delete({ zoneId, customHostnameId: ch.id }), 404);
  },
};
