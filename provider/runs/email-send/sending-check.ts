/**
 * What a send's check asks the account before anything is sent: that `from` is on a sending domain
 * (a sending subdomain of one of the account's zones, or a name under one) and that no recipient is
 * suppressed for the account or for the sender's domain. Each failure names the program's field.
 *
 * The public API shows sending domains only as the sending subdomains of zones: a zone that has
 * none has not been set up for sending through them (the emulator's sender domains of its control
 * API are such), so only a zone with at least one decides; a domain under no such zone is left to
 * the send, which answers for it (docs/assumptions.md, "Families (issue 26): email").
 */
import type { AccountApi } from "../../../sdk/account-api";
import { addressOf, addressesOf, domainOf, type Address } from "../../../sdk/schemas/email";
import type { InputIssue } from "../../core/pipeline";

/** The message's addresses as the program gives them (its camelCase fields). */
export interface SendAddresses {
  from: Address;
  to: Address | readonly Address[];
  cc?: Address | readonly Address[] | undefined;
  bcc?: Address | readonly Address[] | undefined;
}

/** `name` itself, then each parent: `a.b.example.com`, `b.example.com`, `example.com`, `com`. */
const selfAndParents = (name: string): string[] =>
  name.split(".").map((_, i, labels) => labels.slice(i).join("."));

/** The sending subdomains of each of the account's zones that has any, by zone name. */
async function sendingZones(api: AccountApi, accountId: string): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for await (const zone of api.content.zones.list({}, {})) {
    if (zone.account.id !== accountId) continue;
    const names = (await api.email.subdomains.list({ zoneId: zone.id })).map((s) => s.name.toLowerCase());
    if (names.length) out.set(zone.name.toLowerCase(), new Set(names));
  }
  return out;
}

/** Why `from`'s domain cannot send, or undefined where it can (or where no zone decides). */
export async function senderIssue(
  api: AccountApi,
  accountId: string,
  from: Address,
): Promise<InputIssue | undefined> {
  const domain = domainOf(addressOf(from));
  const zones = await sendingZones(api, accountId);
  const zone = selfAndParents(domain).find((name) => zones.has(name));
  if (zone === undefined) return undefined;
  const sending = zones.get(zone)!;
  if (selfAndParents(domain).some((name) => sending.has(name))) return undefined;
  return {
    field: "from",
    rule: `must be an address on a sending domain of the account: ${domain} is not one (zone ${zone} sends from ${[...sending].sort().join(", ")}); make it a SendingDomain first`,
  };
}

/** The field of each recipient: `to`, or `to.1` where the field is a list. */
function recipients(message: SendAddresses): { field: string; address: string }[] {
  return (["to", "cc", "bcc"] as const).flatMap((field) => {
    const value = message[field];
    if (value === undefined) return [];
    const list = addressesOf(value);
    return list.map((address, i) => ({ field: Array.isArray(value) ? `${field}.${i}` : field, address }));
  });
}

/** Each recipient suppressed for the whole account or for the sender's domain. */
export async function suppressedIssues(
  api: AccountApi,
  accountId: string,
  message: SendAddresses,
): Promise<InputIssue[]> {
  const senderDomains = new Set(selfAndParents(domainOf(addressOf(message.from))));
  const issues: InputIssue[] = [];
  for (const { field, address } of recipients(message)) {
    for await (const s of api.email.suppressions.list({ accountId }, { email: address })) {
      // The generated scope is an open union: a sending domain's scope carries its name in `value`.
      const domain = typeof s.scope?.value === "string" ? s.scope.value : undefined;
      const forAccount = s.scope === undefined || s.scope.type === "account";
      if (!forAccount && (domain === undefined || !senderDomains.has(domain.toLowerCase()))) continue;
      const where = forAccount ? "the account" : `the sending domain ${domain}`;
      issues.push({
        field,
        rule: `${address} is on the suppression list of ${where} (suppression ${s.id}): nothing would be delivered to it`,
      });
      break;
    }
  }
  return issues;
}
