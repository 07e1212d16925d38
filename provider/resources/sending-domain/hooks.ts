/**
 * What SendingDomain's description cannot say: the zone rides in the inputs (a read by id needs it),
 * the name is kept as the service keeps it (lower-case, no final dot), create takes only the name (a
 * PATCH follows where a switch is not the service's default), and the DNS records and their state
 * are a read of their own.
 *
 * Create is the POST alone: the service refuses a name the zone already holds (409), which leads to
 * the look-up by name, then to adoption when its switches are these inputs' (an earlier attempt's),
 * or to a refusal naming `importId`.
 */
import type { SendingSubdomain } from "../../../sdk/email";
import { toWire, type InputsOf } from "../../core/define";
import {
  orGone,
  type Checks,
  type InputIssue,
  type Known,
  type NaturalKey,
  type Reading,
  type Remote,
} from "../../core/pipeline";
import type { HandlerContext } from "../../types";
import { SENDING_DOMAIN_DEFAULTS, SendingDomainSpec } from "./spec";

type Spec = typeof SendingDomainSpec;
export type SendingDomainInputs = InputsOf<Spec>;

const DOMAIN_NAME = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;

/** The name as the service keeps it: trimmed, lower-case, without a final dot. */
export const nameOf = (raw: string): string => raw.trim().toLowerCase().replace(/\.$/, "");

export function normalize(i: SendingDomainInputs, known: Known): SendingDomainInputs {
  return known("name") && typeof i.name === "string" ? { ...i, name: nameOf(i.name) } : i;
}

export function rules(i: SendingDomainInputs, known: Known): InputIssue[] {
  if (known("name") && !DOMAIN_NAME.test(i.name))
    return [{ field: "name", rule: "must be a domain name (the zone's name or a name under it)" }];
  return [];
}

/** The PATCH body: the switches, every one (a PATCH of what the inputs say). */
function editBody(i: SendingDomainInputs): { preview_enabled: boolean; drop_suppressed_recipients: boolean } {
  const wire = toWire(SendingDomainSpec, i);
  return {
    preview_enabled: wire.preview_enabled === true,
    drop_suppressed_recipients: wire.drop_suppressed_recipients === true,
  };
}

const isDefault = (i: SendingDomainInputs): boolean => {
  const body = editBody(i);
  return (
    body.preview_enabled === SENDING_DOMAIN_DEFAULTS.preview_enabled &&
    body.drop_suppressed_recipients === SENDING_DOMAIN_DEFAULTS.drop_suppressed_recipients
  );
};

const edit = (id: string, i: SendingDomainInputs, ctx: HandlerContext): Promise<SendingSubdomain> =>
  ctx.api.email.subdomains.edit({ zoneId: i.zoneId, subdomainId: id }, editBody(i));

export const remote: Remote<Spec, SendingSubdomain> = {
  noun: "sending domain",
  idOf: (live) => live.tag,
  get: (id, state, ctx) => orGone(ctx.api.email.subdomains.get({ zoneId: state.zoneId, subdomainId: id })),
  async create(i, ctx) {
    const live = await ctx.api.email.subdomains.create({ zoneId: i.zoneId }, { name: i.name });
    return isDefault(i) ? live : edit(live.tag, i, ctx);
  },
  update: (id, i, _changed, _olds, ctx) => edit(id, i, ctx),
  async remove(id, state, ctx) {
    await ctx.api.email.subdomains.delete({ zoneId: state.zoneId, subdomainId: id });
  },
};

export const checks: Checks<Spec> = { normalize, rules };

export const key: NaturalKey<Spec, SendingSubdomain> = {
  keyField: "name",
  keyOf: (i) => `${i.name} in zone ${i.zoneId}`,
  async findByKey(i, ctx) {
    const all = await ctx.api.email.subdomains.list({ zoneId: i.zoneId });
    return all.find((s) => s.name === nameOf(i.name));
  },
};

export const reading: Reading<Spec, SendingSubdomain> = {
  /** The DNS records and their state: one read of `dns/status`, which answers both. */
  async outputs(live, i, ctx) {
    const status = await ctx.api.email.subdomains.dnsStatus({ zoneId: i.zoneId, subdomainId: live.tag });
    return { dnsStatus: status.status ?? "unknown", dnsRecords: status.records ?? [] };
  },
};
