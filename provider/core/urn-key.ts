/**
 * A resource's key that survives the loss of state: derived from its URN (stack, project, parent
 * types, type and name), so the same resource of the same program gets the same key on every run.
 * A kind with no natural key (a ConfigRule's ref, a MeetingTemplate's marker) builds its marker from
 * it: a create that a killed engine left pending is then found by the next `up`'s look-up, whatever
 * the state lost (`pulumi refresh --clear-pending-creates` drops the pending create and its inputs).
 *
 * The engine gives the native provider the URN in check; a dynamic provider gets none (pulumi-notes),
 * so the class computes it in the program and passes it as the internal input `__urn`, which check
 * takes out of the inputs before anything else sees them (never stored).
 */
import { createHash } from "node:crypto";

/** The internal input that carries the URN to check (a `__` name, like the engine's `__provider`). */
export const URN_INPUT = "__urn";

/** The stack resource: the parent of every top-level resource, and no part of a URN's type. */
const STACK_TYPE = "pulumi:pulumi:Stack";

/** 16 hex characters of the URN's SHA-256: the part of a marker that tells resources apart. */
export function keyOfUrn(urn: string): string {
  return createHash("sha256").update(urn).digest("hex").slice(0, 16);
}

/**
 * The types of a resource's ancestors, outermost first, as its URN chains them. Read from the SDK's
 * own bookkeeping on each resource (`__pulumiType`, `__parentResource`), which it sets at
 * construction: a parent's URN itself is an Output, and an input that awaits it would make the
 * resource depend on its parent component (and so on itself).
 */
export function parentTypes(parent: unknown): string[] {
  const types: string[] = [];
  for (
    let r: unknown = parent;
    r !== undefined && r !== null;
    r = Reflect.get(Object(r), "__parentResource")
  ) {
    const type: unknown = Reflect.get(Object(r), "__pulumiType");
    if (typeof type !== "string" || type === STACK_TYPE) break;
    types.unshift(type);
  }
  return types;
}

/** The URN the engine gives a resource of `type` named `name` under `parent` in this stack. */
export function urnOf(stack: string, project: string, type: string, name: string, parent?: unknown): string {
  return `urn:pulumi:${stack}::${project}::${[...parentTypes(parent), type].join("$")}::${name}`;
}
