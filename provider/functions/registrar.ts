/**
 * Registrar functions for programs: check a domain (authoritative), search for names (advisory),
 * quote a multi-year registration exactly, and list the supported extensions. They give camelCase
 * results and call the API on `up` only, except the extensions: a list that changes no more often
 * than the registrar's offer, answered on preview too so that a program can decide on it before
 * anything is made. The logic over a client is registrar-logic.ts.
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  runCheckDomain,
  runListExtensions,
  runQuoteDomain,
  runSearchDomains,
  type CheckDomainArgs,
  type DomainAvailabilityResult,
  type ExtensionResult,
  type ListExtensionsArgs,
  type QuoteDomainArgs,
  type QuoteResult,
  type SearchDomainsArgs,
} from "./registrar-logic";
import { onPreviewAndUp, onUp } from "./common";

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

/**
 * The extensions the registrar supports, by name, on preview as on `up` (a read of a list that
 * changes rarely). No prices: `quoteDomain` prices a name.
 */
export function listExtensions(
  args: pulumi.Input<ListExtensionsArgs> = {},
): pulumi.Output<ExtensionResult[]> {
  return onPreviewAndUp(args, runListExtensions);
}
