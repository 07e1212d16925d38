/**
 * One description per resource: a table of fields, each with its wire name, the zod type that
 * carries the spec's limits and defaults, and flags. Everything the pipeline needs (the input
 * schema, which keys replace, which are secret, which are outputs) is derived here, once.
 *
 * Pure data and pure functions: loaded by the program (the resource class) and by the provider host
 * (the handler) alike, so nothing here may import @pulumi/pulumi or the sdk's transport.
 */
import { z } from "zod";
import { IdentifierSchema } from "../../sdk/schemas/common";
import type { ProviderKind } from "../types";
import { withShape } from "./shapes";
import { camelWords, fromApi, isRecord, snakeToCamel, toApi } from "./values";

export interface Flags {
  /** Part of the natural key: a change replaces the object. */
  identity?: true;
  /** A change replaces the object (the API fixes it at creation). */
  replaceOnChange?: true;
  /** Kept as a Pulumi secret in state and in every output. */
  secret?: true;
  /** The API never returns it: read keeps the stored value, and `${name}Hash` shows a change. */
  writeOnly?: true;
  /** Shapes only the creation (or guards it): a later change does nothing remote and shows no diff. */
  createOnly?: true;
}

/** Value conversion between the program's shape and the wire's, for nested objects. */
export interface Codec {
  toWire(value: unknown): unknown;
  fromWire(value: unknown): unknown;
}

export interface Field<
  Z extends z.ZodType = z.ZodType,
  R extends "input" | "output" = "input" | "output",
  Fl extends Flags = Flags,
> {
  readonly role: R;
  readonly type: Z;
  /** The API's name for it; absent for fields that exist only in the provider. */
  readonly wire?: string;
  readonly flags: Fl;
  readonly codec?: Codec;
}

/** An input the provider keeps to itself (never sent as such). */
export function local<Z extends z.ZodType, const Fl extends Flags = NoFlags>(
  type: Z,
  flags?: Fl,
): Field<Z, "input", Fl> {
  return { role: "input", type, flags: flags ?? noFlags<Fl>() };
}

/** An input sent to the API as `name`. */
export function wire<Z extends z.ZodType, const Fl extends Flags = NoFlags>(
  name: string,
  type: Z,
  flags?: Fl,
  codec?: Codec,
): Field<Z, "input", Fl> {
  return { role: "input", type, wire: name, flags: flags ?? noFlags<Fl>(), ...(codec ? { codec } : {}) };
}

type NoFlags = Record<never, never>;
/** Flags left out are no flag set; every Flags type is all-optional, so an empty object is one. */
function noFlags<Fl extends Flags>(): Fl {
  const none: Flags = {};
  return none as Fl; // every property of a Flags type is optional: {} is a value of each
}

/** A value the server assigns, read from the API's `name` (or computed by the kind's `reading.outputs`). */
export function output<Z extends z.ZodType>(
  name: string | undefined,
  type: Z,
  codec?: Codec,
  /** `secret`: an output that holds nothing but secret leaves (credentials as last sent). */
  flags: Pick<Flags, "secret"> = {},
): Field<Z, "output"> {
  return { role: "output", type, ...(name ? { wire: name } : {}), flags, ...(codec ? { codec } : {}) };
}

/** A snake_case name in camelCase, at the type level (`source_params` → `sourceParams`). */
type CamelKey<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelKey<T>>}` : S;

/** A wire value's type with every key in camelCase, deeply: the program's shape of a nested object. */
export type Camel<T> = T extends readonly (infer E)[]
  ? Camel<E>[]
  : T extends object
    ? { [K in keyof T as K extends string ? CamelKey<K> : K]: Camel<T[K]> }
    : T;

/**
 * A nested wire object in the program's camelCase, checked by the sdk's snake_case schema (its
 * limits and messages stay there, once): each issue's path is renamed back to the program's keys.
 * The value is what the program gave; pair the field with CAMEL_CODEC so it travels as snake_case.
 */
export function camelCased<Z extends z.ZodType>(
  wireType: Z,
  options: {
    /** Also rename the snake_case field names a rule's message mentions ("when auth_method is …"). */
    renameInRules?: boolean;
  } = {},
) {
  const checked = z.custom<Camel<z.input<Z>>>().superRefine((value, ctx) => {
    const parsed = wireType.safeParse(toApi(value));
    if (parsed.success) return;
    for (const issue of parsed.error.issues) {
      const at = issue.path.map((p) => (typeof p === "string" ? snakeToCamel(p) : p));
      if (issue.code !== "unrecognized_keys")
        ctx.addIssue({
          code: "custom",
          message:
            options.renameInRules && issue.code === "custom" ? camelWords(issue.message) : issue.message,
          path: at,
        });
      else
        for (const k of issue.keys)
          ctx.addIssue({ code: "custom", message: "is not a known field", path: [...at, snakeToCamel(k)] });
    }
  });
  return withShape(checked, { shape: wireType, camelCase: true });
}

/** camelCase in the program, snake_case on the wire, for a field typed with `camelCased`. */
export const CAMEL_CODEC: Codec = { toWire: (v) => toApi(v), fromWire: (v) => fromApi(v) };

/** A required string input: missing, it is "required" (zod alone says "expected string, received undefined"). */
export function requiredString<T extends z.ZodType<unknown, string>>(type: T) {
  return z.string({ error: (iss) => (iss.input === undefined ? "required" : "must be a string") }).pipe(type);
}

/** Every resource takes these: the account to act on, and an existing object to adopt on create. */
export const COMMON_FIELDS = {
  accountId: local(IdentifierSchema.optional(), { identity: true }),
  importId: local(z.string().min(1, "must not be empty").optional()),
};

type Fields = Record<string, Field>;
type RoleKeys<F extends Fields, R> = { [K in keyof F]: F[K]["role"] extends R ? K : never }[keyof F] & string;
type Optionalize<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: T[K];
};
type Flatten<T> = { [K in keyof T]: T[K] } & {};

export type InputsOfFields<F extends Fields> = Flatten<
  Optionalize<{ [K in RoleKeys<F, "input">]: z.output<F[K]["type"]> }>
>;
export type ArgsShapeOfFields<F extends Fields> = Flatten<
  Optionalize<{ [K in RoleKeys<F, "input">]: z.input<F[K]["type"]> }>
>;
export type OutputValuesOfFields<F extends Fields> = {
  [K in RoleKeys<F, "output">]?: z.output<F[K]["type"]>;
};
type WriteOnlyKeys<F extends Fields> = {
  [K in keyof F]: F[K]["flags"] extends { writeOnly: true } ? K : never;
}[keyof F] &
  string;
/** The hash outputs of write-only inputs: they show a change without the value. */
export type HashValuesOfFields<F extends Fields> = {
  [K in WriteOnlyKeys<F> as `${K}Hash`]: string | undefined;
};
/** The server's values once the object exists (as a program sees them after create). */
export type CreatedValuesOfFields<F extends Fields> = {
  [K in RoleKeys<F, "output">]: z.output<F[K]["type"]>;
};

/** A resource may narrow a common field (a trigger's importId is a UUID). */
export type AllFields<F extends Fields> = Omit<typeof COMMON_FIELDS, keyof F> & F;

export interface SpecInit<F extends Fields> {
  kind: ProviderKind;
  fields: F;
  /**
   * How a replacement is ordered. `true`: always delete first (the new object needs the old one's
   * slot); `"sameIdentity"`: delete first only when no identity field changed (same id, new data
   * source); default: create the new one first.
   */
  deleteBeforeReplace?: true | "sameIdentity";
  /**
   * The output that is the resource id (a server-assigned uuid). The class exposes it as `this.id`,
   * which the engine keeps known while an update is previewed, so its consumers see no replace.
   */
  idOutput?: string;
  /**
   * Inputs an earlier release took under another name (`{ oldName: "newName" }`): check refuses the
   * old name and names the new one, and a stored state's old key moves to the new name (and its
   * hash with it) before the resource's own `upgrade` hook, so an upgrade neither replaces nor diffs.
   */
  renamed?: Readonly<Record<string, string>>;
  /**
   * Inputs the resource's `normalize` or `resolve` hook fills when the program leaves them out (a
   * default by kind, a generated marker, a script's tag from its name). With the inputs whose type has a default, the class declares these as outputs
   * even when the program does not give them; every other left-out input costs nothing (see
   * core/class.ts).
   */
  filledAtCheck?: readonly string[];
}

export interface ResourceSpec<F extends Fields = Fields> {
  readonly kind: ProviderKind;
  readonly fields: AllFields<F>;
  readonly deleteBeforeReplace?: true | "sameIdentity";
  readonly idOutput?: string;
  /** Old input name → today's (SpecInit.renamed). */
  readonly renamedInputs: Readonly<Record<string, string>>;
  readonly inputNames: readonly string[];
  /** SpecInit.filledAtCheck: inputs `normalize` or `resolve` fills (a zod default needs no entry). */
  readonly filledAtCheck: readonly string[];
  readonly outputNames: readonly string[];
  readonly identityKeys: readonly string[];
  readonly replaceKeys: readonly string[];
  readonly secretInputs: readonly string[];
  /** Outputs flagged secret: kept secret in state and in the program, whatever read answers. */
  readonly secretOutputs: readonly string[];
  readonly writeOnlyInputs: readonly string[];
  readonly createOnlyInputs: readonly string[];
  /** `${name}Hash` of each write-only input: the outputs that show its change. */
  readonly hashOutputs: readonly string[];
  /** Strict: keys are the program's names, so every issue's path names the program's field. */
  readonly inputSchema: z.ZodType<Record<string, unknown>>;
}

/** What every resource's inputs hold, whatever its table narrows. */
export interface CommonInputs {
  accountId?: string;
  importId?: string;
}
export type InputsOf<S extends ResourceSpec> = InputsOfFields<S["fields"]> & CommonInputs;
export type ArgsShapeOf<S extends ResourceSpec> = ArgsShapeOfFields<S["fields"]>;
/** What the engine stores as a resource's outputs: the inputs, the server's values and the hashes. */
export type StateOf<S extends ResourceSpec> = InputsOf<S> &
  OutputValuesOfFields<S["fields"]> & { readonly [hash: `${string}Hash`]: string | undefined };

export const hashName = <K extends string>(field: K): `${K}Hash` => `${field}Hash`;

export function defineResource<const F extends Fields>(init: SpecInit<F>): ResourceSpec<F> {
  const fields: AllFields<F> = { ...COMMON_FIELDS, ...init.fields };
  const entries = Object.entries(fields);
  const names = (keep: (f: Field) => boolean): string[] => entries.filter(([, f]) => keep(f)).map(([k]) => k);
  const inputNames = names((f) => f.role === "input");
  const writeOnlyInputs = names((f) => f.role === "input" && f.flags.writeOnly === true);
  const shape: Record<string, z.ZodType> = {};
  for (const [k, f] of entries) if (f.role === "input") shape[k] = f.type;
  const renamedInputs = { ...init.renamed };
  for (const [old, now] of Object.entries(renamedInputs))
    if (!inputNames.includes(now) || inputNames.includes(old))
      throw new TypeError(
        `${init.kind}: renamed input ${old} → ${now} must name a gone input and a current one`,
      );
  return {
    kind: init.kind,
    fields,
    ...(init.deleteBeforeReplace ? { deleteBeforeReplace: init.deleteBeforeReplace } : {}),
    ...(init.idOutput ? { idOutput: init.idOutput } : {}),
    renamedInputs,
    inputNames,
    filledAtCheck: init.filledAtCheck ?? [],
    outputNames: names((f) => f.role === "output"),
    identityKeys: names((f) => f.flags.identity === true),
    replaceKeys: names((f) => f.flags.identity === true || f.flags.replaceOnChange === true),
    secretInputs: names((f) => f.role === "input" && f.flags.secret === true),
    secretOutputs: names((f) => f.role === "output" && f.flags.secret === true),
    writeOnlyInputs,
    createOnlyInputs: names((f) => f.flags.createOnly === true),
    hashOutputs: writeOnlyInputs.map(hashName),
    inputSchema: z.strictObject(shape),
  };
}

/** The wire body of `values` (program names): wire-named input fields only, optionally only `keys`. */
export function toWire(
  spec: ResourceSpec,
  values: object,
  keys?: readonly string[],
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [k, f] of Object.entries(spec.fields)) {
    if (f.role !== "input" || f.wire === undefined || (keys && !keys.includes(k))) continue;
    const v: unknown = Reflect.get(values, k);
    if (v !== undefined) body[f.wire] = f.codec ? f.codec.toWire(v) : v;
  }
  return body;
}

/** The program-named values of a live object, for the fields of `role` that the API returns. */
export function fromWire(
  spec: ResourceSpec,
  live: unknown,
  role: "input" | "output",
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isRecord(live)) return out;
  for (const [k, f] of Object.entries(spec.fields)) {
    if (f.role !== role || f.wire === undefined || f.flags.writeOnly || f.flags.createOnly) continue;
    const v = live[f.wire];
    if (v !== undefined) out[k] = f.codec ? f.codec.fromWire(v) : v;
  }
  return out;
}

/**
 * A stored state (or stored inputs) of an earlier release under today's input names: each renamed
 * key, and the hash of a renamed write-only input, moves to its new name unless that is already set.
 */
export function renameStored<T extends object>(spec: ResourceSpec, stored: T): T {
  const entries = Object.entries(spec.renamedInputs);
  if (!entries.some(([old]) => Object.hasOwn(stored, old) || Object.hasOwn(stored, hashName(old))))
    return stored;
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(stored));
  for (const [old, now] of entries)
    for (const [from, to] of [
      [old, now],
      [hashName(old), hashName(now)],
    ] as const) {
      if (!Object.hasOwn(out, from)) continue;
      if (!Object.hasOwn(out, to)) out[to] = out[from];
      Reflect.deleteProperty(out, from);
    }
  // The same record with keys renamed: T's own keys are today's names after the move.
  return out as T;
}
