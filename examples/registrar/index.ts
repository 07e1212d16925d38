/**
 * Registrar: register a domain for two years behind a price guard (`maxCost`: the update fails,
 * registering nothing, if the exact price is higher), with auto-renew, WHOIS redaction and the
 * transfer lock, and ask the authoritative check whether the `.dev` of the same name is still free
 * and at what price.
 * Destroy leaves the domain registered (a registration cannot be deleted; the output says so).
 *
 * Run: `npx mocha tests/e2e/examples.test.ts` (after `npm run build`) runs it against the emulator.
 * In your own Pulumi project: import from `pulumi-account-api/provider` instead of `../../provider`,
 * `pulumi config set domainName your-name.com` and set the registrant in the code, then `pulumi up`.
 * Registering costs money on the real account: run `pulumi preview` first. Nothing needs seeding.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RunningEmulator } from "../../emulator/server";
import { DomainRegistration, checkDomain } from "../../provider";
import type { AccountApi } from "../../sdk";

export interface Seeded {
  domainName: string;
}

export async function seed(
  _api: AccountApi,
  _em: Pick<RunningEmulator, "origin" | "accountId">,
): Promise<Seeded> {
  return { domainName: "acme-launch.com" };
}

export async function program(seeded: Seeded): Promise<Record<string, unknown>> {
  const config = new pulumi.Config();
  const domainName = config.get("domainName") ?? seeded.domainName;

  const site = new DomainRegistration("launch-site", {
    domainName,
    years: 2,
    maxCost: { amount: config.get("maxCostUsd") ?? "25.00", currency: "USD" },
    autoRenew: true,
    privacyMode: "redaction",
    contacts: {
      registrant: {
        email: "grace@launch.example",
        phone: "+44.2079460000",
        postalInfo: {
          name: "Grace Hopper", // the complete name in one string
          organization: "Launch Ltd",
          address: {
            street: "221 Baker Street",
            city: "London",
            state: "LND",
            postalCode: "NW1 6XE",
            countryCode: "GB",
          },
        },
      },
    },
    // The transfer lock, kept on (left out, the registry's value is reported and never changed).
    locked: true,
  });

  // Advisory for a later decision: the check is authoritative but registers nothing.
  const sibling = checkDomain({ domainName: domainName.replace(/\.[^.]+$/, ".dev") });

  return {
    domain: site.domainName,
    status: site.status,
    expiresAt: site.expiresAt,
    pricePaid: site.price.apply((p) => (p ? `${p.total} ${p.currency}` : undefined)),
    devRegistrable: sibling.apply((c) => c?.registrable),
    devRegistrationCost: sibling.apply((c) => c?.pricing?.registrationCost),
  };
}
