/**
 * Small zod builders of the meetings schemas whose messages say the rule ("must be between 60 and
 * 600", "is required"), so a ValidationError or the emulator's 400 reads as a sentence.
 */
import { z } from "zod";

export function required(what: string) {
  return (iss: { input?: unknown }): string => (iss.input === undefined ? "is required" : `must be ${what}`);
}

export const str = () => z.string({ error: required("a string") });
export const bool = () => z.boolean({ error: required("a boolean (true or false)") });
export const strings = () => z.array(str(), { error: required("an array of strings") });

export function between(min: number, max: number) {
  const rule = `must be between ${min} and ${max}`;
  return z
    .number({ error: required(`a number between ${min} and ${max}`) })
    .min(min, rule)
    .max(max, rule);
}

/** The contract's `integer` fields. */
export function wholeBetween(min: number, max: number) {
  return between(min, max).int("must be a whole number");
}

export function wholeAtLeast(min: number) {
  return z
    .number({ error: required(`a whole number of at least ${min}`) })
    .int("must be a whole number")
    .min(min, `must be at least ${min}`);
}

export const whole = () => z.number({ error: required("a whole number") }).int("must be a whole number");

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: required(`one of ${values.join(", ")}`) });
}

export const uri = () =>
  str().refine((s) => {
    try {
      return new URL(s).protocol.length > 1;
    } catch {
      return false;
    }
  }, "must be a URI (scheme://...)");

/**
 * A strict request object like `strictShape`, whose refusal of the keys in `hint` says why instead
 * of "is not a known field" (a renamed field, a field another verb takes).
 */
export function strictWithHint<T extends z.core.$ZodLooseShape>(
  shape: T,
  hint: { keys: readonly string[]; message: string },
) {
  return z.strictObject(shape, {
    error: (iss) =>
      iss.code === "unrecognized_keys"
        ? iss.keys.every((k) => hint.keys.includes(k))
          ? hint.message
          : "is not a known field"
        : iss.input === undefined
          ? "is required"
          : "must be an object",
  });
}
