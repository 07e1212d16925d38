/**
 * The type texts of `resolutionNotes` (`string | object | array<string | object>`, `600|1800`,
 * `map<string, boolean|string|number>`, `array|null`) as schema nodes. An `object` without a shape
 * of its own is an open map: the overlay gives a `schema` where the newer client declares one.
 */
import type { Node } from "./to-zod";

/** Splits on `|` outside `<…>`. */
function alternatives(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "<") depth++;
    else if (c === ">") depth--;
    else if (c === "|" && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(text.slice(start).trim());
  return out.filter(Boolean);
}

function one(text: string): Node {
  if (/^-?\d+(\.\d+)?$/.test(text)) return { type: "number", enum: [Number(text)] };
  if (/^"[^"]*"$/.test(text)) return { type: "string", enum: [text.slice(1, -1)] };
  const generic = /^(array|map)<(.*)>$/.exec(text);
  if (generic?.[1] === "array") return { type: "array", items: nodeOfType(generic[2]!) };
  if (generic?.[1] === "map") {
    const value = generic[2]!.replace(/^string\s*,\s*/, "");
    return { type: "object", additionalProperties: nodeOfType(value) };
  }
  if (text === "array") return { type: "array" };
  if (["string", "number", "boolean", "integer", "object", "null"].includes(text)) return { type: text };
  throw new Error(`unreadable type text: ${text}`);
}

export function nodeOfType(text: string): Node {
  const forms = alternatives(text).map(one);
  const literals = forms.filter((f) => f.enum);
  // `600|1800|…` and `"A"|"B"` are one enum, not a union of one-value enums.
  if (literals.length === forms.length && new Set(literals.map((f) => f.type)).size === 1)
    return { type: literals[0]!.type, enum: literals.flatMap((f) => f.enum ?? []) };
  const nonNull = forms.filter((f) => f.type !== "null");
  const nullable = nonNull.length < forms.length;
  if (nonNull.length === 1) {
    const only = nonNull[0]!;
    const t = typeof only.type === "string" ? only.type : "object";
    return nullable ? { ...only, type: [t, "null"] } : only;
  }
  return { anyOf: nullable ? [...nonNull, { type: "null" }] : nonNull };
}
