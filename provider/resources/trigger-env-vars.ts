/**
 * TriggerEnvVars: build-time variables of one trigger (spec A), as a map name → {value, isSecret}.
 *
 * - It owns only its keys: variables set by hand or by another TriggerEnvVars on the same trigger are
 *   left alone, and a key it stops managing is deleted.
 * - The class splits the map into `plainVariables` and `secretVariables`; the latter is a Pulumi
 *   secret in state and in every output, so a plain value's change is visible in a preview and a
 *   secret's is not. Secrets are compared through `secretHashes` (the API answers `value: null`).
 * - Drift on refresh: plain values, the key set, and a secret that turned plain or vanished. A secret's
 *   value changed out of band cannot be seen (the API never returns it).
 * - Identity: the account and the trigger (changing either replaces).
 */
import * as pulumi from "@pulumi/pulumi";
import { NotFoundError } from "../../sdk/errors";
import type { EnvVars } from "../../sdk/schemas/builds";
import { EnvVarsPatchBodySchema, UuidSchema, type EnvVarsPatchBody } from "../../sdk/schemas/builds";
import { changedKeys, checkWith, containsUnknown, deepEqual, isUnknown, secretHash } from "../inputs";
import { AccountApiResource, registerArgs, type CommonArgs } from "../resource";
import type { CheckFailure, HandlerContext, ResourceHandler } from "../types";

// ---- shapes ----

export interface TriggerEnvVarInput {
  value: string;
  /** Masked in build logs and never returned by the API; a Pulumi secret here. Default false. */
  isSecret?: boolean;
}

export interface TriggerEnvVarsInputs {
  accountId?: string;
  importId?: string;
  triggerUuid: string;
  plainVariables: Record<string, string>;
  secretVariables: Record<string, string>;
}

export interface TriggerEnvVarsOutputs extends TriggerEnvVarsInputs {
  /** Per secret key, a salted hash of its value: changes show without revealing the value. */
  secretHashes: Record<string, string>;
  /** Every key this resource manages, sorted. */
  keys: string[];
}

export interface TriggerEnvVarsArgs extends CommonArgs {
  triggerUuid: pulumi.Input<string>;
  variables: pulumi.Input<
    Record<string, pulumi.Input<{ value: pulumi.Input<string>; isSecret?: pulumi.Input<boolean> }>>
  >;
}

// ---- declarations beside the fields ----

/** Identity: the variables belong to one trigger of one account. */
export const REPLACE_KEYS = ["accountId", "triggerUuid"] as const;
export const OUTPUT_NAMES = ["secretHashes", "keys"] as const;
export const SECRET_OUTPUTS = ["secretVariables"] as const;

// ---- pure planning (tested with tables) ----

/** The class's split of the program's map. */
export function splitVariables(variables: Record<string, TriggerEnvVarInput>): {
  plainVariables: Record<string, string>;
  secretVariables: Record<string, string>;
} {
  const plainVariables: Record<string, string> = {};
  const secretVariables: Record<string, string> = {};
  for (const [k, v] of Object.entries(variables ?? {}))
    (v.isSecret ? secretVariables : plainVariables)[k] = v.value;
  return { plainVariables, secretVariables };
}

export function hashesOf(secrets: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(secrets).map(([k, v]) => [k, secretHash(`secretVariables.${k}`, v)]),
  );
}

const keysOf = (i: Pick<TriggerEnvVarsInputs, "plainVariables" | "secretVariables">): string[] =>
  [...Object.keys(i.plainVariables ?? {}), ...Object.keys(i.secretVariables ?? {})].sort();

export function toPatchBody(
  i: Pick<TriggerEnvVarsInputs, "plainVariables" | "secretVariables">,
  only?: readonly string[],
): EnvVarsPatchBody {
  const body: EnvVarsPatchBody = {};
  for (const [k, value] of Object.entries(i.plainVariables ?? {}))
    if (!only || only.includes(k)) body[k] = { value, is_secret: false };
  for (const [k, value] of Object.entries(i.secretVariables ?? {}))
    if (!only || only.includes(k)) body[k] = { value, is_secret: true };
  return body;
}

export function checkInputs(news: Record<string, unknown>): {
  inputs: TriggerEnvVarsInputs;
  failures: CheckFailure[];
} {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(news)) if (v !== undefined && v !== null) out[k] = v;
  out.plainVariables ??= {};
  out.secretVariables ??= {};
  const inputs = out as unknown as TriggerEnvVarsInputs;
  const failures: CheckFailure[] = [];
  if (inputs.triggerUuid === undefined)
    failures.push({ property: "triggerUuid", reason: "triggerUuid: required" });
  else if (!isUnknown(inputs.triggerUuid) && !UuidSchema.safeParse(inputs.triggerUuid).success) {
    failures.push({ property: "triggerUuid", reason: "triggerUuid: must be a UUID" });
  }
  if (
    inputs.importId !== undefined &&
    !containsUnknown([inputs.importId, inputs.triggerUuid]) &&
    inputs.importId !== inputs.triggerUuid
  ) {
    failures.push({
      property: "importId",
      reason: "importId: must equal triggerUuid (the variables of that trigger are adopted)",
    });
  }
  if (!containsUnknown([inputs.plainVariables, inputs.secretVariables])) {
    const both = Object.keys(inputs.plainVariables).filter((k) => k in inputs.secretVariables);
    for (const k of both)
      failures.push({ property: "variables", reason: `variables.${k}: given both as plain and as secret` });
    for (const f of checkWith(EnvVarsPatchBodySchema, toPatchBody(inputs), (p) => `variables.${p}`)) {
      failures.push({
        property: "variables",
        reason: f.reason.replace(/^variables\.([^:]*)\.is_secret:/, "variables.$1.isSecret:"),
      });
    }
  }
  return { inputs, failures };
}

/** Keys whose value (or secrecy) changed, keys added, keys removed. `olds` are the previous outputs. */
export function planChanges(
  olds: TriggerEnvVarsOutputs,
  news: TriggerEnvVarsInputs,
): { set: string[]; removed: string[]; changedInputs: string[] } {
  // At preview a map may be unknown as a whole: it counts as changed, with nothing to plan yet.
  const plain = isUnknown(news.plainVariables) ? {} : news.plainVariables;
  const secret = isUnknown(news.secretVariables) ? {} : news.secretVariables;
  const set: string[] = [];
  for (const [k, v] of Object.entries(plain)) if (olds.plainVariables?.[k] !== v) set.push(k);
  const newHashes = hashesOf(secret);
  for (const [k, h] of Object.entries(newHashes)) if (olds.secretHashes?.[k] !== h) set.push(k);
  const removed = keysOf(olds).filter((k) => !(k in plain) && !(k in secret));
  const changedInputs = changedKeys(
    { accountId: olds.accountId, triggerUuid: olds.triggerUuid, plainVariables: olds.plainVariables },
    { accountId: news.accountId, triggerUuid: news.triggerUuid, plainVariables: news.plainVariables },
  );
  if (isUnknown(news.secretVariables) || !deepEqual(olds.secretHashes ?? {}, newHashes))
    changedInputs.push("secretVariables");
  return { set: set.sort(), removed, changedInputs };
}

/**
 * The live variables projected onto the inputs: a plain key keeps the live value; a secret key keeps
 * the stored value while the service still holds it as a secret; a key gone, or of the other kind,
 * drops out (the next `up` sets it again).
 */
export function projectInputs(previous: TriggerEnvVarsInputs, live: EnvVars): TriggerEnvVarsInputs {
  const plainVariables: Record<string, string> = {};
  const secretVariables: Record<string, string> = {};
  for (const k of Object.keys(previous.plainVariables ?? {})) {
    const v = live[k];
    if (v && !v.is_secret && v.value !== null) plainVariables[k] = v.value;
  }
  for (const [k, value] of Object.entries(previous.secretVariables ?? {})) {
    if (live[k]?.is_secret) secretVariables[k] = value;
  }
  return {
    ...(previous.accountId !== undefined ? { accountId: previous.accountId } : {}),
    ...(previous.importId !== undefined ? { importId: previous.importId } : {}),
    triggerUuid: previous.triggerUuid,
    plainVariables,
    secretVariables,
  };
}

export function outputsOf(inputs: TriggerEnvVarsInputs): TriggerEnvVarsOutputs {
  return { ...inputs, secretHashes: hashesOf(inputs.secretVariables), keys: keysOf(inputs) };
}

// ---- the handler ----

async function deleteKeys(
  ctx: HandlerContext,
  accountId: string,
  triggerUuid: string,
  keys: readonly string[],
): Promise<void> {
  for (const key of keys) {
    try {
      await ctx.api.builds.deleteEnvironmentVariable(triggerUuid, key, { accountId });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }
}

export const handler: ResourceHandler<TriggerEnvVarsInputs, TriggerEnvVarsOutputs> = {
  async check(_olds, news) {
    return checkInputs(news);
  },

  async diff(_id, olds, news) {
    const { changedInputs } = planChanges(olds, news);
    const replaces = changedInputs.filter((k) => (REPLACE_KEYS as readonly string[]).includes(k));
    return { changes: changedInputs.length > 0, replaces, deleteBeforeReplace: false };
  },

  async create(inputs, ctx) {
    const accountId = ctx.accountId(inputs.accountId);
    const live = await ctx.api.builds.getEnvironmentVariables(inputs.triggerUuid, { accountId });
    const clash = keysOf(inputs).filter((k) => k in live);
    if (clash.length && inputs.importId === undefined) {
      throw new Error(
        `variables: ${clash.join(", ")} already set on trigger ${inputs.triggerUuid}; set importId: "${inputs.triggerUuid}" to adopt them`,
      );
    }
    if (keysOf(inputs).length) {
      await ctx.api.builds.patchEnvironmentVariables(inputs.triggerUuid, {
        accountId,
        variables: toPatchBody(inputs),
      });
    }
    return { id: inputs.triggerUuid, outs: outputsOf(inputs) };
  },

  async read(id, props, ctx) {
    const previous = { ...props, triggerUuid: props.triggerUuid ?? id };
    let live: EnvVars;
    try {
      live = await ctx.api.builds.getEnvironmentVariables(previous.triggerUuid, {
        accountId: ctx.accountId(props.accountId),
      });
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
    const inputs = projectInputs(previous, live);
    return { id, props: outputsOf(inputs), inputs };
  },

  async update(_id, olds, news, ctx) {
    const accountId = ctx.accountId(news.accountId);
    const { set, removed } = planChanges(olds, news);
    await deleteKeys(ctx, accountId, news.triggerUuid, removed);
    if (set.length) {
      await ctx.api.builds.patchEnvironmentVariables(news.triggerUuid, {
        accountId,
        variables: toPatchBody(news, set),
      });
    }
    return { outs: outputsOf(news) };
  },

  async delete(id, props, ctx) {
    const accountId = ctx.accountId(props.accountId);
    await deleteKeys(ctx, accountId, props.triggerUuid ?? id, keysOf(props));
  },
};

// ---- the resource class ----

export class TriggerEnvVars extends AccountApiResource {
  declare readonly accountId: pulumi.Output<string | undefined>;
  declare readonly triggerUuid: pulumi.Output<string>;
  declare readonly plainVariables: pulumi.Output<Record<string, string>>;
  declare readonly secretVariables: pulumi.Output<Record<string, string>>;
  declare readonly secretHashes: pulumi.Output<Record<string, string>>;
  declare readonly keys: pulumi.Output<string[]>;

  constructor(name: string, args: TriggerEnvVarsArgs, opts?: pulumi.CustomResourceOptions) {
    const { variables, ...rest } = args;
    const split = pulumi
      .output(variables)
      .apply((v) => splitVariables(v as Record<string, TriggerEnvVarInput>));
    const props: Record<string, unknown> = {
      ...rest,
      plainVariables: split.apply((s) => s.plainVariables),
      // Encrypted in state even when the program passed plain strings.
      secretVariables: pulumi.secret(split.apply((s) => s.secretVariables)),
    };
    super("TriggerEnvVars", name, registerArgs(props, OUTPUT_NAMES), opts, SECRET_OUTPUTS);
  }
}
