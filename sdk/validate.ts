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
      return issue.keys.map((key) => ({ field: [...base, key].join("."), rule: issue.message }));
    }
    return [{ field: base.join("."), rule: issue.message }];
  });
}

/** Parses `value` or throws a ValidationError whose message says where and why. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, context: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(context, describeIssues(result.error));
  return result.data;
}
