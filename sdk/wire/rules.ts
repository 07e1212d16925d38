/**
 * The building blocks of every generated wire schema (sdk/generated/), each with a message that says
 * the rule: one definition of "a boolean", "an integer between", "one of" for every area, so a field
 * of any operation is refused in the same words. Requests are strict (a typo is refused, naming the
 * field); responses are open (a field or an enum value the service adds later is read, not refused).
 */
import { z } from "zod";

/** A string; a missing one "is required" (the message the object's own check would not give). */
export const str = (what = "a string") =>
  z.string({ error: (iss) => (iss.input === undefined ? "is required" : `must be ${what}`) });

export const bool = () =>
  z.boolean({ error: (iss) => (iss.input === undefined ? "is required" : "must be a boolean") });

const range = (min: number | undefined, max: number | undefined, unit: string): string =>
  max === undefined
    ? `must be at least ${min}${unit}`
    : min === undefined
      ? `must be at most ${max}${unit}`
      : `must be between ${min} and ${max}${unit}`;

const number = () =>
  z.number({ error: (iss) => (iss.input === undefined ? "is required" : "must be a number") });

/** A number within the contract's bounds (either may be absent). */
export function num(min?: number, max?: number, unit = "") {
  let n = number();
  if (min !== undefined) n = n.min(min, range(min, max, unit));
  if (max !== undefined) n = n.max(max, range(min, max, unit));
  return n;
}

export function int(min?: number, max?: number, unit = "") {
  let n = number().int("must be an integer");
  if (min !== undefined) n = n.min(min, range(min, max, unit));
  if (max !== undefined) n = n.max(max, range(min, max, unit));
  return n;
}

/** A decimal number as a query string writes it: never empty (zod's coercion would read "" as 0). */
const NUMBER_TEXT = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** A number in a query string (values arrive as text); `?per_page=` is refused, not read as 0. */
export function queryNum(integer: boolean, min?: number, max?: number) {
  let n = z.number({ error: "must be a number" });
  if (integer) n = n.int("must be an integer");
  if (min !== undefined) n = n.min(min, range(min, max, ""));
  if (max !== undefined) n = n.max(max, range(min, max, ""));
  // Text that is a number becomes one; any other value reaches the number check as it is, and fails.
  return z.preprocess((v) => (typeof v === "string" && NUMBER_TEXT.test(v) ? Number(v) : v), n);
}

/** A boolean in a query string: `true` or `false` as text, or a boolean. */
export const queryBool = () =>
  z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")], {
    error: "must be true or false",
  });

/** The values as a message lists them: the empty string (a service's "default") shown as `""`. */
const listed = (values: readonly (string | number)[]) =>
  values.map((v) => (v === "" ? '""' : String(v))).join(", ");

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, {
    error: (iss) => (iss.input === undefined ? "is required" : `must be one of ${listed(values)}`),
  });

export const oneOfNumbers = <const T extends readonly [number, ...number[]]>(values: T, unit = "") =>
  z.literal(values, {
    error: (iss) => (iss.input === undefined ? "is required" : `must be one of ${listed(values)}${unit}`),
  });

/** Length limits of a string, in the words every area uses. */
export function lengthIn(s: z.ZodString, min?: number, max?: number): z.ZodString {
  let out = s;
  if (min !== undefined && min > 0)
    out = out.min(min, min === 1 ? "must not be empty" : `must be at least ${min} characters`);
  if (max !== undefined) out = out.max(max, `must be at most ${max} characters`);
  return out;
}

/** A pattern the contract or our spec fixes; `rule` says it in words where it can. */
export const matching = (s: z.ZodString, pattern: string, rule?: string) =>
  s.regex(new RegExp(pattern), rule ?? `must match ${pattern}`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The contract's string formats a request is checked for (`date-time` and `binary` are left to the service). */
export function formatted(s: z.ZodString, format: "uri" | "uuid" | "email") {
  if (format === "uri") return s.refine((v) => URL.canParse(v), "must be an absolute URI");
  if (format === "uuid") return s.regex(UUID, "must be a UUID");
  // zod's own address syntax (a dotted domain with a TLD), which the sdk refused with before its
  // schemas were generated: a looser check would let through what it used to stop before sending.
  return s.regex(z.regexes.email, "must be an email address");
}

export function list<T extends z.ZodType>(item: T, min?: number, max?: number) {
  let a = z.array(item, { error: (iss) => (iss.input === undefined ? "is required" : "must be an array") });
  if (min !== undefined && min > 0)
    a = a.min(min, min === 1 ? "must not be empty" : `must have at least ${min} entries`);
  if (max !== undefined) a = a.max(max, `must have at most ${max} entries`);
  return a;
}

/** An array whose entries differ from each other (the contract's `uniqueItems`, for primitive entries). */
export const unique = <T extends z.ZodArray>(a: T) =>
  a.refine((v) => new Set(v).size === v.length, "must not repeat an entry");

/** An object of names to values (a map, not a record of fields). */
export const map = <T extends z.ZodType>(value: T) =>
  z.record(z.string(), value, {
    error: (iss) => (iss.input === undefined ? "is required" : "must be an object"),
  });

/**
 * A strict request object: a typo is refused, not ignored. The issue sits on the object; readers
 * name each key as the field (sdk/validate.ts), so the rule text stays generic.
 */
export function strict<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape, {
    error: (iss) =>
      iss.code === "unrecognized_keys"
        ? "is not a known field"
        : iss.input === undefined
          ? "is required"
          : "must be an object",
  });
}

/** One of several forms (the contract's anyOf). */
export const anyOf = <const T extends readonly [z.ZodType, z.ZodType, ...z.ZodType[]]>(
  options: T,
  what: string,
) => z.union(options, { error: (iss) => (iss.input === undefined ? "is required" : `must be ${what}`) });

// ---- responses: read openly ----

/** A response object: fields the contract does not list are kept, not refused. */
export const open = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape);
