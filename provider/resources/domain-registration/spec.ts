/**
 * DomainRegistration: a domain registered in the account (spec E). The id is the domain name, its
 * natural key: a domain is registered at most once.
 *
 * - create asks the authoritative check first and refuses a premium or non-registrable domain with
 *   the reason; with `maxCost` it prices the given `years` exactly (rule 3) and refuses a registration
 *   above the guard or in another currency. It then registers and waits for the workflow. At
 *   `action_required` it stops, records the resource (a partial create: id and outputs, with the
 *   action to take in `pendingAction`) and says what to do; the next `up` continues waiting. A failed
 *   workflow registered nothing and is reported with its code and message, never retried.
 * - A domain already registered in the account is never registered again: create fails and says how
 *   to adopt it (`importId`, which must equal `domainName`).
 * - `autoRenew` updates in place through the update workflow (the registration's PATCH).
 *   `privacyMode` and `locked` update through the deprecated domain PUT (`privacy`, `locked`), the
 *   only operation that changes them; `locked` is managed only when the program sets it. `years`,
 *   `contacts`, `contactExtensions`, `acknowledgements` and `maxCost` apply to the registration
 *   itself: no operation reads or changes them later, so a change shows no diff.
 * - Drift: read projects the live `autoRenew`, `privacyMode` and `locked` onto the inputs and
 *   reports `status` and `expiresAt` (and a pending action) as outputs.
 * - Contacts take the contract's shape (`postalInfo`, roles `registrant`, `administrator`,
 *   `technical`, `billing`); the earlier shape is refused naming each new name, and a stored state
 *   in it is converted by the `upgrade` hook.
 * - delete leaves the domain registered (the API has no delete) and says so.
 */
import { z } from "zod";
import {
  DecimalStringSchema,
  RegistrationCreateSchema,
  REGISTRATION_STATUSES_READ,
  RegistrationSchema,
  YearsSchema,
  normalizeDomainName,
} from "../../../sdk/schemas/registrar";
import { defineResource, local, output, wire } from "../../core/define";
import { contractInputs } from "../../core/from-contract";

const R = RegistrationSchema.shape;

/** The most the registration may cost for `years`, in a currency (ISO 4217). */
export const MaxCostSchema = z.strictObject({
  /** A decimal string such as "25.00"; compared exactly, never as a float. */
  amount: DecimalStringSchema,
  currency: z.string().regex(/^[A-Z]{3}$/, "must be a three-letter ISO 4217 code such as USD"),
});

/** The price the check quoted when the domain was registered. */
export const PriceSchema = z.object({
  currency: z.string(),
  registrationCost: DecimalStringSchema,
  renewalCost: DecimalStringSchema,
  years: YearsSchema,
  /** registrationCost + (years − 1) × renewalCost, exact. */
  total: DecimalStringSchema,
});

export const DomainRegistrationSpec = defineResource({
  kind: "DomainRegistration",
  fields: {
    /** Must equal domainName: a registration's id is its domain name. */
    importId: local(z.string().min(1, "must not be empty").transform(normalizeDomainName).optional()),
    /**
     * Every field of the registration's create body, as the sdk takes it (the name normalized to
     * lower case and punycode, contacts of the earlier shape refused naming each new name), with the
     * contract's defaults (`autoRenew` false, `privacyMode` "redaction"). Only the exceptions are
     * written here.
     */
    ...contractInputs(RegistrationCreateSchema.shape, {
      /** Fully qualified, normalized to lower case and punycode. Changing it replaces. */
      domain_name: { flags: { identity: true } },
      /** 1 to 10; the service's default is the extension's minimum. Needed with `maxCost`. */
      years: { flags: { createOnly: true } },
      /** Set at registration; changed later through the deprecated domain PUT (`privacy`). */
      privacy_mode: {},
      // Its rules' messages name the program's fields (an older field is refused naming its new place).
      contacts: { flags: { createOnly: true }, renameInRules: true },
      // Keyed by the registry's own names: sent as given.
      contact_extensions: { flags: { createOnly: true }, asGiven: true },
      acknowledgements: { flags: { createOnly: true }, asGiven: true },
    }),
    /**
     * The transfer lock, through the deprecated domain PUT. Left out, it is not managed: the
     * registry's value is reported and never changed.
     */
    // Not a field of the create body: applied after it (hooks).
    locked: wire("locked", z.boolean({ error: "must be true or false" }).optional()),
    /** A guard on the registration's price: checked before registering, then ignored. */
    maxCost: local(MaxCostSchema.optional(), { createOnly: true }),
    status: output("status", z.enum(REGISTRATION_STATUSES_READ)),
    /** Whether the program sets `locked` (then up puts a changed lock back); the lock itself is `locked`. */
    lockManaged: output(undefined, z.boolean()),
    createdAt: output("created_at", R.created_at),
    /** The API's expires_at; absent (not null) while the registration is pending. */
    expiresAt: output(undefined, z.string()),
    /** What the user must do before the registration can go on (workflow state action_required). */
    pendingAction: output(undefined, z.string()),
    price: output(undefined, PriceSchema),
  },
});
