/**
 * The registrar area's wire schemas (spec section E): the generated ones (sdk/generated/registrar.ts,
 * from the contract and contract/rules/registrar.json), and beside them what data cannot say: a
 * domain name normalized before its syntax is checked, extensions given with a dot, the create's
 * defaults filled in, an older contact shape refused naming each field's new place, and the
 * workflow's `context` that api.md describes. Registrations cost money and cannot be undone, so
 * every request is checked here before it is sent.
 */
import { domainToASCII } from "node:url";
import { z } from "zod";
import * as G from "../generated/registrar";
import { str } from "../wire/rules";

// ---------------------------------------------------------------------------------------------
// Domain names

const CREATE = G.RegistrarDomainRegistrationCreateBody;

/** An extension: letters only, or an internationalized one in punycode. */
const EXTENSION = "(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})";

/**
 * The canonical form the API uses: lower case, internationalized labels in punycode, no trailing
 * dot. Returns the input lower-cased when it cannot be converted, so the pattern check then fails.
 */
export function normalizeDomainName(name: string): string {
  const trimmed = name.trim().toLowerCase().replace(/\.$/, "");
  const ascii = domainToASCII(trimmed);
  return ascii === "" ? trimmed : ascii;
}

/** Whether a normalized name is fully qualified (the create's `domain_name` rule of the overlay). */
export function isDomainName(name: string): boolean {
  return CREATE.shape.domain_name.safeParse(name).success;
}

/** A fully qualified name, normalized (lower case, punycode) before its syntax is checked. */
export const DomainNameSchema = str("a string (a domain name)")
  .transform(normalizeDomainName)
  .pipe(CREATE.shape.domain_name);

/** The extension of a normalized domain name (`example.co` → `co`). */
export function extensionOf(domainName: string): string {
  return domainName.slice(domainName.lastIndexOf(".") + 1);
}

// ---------------------------------------------------------------------------------------------
// Search and check

/** The service's default `limit` of a search (the contract's query parameter). */
export const SEARCH_LIMIT_DEFAULT = 20;

const SEARCH = G.RegistrarDomainDiscoverySearchQuery;

/** One extension as given (`.com`, `COM`), in the form the service takes (`com`). */
const ExtensionSchema = str('a string (an extension such as "com")')
  .transform((s) => s.trim().toLowerCase().replace(/^\./, ""))
  .refine(
    (s) => new RegExp(`^${EXTENSION}$`).test(s),
    'must be an extension such as "com" (letters, or punycode)',
  );

/** The contract's query; `q` is sent trimmed and extensions normalized. */
export const DomainSearchQuerySchema = SEARCH.extend({
  q: str().trim().pipe(SEARCH.shape.q),
  extensions: SEARCH.shape.extensions.pipe(z.array(ExtensionSchema).optional()),
});
export type DomainSearchQuery = z.input<typeof DomainSearchQuerySchema>;

/**
 * Check takes raw strings: the service answers what it can and may omit a malformed name (spec E,
 * check result), so no name is refused here, only the size of the list (the contract's 1 to 20).
 */
export const DomainCheckRequestSchema = G.RegistrarDomainDiscoveryCheckBody;
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

export const DomainCheckResultSchema = G.RegistrarDomainDiscoveryCheckResult;
export type DomainCheckResult = z.infer<typeof DomainCheckResultSchema>;
export const DomainSearchResultSchema = G.RegistrarDomainDiscoverySearchResult;
export type DomainSearchResult = z.infer<typeof DomainSearchResultSchema>;
/** One entry of a check or a search; `reason` and `tier` are read as strings (a value added later is kept). */
export type DomainAvailability = DomainCheckResult["domains"][number];
export type Pricing = NonNullable<DomainAvailability["pricing"]>;

// ---------------------------------------------------------------------------------------------
// Supported extensions (`/registrar/extensions`, from the public client's declarations)

/**
 * One supported extension as the declarations give it (not generated: their response is keyed
 * `2XX`). The schemas are JSON Schema documents the contract leaves untyped; every object stays open.
 * No price: the contract's entry has none, a price comes from the check or the quote of a name.
 */
export const SupportedExtensionSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), tld: z.string() }),
  registration_schema: z.unknown(),
  transfer_schema: z.unknown(),
});
export type SupportedExtension = z.infer<typeof SupportedExtensionSchema>;

export const ExtensionListQuerySchema = G.RegistrarExtensionsListQuery;
export type ExtensionSortField = NonNullable<z.infer<typeof ExtensionListQuerySchema>["sort_by"]>;

// ---------------------------------------------------------------------------------------------
// Contacts of a registration (the contract's create body: `contacts.registrant`, and the roles the
// service's newer examples add). The deprecated domain contact (`first_name`, `address`, `zip`, …)
// is only ever read, in the deprecated Domain model below.

const ContactRolesSchema = CREATE.shape.contacts.unwrap();
type ContactRole = keyof typeof ContactRolesSchema.shape;

/** One contact of a registration (every role takes the registrant's shape). */
export const ContactSchema = ContactRolesSchema.shape.registrant.unwrap();
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
 * for a domain being transferred in (this API does not transfer, but an account may hold one). The
 * sdk reads any string (a status added later is kept); the resource's output names these.
 */
export const REGISTRATION_STATUSES_READ = [...REGISTRATION_STATUSES, "transfer_pending"] as const;

export const PRIVACY_MODES = ["off", "redaction"] as const;
export type PrivacyMode = (typeof PRIVACY_MODES)[number];

/** 1 to 10 years (the contract). */
export const YearsSchema = CREATE.shape.years.unwrap();

/** One account holds at most this many domains (public-api-notes, Registrar). */
export const MAX_DOMAINS_PER_ACCOUNT = 500;

const CREATE_DEFAULTS = G.RegistrarDomainRegistrationCreateBodyDefaults;

/**
 * POST …/registrar/registrations: the contract's body, the name normalized, contacts of the older
 * shape refused by name; parsing fills the contract's defaults (`auto_renew: false`,
 * `privacy_mode: "redaction"`), so what is sent says what is bought.
 */
export const RegistrationCreateSchema = CREATE.extend({
  domain_name: DomainNameSchema,
  auto_renew: CREATE.shape.auto_renew.unwrap().default(CREATE_DEFAULTS.auto_renew),
  privacy_mode: CREATE.shape.privacy_mode.unwrap().default(CREATE_DEFAULTS.privacy_mode),
  contacts: ContactsSchema.optional(),
});
export type RegistrationCreate = z.input<typeof RegistrationCreateSchema>;

/** PATCH …/registrations/{domain_name}: only `auto_renew` can change, so it is required (the overlay). */
export const RegistrationUpdateSchema = G.RegistrarDomainRegistrationUpdateBody;
export type RegistrationUpdate = z.infer<typeof RegistrationUpdateSchema>;

/** As returned; the name is the server's canonical form, so it is not normalized again. */
export const RegistrationSchema = G.RegistrarDomainRegistrationGetResult;
export type Registration = z.infer<typeof RegistrationSchema>;

export const RegistrationListSchema = G.RegistrarDomainRegistrationListResult;

/** The service's default page size of the registrations listing. */
export const REGISTRATIONS_PER_PAGE_DEFAULT = 20;

export const RegistrationListQuerySchema = G.RegistrarDomainRegistrationListQuery;
export type RegistrationSortField = NonNullable<z.infer<typeof RegistrationListQuerySchema>["sort_by"]>;
export type SortDirection = NonNullable<z.infer<typeof RegistrationListQuerySchema>["direction"]>;

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

const STATUS = G.RegistrarDomainRegistrationGetStatusResult;

export const WorkflowErrorSchema = STATUS.shape.error.unwrap();
export type WorkflowError = z.infer<typeof WorkflowErrorSchema>;

/**
 * The contract's WorkflowStatus, and what api.md says of its open `context`: the subject's
 * `domain_name`, the `action` a user must take, the resulting `registration` once it succeeded.
 */
export const WorkflowStatusSchema = STATUS.extend({
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

/** @deprecated The older domain model; use {@link RegistrationSchema}. */
export const DomainSchema = G.RegistrarDomainsListDomainsResult.unwrap().element;
/** @deprecated The older domain model; use {@link Registration}. */
export type Domain = z.infer<typeof DomainSchema>;
/** The deprecated model's `registrant_contact`: read only. */
export type LegacyContact = NonNullable<Domain["registrant_contact"]>;

/** @deprecated PUT …/registrar/domains/{domain_name}: `{ auto_renew?, locked?, privacy? }` (the contract). */
export const DomainUpdateSchema = G.RegistrarDomainsUpdateDomainBody;
/** @deprecated */
export type DomainUpdate = z.infer<typeof DomainUpdateSchema>;

/** End of life of the deprecated domain endpoints (public-api-notes, Registrar). */
export const DEPRECATED_DOMAINS_SUNSET = "2026-09-27";
