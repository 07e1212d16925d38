/**
 * What SearchNamespace's description cannot say: `default` is never a resource, its id (the name), a description cleared on the service read
 * as none, and a delete that takes the namespace's instances with it (said in the log).
 *
 * Create is the POST alone: the service refuses a name in use (409), which leads to the look-up by
 * name; an existing namespace is adopted only where its description equals the inputs' (an earlier
 * attempt of this create), otherwise refused naming `importId`.
 */
import type { SearchNamespace as LiveNamespace } from "../../../sdk/search";
import { fromWire, type InputsOf } from "../../core/define";
import {
  orGone,
  type Adoption,
  type Checks,
  type InputIssue,
  type Known,
  type NaturalKey,
  type Reading,
  type Remote,
} from "../../core/pipeline";
import type { HandlerContext } from "../../types";
import { SearchNamespaceSpec } from "./spec";

type Spec = typeof SearchNamespaceSpec;
export type SearchNamespaceInputs = InputsOf<Spec>;

/** The namespace every account has, which holds instances given no namespace. */
export const DEFAULT_NAMESPACE = "default";

export function rules(i: SearchNamespaceInputs, known: Known): InputIssue[] {
  const issues: InputIssue[] = [];
  if (known("name") && i.name === DEFAULT_NAMESPACE)
    issues.push({
      field: "name",
      rule: 'must not be "default": it always exists and cannot be deleted (an instance without namespace lives in it)',
    });
  if (i.importId !== undefined && known("importId") && known("name") && i.importId !== i.name)
    issues.push({ field: "importId", rule: "must equal name (a namespace's name never changes)" });
  return issues;
}

const ref = (name: string, i: { accountId?: string | undefined }, ctx: HandlerContext) => ({
  accountId: ctx.accountId(i.accountId),
  name,
});

/** The inputs of a live namespace: a description cleared (null) is none. */
export function project(live: LiveNamespace, fromTable: SearchNamespaceInputs): SearchNamespaceInputs {
  const read = fromWire(SearchNamespaceSpec, live, "input");
  const { description: _previous, ...rest } = fromTable;
  return typeof read.description === "string" ? { ...rest, description: read.description } : rest;
}

export const remote: Remote<Spec, LiveNamespace> = {
  noun: "search namespace",
  idOf: (live) => live.name,
  get: (name, state, ctx) => orGone(ctx.api.search.namespaces.get(ref(name, state, ctx))),
  create: (i, ctx) =>
    ctx.api.search.namespaces.create(
      { accountId: ctx.accountId(i.accountId) },
      { name: i.name, ...(i.description !== undefined ? { description: i.description } : {}) },
    ),
  // The PUT sets the description; none in the inputs clears it.
  update: (name, i, _changed, _olds, ctx) =>
    ctx.api.search.namespaces.update(ref(name, i, ctx), { description: i.description ?? null }),
  // The instances it holds are listed first, to say which went with it (the listing of a namespace
  // already gone is a 400, as the service's: its look-up comes first).
  async remove(name, state, ctx) {
    if (!(await remote.get(name, state, ctx))) return;
    const where = { accountId: ctx.accountId(state.accountId), namespace: name };
    const held: string[] = [];
    for await (const inst of ctx.api.search.instances.list(where)) held.push(inst.id);
    await ctx.api.search.namespaces.delete(ref(name, state, ctx));
    if (held.length > 0)
      ctx.log(
        `SearchNamespace ${name}: deleted with the ${held.length} instance(s) it held (${held.join(", ")}): the service deletes a namespace's instances with it`,
      );
  },
};

export const checks: Checks<Spec> = {
  rules,
};

export const key: NaturalKey<Spec, LiveNamespace> = {
  keyField: "name",
  keyOf: (i) => `"${i.name}"`,
  findByKey: (i, ctx) => remote.get(i.name, i, ctx),
};

export const adoption: Adoption<Spec, LiveNamespace> = {
  importIdOf: (live) => live.name,
};

export const reading: Reading<Spec, LiveNamespace> = {
  project: (live, _previous, fromTable) => project(live, fromTable),
};
