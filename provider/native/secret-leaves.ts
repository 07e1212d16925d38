/**
 * Secrets inside an input, leaf by leaf, that no field flag can say: a trigger's variable whose
 * `isSecret` is true, a meeting's storage credentials (each the `secretLeaves` of its kind's room).
 * The TypeScript classes wrap them as the program registers them (`prepare` in the resources'
 * index.ts); a native program (YAML, Python, Go) gives plain values, so the provider wraps the same
 * leaves in what check, create, read and update answer. Their neighbours stay readable in state.
 */
import { roomOf } from "../kinds";
import type { ProviderKind } from "../types";

/** The values with the kind's secret leaves wrapped. */
export function withSecretLeaves(
  kind: ProviderKind,
  values: Record<string, unknown>,
): Record<string, unknown> {
  return roomOf(kind).secretLeaves?.(values) ?? values;
}
