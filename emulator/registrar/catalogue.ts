/**
 * The emulator's seeded, deterministic registry: prices per extension, unsupported extensions with
 * their reasons, premium and taken names, and names that search still reports free although they were
 * just taken (search is advisory, check is authoritative: spec E, rule 2). Pure data and functions;
 * documented in docs/areas/registrar.md.
 */
import type { AvailabilityReason, DomainAvailability } from "../../sdk/schemas/registrar";
import { extensionOf } from "../../sdk/schemas/registrar";
import { dict, type Dict } from "../store";

export interface ExtensionInfo {
  currency: string;
  registration_cost: string;
  renewal_cost: string;
  /** Fewest years a registration may be made for; the default of `years`. */
  min_years: number;
  /** How long the registry takes to complete a plain registration, in ms of the emulator clock. */
  processing_ms: number;
}

/** Registries that answer quickly finish inside the synchronous window (201); the others take longer (202). */
const FAST = 3_000;
const SLOW = 45_000;

export const EXTENSIONS: Readonly<Dict<ExtensionInfo>> = dict({
  com: {
    currency: "USD",
    registration_cost: "10.44",
    renewal_cost: "10.44",
    min_years: 1,
    processing_ms: FAST,
  },
  net: {
    currency: "USD",
    registration_cost: "11.86",
    renewal_cost: "11.86",
    min_years: 1,
    processing_ms: FAST,
  },
  org: {
    currency: "USD",
    registration_cost: "7.50",
    renewal_cost: "10.11",
    min_years: 1,
    processing_ms: FAST,
  },
  // A promotional first year whose amounts trip binary floating point (0.1 + 0.2).
  xyz: {
    currency: "USD",
    registration_cost: "0.10",
    renewal_cost: "0.20",
    min_years: 1,
    processing_ms: FAST,
  },
  eu: { currency: "EUR", registration_cost: "6.71", renewal_cost: "6.71", min_years: 1, processing_ms: FAST },
  dev: {
    currency: "USD",
    registration_cost: "10.18",
    renewal_cost: "12.18",
    min_years: 1,
    processing_ms: SLOW,
  },
  io: {
    currency: "USD",
    registration_cost: "39.89",
    renewal_cost: "49.31",
    min_years: 1,
    processing_ms: SLOW,
  },
  ai: {
    currency: "USD",
    registration_cost: "80.00",
    renewal_cost: "80.00",
    min_years: 2,
    processing_ms: SLOW,
  },
});

/** Extensions searched when the caller names none, in relevance order. */
export const DEFAULT_SEARCH_EXTENSIONS = ["com", "net", "org", "dev", "io", "xyz"] as const;

/** Extensions that exist but cannot be registered here, with the reason; any other is `extension_not_supported`. */
export const UNSUPPORTED: Readonly<Dict<AvailabilityReason>> = dict({
  uk: "extension_not_supported_via_api",
  de: "extension_not_supported_via_api",
  ca: "extension_not_supported_via_api",
  tk: "extension_disallows_registration",
});

/** Premium names (also: any whose first label starts with `premium-`). */
export const PREMIUM_NAMES: readonly string[] = ["premium.com", "cars.com", "ai.dev", "crypto.io"];
/** Registered elsewhere (also: any whose first label starts with `taken-`). */
export const TAKEN_NAMES: readonly string[] = ["example.com", "example.org", "google.com", "taken.dev"];
/**
 * Just taken: search, working from a stale index, still says registrable; check says unavailable
 * (also: any whose first label starts with `stale-`).
 */
export const RECENTLY_TAKEN_NAMES: readonly string[] = ["recently-taken.com", "just-gone.io"];

function firstLabel(name: string): string {
  return name.slice(0, name.indexOf("."));
}

export function isPremium(name: string): boolean {
  return PREMIUM_NAMES.includes(name) || firstLabel(name).startsWith("premium-");
}

export function isRecentlyTaken(name: string): boolean {
  return RECENTLY_TAKEN_NAMES.includes(name) || firstLabel(name).startsWith("stale-");
}

export function isTakenElsewhere(name: string, extraTaken: readonly string[]): boolean {
  return TAKEN_NAMES.includes(name) || firstLabel(name).startsWith("taken-") || extraTaken.includes(name);
}

export function extensionInfo(name: string): ExtensionInfo | undefined {
  return EXTENSIONS[extensionOf(name)];
}

export interface AvailabilityInputs {
  /** Names registered in this account. */
  registered: (name: string) => boolean;
  /** Names marked taken through the control API. */
  extraTaken: readonly string[];
  /** Search works from a stale index; check asks the registry. */
  authoritative: boolean;
}

function unavailable(name: string, reason: AvailabilityReason, premium = false): DomainAvailability {
  return { name, registrable: false, reason, ...(premium ? { tier: "premium" as const } : {}) };
}

/** One entry of a search or check result for a normalized, well-formed name. */
export function availability(name: string, inputs: AvailabilityInputs): DomainAvailability {
  const ext = extensionOf(name);
  const info = EXTENSIONS[ext];
  if (!info) return unavailable(name, UNSUPPORTED[ext] ?? "extension_not_supported");
  if (inputs.registered(name) || isTakenElsewhere(name, inputs.extraTaken))
    return unavailable(name, "domain_unavailable");
  if (inputs.authoritative && isRecentlyTaken(name)) return unavailable(name, "domain_unavailable");
  if (isPremium(name)) return unavailable(name, "domain_premium", true);
  return {
    name,
    registrable: true,
    tier: "standard",
    pricing: {
      currency: info.currency,
      registration_cost: info.registration_cost,
      renewal_cost: info.renewal_cost,
    },
  };
}

/**
 * Search candidates for a query, most relevant first: the exact name when the query is one, then its
 * first label under each requested (or default) extension.
 */
export function searchCandidates(q: string, extensions: readonly string[] | undefined): string[] {
  const query = q.trim().toLowerCase();
  const out: string[] = [];
  const dot = query.indexOf(".");
  if (dot > 0) out.push(query.replace(/\.$/, ""));
  const base = (dot > 0 ? query.slice(0, dot) : query)
    .replace(/[^a-z0-9-]+/g, "")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63);
  if (!base) return out;
  for (const ext of extensions && extensions.length ? extensions : DEFAULT_SEARCH_EXTENSIONS) {
    const candidate = `${base}.${ext}`;
    if (!out.includes(candidate)) out.push(candidate);
  }
  return out;
}
