/**
 * Stored states of the release before contacts took the contract's shape: each contact was the
 * deprecated domain contact (`firstName`, `lastName`, `address`, `zip`, …), one role was `admin`,
 * and `locked` was an output only. They are converted here so that such a stack goes up with this release without a replace (a
 * registration cannot be undone) and without a diff once the program says the same in the new shape.
 */
import { LEGACY_CONTACT_ROLES } from "../../../sdk/schemas/registrar";
import { isRecord } from "../../core/values";

const text = (v: unknown): string | undefined =>
  typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;

/** Joins the parts that are there with `sep`; undefined when none is. */
function joined(parts: unknown[], sep: string): string | undefined {
  const present = parts.map(text).filter((p): p is string => p !== undefined);
  return present.length > 0 ? present.join(sep) : undefined;
}

/** An earlier contact has its address as a string at the top; today's has `postalInfo`. */
function isEarlierContact(c: Record<string, unknown>): boolean {
  return !("postalInfo" in c) && ["firstName", "lastName", "address", "zip", "country"].some((k) => k in c);
}

/**
 * One contact in today's shape. The name is `firstName lastName` (the API takes the complete name in
 * one string); the street is `address, address2`; `zip` and `country` become `postalCode` and
 * `countryCode`; `id` has no place and is dropped. Fields the earlier contact lacked stay absent.
 */
export function upgradeContact(c: Record<string, unknown>): Record<string, unknown> {
  if (!isEarlierContact(c)) return c;
  const some = <T>(key: string, value: T | undefined) => (value === undefined ? {} : { [key]: value });
  const address = {
    ...some("street", joined([c.address, c.address2], ", ")),
    ...some("city", text(c.city)),
    ...some("state", text(c.state)),
    ...some("postalCode", text(c.zip)),
    ...some("countryCode", text(c.country)),
  };
  return {
    ...some("email", text(c.email)),
    ...some("phone", text(c.phone)),
    ...some("fax", text(c.fax)),
    postalInfo: {
      ...some("name", joined([c.firstName, c.lastName], " ")),
      ...some("organization", text(c.organization)),
      address,
    },
  };
}

/** Every role in today's shape, `admin` as `administrator` (unless both were somehow stored). */
export function upgradeContactsValue(contacts: unknown): unknown {
  if (!isRecord(contacts)) return contacts;
  const out: Record<string, unknown> = {};
  for (const [role, contact] of Object.entries(contacts)) {
    const now = LEGACY_CONTACT_ROLES.get(role) ?? role;
    if (now !== role && now in contacts) continue;
    out[now] = isRecord(contact) ? upgradeContact(contact) : contact;
  }
  return out;
}

/** A stored state whose contacts are of the earlier shape, in today's. */
export function upgradeContacts(state: Record<string, unknown>): Record<string, unknown> {
  if (!("contacts" in state)) return state;
  return { ...state, contacts: upgradeContactsValue(state.contacts) };
}

/**
 * The `upgrade` hook: contacts in today's shape, and a state without `lockManaged` (the earlier
 * release, whose `locked` was only an output) marked as not managing the lock.
 */
export function upgradeState(state: Record<string, unknown>): Record<string, unknown> {
  const upgraded = upgradeContacts(state);
  return "lockManaged" in upgraded ? upgraded : { ...upgraded, lockManaged: false };
}
