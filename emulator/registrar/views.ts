/** JSON bodies of the registrar area, rendered from the state model's records and the clock. */
import { createHash } from "node:crypto";
import { iso } from "../clock";
import type {
  Contact,
  Domain,
  LegacyContact,
  Registration,
  WorkflowStatus,
} from "../../sdk/schemas/registrar";
import type { RegistrationView } from "./state";
import { currentStep, defaultError, isTerminal, type WorkflowRecord } from "./workflow";

export function renderRegistration(v: RegistrationView): Registration {
  return {
    domain_name: v.record.domain_name,
    auto_renew: v.auto_renew,
    created_at: iso(v.record.created_at),
    expires_at: v.expires_at === null ? null : iso(v.expires_at),
    locked: v.record.locked,
    privacy_mode: v.record.privacy_mode,
    status: v.status,
  };
}

/** `self`: the workflow's status address to poll; `resource`: the registration it is about. */
export function workflowLinks(
  origin: string,
  accountId: string,
  w: Pick<WorkflowRecord, "kind" | "domain_name">,
): { self: string; resource: string } {
  const resource =
    `${origin}/client/v4/accounts/${encodeURIComponent(accountId)}/registrar/registrations/` +
    encodeURIComponent(w.domain_name);
  const leaf = w.kind === "registration" ? "registration-status" : "update-status";
  return { self: `${resource}/${leaf}`, resource };
}

export function renderWorkflow(
  w: WorkflowRecord,
  now: number,
  links: { self: string; resource: string },
  registration: () => RegistrationView | undefined,
): WorkflowStatus {
  const step = currentStep(w, now);
  const reg = w.kind === "registration" && step.state === "succeeded" ? registration() : undefined;
  return {
    completed: isTerminal(step.state),
    created_at: iso(w.created_at),
    updated_at: iso(Math.max(step.at, w.created_at)),
    state: step.state,
    links,
    context: {
      domain_name: w.domain_name,
      ...(step.state === "action_required" && w.action ? { action: w.action } : {}),
      ...(reg ? { registration: renderRegistration(reg) } : {}),
    },
    ...(step.state === "failed" ? { error: w.error ?? defaultError(w.kind, w.domain_name) } : {}),
  };
}

/** A stable 32-character id for the deprecated model (its `id` is at most 32 characters). */
export function domainId(domainName: string): string {
  return createHash("sha256").update(domainName).digest("hex").slice(0, 32);
}

/**
 * The deprecated Domain model answered from a registration. `name` is not among the spec's fields
 * but without it a listing cannot be told apart; it passes through loose response schemas.
 */
export function renderDomain(v: RegistrationView): Domain & { name: string } {
  const r = v.record;
  return {
    id: domainId(r.domain_name),
    name: r.domain_name,
    available: false,
    can_register: false,
    created_at: iso(r.created_at),
    current_registrar: "Emulated Registrar",
    ...(v.expires_at === null ? {} : { expires_at: iso(v.expires_at) }),
    locked: r.locked,
    registry_statuses: r.locked ? "clientTransferProhibited" : "ok",
    supported_tld: true,
    updated_at: iso(r.updated_at),
    ...registrantContact(r.contacts?.registrant, r.registrant),
    transfer_in: {
      accept_foa: "ok",
      approve_transfer: "ok",
      can_cancel_transfer: false,
      disable_privacy: "ok",
      enter_auth_code: "ok",
      unlock_domain: "ok",
    },
  };
}

/**
 * The deprecated model's `registrant_contact` from a registration's registrant: the name splits at
 * its last space (first name, last name; one word is a first name), the street is the address line.
 * The older model requires `organization`: an empty string where the registrant has none.
 */
function registrantContact(
  registrant: Contact | undefined,
  legacy: LegacyContact | undefined,
): { registrant_contact?: LegacyContact } {
  if (!registrant) return legacy ? { registrant_contact: legacy } : {};
  const { name, organization, address } = registrant.postal_info;
  const cut = name.trim().lastIndexOf(" ");
  return {
    registrant_contact: {
      first_name: cut > 0 ? name.trim().slice(0, cut) : name.trim(),
      last_name: cut > 0 ? name.trim().slice(cut + 1) : null,
      organization: organization ?? "",
      address: address.street,
      city: address.city,
      state: address.state,
      zip: address.postal_code,
      country: address.country_code,
      phone: registrant.phone,
      email: registrant.email,
      ...(registrant.fax !== undefined ? { fax: registrant.fax } : {}),
    },
  };
}
