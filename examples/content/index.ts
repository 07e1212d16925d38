/**
 * Markdown for agents on a zone: the content converter turned on for the whole zone, a path rule
 * that keeps account pages as HTML, and a rule for a SaaS zone that converts only for the custom
 * hostnames whose customers opted in (the program sets their metadata). Destroy removes the two rules,
 * the opt-in metadata, and turns the setting off (a zone setting cannot be deleted; the output says so).
 *
 * Run: `npx mocha tests/e2e/examples.test.ts` (after `npm run build`) runs it against the emulator.
 * In your own Pulumi project: import from `pulumi-account-api/provider` instead of `../../provider`,
 * pass your zone id and custom hostname ids instead of `seeded`, then `pulumi up`. On the real
 * account the zone and the custom hostname already exist; `seed` stands in for that.
 */
import type { RunningEmulator } from "../../emulator/server";
import { ConfigRule, ZoneContentConverter } from "../../provider";
import type { AccountApi } from "../../sdk";
import { collect } from "../../sdk/paging";

export interface Seeded {
  zoneId: string;
  zoneName: string;
  customHostnameId: string;
}

/** Finds or makes the zone and one customer's custom hostname (idempotent). */
export async function seed(
  api: AccountApi,
  em: Pick<RunningEmulator, "origin" | "accountId">,
): Promise<Seeded> {
  const zoneName = "saas.example.org";
  const hostname = "docs.customer-one.net";
  const zone =
    (await api.content.zones.find({}, { name: zoneName })) ??
    (await api.content.zones.create({ accountId: em.accountId }, { name: zoneName }));
  const [existing] = await collect(api.content.customHostnames.list({ zoneId: zone.id }, { hostname }));
  const custom =
    existing ??
    (await api.content.customHostnames.create(
      { zoneId: zone.id },
      { hostname, custom_metadata: { plan: "pro" } },
    ));
  return { zoneId: zone.id, zoneName, customHostnameId: custom.id };
}

export async function program(seeded: Seeded): Promise<Record<string, unknown>> {
  const converter = new ZoneContentConverter("saas-markdown", { zoneId: seeded.zoneId, value: "on" });

  const accountPages = new ConfigRule("account-pages-html", {
    zoneId: seeded.zoneId,
    pathPrefix: "/account/",
    actionParameters: { contentConverter: false },
    description: "account pages stay HTML",
  });

  // Opt-in per customer: the rule matches metadata, and the program sets it on the listed hostnames.
  const optedIn = new ConfigRule("customers-opted-in", {
    zoneId: seeded.zoneId,
    customHostnameMetadata: true,
    customHostnameIds: [seeded.customHostnameId],
    description: "customers who opted in to markdown",
  });

  return {
    converter: converter.value,
    accountPagesExpression: accountPages.ruleExpression,
    optedInExpression: optedIn.ruleExpression,
    optedInHostnames: optedIn.customHostnameIds,
  };
}
