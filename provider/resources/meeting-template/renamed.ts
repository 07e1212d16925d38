/**
 * A nested input whose keys an earlier release named otherwise: the old name is refused with the
 * new one ("renamed to …"), the rest is checked by the type as usual, all failures at once. The
 * pipeline's `renamed` covers top-level inputs only; this is the same rule one level down.
 */
import { z } from "zod";
import { withShape } from "../../core/shapes";
import { isRecord } from "../../core/values";

export function withRenamedKeys<Z extends z.ZodType>(type: Z, renamed: Readonly<Record<string, string>>) {
  const checked = z.custom<z.output<Z>>().superRefine((value, ctx) => {
    let rest: unknown = value;
    if (isRecord(value)) {
      const kept = { ...value };
      for (const [old, now] of Object.entries(renamed)) {
        if (!Object.hasOwn(kept, old)) continue;
        Reflect.deleteProperty(kept, old);
        ctx.addIssue({ code: "custom", message: `renamed to ${now}`, path: [old] });
      }
      rest = kept;
    }
    const parsed = type.safeParse(rest);
    if (parsed.success) return;
    for (const issue of parsed.error.issues) {
      if (issue.code === "unrecognized_keys")
        for (const k of issue.keys)
          ctx.addIssue({ code: "custom", message: "is not a known field", path: [...issue.path, k] });
      else ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
    }
  });
  // The old names are refused, not offered: the schema shows today's shape only.
  return withShape(checked, { shape: type });
}

/** A stored value with its renamed keys moved to today's names (a value set under both keeps today's). */
export function renameKeys(value: unknown, renamed: Readonly<Record<string, string>>): unknown {
  if (!isRecord(value)) return value;
  const out = { ...value };
  for (const [old, now] of Object.entries(renamed)) {
    if (!Object.hasOwn(out, old)) continue;
    if (!Object.hasOwn(out, now)) out[now] = out[old];
    Reflect.deleteProperty(out, old);
  }
  return out;
}
