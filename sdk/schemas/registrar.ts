/**
 * zod schemas of the registrar area (spec section E). Request schemas are strict and carry every
 * limit of the spec, and of public-api-notes where the spec says "not shown"; response schemas are
 * loose so fields the service adds later pass through.
 */
import { domainToASCII } from "node:url";
import { z } from "zod";
import { DateTimeSchema, noDefaults } from "./common";

// ---------------------------------------------------------------------------------------------
// Small builders so every message states the rule it enforces.

function requiredOr(rule: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : rule);
}

const str = (rule = "must be a string") => z.string({ error: requiredOr(rule) });
const bool = () => z.boolean({ error: requiredOr("must be true or false") });

/** A strict request object whose unknown keys are named in the message (typos are refused). */
function strict<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown field ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}: not part of the request`
        : requiredOr("must be an object")(issue),
  });
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: requiredOr(`must be one of ${values.map((v) => `"${v}"`).join(", ")}`) });
}

function maxLen(n: number) {
  return str().max(n, `must be at most ${n} characters`);
}

function requiredText(n?: number) {
  const s = str().min(1, "must not be empty");
  return n === undefined ? s : s.max(n, `must be at most ${n} characters`);
}

// ---------------------------------------------------------------------------------------------
// Domain names

/** One DNS label: letters, digits and inner hyphens, 1 to 63 characters. */
const LABEL = "(?!-)[a-z0-9-]{1,63}(?<!-)";
/** An extension: letters only, or an internationalized one in punycode. */
const EXTENSION = "(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})";
export const DOMAIN_NAME_PATTERN = new RegExp(`^(?:${LABEL}\\.)+${EXTENSION}$`);
export const DOMAIN_NAME_RULE =
  "must be a fully qualified domain name: labels of letters, digits and inner hyphens (1 to 63 characters), with an extension, at most 253 characters";

/**
 * The canonical form the API uses: lower case, internationalized labels in punycode, no trailing
 * dot. Returns the input lower-cased when it cannot be converted, so the pattern check then fails.
 */
export function normalizeDomainName(name: string): string {
  const trimmed = name.trim().toLowerCase().replace(/\.$/, "");
  const ascii = domainToASCII(trimmed);
  return ascii === "" ? trimmed : ascii;
}

export function isDomainName(name: string): boolean {
  return name.length <= 253 && DOMAIN_NAME_PATTERN.test(name);
}

/** A fully qualified name, normalized (lower case, punycode) before its syntax is checked. */
export const DomainNameSchema = str("must be a string (a domain name)")
  .transform(normalizeDomainName)
  .refine(isDomainName, DOMAIN_NAME_RULE);

/** The extension of a normalized domain name (`example.co` → `co`). */
export function extensionOf(domainName: string): string {
  return domainName.slice(domainName.lastIndexOf(".") + 1);
}

// ---------------------------------------------------------------------------------------------
// Search and check

/** Largest `limit` of a search; public-api-notes name the parameter but not its range (assumption). */
export const SEARCH_LIMIT_MAX = 50;
export const SEARCH_LIMIT_DEFAULT = 20;
/** Most names in one check request; not shown in the spec (assumption). */
export const CHECK_MAX_DOMAINS = 20;

export const ExtensionSchema = str('must be a string (an extension such as "com")')
  .transform((s) => s.trim().toLowerCase().replace(/^\./, ""))
  .refine(
    (s) => new RegExp(`^${EXTENSION}$`).test(s),
    'must be an extension such as "com" (letters, or punycode)',
  );

export const DomainSearchQuerySchema = strict({
  q: str().trim().min(1, "must not be empty").max(253, "must be at most 253 characters"),
  extensions: z
    .array(ExtensionSchema, { error: "must be a list of extensions" })
    .max(20, "must list at most 20 extensions")
    .optional(),
  limit: z
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, `must be between 1 and ${SEARCH_LIMIT_MAX}`)
    .max(SEARCH_LIMIT_MAX, `must be between 1 and ${SEARCH_LIMIT_MAX}`)
    .optional(),
});
export type DomainSearchQuery = z.input<typeof DomainSearchQuerySchema>;

/**
 * Check takes raw strings: the service answers what it can and may omit a malformed name (spec E,
 * check result), so syntax is not refused here, only emptiness and length.
 */
export const DomainCheckRequestSchema = strict({
  domains: z
    .array(requiredText(253), { error: requiredOr("must be a list of domain names") })
    .min(1, "must list at least 1 domain name")
    .max(CHECK_MAX_DOMAINS, `must list at most ${CHECK_MAX_DOMAINS} domain names`),
});
export type DomainCheckRequest = z.input<typeof DomainCheckRequestSchema>;

export const AVAILABILITY_REASONS = [
  "extension_not_supported_via_api",
  "extension_not_supported",
  "extension_disallows_registration",
  "domain_premium",
  "domain_unavailable",
] as const;
export type AvailabilityReason = (typeof AVAILABILITY_REASONS)[number];

export const TIERS = ["standard", "premium"] as const;
export type Tier = (typeof TIERS)[number];

/** A non-negative decimal amount as the API writes it ("10.44"): never parsed into a float. */
export const DecimalStringSchema = z.string().regex(/^\d+(\.\d+)?$/, "must be a non-negative decimal string");

export const PricingSchema = z.looseObject({
  currency: z.string(),
  registration_cost: DecimalStringSchema,
  renewal_cost: DecimalStringSchema,
});
export type Pricing = z.infer<typeof PricingSchema>;

export const DomainAvailabilitySchema = z.looseObject({
  name: z.string(),
  registrable: z.boolean(),
  pricing: PricingSchema.optional(),
  reason: z.enum(AVAILABILITY_REASONS).optional(),
  tier: z.enum(TIERS).optional(),
});
export type DomainAvailability = z.infer<typeof DomainAvailabilitySchema>;

export const DomainSearchResultSchema = z.looseObject({ domains: z.array(DomainAvailabilitySchema) });
export type DomainSearchResult = z.infer<typeof DomainSearchResultSchema>;
export const DomainCheckResultSchema = z.looseObject({ domains: z.array(DomainAvailabilitySchema) });
export type DomainCheckResult = z.infer<typeof DomainCheckResultSchema>;

// ---------------------------------------------------------------------------------------------
// Contacts (spec E, registrant_contact, and Limits: contact field lengths)

export const CONTACT_LIMITS = {
  country: 30,
  first_name: 60,
  last_name: 60,
  phone: 20,
  zip: 20,
  email: 90,
  id: 32,
} as const;

export const ContactSchema = strict({
  address: requiredText(),
  city: requiredText(),
  state: requiredText(),
  organization: requiredText(),
  phone: requiredText(CONTACT_LIMITS.phone),
  zip: requiredText(CONTACT_LIMITS.zip),
  country: requiredText(CONTACT_LIMITS.country),
  first_name: requiredText(CONTACT_LIMITS.first_name),
  last_name: requiredText(CONTACT_LIMITS.last_name),
  id: maxLen(CONTACT_LIMITS.id).optional(),
  address2: str().optional(),
  email: maxLen(CONTACT_LIMITS.email).optional(),
  fax: str().optional(),
});
export type Contact = z.infer<typeof ContactSchema>;

export const ContactResponseSchema = z.looseObject({
  address: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  organization: z.string().optional(),
  phone: z.string().optional(),
  zip: z.string().optional(),
  country: z.string().optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  id: z.string().optional(),
  address2: z.string().optional(),
  email: z.string().optional(),
  fax: z.string().optional(),
});

/** Contact roles of a registration; public-api-notes name `registrant` and "…" (roles beyond it assumed). */
export const ContactsSchema = strict({
  registrant: ContactSchema.optional(),
  admin: ContactSchema.optional(),
  technical: ContactSchema.optional(),
  billing: ContactSchema.optional(),
});
export type Contacts = z.infer<typeof ContactsSchema>;

// ---------------------------------------------------------------------------------------------
// Registrations

export const REGISTRATION_STATUSES = [
  "active",
  "registration_pending",
  "expired",
  "suspended",
  "redemption_period",
  "pending_delete",
] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

export const PRIVACY_MODES = ["off", "redaction"] as const;
export type PrivacyMode = (typeof PRIVACY_MODES)[number];

export const YEARS_MIN = 1;
export const YEARS_MAX = 10;
export const YearsSchema = z
  .number({ error: requiredOr("must be a number") })
  .int("must be a whole number")
  .min(YEARS_MIN, `must be between ${YEARS_MIN} and ${YEARS_MAX}`)
  .max(YEARS_MAX, `must be between ${YEARS_MIN} and ${YEARS_MAX}`);

/** One account holds at most this many domains (public-api-notes, Registrar). */
export const MAX_DOMAINS_PER_ACCOUNT = 500;

/** A registration's wire fields a program sets (public-api-notes), with the API's defaults. */
export const RegistrationFields = {
  domain_name: DomainNameSchema,
  /** Defaults to the extension's minimum, which only the server knows: no default here. */
  years: YearsSchema.optional(),
  auto_renew: bool().default(false),
  privacy_mode: oneOf(PRIVACY_MODES).default("redaction"),
  contacts: ContactsSchema.optional(),
  contact_extensions: z.record(z.string(), z.unknown(), { error: "must be an object" }).optional(),
  acknowledgements: z.record(z.string(), z.unknown(), { error: "must be an object" }).optional(),
};
const RegistrationSettable = noDefaults(RegistrationFields);

/** POST …/registrar/registrations: parsing fills `auto_renew: false` and `privacy_mode: "redaction"`. */
export const RegistrationCreateSchema = strict(RegistrationFields);
export type RegistrationCreate = z.input<typeof RegistrationCreateSchema>;

/** PATCH …/registrations/{domain_name}: only `auto_renew` can change (public-api-notes), so it is required. */
export const RegistrationUpdateSchema = strict({ auto_renew: RegistrationSettable.auto_renew });
export type RegistrationUpdate = z.infer<typeof RegistrationUpdateSchema>;

/** As returned; the name is the server's canonical form, so it is not normalized again. */
export const RegistrationSchema = z.looseObject({
  domain_name: z.string(),
  auto_renew: RegistrationSettable.auto_renew,
  created_at: DateTimeSchema,
  expires_at: DateTimeSchema.nullable(),
  locked: z.boolean(),
  privacy_mode: RegistrationSettable.privacy_mode,
  status: z.enum(REGISTRATION_STATUSES),
});
export type Registration = z.infer<typeof RegistrationSchema>;

export const RegistrationListSchema = z.array(RegistrationSchema);

/** Largest page of the registrations listing; not shown in the spec (assumption). */
export const REGISTRATIONS_PER_PAGE_MAX = 100;
export const REGISTRATIONS_PER_PAGE_DEFAULT = 20;

/** Sort keys of the registrations listing (public API; the spec does not show them). */
export const REGISTRATION_SORT_FIELDS = ["registry_created_at", "registry_expires_at", "name"] as const;
export type RegistrationSortField = (typeof REGISTRATION_SORT_FIELDS)[number];

export const RegistrationListQuerySchema = strict({
  cursor: str().optional(),
  sort_by: oneOf(REGISTRATION_SORT_FIELDS).optional(),
  direction: oneOf(["asc", "desc"]).optional(),
  per_page: z
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, `must be between 1 and ${REGISTRATIONS_PER_PAGE_MAX}`)
    .max(REGISTRATIONS_PER_PAGE_MAX, `must be between 1 and ${REGISTRATIONS_PER_PAGE_MAX}`)
    .optional(),
});

// ---------------------------------------------------------------------------------------------
// Workflows

export const WORKFLOW_STATES = [
  "pending",
  "in_progress",
  "action_required",
  "blocked",
  "succeeded",
  "failed",
] as const;
export type WorkflowState = (typeof WORKFLOW_STATES)[number];
export const TERMINAL_WORKFLOW_STATES: readonly WorkflowState[] = ["succeeded", "failed"];

export const WorkflowErrorSchema = z.looseObject({ code: z.string(), message: z.string() });
export type WorkflowError = z.infer<typeof WorkflowErrorSchema>;

export const WorkflowStatusSchema = z.looseObject({
  completed: z.boolean(),
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
  state: z.enum(WORKFLOW_STATES),
  links: z.looseObject({ self: z.string() }),
  context: z
    .looseObject({
      domain_name: z.string().optional(),
      action: z.string().optional(),
      registration: RegistrationSchema.optional(),
    })
    .optional(),
  error: WorkflowErrorSchema.optional(),
});
export type WorkflowStatus = z.infer<typeof WorkflowStatusSchema>;

export const WORKFLOW_KINDS = ["registration", "update"] as const;
export type WorkflowKind = (typeof WORKFLOW_KINDS)[number];

// ---------------------------------------------------------------------------------------------
// Deprecated domain endpoints (…/registrar/domains)

const TRANSFER_NEEDED_OK = ["needed", "ok"] as const;

export const TransferInSchema = z.looseObject({
  accept_foa: z.enum(TRANSFER_NEEDED_OK).optional(),
  approve_transfer: z.enum(["needed", "ok", "pending", "trying", "rejected", "unknown"]).optional(),
  can_cancel_transfer: z.boolean().optional(),
  disable_privacy: z.enum(["needed", "ok", "unknown"]).optional(),
  enter_auth_code: z.enum(["needed", "ok", "pending", "trying", "rejected"]).optional(),
  unlock_domain: z.enum(["needed", "ok", "pending", "trying", "unknown"]).optional(),
});

/** @deprecated The older domain model; use {@link RegistrationSchema}. */
export const DomainSchema = z.looseObject({
  id: z.string().max(32).optional(),
  available: z.boolean().optional(),
  can_register: z.boolean().optional(),
  created_at: DateTimeSchema.optional(),
  current_registrar: z.string().optional(),
  expires_at: DateTimeSchema.optional(),
  locked: z.boolean().optional(),
  registry_statuses: z.string().optional(),
  supported_tld: z.boolean().optional(),
  updated_at: DateTimeSchema.optional(),
  registrant_contact: ContactResponseSchema.optional(),
  transfer_in: TransferInSchema.optional(),
});
/** @deprecated The older domain model; use {@link Registration}. */
export type Domain = z.infer<typeof DomainSchema>;

/**
 * @deprecated PUT …/registrar/domains/{domain_name}. Its body is not shown in the spec; this is the
 * older public API's (auto_renew, locked, privacy), see docs/areas/registrar.md.
 */
export const DomainUpdateSchema = strict({
  auto_renew: bool().optional(),
  locked: bool().optional(),
  privacy: bool().optional(),
});
/** @deprecated */
export type DomainUpdate = z.infer<typeof DomainUpdateSchema>;

/** End of life of the deprecated domain endpoints (public-api-notes, Registrar). */
export const DEPRECATED_DOMAINS_SUNSET = "2026-09-27";
