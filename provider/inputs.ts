/**
 * Helpers every handler uses for check and diff: preview-time unknowns, validation with the sdk's
 * schemas into engine check failures, camelCase/snake_case mapping, comparison and secret hashes.
 */
import { createHash } from "node:crypto";
import type { z } from "zod";
import type { CheckFailure } from "./types";

/** The engine's marker for a value not known until apply (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

export function containsUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur = root;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/**
 * Validates `value` (already mapped to the API's shape) with a schema and returns engine check
 * failures. Issues that sit on or under a value unknown at preview are left for the real run.
 * `fieldName` maps an API path (`recording_config.max_seconds`) back to the input's name.
 */
export function checkWith(
  schema: z.ZodType,
  value: unknown,
  fieldName: (apiPath: string) => string = (p) => p,
): CheckFailure[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues
    .filter((issue) => {
      for (let i = 0; i <= issue.path.length; i++) {
        if (isUnknown(valueAt(value, issue.path.slice(0, i)))) return false;
      }
      return true;
    })
    .flatMap((issue) => {
      // An unknown key is named as the field itself, as the sdk's describeIssues does.
      const paths =
        issue.code === "unrecognized_keys"
          ? issue.keys.map((k) => [...issue.path.map(String), k])
          : [issue.path.map(String)];
      return paths.map((p) => {
        const field = fieldName(p.join("."));
        return { property: field || "(inputs)", reason: `${field || "inputs"}: ${issue.message}` };
      });
    });
}

export function camelToSnake(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export function snakeToCamel(s: string): string {
  return s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/**
 * Deep key mapping for nested input objects. `opaque` names keys (in the source naming) whose
 * values are user data maps (env var names, metadata keys) and must keep their keys as they are.
 */
export function mapKeys(value: unknown, map: (k: string) => string, opaque: readonly string[] = []): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, map, opaque));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [map(k), opaque.includes(k) ? v : mapKeys(v, map, opaque)]),
    );
  }
  return value;
}

export const toApi = (value: unknown, opaque: readonly string[] = []): unknown =>
  mapKeys(value, camelToSnake, opaque);
export const fromApi = (value: unknown, opaque: readonly string[] = []): unknown =>
  mapKeys(value, snakeToCamel, opaque);

/** Structural equality on JSON values, where an absent key equals undefined. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]))
    );
  }
  if (a && b && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
    const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

/** Names of the top-level inputs that differ between two input objects. */
export function changedKeys(olds: object, news: object, ignore: readonly string[] = []): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  return [...keys].filter(
    (k) =>
      !ignore.includes(k) &&
      !deepEqual((olds as Record<string, unknown>)[k], (news as Record<string, unknown>)[k]),
  );
}

/**
 * A stable hash of a write-only or secret value, stored instead of (or beside) the value so drift
 * and changes can be seen without keeping or revealing the plaintext. Salted with the field name so
 * equal secrets in two fields do not look alike.
 */
export function secretHash(field: string, value: unknown): string {
  return `sha256:${createHash("sha256")
    .update(`${field}\u0000${JSON.stringify(value)}`)
    .digest("hex")}`;
}

/** Keeps only the keys of `shape` that `live` has, in the shape's naming: the projection read uses. */
export function pick<T extends object>(live: T, keys: readonly (keyof T)[]): Partial<T> {
  const out: Partial<T> = {};
  for (const k of keys) if (live[k] !== undefined) out[k] = live[k];
  return out;
}
