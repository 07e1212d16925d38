/**
 * Zod types as Pulumi package schema types. A TypeCollector walks a field's zod type and answers its
 * type spec, whether it may be left out, its default and its description; named types (objects and
 * enums) are collected on the way, once per zod type, so that the schema lists each once. Opaque
 * `z.custom` types are looked up in provider/core/shapes.ts (a camelCased one's shape is the wire's,
 * whose keys it renames).
 */
import { z } from "zod";
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
 * Any zod type. The walk reads each kind's definition through zod's own classes: `instanceof` a core
 * class (zod matches it by the trait every instance records) narrows the type to that class, whose
 * `_zod.def` names the kind's parts.
 */
type Schema = z.core.$ZodType;

function isInteger(t: Schema): boolean {
  if (!(t instanceof z.core.$ZodNumber)) return false;
  const def = t._zod.def;
  const formats = [def, ...(def.checks ?? []).map((c) => c._zod.def)].map((d) => Reflect.get(d, "format"));
  return formats.some((f) => typeof f === "string" && INTEGER_FORMATS.has(f));
}

function isPrimitive(v: unknown): v is Primitive {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

/** Collects the named types of one schema; `names` gives chosen names to shared zod types. */
export class TypeCollector {
  readonly types = new Map<string, ComplexTypeSpec>();
  private readonly named = new Map<Schema, string>();

  constructor(private readonly names: ReadonlyMap<Schema, string> = new Map()) {}

  /** The field's type spec, named `name` if it needs a named type; `camel`: keys are the wire's. */
  describe(t: Schema, name: string, camel = false): Described {
    let optional = false;
    let dflt: Primitive | undefined;
    let description: string | undefined;
    let at = t;
    // Peel the wrappers: each may carry a description, a default or the absence of a value.
    for (;;) {
      description ??= z.globalRegistry.get(at)?.description;
      if (at instanceof z.core.$ZodOptional || at instanceof z.core.$ZodNullable) {
        optional = true;
        at = at._zod.def.innerType;
      } else if (at instanceof z.core.$ZodDefault || at instanceof z.core.$ZodPrefault) {
        optional = true;
        const v: unknown = at._zod.def.defaultValue;
        if (dflt === undefined && isPrimitive(v)) dflt = v;
        at = at._zod.def.innerType;
      } else if (
        at instanceof z.core.$ZodReadonly ||
        at instanceof z.core.$ZodCatch ||
        at instanceof z.core.$ZodNonOptional
      ) {
        at = at._zod.def.innerType;
      } else if (at instanceof z.core.$ZodPipe || at instanceof z.core.$ZodCodec) {
        // A check or a transform after the value: the program gives the first side.
        const { in: first, out } = at._zod.def;
        at = first instanceof z.core.$ZodTransform ? out : first;
      } else if (at instanceof z.core.$ZodLazy) {
        at = at._zod.def.getter();
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

  private core(t: Schema, name: string, camel: boolean): TypeSpec | undefined {
    if (t instanceof z.core.$ZodEnum) return this.enumType(t, name, Object.values(t._zod.def.entries));
    if (t instanceof z.core.$ZodLiteral) return this.enumType(t, name, t._zod.def.values);
    if (t instanceof z.core.$ZodArray)
      return this.wrap({ type: "array" }, "items", this.describe(t._zod.def.element, name, camel).spec);
    if (t instanceof z.core.$ZodSet)
      return this.wrap({ type: "array" }, "items", this.describe(t._zod.def.valueType, name, camel).spec);
    if (t instanceof z.core.$ZodRecord || t instanceof z.core.$ZodMap)
      return this.wrap(
        { type: "object" },
        "additionalProperties",
        this.describe(t._zod.def.valueType, name, camel).spec,
      );
    if (t instanceof z.core.$ZodObject) return this.objectType(t, name, t._zod.def.shape, camel);
    if (t instanceof z.core.$ZodUnion) return this.union(t._zod.def.options, name, camel);
    if (t instanceof z.core.$ZodIntersection) {
      const { left, right } = t._zod.def;
      if (!(left instanceof z.core.$ZodObject) || !(right instanceof z.core.$ZodObject)) return ANY;
      return this.objectType(t, name, { ...left._zod.def.shape, ...right._zod.def.shape }, camel);
    }
    if (t instanceof z.core.$ZodCustom) {
      const shape = shapeOf(t);
      if (!shape) return ANY;
      return this.describe(shape.shape, name, camel || shape.camelCase === true).spec;
    }
    // The kinds with no parts to read.
    switch (t._zod.def.type) {
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
      case "undefined":
      case "never":
      case "void":
        return undefined;
      default:
        // A tuple among them: its items differ, so no one item type.
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

  private union(options: readonly Schema[], name: string, camel: boolean): TypeSpec | undefined {
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
  private named_<T extends ComplexTypeSpec>(t: Schema, name: string, make: () => T): TypeSpec {
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

  private enumType(t: Schema, name: string, values: readonly unknown[]): TypeSpec {
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

  private objectType(
    t: Schema,
    name: string,
    shape: Readonly<Record<string, Schema>>,
    camel: boolean,
  ): TypeSpec {
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
