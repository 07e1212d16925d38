/** Local validation with the area schemas: every violation names the field and the rule. */
import type { z } from "zod";
import { ValidationError } from "./errors";

/**
 * Turns zod issues into `{field, rule}` pairs with dotted field paths (`recording_config.max_seconds`).
 * An unknown key (strict request schemas) is named as the field itself, so the message says which.
 */
export function describeIssues(error: z.ZodError): { field: string; rule: string }[] {
  return error.issues.flatMap((issue) => {
    const base = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
      // zod's own message lists every key: repeated per key it grows with the square of their number.
      const own = /^Unrecognized keys?: /.test(issue.message);
      return issue.keys.map((key) => ({
        field: [...base, key].join("."),
        rule: own ? `Unrecognized key: ${JSON.stringify(key)}` : issue.message,
      }));
    }
    return [{ field: base.join("."), rule: issue.message }];
  });
}

/**
 * Paths of own `__proto__` keys (a JSON.parse of user data makes them): zod's records and objects
 * copy through plain assignment, which drops such a key silently, so it is refused by name instead.
 */
export function prototypeKeys(value: unknown, path: string[] = []): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => prototypeKeys(v, [...path, String(i)]));
  if (typeof value !== "object" || value === null) return [];
  return Object.keys(value).flatMap((k) =>
    k === "__proto__" ? [[...path, k].join(".")] : prototypeKeys(Reflect.get(value, k), [...path, k]),
  );
}

/**
 * Deepest nesting of objects and arrays a request body may have (the emulator refuses deeper ones with
 * a 400 too). The contract's deepest request body declares 6 levels (a search instance's settings);
 * far past this, recursive walks (ours, zod's) would meet the call stack.
 */
export const MAX_BODY_DEPTH = 64;
export const TOO_DEEP_RULE = `too deep: objects and arrays may nest at most ${MAX_BODY_DEPTH} levels`;

/** Whether a value nests objects and arrays deeper than `limit`. Iterative, so no depth overflows it. */
export function tooDeep(value: unknown, limit = MAX_BODY_DEPTH): boolean {
  // An object reached again only counts when reached deeper: a cycle ends past the limit.
  const reached = new Map<object, number>();
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [v, depth] = next;
    if (typeof v !== "object" || v === null) continue;
    if (depth + 1 > limit) return true;
    if ((reached.get(v) ?? -1) >= depth) continue;
    reached.set(v, depth);
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Parses `value` or throws a ValidationError whose message says where and why. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, context: string): z.infer<S> {
  if (tooDeep(value)) throw new ValidationError(context, [{ field: "body", rule: TOO_DEEP_RULE }]);
  const hostile = prototypeKeys(value);
  if (hostile.length)
    throw new ValidationError(
      context,
      hostile.map((field) => ({ field, rule: "is not accepted as a key (it would be dropped silently)" })),
    );
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(context, describeIssues(result.error));
  return result.data;
}
