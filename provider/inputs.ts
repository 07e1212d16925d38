/**
 * Check helpers that predate the pipeline, kept for the handlers not yet described by a spec; the
 * value helpers themselves live in core/values.ts.
 */
import type { z } from "zod";
import { isUnknown, valueAt } from "./core/values";
import type { CheckFailure } from "./types";

export {
  UNKNOWN,
  isUnknown,
  containsUnknown,
  deepEqual,
  changedKeys,
  secretHash,
  camelToSnake,
  snakeToCamel,
  mapKeys,
  toApi,
  fromApi,
} from "./core/values";

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

/** Keeps only the keys of `shape` that `live` has, in the shape's naming: the projection read uses. */
export function pick<T extends object>(live: T, keys: readonly (keyof T)[]): Partial<T> {
  const out: Partial<T> = {};
  for (const k of keys) if (live[k] !== undefined) out[k] = live[k];
  return out;
}
