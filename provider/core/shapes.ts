/**
 * What an opaque input type stands for. Some inputs are `z.custom` types that check their value with
 * another schema (a nested object in camelCase checked by the sdk's snake_case schema, a run's input
 * whose rules the sdk applies to the whole message): zod cannot see through them, so the package
 * schema (provider/native/schema.ts) looks their shape up here. Each is registered once, where its
 * type is defined (module load); nothing on the resources' own paths reads it.
 */
import { z } from "zod";

export interface Shape {
  /** The zod type whose values the opaque type takes. */
  readonly shape: z.ZodType;
  /** The shape is the wire's: its object keys are snake_case and the program's are their camelCase. */
  readonly camelCase?: true;
}

const SHAPES = new WeakMap<z.core.$ZodType, Shape>();

/** Records what the opaque type `t` stands for, and returns `t`. */
export function withShape<T extends z.ZodType>(t: T, shape: Shape): T {
  SHAPES.set(t, shape);
  return t;
}

/** What the opaque type `t` stands for, if it was registered. */
export function shapeOf(t: z.core.$ZodType): Shape | undefined {
  return SHAPES.get(t);
}

/** An opaque type checked elsewhere, whose values have the form of `shape` (for the package schema). */
export function shaped<T>(shape: z.ZodType): z.ZodType<T> {
  return withShape(z.custom<T>(), { shape });
}
