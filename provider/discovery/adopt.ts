/**
 * What a program needs to adopt an object: its inputs as the object stands, derived by the same
 * pipeline as the native provider's import (the kind's handler `read` with the import id, import-ids.ts),
 * so that the adopted resource previews no change. Secrets the API never returns cannot be read:
 * each becomes a named placeholder the written program takes from its configuration.
 */
import { createHash } from "node:crypto";
import { roomOf } from "../kinds";
import { importTarget } from "../native/import-ids";
import { handlerFor } from "../registry";
import type { HandlerContext } from "../types";
import type { DiscoveredObject } from "./types";

/** A secret the program reads from its configuration, at `path` in the inputs. */
export interface Placeholder {
  /** The configuration key (without the project prefix). */
  readonly key: string;
  /** Where in the inputs it goes: property names from the top. */
  readonly path: readonly string[];
  /** What it stands for, for the user who sets it. */
  readonly about: string;
}

export interface Adoption {
  readonly object: DiscoveredObject;
  /** The Pulumi resource name the program gives it (unique in the program). */
  readonly name: string;
  /** Every input, as read: literal values; a placeholder's place holds "". */
  readonly inputs: Record<string, unknown>;
  readonly placeholders: readonly Placeholder[];
  /** Its identity inputs a read by id alone does not give back (identityOf). */
  readonly identity: Readonly<Record<string, string>>;
}

/** A resource name from a kind and a label: lower case, `-` between words, unique in `taken`. */
export function resourceName(kind: string, label: string, taken: Set<string>): string {
  const kebab = kind.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase();
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40);
  const base = slug ? `${kebab}-${slug}` : kebab;
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

/**
 * Identity inputs the listing knows and a read by id alone does not give back (a stored state holds
 * them): a trigger's repository connection, a setting's zone, an instance's named namespace.
 */
export function identityOf(object: DiscoveredObject): Record<string, string> {
  return roomOf(object.kind).adoption?.identity?.(object) ?? {};
}

/**
 * The state read is handed besides the import target's: the kind's own (a trigger's variables, read
 * for the keys the stored state names), else the identity.
 */
async function seedState(
  object: DiscoveredObject,
  identity: Record<string, string>,
  ctx: HandlerContext,
): Promise<Record<string, unknown>> {
  const seed = roomOf(object.kind).adoption?.seedState;
  return seed ? seed(object, ctx) : identity;
}

/** The longest variable name kept whole in a placeholder key; a longer one is cut and hashed. */
const KEY_PART_LIMIT = 60;

const shortHash = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 8);

/**
 * The configuration key of a secret variable `key` of resource `name`: `<name>-<key>` where the key
 * is a plain name, else its characters outside `[A-Za-z0-9_-]` replaced and a hash of the original
 * appended, so that `S.1` and `S-1` get distinct keys, the same on every run. `taken` holds the
 * keys already given in the program: a clash (a variable named like another's hashed key) is hashed too.
 */
export function placeholderKey(name: string, key: string, taken: Set<string>): string {
  const plain = key.replace(/[^A-Za-z0-9_-]/g, "-").slice(0, KEY_PART_LIMIT);
  let candidate = plain === key ? `${name}-${key}` : `${name}-${plain}-${shortHash(key)}`;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}-${plain}-${shortHash(`${key}\0${n}`)}`;
  taken.add(candidate);
  return candidate;
}

/** Secrets among the inputs that read cannot give back. */
export function placeholdersOf(
  name: string,
  object: DiscoveredObject,
  inputs: Record<string, unknown>,
  taken: Set<string>,
): Placeholder[] {
  const unread = roomOf(object.kind).adoption?.unreadSecrets?.(object, inputs) ?? [];
  return unread.map((s) => ({ key: placeholderKey(name, s.name, taken), path: s.path, about: s.about }));
}

/** Reads each object through its kind's handler; an object gone meanwhile is left out. */
export async function adoptions(
  objects: readonly DiscoveredObject[],
  ctx: HandlerContext,
): Promise<Adoption[]> {
  const taken = new Set<string>();
  const keys = new Set<string>();
  const out: Adoption[] = [];
  for (const object of objects) {
    const target = importTarget(object.kind, object.importId);
    const identity = identityOf(object);
    const state = { ...target.state, ...(await seedState(object, identity, ctx)) };
    const read = await handlerFor(object.kind).read(target.id, state, ctx);
    if (!read) continue;
    const name = resourceName(object.kind, object.name || object.resourceId, taken);
    const inputs: Record<string, unknown> = { ...read.inputs };
    delete inputs.importId;
    out.push({ object, name, inputs, placeholders: placeholdersOf(name, object, inputs, keys), identity });
  }
  return out;
}
