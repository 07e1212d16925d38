/**
 * One JSON Schema of the contract as zod source text over sdk/wire/rules.ts. A request schema is
 * strict and carries every limit (the sdk refuses before sending what the service would refuse); a
 * response schema is open: unknown fields kept, enums read as strings, no limits (the service's
 * answer is what it is).
 */
import { z } from "zod";

/** The keywords of the contract's schemas that the generator reads (others are ignored). */
export interface Node {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Node>;
  required?: string[];
  additionalProperties?: boolean | Node;
  items?: Node;
  anyOf?: Node[];
  oneOf?: Node[];
  allOf?: Node[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  pattern?: string;
  format?: string;
  default?: unknown;
  readOnly?: boolean;
  /** Ours (overlay): the rule a pattern states, in words. */
  "x-rule"?: string;
  /** Ours (overlay): the unit a number's range message names (" seconds"). */
  "x-unit"?: string;
}

const NodeSchema: z.ZodType<Node> = z.lazy(() =>
  z.looseObject({
    type: z.union([z.string(), z.array(z.string())]).optional(),
    enum: z.array(z.unknown()).optional(),
    properties: z.record(z.string(), NodeSchema).optional(),
    required: z.array(z.string()).optional(),
    additionalProperties: z.union([z.boolean(), NodeSchema]).optional(),
    items: NodeSchema.optional(),
    anyOf: z.array(NodeSchema).optional(),
    oneOf: z.array(NodeSchema).optional(),
    allOf: z.array(NodeSchema).optional(),
    minLength: z.number().optional(),
    maxLength: z.number().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    minItems: z.number().optional(),
    maxItems: z.number().optional(),
    uniqueItems: z.boolean().optional(),
    pattern: z.string().optional(),
    format: z.string().optional(),
    default: z.unknown().optional(),
    readOnly: z.boolean().optional(),
    "x-rule": z.string().optional(),
    "x-unit": z.string().optional(),
  }),
);

/** A schema of the contract, read as a Node (undefined when it is not a schema object). */
export function asNode(value: unknown): Node | undefined {
  const parsed = NodeSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export type Side = "request" | "query" | "response";

const lit = (v: unknown): string => JSON.stringify(v);
const key = (k: string): string => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : lit(k));

function typesOf(n: Node): string[] {
  if (Array.isArray(n.type)) return n.type;
  if (n.type) return [n.type];
  if (n.properties) return ["object"];
  if (n.items) return ["array"];
  if (n.enum) {
    const kinds = new Set<string>(
      n.enum.filter((v) => v !== null).map((v) => (typeof v === "number" ? "number" : "string")),
    );
    if (n.enum.includes(null)) kinds.add("null");
    return [...kinds];
  }
  return [];
}

/** allOf of objects merged into one object (the contract uses it only to compose objects). */
function merged(n: Node): Node {
  if (!n.allOf?.length) return n;
  const parts = [n, ...n.allOf.map(merged)];
  return {
    ...n,
    allOf: undefined,
    type: "object",
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
    required: [...new Set(parts.flatMap((p) => p.required ?? []))],
  };
}

function describe(n: Node): string {
  const t = typesOf(n).filter((x) => x !== "null");
  return (
    t.map((x) => (x === "object" ? "an object" : x === "array" ? "an array" : `a ${x}`)).join(" or ") ||
    "a value"
  );
}

/** zod source for `node` on `side`; the nullable wrapper is added here, optionality by the caller. */
export function toZod(node: Node, side: Side): string {
  const n = merged(node);
  const types = typesOf(n);
  const nullable = types.includes("null") || (n.enum?.includes(null) ?? false);
  const body = bare(
    n,
    types.filter((t) => t !== "null"),
    side,
  );
  return nullable ? `${body}.nullable()` : body;
}

function bare(n: Node, types: string[], side: Side): string {
  const branches = n.anyOf ?? n.oneOf;
  if (branches?.length) {
    const forms = branches.filter((b) => !(typesOf(b).length === 1 && typesOf(b)[0] === "null"));
    if (forms.length === 1)
      return bare(
        merged(forms[0]!),
        typesOf(merged(forms[0]!)).filter((t) => t !== "null"),
        side,
      );
    const options = forms.map((b) => toZod(b, side)).join(", ");
    return side === "response"
      ? `z.union([${options}])`
      : `anyOf([${options}], ${lit(forms.map(describe).join(" or "))})`;
  }
  if (types.length > 1) {
    const options = types.map((t) => bare({ ...n, type: t, enum: enumFor(n, t) }, [t], side)).join(", ");
    return side === "response"
      ? `z.union([${options}])`
      : `anyOf([${options}], ${lit(types.map((t) => describe({ type: t })).join(" or "))})`;
  }
  switch (types[0]) {
    case "string":
      return side === "response" ? "z.string()" : stringOf(n, side);
    case "integer":
    case "number":
      return numberOf(n, types[0] === "integer", side);
    case "boolean":
      return side === "response" ? "z.boolean()" : side === "query" ? "queryBool()" : "bool()";
    case "array":
      return arrayOf(n, side);
    case "object":
      return objectOf(n, side);
    default:
      return "z.unknown()";
  }
}

function enumFor(n: Node, type: string): unknown[] | undefined {
  if (!n.enum) return undefined;
  return n.enum.filter((v) => (type === "string" ? typeof v === "string" : typeof v === "number"));
}

function stringOf(n: Node, side: Side): string {
  const values = n.enum?.filter((v): v is string => typeof v === "string");
  if (values?.length) return `oneOf(${lit(values)})`;
  let s = "str()";
  if (n.minLength !== undefined || n.maxLength !== undefined)
    s = `lengthIn(${s}, ${n.minLength ?? "undefined"}${n.maxLength === undefined ? "" : `, ${n.maxLength}`})`;
  if (n.pattern) s = `matching(${s}, ${lit(n.pattern)}${n["x-rule"] ? `, ${lit(n["x-rule"])}` : ""})`;
  if (side === "request" && (n.format === "uri" || n.format === "uuid" || n.format === "email"))
    s = `formatted(${s}, ${lit(n.format)})`;
  return s;
}

function numberOf(n: Node, integer: boolean, side: Side): string {
  if (side === "response") return "z.number()";
  const values = n.enum?.filter((v): v is number => typeof v === "number");
  if (values?.length) return `oneOfNumbers(${lit(values)}${n["x-unit"] ? `, ${lit(n["x-unit"])}` : ""})`;
  const args = [n.minimum, n.maximum].map((v) => (v === undefined ? "undefined" : String(v)));
  if (n["x-unit"]) args.push(lit(n["x-unit"]));
  while (args.length && args[args.length - 1] === "undefined") args.pop();
  if (side === "query") return `queryNum(${[String(integer), ...args].join(", ")})`;
  return `${integer ? "int" : "num"}(${args.join(", ")})`;
}

function arrayOf(n: Node, side: Side): string {
  const item = n.items ? toZod(n.items, side) : "z.unknown()";
  if (side === "response") return `z.array(${item})`;
  const args = [item, n.minItems, n.maxItems].map((v) => (v === undefined ? "undefined" : String(v)));
  while (args.length > 1 && args[args.length - 1] === "undefined") args.pop();
  const items = `list(${args.join(", ")})`;
  return n.uniqueItems ? `unique(${items})` : items;
}

function objectOf(n: Node, side: Side): string {
  const props = Object.entries(n.properties ?? {}).filter(([, p]) => side === "response" || !p.readOnly);
  if (!props.length) {
    const value =
      typeof n.additionalProperties === "object" ? toZod(n.additionalProperties, side) : "z.unknown()";
    return side === "response" ? `z.record(z.string(), ${value})` : `map(${value})`;
  }
  const required = new Set(n.required ?? []);
  const fields = props.map(([k, p]) => `${key(k)}: ${toZod(p, side)}${required.has(k) ? "" : ".optional()"}`);
  if (side === "response") return `open({ ${fields.join(", ")} })`;
  // A query is as strict as a body: a parameter the contract does not list is refused, naming it.
  if (side === "query") return `strict({ ${fields.join(", ")} })`;
  // `additionalProperties: true` beside named fields: the named ones are checked, others pass through.
  return `strict({ ${fields.join(", ")} })${n.additionalProperties === true ? ".loose()" : ""}`;
}

/** The contract's defaults of an object's own fields, as data (requests carry no `.default()`). */
export function defaultsOf(node: Node): Record<string, unknown> {
  const n = merged(node);
  const out: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(n.properties ?? {})) if (p.default !== undefined) out[k] = p.default;
  return out;
}
