/**
 * Zod types as Pulumi package schema types. A TypeCollector walks a field's zod type and answers its
 * type spec, whether it may be left out, its default and its description; named types (objects and
 * enums) are collected on the way, once per zod type, so that the schema lists each once. Opaque
 * `z.custom` types are looked up in provider/core/shapes.ts (a camelCased one's shape is the wire's,
 * whose keys it renames).
 */
import type { z } from "zod";
import { shapeOf } from "../core/shapes";
import { snakeToCamel } from "../core/values";

export const PACKAGE_NAME = "account-api";

export type Primitive = string | number | boolean;

/** A property's type: a primitive, an array, a map, a reference to a named type, or one of several. */
export interface TypeSpec {
  type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  $ref?: string;
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  oneOf?: TypeSpec[];
}

export interface PropertySpec extends TypeSpec {
  description?: string;
  default?: Primitive;
  defaultInfo?: { environment: string[] };
  secret?: boolean;
  replaceOnChanges?: boolean;
}

export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

export interface EnumValueSpec {
  name: string;
  value: string | number;
}

export interface EnumTypeSpec {
  type: "string" | "integer" | "number";
  description?: string;
  enum: EnumValueSpec[];
}

export type ComplexTypeSpec = ObjectTypeSpec | EnumTypeSpec;

/** What a field's zod type says for the schema. `spec` is undefined for a type that takes no value. */
export interface Described {
  spec: TypeSpec | undefined;
  optional: boolean;
  default?: Primitive;
  description?: string;
}

export const ANY: TypeSpec = { $ref: "pulumi.json#/Any" };
const INTEGER_FORMATS = new Set(["safeint", "int32", "uint32", "int64", "uint64"]);

/** `build_outcome` → `BuildOutcome`, `aiSearchModel` → `AiSearchModel`, `@cf/x-1.5` → `CfX15`. */
export function pascal(words: string): string {
  return words
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join("");
}

/**
 * A zod type's definition, narrowed by its `type`. Every zod type is one of the classes of zod's own
 * union `$ZodTypes`; zod's `ZodType` does not say which, hence the one cast.
 */
function defOf(t: z.ZodType): z.core.$ZodTypes["_zod"]["def"] {
  return (t as unknown as z.core.$ZodTypes)._zod.def;
}

function isInteger(t: z.ZodType): boolean {
  const def = defOf(t);
  if (def.type !== "number") return false;
  const formats = [def, ...(def.checks ?? []).map((c) => c._zod.def)].map((d) => Reflect.get(d, "format"));
  return formats.some((f) => typeof f === "string" && INTEGER_FORMATS.has(f));
}

function isPrimitive(v: unknown): v is Primitive {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

/** Collects the named types of one schema; `names` gives chosen names to shared zod types. */
export class TypeCollector {
  readonly types = new Map<string, ComplexTypeSpec>();
  private readonly named = new Map<z.ZodType, string>();

  constructor(private readonly names: ReadonlyMap<z.ZodType, string> = new Map()) {}

  /** The field's type spec, named `name` if it needs a named type; `camel`: keys are the wire's. */
  describe(t: z.ZodType, name: string, camel = false): Described {
    let optional = false;
    let dflt: Primitive | undefined;
    let description: string | undefined;
    let at: z.ZodType = t;
    // Peel the wrappers: each may carry a description, a default or the absence of a value.
    for (;;) {
      description ??= at.description;
      const def = defOf(at);
      if (def.type === "optional" || def.type === "nullable") {
        optional = true;
        at = def.innerType as z.ZodType;
      } else if (def.type === "default" || def.type === "prefault") {
        optional = true;
        const v: unknown = def.defaultValue;
        if (dflt === undefined && isPrimitive(v)) dflt = v;
        at = def.innerType as z.ZodType;
      } else if (def.type === "readonly" || def.type === "catch" || def.type === "nonoptional") {
        at = def.innerType as z.ZodType;
      } else if (def.type === "pipe") {
        // A check or a transform after the value: the program gives the first side.
        at = (defOf(def.in as z.ZodType).type === "transform" ? def.out : def.in) as z.ZodType;
      } else if (def.type === "lazy") {
        at = def.getter() as z.ZodType;
      } else break;
    }
    const spec = this.core(at, this.names.get(at) ?? name, camel);
    return {
      spec,
      optional,
      ...(dflt !== undefined ? { default: dflt } : {}),
      ...(description ? { description } : {}),
    };
  }

  private core(t: z.ZodType, name: string, camel: boolean): TypeSpec | undefined {
    const def = defOf(t);
    switch (def.type) {
      case "string":
      case "template_literal":
      case "date":
        return { type: "string" };
      case "number":
        return { type: isInteger(t) ? "integer" : "number" };
      case "bigint":
        return { type: "integer" };
      case "boolean":
        return { type: "boolean" };
      case "enum":
        return this.enumType(t, name, Object.values(def.entries));
      case "literal":
        return this.enumType(t, name, def.values);
      case "array":
        return this.wrap(
          { type: "array" },
          "items",
          this.describe(def.element as z.ZodType, name, camel).spec,
        );
      case "set":
        return this.wrap(
          { type: "array" },
          "items",
          this.describe(def.valueType as z.ZodType, name, camel).spec,
        );
      case "tuple":
        return { type: "array", items: ANY };
      case "record":
      case "map":
        return this.wrap(
          { type: "object" },
          "additionalProperties",
          this.describe(def.valueType as z.ZodType, name, camel).spec,
        );
      case "object":
        return this.objectType(t, name, def.shape as Record<string, z.ZodType>, camel);
      case "union":
        return this.union(def.options as readonly z.ZodType[], name, camel);
      case "intersection": {
        const [l, r] = [defOf(def.left as z.ZodType), defOf(def.right as z.ZodType)];
        if (l.type !== "object" || r.type !== "object") return ANY;
        const shape = {
          ...(l.shape as Record<string, z.ZodType>),
          ...(r.shape as Record<string, z.ZodType>),
        };
        return this.objectType(t, name, shape, camel);
      }
      case "custom": {
        const shape = shapeOf(t);
        if (!shape) return ANY;
        return this.describe(shape.shape, name, camel || shape.camelCase === true).spec;
      }
      case "undefined":
      case "never":
      case "void":
        return undefined;
      default:
        return ANY;
    }
  }

  private wrap(
    base: TypeSpec,
    key: "items" | "additionalProperties",
    inner: TypeSpec | undefined,
  ): TypeSpec | undefined {
    return inner ? { ...base, [key]: inner } : undefined;
  }

  private union(options: readonly z.ZodType[], name: string, camel: boolean): TypeSpec | undefined {
    const specs: TypeSpec[] = [];
    for (const o of options) {
      // Each option that needs a named type gets the union's name (a second one, a number after it).
      const spec = this.describe(o, name, camel).spec;
      if (spec && !specs.some((s) => JSON.stringify(s) === JSON.stringify(spec))) specs.push(spec);
    }
    if (specs.length <= 1) return specs[0];
    // Enums and strings together: the values are strings.
    if (specs.every((s) => s.type === "string" || (s.$ref && this.isStringEnum(s.$ref))))
      return { type: "string" };
    return { oneOf: specs };
  }

  private isStringEnum(ref: string): boolean {
    const t = this.types.get(ref.replace(/^#\/types\//, ""));
    return t !== undefined && t.type === "string" && "enum" in t;
  }

  /** A reference to the named type made once for the zod type `t`. */
  private named_<T extends ComplexTypeSpec>(t: z.ZodType, name: string, make: () => T): TypeSpec {
    const known = this.named.get(t);
    if (known) return { $ref: `#/types/${known}` };
    let token = `${PACKAGE_NAME}:index:${name}`;
    for (let n = 2; this.types.has(token); n++) token = `${PACKAGE_NAME}:index:${name}${n}`;
    this.named.set(t, token);
    // Reserved before it is made: an object that contains itself refers to its own name.
    this.types.set(token, { type: "object", properties: {} });
    this.types.set(token, make());
    return { $ref: `#/types/${token}` };
  }

  private enumType(t: z.ZodType, name: string, values: readonly unknown[]): TypeSpec {
    const usable = values.filter((v): v is string | number => typeof v === "string" || typeof v === "number");
    if (usable.length === 0) return ANY;
    const kind = usable.every((v) => typeof v === "string")
      ? "string"
      : usable.every((v) => typeof v === "number")
        ? usable.every(Number.isInteger)
          ? "integer"
          : "number"
        : undefined;
    if (!kind) return ANY;
    return this.named_(t, name, () => {
      const seen = new Set<string>();
      const members = usable.map((value) => {
        let base = pascal(String(value).replace(/\./g, "_"));
        if (!/^[A-Za-z]/.test(base)) base = `Value${base}`;
        let member = base;
        for (let n = 2; seen.has(member); n++) member = `${base}${n}`;
        seen.add(member);
        return { name: member, value };
      });
      return { type: kind, enum: members };
    });
  }

  private objectType(t: z.ZodType, name: string, shape: Record<string, z.ZodType>, camel: boolean): TypeSpec {
    return this.named_(t, name, () => {
      const properties: Record<string, PropertySpec> = {};
      const required: string[] = [];
      for (const [wireKey, field] of Object.entries(shape)) {
        const key = camel ? snakeToCamel(wireKey) : wireKey;
        const d = this.describe(field, `${name}${pascal(key)}`, camel);
        if (!d.spec) continue;
        properties[key] = {
          ...d.spec,
          ...(d.description ? { description: d.description } : {}),
        };
        if (!d.optional) required.push(key);
      }
      return { type: "object", properties, ...(required.length ? { required: required.sort() } : {}) };
    });
  }
}
