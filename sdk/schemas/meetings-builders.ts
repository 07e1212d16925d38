/**
 * A strict request object whose refusal of some keys says why instead of "is not a known field":
 * the meetings area's renamed field and the fields a PATCH does not take.
 */
import { z } from "zod";

/** Like the generated `strict`, with `hint.message` for an unknown key that is one of `hint.keys`. */
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
