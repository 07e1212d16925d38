/**
 * Bearer tokens with a scope (user or account) and permissions. Areas call `guard.require` with what
 * the spec asks for, and may map each failure to their own error codes (email has a table of them,
 * the build service says "Invalid token").
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { DomainError, GENERIC_CODES } from "./http";
import type { Store, StoredToken } from "./store";

/** Permission names the emulator knows. A token with "*" holds all of them. */
export const PERMISSIONS = [
  "builds:edit",
  "scripts:read",
  "scripts:edit",
  "email:send",
  "zone:settings:edit",
  "zone:edit",
  "zone:read",
  "rulesets:edit",
  "custom_hostnames:edit",
  "realtime:admin",
  "realtime",
  "registrar:edit",
  "registrar:read",
  "search:edit",
  "search:run",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export type AuthFailure = "missing" | "invalid" | "wrong_account" | "bad_scope" | "forbidden";

export interface AuthRequirement {
  /** Every one of these is needed. */
  all?: readonly Permission[];
  /** At least one of these is needed. */
  any?: readonly Permission[];
  /** Refuse account-scoped tokens (the build service). */
  userScoped?: boolean;
  /** Account in the path, checked against the token's. */
  accountId?: string;
  /** Area-specific rendering of each failure. */
  errors?: Partial<Record<AuthFailure, () => DomainError>>;
}

const DEFAULT_ERRORS: Record<AuthFailure, () => DomainError> = {
  missing: () => new DomainError(401, { code: GENERIC_CODES.unauthorized, message: "Authentication error" }),
  invalid: () => new DomainError(401, { code: GENERIC_CODES.unauthorized, message: "Authentication error" }),
  wrong_account: () =>
    new DomainError(403, {
      code: GENERIC_CODES.forbidden,
      message: "Unauthorized to access requested resource",
    }),
  bad_scope: () => new DomainError(401, { code: GENERIC_CODES.unauthorized, message: "Invalid token" }),
  forbidden: () =>
    new DomainError(403, {
      code: GENERIC_CODES.forbidden,
      message: "Unauthorized to access requested resource",
    }),
};

/**
 * A new token. The letter prefix keeps it from starting with `-` (base64url can), which a command
 * line it is pasted into (`pulumi config set --secret account-api:apiToken <token>`) reads as a flag.
 * 32 characters in all (168 random bits), the length tokens had before the prefix.
 */
export function newTokenValue(): string {
  return `emu_${randomBytes(21).toString("base64url")}`;
}

function hmac(salt: string, value: string): Buffer {
  return createHmac("sha256", salt).update(value, "utf8").digest();
}

/**
 * A token the emulator was given (ACCOUNT_API_TOKEN, the `token` option), as it may be stored: a
 * salted HMAC-SHA-256 of it, never the value (docs/assumptions.md, "The emulator's token").
 */
export function givenToken(value: string, accountId: string): StoredToken {
  const salt = randomBytes(16).toString("hex");
  return {
    salt,
    digest: hmac(salt, value).toString("hex"),
    scope: "user",
    permissions: ["*"],
    accountId,
    name: "default",
  };
}

/** Whether `presented` is this token: its value, or the value its digest was made from. */
export function tokenMatches(token: StoredToken, presented: string): boolean {
  if (token.value !== undefined) return token.value === presented;
  if (token.salt === undefined || token.digest === undefined) return false;
  const want = Buffer.from(token.digest, "hex");
  const got = hmac(token.salt, presented);
  return want.length === got.length && timingSafeEqual(want, got);
}

export class AuthGuard {
  constructor(private readonly store: Store) {}

  /** Returns the caller's token, or throws the (area-specific) error for the first unmet requirement. */
  require(req: FastifyRequest, need: AuthRequirement = {}): StoredToken {
    const fail = (f: AuthFailure): DomainError => (need.errors?.[f] ?? DEFAULT_ERRORS[f])();
    const header = req.headers.authorization;
    if (!header) throw fail("missing");
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    const token = m ? this.store.tokens.find((t) => tokenMatches(t, m[1]!)) : undefined;
    if (!token) throw fail("invalid");
    if (need.accountId !== undefined && need.accountId !== token.accountId) throw fail("wrong_account");
    if (need.userScoped && token.scope !== "user") throw fail("bad_scope");
    const has = (p: Permission): boolean => token.permissions.includes("*") || token.permissions.includes(p);
    if (need.all && !need.all.every(has)) throw fail("forbidden");
    if (need.any && !need.any.some(has)) throw fail("forbidden");
    return token;
  }

  add(
    token: Omit<StoredToken, "value" | "accountId" | "salt" | "digest" | "initial"> & {
      value?: string;
      accountId?: string;
    },
  ): StoredToken & { value: string } {
    const stored: StoredToken & { value: string } = {
      value: token.value ?? newTokenValue(),
      scope: token.scope,
      permissions: [...token.permissions],
      accountId: token.accountId ?? this.store.accountId,
      ...(token.name ? { name: token.name } : {}),
    };
    this.store.tokens.push(stored);
    return stored;
  }
}
