/**
 * The registrar's supported extensions at check: a registration on an extension it does not
 * support is refused at preview, before any request of the registration's own. The list is read
 * once per client and account for the provider process (it changes no more often than the
 * registrar's offer), so a program of many registrations pays one listing.
 */
import type { AccountApi } from "../../../sdk";
import { ApiError } from "../../../sdk/errors";
import { collect } from "../../../sdk/paging";
import type { InputIssue } from "../../core/pipeline";
import type { HandlerContext } from "../../types";

/** How many supported extensions a refusal names before "and N more". */
const NAMED_IN_REFUSAL = 6;

/** Per client, per account: the names, or undefined when the listing cannot be read (see below). */
const listings = new WeakMap<AccountApi, Map<string, Promise<readonly string[] | undefined>>>();

/**
 * The supported extensions' names. A listing refused for lack of permission (403) or not served
 * (404) leaves the extension to the create's authoritative check: undefined, said once in the log.
 */
async function fetchNames(ctx: HandlerContext, accountId: string): Promise<readonly string[] | undefined> {
  try {
    const all = await collect(ctx.api.registrar.extensions.list({ accountId }));
    // An empty list tells nothing of the registrar's offer: no refusal rests on it.
    return all.length > 0 ? all.map((e) => e.metadata.name.toLowerCase()) : undefined;
  } catch (e) {
    if (!(e instanceof ApiError) || (e.status !== 403 && e.status !== 404)) throw e;
    ctx.log(
      `DomainRegistration: the registrar's extensions cannot be listed (HTTP ${e.status}); ` +
        "a domain's extension is checked when it is registered instead",
    );
    return undefined;
  }
}

export function supportedExtensions(
  ctx: HandlerContext,
  accountId: string,
): Promise<readonly string[] | undefined> {
  const api = ctx.api;
  const byAccount = listings.get(api) ?? new Map<string, Promise<readonly string[] | undefined>>();
  listings.set(api, byAccount);
  const known = byAccount.get(accountId);
  if (known) return known;
  const reading = fetchNames(ctx, accountId);
  byAccount.set(accountId, reading);
  // A failed read is not kept: the next check asks again.
  reading.catch(() => byAccount.delete(accountId));
  return reading;
}

/**
 * Why a registration of `domainName` cannot be on a supported extension, or undefined. Lenient: any
 * ending after its first label that is a supported extension passes ("shop.co.uk" on "co.uk" or on
 * "uk"); the create's check still decides the name itself.
 */
export function unsupportedExtension(
  domainName: string,
  supported: readonly string[],
): InputIssue | undefined {
  const labels = domainName.split(".");
  const endings = labels.slice(1).map((_, i) => labels.slice(i + 1).join("."));
  if (endings.some((e) => supported.includes(e))) return undefined;
  const named = [...supported].sort().slice(0, NAMED_IN_REFUSAL).join(", ");
  const more = supported.length > NAMED_IN_REFUSAL ? ` and ${supported.length - NAMED_IN_REFUSAL} more` : "";
  return {
    field: "domainName",
    rule:
      `${domainName}: must be on an extension the registrar supports; "${endings[0] ?? domainName}" is not one ` +
      `(supported: ${named}${more}; listExtensions lists them)`,
  };
}
