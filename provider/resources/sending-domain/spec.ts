/**
 * SendingDomain: a sending subdomain of a zone (`/zones/{zone_id}/email/sending/subdomains`), the
 * name mail may be sent from, with the DNS records it needs readable as an output (`dnsRecords`), so
 * a program can feed them to its DNS. The zone and the name are its identity (a change replaces,
 * deleting first: a zone holds a name once); the edit body's switches update in place with a PATCH.
 * The resource id is the subdomain's id (its `tag`); the import id is `<zoneId>/<subdomainId>`.
 */
import { z } from "zod";
import * as G from "../../../sdk/generated/email";
import { IdentifierSchema as ZoneIdSchema } from "../../../sdk/schemas/common";
import { defineResource, local, output } from "../../core/define";
import { contractInputs } from "../../core/from-contract";

const R = G.EmailSendingSubdomainsGetSendingSubdomainResult.shape;
const DnsRecord = G.EmailSendingSubdomainsGetSendingSubdomainDnsResult.element;

/** What the service holds for a switch left out at create. */
export const SENDING_DOMAIN_DEFAULTS = { preview_enabled: false, drop_suppressed_recipients: false };

export const SendingDomainSpec = defineResource({
  kind: "SendingDomain",
  idOutput: "subdomainId",
  deleteBeforeReplace: true,
  fields: {
    /** The zone the name lives in. */
    zoneId: local(
      z
        .string({ error: (iss) => (iss.input === undefined ? "required" : "must be a string") })
        .pipe(ZoneIdSchema),
      { identity: true },
    ),
    /** The name mail is sent from: the zone's name or a name under it (kept lower-case). */
    ...contractInputs(G.EmailSendingSubdomainsCreateSendingSubdomainBody.shape, {
      name: { flags: { identity: true } },
    }),
    // The edit body's switches, with the service's values when left out (so drift shows on each).
    ...contractInputs(G.EmailSendingSubdomainsEditBody.shape, {}, SENDING_DOMAIN_DEFAULTS),
    subdomainId: output("tag", R.tag),
    enabled: output("enabled", R.enabled),
    dkimSelector: output("dkim_selector", R.dkim_selector.unwrap()),
    returnPathDomain: output("return_path_domain", R.return_path_domain.unwrap()),
    created: output("created", R.created.unwrap()),
    modified: output("modified", R.modified.unwrap()),
    /** The state of its DNS records (`unconfigured` until they are in place, then `ready`). */
    dnsStatus: output(undefined, z.string()),
    /** The DNS records it needs: `{ type, name, content, ttl, priority? }` each. */
    dnsRecords: output(undefined, z.array(DnsRecord)),
  },
});
