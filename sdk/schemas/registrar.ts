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
        ? // Each key is named as the field; listing them all here would repeat the list once per key.
          `unknown field${issue.keys.length === 1 ? ` ${JSON.stringify(issue.keys[0])}` : ""}: not part of the request`
        : requiredOr("must be an object")(issue),
  });
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: requiredOr(`must be one of ${values.map((v) => `"${v}"`).join(", ")}`) });
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

/** Range and default of a search's `limit` (the contract's query parameter). */
export const SEARCH_LIMIT_MAX = 50;
export const SEARCH_LIMIT_DEFAULT = 20;
/** Longest search term (the contract's `q`). */
export const SEARCH_QUERY_MAX = 100;
/** Most extensions in one search, and most names in one check (the contract). */
export const SEARCH_EXTENSIONS_MAX = 20;
export const CHECK_MAX_DOMAINS = 20;

export const ExtensionSchema = str('must be a string (an extension such as "com")')
  .transform((s) => s.trim().toLowerCase().replace(/^\./, ""))
  .refine(
    (s) => new RegExp(`^${EXTENSION}$`).test(s),
    'must be an extension such as "com" (letters, or punycode)',
  );

export const DomainSearchQuerySchema = strict({
  q: str()
    .trim()
    .min(1, "must not be empty")
    .max(SEARCH_QUERY_MAX, `must be at most ${SEARCH_QUERY_MAX} characters`),
  extensions: z
    .array(ExtensionSchema, { error: "must be a list of extensions" })
    .max(SEARCH_EXTENSIONS_MAX, `must list at most ${SEARCH_EXTENSIONS_MAX} extensions`)
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
 * check result), so no name is refused here, only the size of the list (the contract's 1 to 20).
 */
export const DomainCheckRequestSchema = strict({
  domains: z
    .array(str("must be a string (a domain name)"), { error: requiredOr("must be a list of domain names") })
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
// Contacts of a registration (the contract's create body: `contacts.registrant`, and the roles the
// service's newer examples add). The deprecated domain contact (`first_name`, `address`, `zip`, …)
// is only ever read, in the deprecated Domain model below.

/** The roles a registration takes a contact for; `registrant` is the one every extension needs. */
export const CONTACT_ROLES = ["registrant", "administrator", "technical", "billing"] as const;
export type ContactRole = (typeof CONTACT_ROLES)[number];

export const ContactAddressSchema = strict({
  /** Street address including building or suite number, in one string. */
  street: str(),
  city: str(),
  /** State, province or region. */
  state: str(),
  postal_code: str(),
  /** ISO 3166-1 alpha-2 by the service's documentation; the contract leaves it a string. */
  country_code: str(),
});

export const PostalInfoSchema = strict({
  /** The complete name in one string (the API takes no separate first and last name). */
  name: str(),
  organization: str().optional(),
  address: ContactAddressSchema,
});

export const ContactSchema = strict({
  email: z.email({ error: requiredOr("must be an email address") }),
  /** E.164 with a dot (`+1.5555550100`) by the service's documentation; the contract leaves it a string. */
  phone: str(),
  fax: str().optional(),
  postal_info: PostalInfoSchema,
});
export type Contact = z.infer<typeof ContactSchema>;

/**
 * Where each field of the deprecated domain contact went (a path under the role), or why it went:
 * a body of the older shape is refused naming each field's new place, never as a bare unknown field.
 */
const LEGACY_CONTACT_FIELDS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    first_name: "now {role}.postal_info.name (first and last name in one string)",
    last_name: "now {role}.postal_info.name (first and last name in one string)",
    organization: "now {role}.postal_info.organization",
    address: "now {role}.postal_info.address.street",
    address2: "now part of {role}.postal_info.address.street",
    city: "now {role}.postal_info.address.city",
    state: "now {role}.postal_info.address.state",
    zip: "now {role}.postal_info.address.postal_code",
    country: "now {role}.postal_info.address.country_code",
    id: "no longer taken: a registration's contact has no id",
  }),
);

/** Roles an earlier shape named otherwise (a map: a key such as `__proto__` finds nothing). */
export const LEGACY_CONTACT_ROLES: ReadonlyMap<string, ContactRole> = new Map([["admin", "administrator"]]);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The issues of a `contacts` value written in the deprecated shape (empty when it is not). */
export function legacyContactIssues(contacts: unknown): { path: string[]; message: string }[] {
  if (!isObject(contacts)) return [];
  const issues: { path: string[]; message: string }[] = [];
  for (const [given, contact] of Object.entries(contacts)) {
    const renamed = LEGACY_CONTACT_ROLES.get(given);
    if (renamed) issues.push({ path: [given], message: `renamed to contacts.${renamed}` });
    if (!isObject(contact)) continue;
    const role = `contacts.${renamed ?? given}`;
    for (const field of Object.keys(contact)) {
      const moved = LEGACY_CONTACT_FIELDS.get(field);
      if (moved) issues.push({ path: [given, field], message: moved.replace("{role}", role) });
    }
  }
  return issues;
}

/** A contact as the deprecated domain model returns it (`registrant_contact`): read only. */
export const LegacyContactResponseSchema = z.looseObject({
  address: z.string().optional(),
  address2: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  organization: z.string().optional(),
  phone: z.string().nullable().optional(),
  zip: z.string().nullable().optional(),
  country: z.string().nullable().optional(),
  first_name: z.string().nullable().optional(),
  last_name: z.string().nullable().optional(),
  id: z.string().optional(),
  email: z.string().optional(),
  fax: z.string().optional(),
});
export type LegacyContact = z.infer<typeof LegacyContactResponseSchema>;

const ContactRolesSchema = strict({
  registrant: ContactSchema.optional(),
  administrator: ContactSchema.optional(),
  technical: ContactSchema.optional(),
  billing: ContactSchema.optional(),
});

/** Contact roles of a registration; an older role name or contact field is refused naming its new one. */
export const ContactsSchema = z
  .custom<z.input<typeof ContactRolesSchema>>()
  .superRefine((value, ctx) => {
    for (const issue of legacyContactIssues(value)) ctx.addIssue({ code: "custom", ...issue });
  })
  .pipe(ContactRolesSchema);
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
/**
 * What a read may answer: the spec's statuses, and `transfer_pending` that the public client lists
 * for a domain being transferred in (this API does not transfer, but an account may hold one).
 */
export const REGISTRATION_STATUSES_READ = [...REGISTRATION_STATUSES, "transfer_pending"] as const;

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

/**
 * A registration's wire fields a program sets: the contract's create body, with its defaults, and
 * `contact_extensions` and `acknowledgements` that public-api-notes add (free-form per extension).
 */
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

/** PATCH …/registrations/{domain_name}: only `auto_renew` can change (the contract), so it is required. */
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
  status: z.enum(REGISTRATION_STATUSES_READ),
});
export type Registration = z.infer<typeof RegistrationSchema>;

export const RegistrationListSchema = z.array(RegistrationSchema);

/** Largest page of the registrations listing (the contract's `per_page`). */
export const REGISTRATIONS_PER_PAGE_MAX = 50;
export const REGISTRATIONS_PER_PAGE_DEFAULT = 20;

/** Sort keys of the registrations listing (public API; the spec does not show them). */
export const REGISTRATION_SORT_FIELDS = ["registry_created_at", "registry_expires_at", "name"] as const;
export type RegistrationSortField = (typeof REGISTRATION_SORT_FIELDS)[number];

/** Longest cursor the listing takes (the contract). */
export const REGISTRATIONS_CURSOR_MAX = 256;

export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

export const RegistrationListQuerySchema = strict({
  cursor: str()
    .max(REGISTRATIONS_CURSOR_MAX, `must be at most ${REGISTRATIONS_CURSOR_MAX} characters`)
    .optional(),
  sort_by: oneOf(REGISTRATION_SORT_FIELDS).optional(),
  direction: oneOf(SORT_DIRECTIONS).optional(),
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
  /** `self` is the status to poll; `resource` the registration it is about. */
  links: z.looseObject({ self: z.string(), resource: z.string().optional() }),
  context: z
    .looseObject({
      domain_name: z.string().optional(),
      action: z.string().optional(),
      registration: RegistrationSchema.optional(),
    })
    .optional(),
  /** Present when the state is failed; the service may send null otherwise. */
  error: WorkflowErrorSchema.nullable().optional(),
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
  registrant_contact: LegacyContactResponseSchema.optional(),
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
