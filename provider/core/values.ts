/**
 * Value helpers shared by the pipeline and the capabilities: the engine's preview-time unknown, structural
 * equality, salted hashes for write-only values, and camelCase/snake_case key mapping for nested
 * objects.
 */
import { createHash } from "node:crypto";

/** The engine's marker for a value not known until apply (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

export function containsUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (isRecord(value)) return Object.values(value).some(containsUnknown);
  return false;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value at a path, or undefined where the path leaves the object. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur = root;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = Reflect.get(cur, key);
  }
  return cur;
}

/** Structural equality on JSON values, where an absent key equals undefined. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]))
    );
  }
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

/** Names of the keys whose values differ between two objects. */
export function changedKeys(olds: object, news: object, ignore: readonly string[] = []): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  return [...keys].filter(
    (k) => !ignore.includes(k) && !deepEqual(Reflect.get(olds, k), Reflect.get(news, k)),
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

export function camelToSnake(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Only an underscore inside a word joins two words: `__proto__` stays itself. */
export function snakeToCamel(s: string): string {
  return s.replace(/(?<=[a-z0-9])_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** Every snake_case word of a rule's message in camelCase: the field names as the program spells them. */
export function camelWords(text: string): string {
  return text.replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, (word) => snakeToCamel(word));
}

/**
 * Deep key mapping for nested objects. `opaque` names keys (in the source naming) whose values are
 * user data maps (variable names, metadata keys) and keep their keys as they are. Undefined values
 * drop out, so the result is what JSON would carry.
 */
export function mapKeys(value: unknown, map: (k: string) => string, opaque: readonly string[] = []): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, map, opaque));
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value)
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

/** A copy without undefined and null values at the top level: how the engine's inputs arrive. */
export function defined(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined && v !== null) out[k] = v;
  return out;
}
