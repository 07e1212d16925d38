/**
 * Registrar functions for programs: check a domain (authoritative), search for names (advisory), and
 * quote a multi-year registration exactly. They call the API on `up` only and give camelCase results.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AccountApi } from "../../sdk";
import { ValidationError } from "../../sdk/errors";
import type { DomainAvailability } from "../../sdk/registrar";
import { normalizeDomainName } from "../../sdk/schemas/registrar";
import { onUp } from "./common";

export interface DomainAvailabilityResult {
  name: string;
  registrable: boolean;
  pricing?: { currency: string; registrationCost: string; renewalCost: string };
  reason?: string;
  tier?: string;
}

export interface CheckDomainArgs {
  domainName: string;
  accountId?: string;
}

export interface SearchDomainsArgs {
  query: string;
  /** Extensions such as "com"; the service's defaults when left out. */
  extensions?: string[];
  limit?: number;
  accountId?: string;
}

export interface QuoteDomainArgs {
  domainName: string;
  years: number;
  accountId?: string;
}

export interface QuoteResult {
  domainName: string;
  years: number;
  currency: string;
  registrationCost: string;
  renewalCost: string;
  total: string;
}

export function toResult(d: DomainAvailability): DomainAvailabilityResult {
  return {
    name: d.name,
    registrable: d.registrable,
    ...(d.pricing
      ? {
          pricing: {
            currency: d.pricing.currency,
            registrationCost: d.pricing.registration_cost,
            renewalCost: d.pricing.renewal_cost,
          },
        }
      : {}),
    ...(d.reason ? { reason: d.reason } : {}),
    ...(d.tier ? { tier: d.tier } : {}),
  };
}

/** The check's answer for one name; a name the check leaves out (malformed) gives registrable false. */
export async function runCheckDomain(
  api: AccountApi,
  args: CheckDomainArgs,
): Promise<DomainAvailabilityResult> {
  // The check takes any string (it leaves a malformed one out), but no name at all is no question.
  if (args.domainName.trim() === "")
    throw new ValidationError("checkDomain", [{ field: "domainName", rule: "must not be empty" }]);
  const { domains } = await api.registrar.check({
    domains: [args.domainName],
    ...(args.accountId ? { accountId: args.accountId } : {}),
  });
  const wanted = normalizeDomainName(args.domainName);
  const entry = domains.find((d) => d.name === wanted) ?? domains[0];
  return entry ? toResult(entry) : { name: args.domainName, registrable: false };
}

export async function runSearchDomains(
  api: AccountApi,
  args: SearchDomainsArgs,
): Promise<DomainAvailabilityResult[]> {
  const { domains } = await api.registrar.search({
    q: args.query,
    ...(args.extensions ? { extensions: args.extensions } : {}),
    ...(args.limit !== undefined ? { limit: args.limit } : {}),
    ...(args.accountId ? { accountId: args.accountId } : {}),
  });
  return domains.map(toResult);
}

export async function runQuoteDomain(api: AccountApi, args: QuoteDomainArgs): Promise<QuoteResult> {
  const q = await api.registrar.quoteRegistration(args.domainName, args.years, {
    ...(args.accountId ? { accountId: args.accountId } : {}),
  });
  return {
    domainName: q.domain_name,
    years: q.years,
    currency: q.currency,
    registrationCost: q.registration_cost,
    renewalCost: q.renewal_cost,
    total: q.total,
  };
}

/** Authoritative availability and pricing of one domain (undefined on preview). */
export function checkDomain(
  args: pulumi.Input<CheckDomainArgs>,
): pulumi.Output<DomainAvailabilityResult | undefined> {
  return onUp(args, runCheckDomain);
}

/** Advisory search: may be stale; check a name before relying on it (undefined on preview). */
export function searchDomains(
  args: pulumi.Input<SearchDomainsArgs>,
): pulumi.Output<DomainAvailabilityResult[] | undefined> {
  return onUp(args, runSearchDomains);
}

/**
 * The exact price of registering for `years` (registration cost, then the renewal cost for each
 * further year). Fails with the reason for a premium or non-registrable domain (undefined on preview).
 */
export function quoteDomain(args: pulumi.Input<QuoteDomainArgs>): pulumi.Output<QuoteResult | undefined> {
  return onUp(args, runQuoteDomain);
}
