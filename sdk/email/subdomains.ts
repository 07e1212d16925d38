/**
 * Sending subdomains of a zone (`/zones/{zone_id}/email/sending/subdomains`): the names mail may be
 * sent from, each with the DNS records it needs (`dns`), their state (`dnsStatus`) and the fix that
 * makes them (`fixDns`); `preview` says what a create would need without making anything.
 */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import * as G from "../generated/email";
import { IdentifierSchema as ZoneIdSchema } from "../schemas/common";
import { validate } from "../validate";

/** The ids of a zone's subdomain collection. */
export interface SubdomainZoneIds {
  zoneId: string;
}

/** The ids of one sending subdomain (`subdomainId` is its `tag`). */
export interface SubdomainIds extends SubdomainZoneIds {
  subdomainId: string;
}

/** A sending subdomain as every operation answers it (the edit's result names its two switches too). */
export const SendingSubdomainSchema = G.EmailSendingSubdomainsEditResult;
export type SendingSubdomain = z.infer<typeof SendingSubdomainSchema>;
export type SubdomainDnsRecord = z.infer<typeof G.EmailSendingSubdomainsGetSendingSubdomainDnsResult>[number];
export type SubdomainDnsStatus = z.infer<typeof G.EmailSendingSubdomainsGetSendingSubdomainDnsStatusResult>;
export type CreateSubdomainBody = z.input<typeof G.EmailSendingSubdomainsCreateSendingSubdomainBody>;
export type EditSubdomainBody = z.input<typeof G.EmailSendingSubdomainsEditBody>;

const ZoneIds = z.object({ zoneId: ZoneIdSchema });
const OneIds = ZoneIds.extend({
  subdomainId: G.EmailSendingSubdomainsGetSendingSubdomainPath.shape.subdomain_id,
});
const ListOfSubdomains = z.array(SendingSubdomainSchema);

export class Subdomains {
  constructor(readonly client: ApiClient) {}

  #collection(ids: SubdomainZoneIds, what: string): string {
    const { zoneId } = validate(ZoneIds, { zoneId: ids.zoneId }, what);
    return path`/zones/${zoneId}/email/sending/subdomains`;
  }

  #one(ids: SubdomainIds, what: string): string {
    const { zoneId, subdomainId } = validate(
      OneIds,
      { zoneId: ids.zoneId, subdomainId: ids.subdomainId },
      what,
    );
    return path`/zones/${zoneId}/email/sending/subdomains/${subdomainId}`;
  }

  /** The zone's sending subdomains (one answer: the contract pages nothing). */
  async list(
    ids: SubdomainZoneIds,
    _params: object = {},
    options: CallOptions = {},
  ): Promise<SendingSubdomain[]> {
    return this.client.request({
      method: "GET",
      path: this.#collection(ids, "email.subdomains.list"),
      schema: ListOfSubdomains,
      ...options,
    });
  }

  /** Makes a sending subdomain (the zone's name or a name under it). Not retried: a 409 if it exists. */
  async create(
    ids: SubdomainZoneIds,
    params: CreateSubdomainBody,
    options: CallOptions = {},
  ): Promise<SendingSubdomain> {
    const body = validate(
      G.EmailSendingSubdomainsCreateSendingSubdomainBody,
      params,
      "email.subdomains.create",
    );
    return this.client.request({
      method: "POST",
      path: this.#collection(ids, "email.subdomains.create"),
      body,
      schema: SendingSubdomainSchema,
      idempotent: false,
      ...options,
    });
  }

  /** The records a subdomain named `name` would need, each missing; nothing is made. */
  async preview(
    ids: SubdomainZoneIds,
    params: CreateSubdomainBody,
    options: CallOptions = {},
  ): Promise<SubdomainDnsStatus> {
    const body = validate(
      G.EmailSendingSubdomainsPreviewSendingSubdomainBody,
      params,
      "email.subdomains.preview",
    );
    return this.client.request({
      method: "POST",
      path: this.#collection(ids, "email.subdomains.preview") + "/preview",
      body,
      schema: G.EmailSendingSubdomainsPreviewSendingSubdomainResult,
      idempotent: true,
      ...options,
    });
  }

  async get(ids: SubdomainIds, _params: object = {}, options: CallOptions = {}): Promise<SendingSubdomain> {
    return this.client.request({
      method: "GET",
      path: this.#one(ids, "email.subdomains.get"),
      schema: SendingSubdomainSchema,
      ...options,
    });
  }

  /** Sets the subdomain's switches (`preview_enabled`, `drop_suppressed_recipients`). */
  async edit(
    ids: SubdomainIds,
    params: EditSubdomainBody,
    options: CallOptions = {},
  ): Promise<SendingSubdomain> {
    const body = validate(G.EmailSendingSubdomainsEditBody, params, "email.subdomains.edit");
    return this.client.request({
      method: "PATCH",
      path: this.#one(ids, "email.subdomains.edit"),
      body,
      schema: SendingSubdomainSchema,
      ...options,
    });
  }

  async delete(ids: SubdomainIds, _params: object = {}, options: CallOptions = {}): Promise<void> {
    await this.client.request({
      method: "DELETE",
      path: this.#one(ids, "email.subdomains.delete"),
      schema: z.unknown(),
      ...options,
    });
  }

  /** The DNS records the subdomain needs (type, name, content, ttl, priority). */
  async dns(
    ids: SubdomainIds,
    _params: object = {},
    options: CallOptions = {},
  ): Promise<SubdomainDnsRecord[]> {
    return this.client.request({
      method: "GET",
      path: this.#one(ids, "email.subdomains.dns") + "/dns",
      schema: G.EmailSendingSubdomainsGetSendingSubdomainDnsResult,
      ...options,
    });
  }

  /** Whether those records are in place: `status` and, per record missing or wrong, an error. */
  async dnsStatus(
    ids: SubdomainIds,
    _params: object = {},
    options: CallOptions = {},
  ): Promise<SubdomainDnsStatus> {
    return this.client.request({
      method: "GET",
      path: this.#one(ids, "email.subdomains.dnsStatus") + "/dns/status",
      schema: G.EmailSendingSubdomainsGetSendingSubdomainDnsStatusResult,
      ...options,
    });
  }

  /** Makes the records the subdomain needs in its zone, and answers their status. */
  async fixDns(
    ids: SubdomainIds,
    _params: object = {},
    options: CallOptions = {},
  ): Promise<SubdomainDnsStatus> {
    return this.client.request({
      method: "POST",
      path: this.#one(ids, "email.subdomains.fixDns") + "/dns",
      schema: G.EmailSendingSubdomainsFixSendingSubdomainDnsResult,
      idempotent: true,
      ...options,
    });
  }
}
