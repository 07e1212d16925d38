/** Local validation with the area schemas: every violation names the field and the rule. */
import type { z } from "zod";
import { ValidationError } from "./errors";

/** Turns zod issues into `{field, rule}` pairs with dotted field paths (`recording_config.max_seconds`). */
export function describeIssues(error: z.ZodError): { field: string; rule: string }[] {
  return error.issues.map((issue) => ({
    field: issue.path.map(String).join("."),
    rule: issue.message,
  }));
}

/** Parses `value` or throws a ValidationError whose message says where and why. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, context: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(context, describeIssues(result.error));
  return result.data;
}
