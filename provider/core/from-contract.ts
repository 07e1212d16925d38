/**
 * A resource's inputs from its operation's request body (sdk/generated): every field of the body is
 * an input by default, named in camelCase, with the contract's type, limits, enums and defaults. The
 * description states only the exceptions, beside the field they concern (as terraform-plugin-framework's
 * plan modifiers): identity, replace on change, write-only, secret, create-only, a default the contract
 * lacks, another program name, or a field kept out. A field the contract adds becomes an input (and a
 * property of the native schema and of every generated SDK) with no edit here.
 */
import { z } from "zod";
import { CAMEL_CODEC, camelCased, wire, type Camel, type Field, type Flags } from "./define";

/** What a description says of one wire field beyond the contract. */
export interface FieldPlan {
  /** The program's name, where it is not the wire name in camelCase (`id` → `instanceId`). */
  readonly name?: string;
  readonly flags?: Flags;
  /** The server's value when the field is left out, stored so that refresh shows no drift. */
  readonly default?: unknown;
  /** Kept out of the inputs (the description declares it otherwise, or the resource never sets it). */
  readonly omit?: true;
  /** A nested object whose rules' messages name snake_case fields: say them in camelCase too. */
  readonly renameInRules?: true;
  /** A map whose keys are data (a registry's names): it travels as given, never re-cased. */
  readonly asGiven?: true;
}

type Plans<S> = { readonly [K in keyof S]?: FieldPlan };

/** A wire field's type without the optional and nullable wrappers: a program leaves a setting out rather than setting null. */
type Inner<T> = T extends z.ZodOptional<infer I> ? Inner<I> : T extends z.ZodNullable<infer I> ? Inner<I> : T;

type CamelKey<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelKey<T>>}` : S;

/** The program's type of a wire field's value: nested objects in camelCase. */
type ValueType<T> =
  Inner<T> extends z.ZodType
    ? z.input<Inner<T>> extends object
      ? z.ZodType<Camel<z.input<Inner<T>>>>
      : Inner<T>
    : never;

/** The program's type of a wire field's value sent as given. */
type GivenType<T> = Inner<T> extends z.ZodType ? Inner<T> : never;

/**
 * Optional where the body's field is (a required field of the body is a required input), or where
 * the plan gives the required field a default (then the stored value is always there).
 */
type ProgramType<T, P> =
  T extends z.ZodOptional<z.ZodType>
    ? z.ZodOptional<P extends { asGiven: true } ? GivenType<T> : ValueType<T>>
    : P extends { asGiven: true }
      ? GivenType<T>
      : P extends { default: NonNullable<unknown> }
        ? z.ZodDefault<ValueType<T>>
        : ValueType<T>;

type NameOf<K extends string, P> = P extends { name: infer N extends string } ? N : CamelKey<K>;

export type ContractFields<S extends z.ZodRawShape, P extends Plans<S>> = {
  [K in keyof S & string as P[K] extends { omit: true } ? never : NameOf<K, P[K]>]: Field<
    ProgramType<S[K], P[K]>,
    "input",
    P[K] extends { flags: infer F extends Flags } ? F : Record<never, never>
  >;
};

function inner(t: z.core.$ZodType): z.ZodType {
  if (t instanceof z.ZodOptional || t instanceof z.ZodNullable) return inner(t.unwrap());
  if (!(t instanceof z.ZodType)) throw new TypeError("a generated body's field is not a zod type");
  return t;
}

/** An object, list or map: the program writes it in camelCase (through a pipe: an sdk check before the contract's object). */
const nested = (t: z.core.$ZodType): boolean =>
  t instanceof z.ZodObject ||
  t instanceof z.ZodArray ||
  t instanceof z.ZodRecord ||
  (t instanceof z.ZodPipe && nested(t.out));

const camel = (k: string) => k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * The inputs of `shape` (a generated body's shape), with `plans` applied. A default makes the input
 * optional with that value (the program's type stays `T | undefined`); a nested object travels in
 * camelCase and is checked by the wire schema, its messages included.
 */
export function contractInputs<S extends z.ZodRawShape, const P extends Plans<S>>(
  shape: S,
  plans: P,
  /** The server's values of fields left out (the contract's `<Op>BodyDefaults`, and ours). */
  defaults: Readonly<Record<string, unknown>> = {},
): ContractFields<S, P> {
  const out: Record<string, Field> = {};
  for (const [wireName, t] of Object.entries(shape)) {
    const plan: FieldPlan = Reflect.get(plans, wireName) ?? {};
    if (plan.omit) continue;
    const base = inner(t);
    const recased = nested(base) && plan.asGiven !== true;
    const typed = recased ? camelCased(base, { renameInRules: plan.renameInRules === true }) : base;
    const value = plan.default ?? defaults[wireName];
    const type =
      value !== undefined
        ? z._default(typed, () => structuredClone(value))
        : t instanceof z.ZodOptional
          ? z.optional(typed)
          : typed;
    out[plan.name ?? camel(wireName)] = wire(
      wireName,
      type,
      plan.flags ?? {},
      recased ? CAMEL_CODEC : undefined,
    );
  }
  // Object.entries forgets which key holds which field; the loop builds exactly what ContractFields says.
  return out as ContractFields<S, P>;
}
