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

// ---- field tables: one plain object of zod types per managed object, from which the create body,
// the update body and the response are derived ----

type FieldTable = Record<string, z.core.$ZodType>;

/** Each field with its `.default()` removed (the inner type); other fields as they are. */
export type NoDefaults<S extends FieldTable> = {
  [K in keyof S]: S[K] extends z.ZodDefault<infer Inner> ? Inner : S[K];
};

/**
 * The table without its defaults. An update body needs this: zod keeps an inner `.default()` under
 * `.partial()` and `.optional()`, so a PATCH parsed from `{}` would otherwise come out carrying every
 * default and reset the fields it meant to leave alone.
 */
export function noDefaults<S extends FieldTable>(fields: S): NoDefaults<S> {
  const out: FieldTable = {};
  for (const [key, type] of Object.entries(fields))
    out[key] = type instanceof z.ZodDefault ? type.unwrap() : type;
  // Object.entries forgets which key holds which type; the loop unwraps exactly what NoDefaults does.
  return out as NoDefaults<S>;
}

/** Every field optional and without its default: the shape of a tolerant response or a partial body. */
export type OptionalAll<S extends FieldTable> = { [K in keyof S]: z.ZodOptional<NoDefaults<S>[K]> };

export function optionalAll<S extends FieldTable>(fields: S): OptionalAll<S> {
  const out: FieldTable = {};
  for (const [key, type] of Object.entries(noDefaults(fields))) out[key] = z.optional(type);
  // As in noDefaults: the keys are the table's, each wrapped the way OptionalAll says.
  return out as OptionalAll<S>;
}
