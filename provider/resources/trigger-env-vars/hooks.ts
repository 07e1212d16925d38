/**
 * What TriggerEnvVars's description cannot say: the variables are read and written through the
 * trigger's map (PATCH sets keys, DELETE removes one), a secret's value never comes back (read keeps
 * the stored one while the service still holds the key as a secret), and 0.1.x stored the map split
 * in two (`plainVariables`, `secretVariables`). Create is the one PATCH, with nothing read before it.
 */
import type { EnvVars, EnvVarsPatchBody } from "../../../sdk/schemas/builds";
import type { InputsOf, StateOf } from "../../core/define";
import {
  orGone,
  type Remote,
  type Checks,
  type Reading,
  type History,
  type InputIssue,
  type Known,
} from "../../core/pipeline";
import { deepEqual, isRecord } from "../../core/values";
import type { HandlerContext } from "../../types";
import { TriggerEnvVarsSpec } from "./spec";

type Spec = typeof TriggerEnvVarsSpec;
export type TriggerEnvVarsInputs = InputsOf<Spec>;
type Variables = TriggerEnvVarsInputs["variables"];

export function rules(i: TriggerEnvVarsInputs, known: Known): InputIssue[] {
  if (i.importId !== undefined && known("importId") && known("triggerUuid") && i.importId !== i.triggerUuid)
    return [
      { field: "importId", rule: "must equal triggerUuid (the variables of that trigger are adopted)" },
    ];
  return [];
}

export function toPatchBody(variables: Variables, only?: readonly string[]): EnvVarsPatchBody {
  const body: EnvVarsPatchBody = {};
  for (const [k, v] of Object.entries(variables))
    if (!only || only.includes(k)) body[k] = { value: v.value, is_secret: v.isSecret };
  return body;
}

/** Keys to set (new, or changed in value or secrecy) and keys to delete. */
export function planChanges(olds: Variables, news: Variables): { set: string[]; removed: string[] } {
  const set = Object.keys(news).filter((k) => !deepEqual(olds[k], news[k]));
  const removed = Object.keys(olds).filter((k) => !(k in news));
  return { set: set.sort(), removed: removed.sort() };
}

/**
 * The live map projected onto the managed keys: a plain key keeps the live value, a secret key its
 * stored value while the service still holds it as a secret; a key gone, or of the other kind, drops
 * out (the next `up` sets it again).
 */
export function project(previous: Variables, live: EnvVars): Variables {
  const out: Variables = {};
  for (const [k, v] of Object.entries(previous)) {
    const l = live[k];
    if (!l || l.is_secret !== v.isSecret) continue;
    out[k] = v.isSecret ? v : { value: l.value ?? "", isSecret: false };
  }
  return out;
}

/**
 * What an import (no stored variables) takes over: every plain variable. A secret's value never
 * comes back from the service, so a secret variable stays unmanaged until the program sets it.
 */
function importable(live: EnvVars): Variables {
  const out: Variables = {};
  for (const [k, v] of Object.entries(live))
    if (!v.is_secret) out[k] = { value: v.value ?? "", isSecret: false };
  return out;
}

/** 0.1.x kept plain and secret values in two maps. */
export function upgrade(state: Record<string, unknown>): Record<string, unknown> {
  const { plainVariables, secretVariables, secretHashes: _hashes, ...rest } = state;
  if (rest.variables !== undefined || (plainVariables === undefined && secretVariables === undefined))
    return state;
  const variables: Record<string, { value: unknown; isSecret: boolean }> = {};
  if (isRecord(plainVariables))
    for (const [k, v] of Object.entries(plainVariables)) variables[k] = { value: v, isSecret: false };
  if (isRecord(secretVariables))
    for (const [k, v] of Object.entries(secretVariables)) variables[k] = { value: v, isSecret: true };
  return { ...rest, variables };
}

async function deleteKeys(
  ctx: HandlerContext,
  i: TriggerEnvVarsInputs,
  keys: readonly string[],
): Promise<void> {
  const accountId = ctx.accountId(i.accountId);
  // A key already gone is deleted.
  for (const key of keys)
    await orGone(
      ctx.api.builds.environmentVariables.delete({
        accountId,
        triggerUuid: i.triggerUuid,
        environmentVariableKey: key,
      }),
    );
}

/** Whether the live map holds this variable as given (a secret's value never comes back). */
const holds = (live: EnvVars, key: string, v: Variables[string]): boolean => {
  const l = live[key];
  return l !== undefined && l.is_secret === v.isSecret && (v.isSecret || l.value === v.value);
};

/**
 * The keys among `set` that the trigger held before the PATCH that set them all: the answer's
 * `created_on` is when a variable was first set, so a key older than the newest of them was there
 * already. When every key was there already (or the service sends no `created_on`) nothing shows.
 */
export function heldBefore(live: EnvVars, set: readonly string[]): string[] {
  const at = set.map((k) => [k, Date.parse(live[k]?.created_on ?? "")] as const);
  const newest = Math.max(...at.map(([, t]) => t).filter((t) => !Number.isNaN(t)));
  return at.filter(([, t]) => t < newest).map(([k]) => k);
}

/**
 * Sets `only` with one PATCH, which sets the keys it names and keeps every other (so resources of
 * other programs writing other keys of the trigger at the same time lose nothing), queued behind the
 * other writes to this trigger in this process; then checks the answer holds every key it set, and
 * sets again what a concurrent writer overwrote in between.
 */
async function patch(
  ctx: HandlerContext,
  i: TriggerEnvVarsInputs,
  only: readonly string[],
): Promise<EnvVars> {
  const accountId = ctx.accountId(i.accountId);
  if (only.length === 0)
    return ctx.api.builds.environmentVariables.list({ accountId, triggerUuid: i.triggerUuid });
  return ctx.serialize(`trigger-env/${i.triggerUuid}`, async () => {
    let keys = only;
    for (let attempt = 1; ; attempt++) {
      const live = await ctx.api.builds.environmentVariables.upsert(
        { accountId, triggerUuid: i.triggerUuid },
        toPatchBody(i.variables, keys),
      );
      const lost = keys.filter((k) => !holds(live, k, i.variables[k]!));
      if (lost.length === 0) return live;
      if (attempt >= 3)
        throw new Error(
          `trigger ${i.triggerUuid}: ${lost.join(", ")} kept being overwritten by another writer`,
        );
      keys = lost;
    }
  });
}

export const remote: Remote<Spec, EnvVars> = {
  noun: "trigger",
  idOf: (_live, i) => i.triggerUuid,
  async get(id, state, ctx) {
    return orGone(
      ctx.api.builds.environmentVariables.list({
        accountId: ctx.accountId(state.accountId),
        triggerUuid: state.triggerUuid ?? id,
      }),
    );
  },
  // One PATCH, as the plain script sends: a key the trigger already holds takes the program's value
  // (docs/assumptions.md), and a PATCH sent again after a lost answer sets the same values.
  async create(i, ctx) {
    const live = await patch(ctx, i, Object.keys(i.variables));
    const held = heldBefore(live, Object.keys(i.variables));
    if (held.length)
      ctx.log(
        `TriggerEnvVars: ${held.join(", ")} already set on trigger ${i.triggerUuid} before this resource; now the program's values`,
      );
    return live;
  },
  async update(_id, i, _changed, olds: StateOf<Spec>, ctx) {
    const { set, removed } = planChanges(olds.variables ?? {}, i.variables);
    await deleteKeys(ctx, i, removed);
    return patch(ctx, i, set);
  },
  async remove(_id, state, ctx) {
    await deleteKeys(ctx, state, Object.keys(state.variables ?? {}));
  },
};

export const checks: Checks<Spec> = {
  rules,
};

export const reading: Reading<Spec, EnvVars> = {
  project: (live, previous, fromTable) => ({
    ...fromTable,
    variables: project(previous.variables ?? importable(live), live),
  }),
  outputs: (_live, i) => ({ keys: Object.keys(i.variables).sort() }),
};

export const history: History = {
  upgrade,
};
