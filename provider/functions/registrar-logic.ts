/**
 * The logic of the registrar functions over an sdk client, in program naming: what `checkDomain` and
 * friends call on `up` (`listExtensions` on preview too), and what the native provider's invokes call. Loads neither Pulumi nor a client.
 */
import type { AccountApi } from "../../sdk";
import { collect } from "../../sdk/paging";
import { ValidationError } from "../../sdk/errors";
import type { DomainAvailability } from "../../sdk/registrar";
import { normalizeDomainName } from "../../sdk/schemas/registrar";

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

export interface ListExtensionsArgs {
  accountId?: string;
  /** A label ("acme"): each extension is priced for `<label>.<extension>` by the registrar's check. */
  pricedFor?: string;
}

/** A supported extension: `name` is what follows a registrable label ("co.uk"), `tld` its last label. */
export interface ExtensionResult {
  name: string;
  tld: string;
  /** With `pricedFor`: whether `<label>.<name>` can be registered, and at what price. */
  registrable?: boolean;
  pricing?: DomainAvailabilityResult["pricing"];
}

/** The registrar's check takes at most this many names at once (the contract's `maxItems`). */
const CHECK_BATCH = 20;

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
  const { domains } = await api.registrar.discovery.check(
    args.accountId ? { accountId: args.accountId } : {},
    { domains: [args.domainName] },
  );
  const wanted = normalizeDomainName(args.domainName);
  const entry = domains.find((d) => d.name === wanted) ?? domains[0];
  return entry ? toResult(entry) : { name: args.domainName, registrable: false };
}

export async function runSearchDomains(
  api: AccountApi,
  args: SearchDomainsArgs,
): Promise<DomainAvailabilityResult[]> {
  const { domains } = await api.registrar.discovery.search(
    args.accountId ? { accountId: args.accountId } : {},
    {
      q: args.query,
      ...(args.extensions ? { extensions: args.extensions } : {}),
      ...(args.limit !== undefined ? { limit: args.limit } : {}),
    },
  );
  return domains.map(toResult);
}

export async function runQuoteDomain(api: AccountApi, args: QuoteDomainArgs): Promise<QuoteResult> {
  const q = await api.registrar.registrations.quote(
    { domainName: args.domainName, ...(args.accountId ? { accountId: args.accountId } : {}) },
    { years: args.years },
  );
  return {
    domainName: q.domain_name,
    years: q.years,
    currency: q.currency,
    registrationCost: q.registration_cost,
    renewalCost: q.renewal_cost,
    total: q.total,
  };
}

/**
 * Every extension the registrar supports, by name (every cursor page). The API's entry has no price
 * (a price is a name's, premium names cost more): with `pricedFor`, each extension is priced for that
 * label by the authoritative check, 20 names a request.
 */
export async function runListExtensions(
  api: AccountApi,
  args: ListExtensionsArgs,
): Promise<ExtensionResult[]> {
  const ids = args.accountId ? { accountId: args.accountId } : {};
  const all = await collect(api.registrar.extensions.list(ids, { sort_by: "name" }));
  const out: ExtensionResult[] = all.map((e) => ({ name: e.metadata.name, tld: e.metadata.tld }));
  if (args.pricedFor === undefined) return out;
  const label = args.pricedFor.trim().toLowerCase();
  for (let at = 0; at < out.length; at += CHECK_BATCH) {
    const batch = out.slice(at, at + CHECK_BATCH);
    const { domains } = await api.registrar.discovery.check(ids, {
      domains: batch.map((e) => `${label}.${e.name}`),
    });
    for (const e of batch) {
      const found = domains.find((d) => d.name === `${label}.${e.name}`);
      if (!found) continue;
      const priced = toResult(found);
      e.registrable = priced.registrable;
      if (priced.pricing) e.pricing = priced.pricing;
    }
  }
  return out;
}
