/**
 * Registrar functions for programs: check a domain (authoritative), search for names (advisory), and
 * quote a multi-year registration exactly. They call the API on `up` only and give camelCase results;
 * the logic over a client is registrar-logic.ts.
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  runCheckDomain,
  runQuoteDomain,
  runSearchDomains,
  type CheckDomainArgs,
  type DomainAvailabilityResult,
  type QuoteDomainArgs,
  type QuoteResult,
  type SearchDomainsArgs,
} from "./registrar-logic";
import { onUp } from "./common";

export * from "./registrar-logic";

/** Authoritative availability and pricing of one domain (unknown on preview). */
export function checkDomain(
  args: pulumi.Input<CheckDomainArgs>,
): pulumi.Output<DomainAvailabilityResult | undefined> {
  return onUp(args, runCheckDomain);
}

/** Advisory search: may be stale; check a name before relying on it (unknown on preview). */
export function searchDomains(
  args: pulumi.Input<SearchDomainsArgs>,
): pulumi.Output<DomainAvailabilityResult[] | undefined> {
  return onUp(args, runSearchDomains);
}

/**
 * The exact price of registering for `years` (registration cost, then the renewal cost for each
 * further year). Fails with the reason for a premium or non-registrable domain (unknown on preview).
 */
export function quoteDomain(args: pulumi.Input<QuoteDomainArgs>): pulumi.Output<QuoteResult | undefined> {
  return onUp(args, runQuoteDomain);
}
