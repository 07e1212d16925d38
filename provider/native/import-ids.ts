/**
 * `pulumi import <token> <name> <id>` hands read an id and nothing else. Read finds most objects
 * from their resource id alone, but the inputs it answers are what the live object shows, and some
 * inputs it never shows: the trigger a variable set belongs to, the zone of a setting, the app of a
 * meeting, the script of a trigger. Those kinds take an import id whose parts are these inputs (the
 * `importForm` of the kind's room); read then gets them as the stored state a created resource would
 * have, and answers them as inputs.
 */
import { inputError } from "../errors";
import { roomOf } from "../kinds";
import type { ProviderKind } from "../types";

export interface ImportTarget {
  /** The resource id read is asked for. */
  readonly id: string;
  /** The inputs read needs to find the object (what the state of a created resource would hold). */
  readonly state: Record<string, unknown>;
}

/** The import id a kind takes, in words, where it is more than the resource id. */
export function importIdForm(kind: ProviderKind): string | undefined {
  return roomOf(kind).importForm?.form;
}

export function importTarget(kind: ProviderKind, importId: string): ImportTarget {
  const f = roomOf(kind).importForm;
  if (!f) return { id: importId, state: {} };
  // The last part takes the rest: a ref or a uuid holds no slash, but nothing is lost if one does.
  const split = importId.split("/");
  const values = [...split.slice(0, f.parts.length - 1), split.slice(f.parts.length - 1).join("/")];
  if (split.length < f.parts.length || values.some((v) => v === ""))
    throw inputError("id", `a ${kind} is imported as ${f.form}, not ${JSON.stringify(importId)}`);
  const state: Record<string, unknown> = {};
  f.parts.forEach((input, i) => {
    if (input !== undefined) state[input] = values[i];
  });
  return { id: f.id === "whole" ? importId : (values.at(-1) ?? importId), state };
}

/**
 * The import id of an object from its resource id and the inputs that hold it (its scope): the
 * resource id where that is the whole import id, else the inputs before it (`""` where unknown).
 */
export function composeImportId(
  kind: ProviderKind,
  resourceId: string,
  scope: Readonly<Record<string, string | undefined>>,
): string {
  const f = roomOf(kind).importForm;
  if (!f || f.id === "whole") return resourceId;
  const before = f.parts.slice(0, -1).map((input) => (input === undefined ? "" : (scope[input] ?? "")));
  return [...before, resourceId].join("/");
}
