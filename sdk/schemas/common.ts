/** Shapes shared by every area: identifiers, the envelope, paging. */
import { z } from "zod";

/** Account and app tags: at most 32 characters (spec, Limits). */
export const IdentifierSchema = z
  .string()
  .min(1, "must not be empty")
  .max(32, "must be at most 32 characters");

export const ApiErrorItemSchema = z.looseObject({ code: z.number(), message: z.string() });

export const ResultInfoSchema = z.looseObject({
  page: z.number().optional(),
  per_page: z.number().optional(),
  count: z.number().optional(),
  total_count: z.number().optional(),
  cursor: z.string().nullable().optional(),
});

/** The standard envelope around any result schema. */
export function envelopeOf<T extends z.ZodType>(result: T) {
  return z.looseObject({
    success: z.boolean(),
    errors: z.array(ApiErrorItemSchema),
    messages: z.array(z.unknown()),
    result,
    result_info: ResultInfoSchema.optional(),
  });
}

/** ISO 8601 date-time as the API writes it. */
export const DateTimeSchema = z.string();

/**
 * A strict request object (a typo is refused, not ignored) whose messages say the rule: an unknown
 * key "is not a known field", a missing object "is required", a wrong type "must be an object".
 */
export function strictShape<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, {
    error: (iss) =>
      iss.code === "unrecognized_keys"
        ? "is not a known field"
        : iss.input === undefined
          ? "is required"
          : "must be an object",
  });
}
