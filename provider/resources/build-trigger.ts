/**
 * BuildTrigger: one trigger of the build service (spec A) — how a script is built and deployed from a
 * connected repository.
 *
 * - The script is given by tag (`externalScriptId`) or by name (`scriptName`, resolved to the tag in
 *   check, so the stored inputs always carry the tag).
 * - A script has at most two triggers, one production and one preview (`triggerKind`: a wildcard in
 *   `branchIncludes` makes a preview trigger). Check reads the script's live triggers, so a third
 *   trigger, or a second of a kind, fails at preview — the one exception to "check makes no call".
 * - Identity (account, script, repository connection) forces replacement, deleting first: the new
 *   trigger needs the slot of the old one. Every other field updates in place with a PATCH.
 * - check fills defaults (by `kind`) so the stored inputs are complete and refresh shows drift on any
 *   field without a perpetual diff. Variables belong to TriggerEnvVars, not here.
 * - The API cannot read one trigger; read lists the script's triggers and finds this one.
 */
import * as pulumi from "@pulumi/pulumi";
import { ScriptNotFoundError, type Trigger } from "../../sdk/builds";
import { NotFoundError } from "../../sdk/errors";
import {
  ScriptTagSchema,
  TriggerCreateBodySchema,
  triggerKind,
  type TriggerCreateBody,
  type TriggerKind,
  type TriggerUpdateBody,
} from "../../sdk/schemas/builds";
import { UNKNOWN, changedKeys, checkWith, containsUnknown, isUnknown, snakeToCamel, toApi } from "../inputs";
import { AccountApiResource, registerArgs, type CommonArgs } from "../resource";
import type { CheckFailure, HandlerContext, ResourceHandler } from "../types";

// ---- shapes ----

/** The trigger's own settings, named after the spec's fields in camelCase. */
export interface BuildTriggerSettings {
  triggerName: string;
  buildTokenUuid: string;
  buildCommand: string;
  deployCommand: string;
  rootDirectory: string;
  branchIncludes: string[];
  branchExcludes: string[];
  pathIncludes: string[];
  pathExcludes: string[];
  buildCachingEnabled: boolean;
}

export interface BuildTriggerInputs extends BuildTriggerSettings {
  accountId?: string;
  importId?: string;
  /** The script's name; resolved to its tag in check. Give this or `externalScriptId`. */
  scriptName?: string;
  /** The script's tag. */
  externalScriptId?: string;
  repoConnectionUuid: string;
  /** Production or preview; derived from `branchIncludes` when not given, and checked against it. */
  kind: TriggerKind;
}

export interface BuildTriggerOutputs extends BuildTriggerInputs {
  triggerUuid: string;
  createdOn?: string | null;
  modifiedOn?: string | null;
}

type Inputs<T> = { [K in keyof T]?: pulumi.Input<T[K]> };

export interface BuildTriggerArgs
  extends CommonArgs, Inputs<Omit<BuildTriggerInputs, "accountId" | "importId">> {
  repoConnectionUuid: pulumi.Input<string>;
  buildTokenUuid: pulumi.Input<string>;
}

// ---- declarations beside the fields ----

/** Identity: a trigger cannot move to another account, script or repository connection. */
export const REPLACE_KEYS = ["accountId", "scriptName", "externalScriptId", "repoConnectionUuid"] as const;

export const SETTING_KEYS = [
  "triggerName",
  "buildTokenUuid",
  "buildCommand",
  "deployCommand",
  "rootDirectory",
  "branchIncludes",
  "branchExcludes",
  "pathIncludes",
  "pathExcludes",
  "buildCachingEnabled",
] as const satisfies readonly (keyof BuildTriggerSettings)[];

const INPUT_KEYS = [
  "accountId",
  "importId",
  "scriptName",
  "externalScriptId",
  "repoConnectionUuid",
  "kind",
  ...SETTING_KEYS,
] as const satisfies readonly (keyof BuildTriggerInputs)[];

export const OUTPUT_NAMES = ["triggerUuid", "createdOn", "modifiedOn", "kind", "externalScriptId"] as const;

/** Defaults by kind: the preview trigger uploads a version without replacing the live deployment. */
export const KIND_DEFAULTS: Record<
  TriggerKind,
  Pick<BuildTriggerSettings, "branchIncludes" | "deployCommand">
> = {
  production: { branchIncludes: ["main"], deployCommand: "npx wrangler deploy" },
  preview: { branchIncludes: ["*"], deployCommand: "npx wrangler versions upload" },
};

export const SETTING_DEFAULTS: Pick<
  BuildTriggerSettings,
  | "buildCommand"
  | "rootDirectory"
  | "branchExcludes"
  | "pathIncludes"
  | "pathExcludes"
  | "buildCachingEnabled"
> = {
  buildCommand: "",
  rootDirectory: "/",
  branchExcludes: [],
  pathIncludes: ["*"],
  pathExcludes: [],
  buildCachingEnabled: true,
};

// ---- pure planning (tested with tables) ----

/** Input name of an API path (`external_script_id` names whichever script input the program used). */
export function inputFieldName(apiPath: string, viaName: boolean): string {
  if (apiPath === "external_script_id" || apiPath.startsWith("external_script_id.")) {
    return viaName ? "scriptName" : "externalScriptId";
  }
  return apiPath.split(".").map(snakeToCamel).join(".");
}

/**
 * Inputs as stored: defaults filled, the kind derived or checked. Returns failures for what cannot
 * be defaulted; the script is resolved separately (it needs the API).
 */
export function normalizeInputs(news: Record<string, unknown>): {
  inputs: BuildTriggerInputs;
  failures: CheckFailure[];
} {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(news)) if (v !== undefined && v !== null) out[k] = v;
  const failures: CheckFailure[] = [];
  const kind = out.kind;
  if (kind !== undefined && !isUnknown(kind) && kind !== "production" && kind !== "preview") {
    failures.push({ property: "kind", reason: 'kind: must be "production" or "preview"' });
  }
  const knownKind = kind === "production" || kind === "preview" ? kind : undefined;
  if (out.branchIncludes === undefined) {
    if (knownKind) out.branchIncludes = [...KIND_DEFAULTS[knownKind].branchIncludes];
    else if (kind === undefined) {
      failures.push({
        property: "branchIncludes",
        reason:
          'branchIncludes: required unless kind is set ("production" defaults to ["main"], "preview" to ["*"])',
      });
    }
  }
  const includes = out.branchIncludes;
  const derived =
    Array.isArray(includes) && !containsUnknown(includes)
      ? triggerKind({ branch_includes: includes as string[] })
      : undefined;
  if (knownKind && derived && knownKind !== derived) {
    failures.push({
      property: "kind",
      reason:
        knownKind === "preview"
          ? "kind: a preview trigger needs a branch pattern with '*' in branchIncludes"
          : "kind: a production trigger names its branches in branchIncludes without '*'",
    });
  }
  if (kind === undefined && derived) out.kind = derived;
  const effective = knownKind ?? derived;
  if (out.deployCommand === undefined && effective)
    out.deployCommand = KIND_DEFAULTS[effective].deployCommand;
  if (out.triggerName === undefined && effective) out.triggerName = effective;
  for (const [k, v] of Object.entries(SETTING_DEFAULTS))
    if (out[k] === undefined) out[k] = structuredClone(v);
  if (out.scriptName !== undefined && news.externalScriptId !== undefined && news.externalScriptId !== null) {
    failures.push({
      property: "scriptName",
      reason: "scriptName: give either scriptName or externalScriptId, not both",
    });
  }
  if (out.scriptName === undefined && out.externalScriptId === undefined) {
    failures.push({
      property: "scriptName",
      reason: "scriptName: required (or externalScriptId, the script's tag)",
    });
  }
  if (
    out.importId !== undefined &&
    !isUnknown(out.importId) &&
    typeof out.importId === "string" &&
    !/^[0-9a-f-]{36}$/i.test(out.importId)
  ) {
    failures.push({ property: "importId", reason: "importId: must be the trigger's UUID (trigger_uuid)" });
  }
  return { inputs: out as unknown as BuildTriggerInputs, failures };
}

/** The create body of these inputs (script tag may still be unknown at preview). */
export function toCreateBody(inputs: BuildTriggerInputs): TriggerCreateBody {
  const settings: Record<string, unknown> = {};
  for (const k of SETTING_KEYS) settings[k] = inputs[k];
  return {
    external_script_id: inputs.externalScriptId,
    repo_connection_uuid: inputs.repoConnectionUuid,
    ...(toApi(settings) as object),
  } as TriggerCreateBody;
}

/** The PATCH body for the settings that changed. */
export function toUpdateBody(inputs: BuildTriggerInputs, changed: readonly string[]): TriggerUpdateBody {
  const settings: Record<string, unknown> = {};
  for (const k of SETTING_KEYS) if (changed.includes(k)) settings[k] = inputs[k];
  return toApi(settings) as TriggerUpdateBody;
}

/**
 * The slot rule against the script's live triggers. `own` is the trigger this resource already
 * manages (or adopts), which does not count against it.
 */
export function slotFailure(
  live: readonly Trigger[],
  kind: TriggerKind,
  own: (t: Trigger) => boolean,
  scriptLabel: string,
): CheckFailure | undefined {
  const others = live.filter((t) => !own(t));
  const same = others.find((t) => triggerKind(t) === kind);
  if (same) {
    return {
      property: "kind",
      reason:
        `kind: script ${scriptLabel} already has a ${kind} trigger "${same.trigger_name ?? ""}" (${same.trigger_uuid}); ` +
        `a script has at most two triggers, one production and one preview; set importId: "${same.trigger_uuid}" to adopt it`,
    };
  }
  if (others.length >= 2) {
    return {
      property: "kind",
      reason: `kind: script ${scriptLabel} already has two triggers; a script has at most two (one production, one preview)`,
    };
  }
  return undefined;
}

function inputPart(o: Partial<BuildTriggerInputs>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of INPUT_KEYS) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/** Which inputs changed and which of those replace. `olds` are the previous outputs. */
export function planDiff(
  olds: BuildTriggerOutputs,
  news: BuildTriggerInputs,
): { changes: boolean; replaces: string[]; changed: string[] } {
  const changed = changedKeys(inputPart(olds), inputPart(news), ["importId"]);
  const sameScript =
    olds.externalScriptId !== undefined &&
    news.externalScriptId !== undefined &&
    !isUnknown(news.externalScriptId) &&
    olds.externalScriptId.toLowerCase() === news.externalScriptId.toLowerCase();
  // Switching between naming the script and giving its tag is no change of identity.
  const replaces = changed.filter(
    (k) =>
      (REPLACE_KEYS as readonly string[]).includes(k) &&
      !(sameScript && (k === "scriptName" || k === "externalScriptId")),
  );
  return { changes: changed.length > 0, replaces, changed };
}

/** The live trigger in input naming. */
export function liveSettings(t: Trigger): Partial<BuildTriggerSettings> & { repoConnectionUuid?: string } {
  const out: Record<string, unknown> = {};
  for (const k of SETTING_KEYS) {
    const v = (t as Record<string, unknown>)[k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
    if (v !== undefined && v !== null) out[k] = v;
  }
  const repo = t.repo_connection_uuid ?? t.repo_connection?.repo_connection_uuid;
  if (repo) out.repoConnectionUuid = repo;
  return out;
}

/** The live trigger projected onto the inputs: identity from the previous state, the rest live. */
export function projectInputs(previous: BuildTriggerInputs, live: Trigger): BuildTriggerInputs {
  const out: Record<string, unknown> = {};
  for (const k of ["accountId", "importId", "scriptName", "externalScriptId"] as const) {
    if (previous[k] !== undefined) out[k] = previous[k];
  }
  const settings = liveSettings(live);
  return {
    ...(out as Partial<BuildTriggerInputs>),
    repoConnectionUuid: previous.repoConnectionUuid,
    ...settings,
    kind: triggerKind(live),
  } as BuildTriggerInputs;
}

export function outputsOf(inputs: BuildTriggerInputs, live: Trigger): BuildTriggerOutputs {
  return {
    ...inputs,
    triggerUuid: live.trigger_uuid,
    createdOn: live.created_on ?? null,
    modifiedOn: live.modified_on ?? null,
  };
}

// ---- the handler ----

async function resolveTag(inputs: BuildTriggerInputs, ctx: HandlerContext): Promise<string> {
  if (inputs.externalScriptId) return inputs.externalScriptId;
  return ctx.api.builds.resolveScriptTag(inputs.scriptName!, { accountId: ctx.accountId(inputs.accountId) });
}

async function liveTriggers(
  ctx: HandlerContext,
  accountId: string,
  tag: string,
): Promise<Trigger[] | undefined> {
  try {
    return await ctx.api.builds.listTriggers(tag, { accountId });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

export const handler: ResourceHandler<BuildTriggerInputs, BuildTriggerOutputs> = {
  async check(olds, news, ctx) {
    const { inputs, failures } = normalizeInputs(news);
    const viaName = inputs.scriptName !== undefined;
    // Resolve the name, so stored inputs carry the tag and the slot rule can be checked.
    if (viaName && !containsUnknown([inputs.scriptName, inputs.accountId]) && failures.length === 0) {
      try {
        inputs.externalScriptId = await ctx.api.builds.resolveScriptTag(inputs.scriptName!, {
          accountId: ctx.accountId(inputs.accountId),
        });
      } catch (err) {
        if (!(err instanceof ScriptNotFoundError)) throw err;
        failures.push({ property: "scriptName", reason: `scriptName: ${err.message}` });
      }
    }
    const body = toCreateBody(inputs);
    // A name unknown until apply, or one already reported above, is not reported again as a bad tag.
    if (viaName && inputs.externalScriptId === undefined) body.external_script_id = UNKNOWN;
    failures.push(...checkWith(TriggerCreateBodySchema, body, (p) => inputFieldName(p, viaName)));
    // Spec Limits: at most two triggers per script. Checked on live state so preview fails.
    const tag = inputs.externalScriptId;
    const ready =
      failures.length === 0 &&
      tag !== undefined &&
      !containsUnknown([tag, inputs.branchIncludes, inputs.importId, inputs.accountId]) &&
      ScriptTagSchema.safeParse(tag).success;
    if (ready) {
      const accountId = ctx.accountId(inputs.accountId);
      const live = await liveTriggers(ctx, accountId, tag);
      if (live === undefined) {
        failures.push({
          property: viaName ? "scriptName" : "externalScriptId",
          reason: `${viaName ? "scriptName" : "externalScriptId"}: no script with tag ${tag} in account ${accountId}`,
        });
      } else {
        const sameScript = olds?.externalScriptId?.toLowerCase() === tag.toLowerCase();
        const own = (t: Trigger): boolean =>
          (inputs.importId !== undefined && t.trigger_uuid.toLowerCase() === inputs.importId.toLowerCase()) ||
          // One trigger per kind: the live one of the kind this resource had is this resource's.
          (sameScript && olds?.kind !== undefined && triggerKind(t) === olds.kind);
        const f = slotFailure(live, inputs.kind, own, inputs.scriptName ?? tag);
        if (f) failures.push(f);
      }
    }
    return { inputs, failures };
  },

  async diff(_id, olds, news) {
    const { changes, replaces } = planDiff(olds, news);
    // The replacement needs the slot its predecessor holds: delete first.
    return { changes, replaces, deleteBeforeReplace: replaces.length > 0 };
  },

  async create(inputs, ctx) {
    const accountId = ctx.accountId(inputs.accountId);
    const tag = await resolveTag(inputs, ctx);
    const withTag = { ...inputs, externalScriptId: tag };
    const live = (await liveTriggers(ctx, accountId, tag)) ?? [];
    if (inputs.importId !== undefined) {
      const existing = live.find((t) => t.trigger_uuid.toLowerCase() === inputs.importId!.toLowerCase());
      if (!existing)
        throw new Error(
          `importId: trigger ${inputs.importId} not found on script ${inputs.scriptName ?? tag}; nothing to adopt`,
        );
      const changed = SETTING_KEYS.filter(
        (k) => JSON.stringify(liveSettings(existing)[k]) !== JSON.stringify(inputs[k]),
      );
      const updated = changed.length
        ? await ctx.api.builds.updateTrigger(existing.trigger_uuid, {
            accountId,
            ...toUpdateBody(inputs, changed),
          })
        : existing;
      return { id: updated.trigger_uuid, outs: outputsOf(withTag, updated) };
    }
    const taken = live.find((t) => triggerKind(t) === inputs.kind);
    if (taken) {
      throw new Error(
        `kind: script ${inputs.scriptName ?? tag} already has a ${inputs.kind} trigger "${taken.trigger_name ?? ""}" (${taken.trigger_uuid}); set importId: "${taken.trigger_uuid}" to adopt it`,
      );
    }
    const created = await ctx.api.builds.createTrigger({ accountId, ...toCreateBody(withTag) });
    return { id: created.trigger_uuid, outs: outputsOf(withTag, created) };
  },

  async read(id, props, ctx) {
    const accountId = ctx.accountId(props.accountId);
    const tag =
      props.externalScriptId ??
      (props.scriptName ? await resolveTag(props, ctx).catch(() => undefined) : undefined);
    if (!tag) return undefined;
    const live = (await liveTriggers(ctx, accountId, tag))?.find(
      (t) => t.trigger_uuid.toLowerCase() === id.toLowerCase(),
    );
    if (!live) return undefined;
    const inputs = projectInputs({ ...props, externalScriptId: tag }, live);
    return { id, props: outputsOf(inputs, live), inputs };
  },

  async update(id, olds, news, ctx) {
    const { changed } = planDiff(olds, news);
    const settings = changed.filter((k) => (SETTING_KEYS as readonly string[]).includes(k));
    const accountId = ctx.accountId(news.accountId);
    const tag = news.externalScriptId ?? olds.externalScriptId!;
    let live: Trigger | undefined;
    if (settings.length) {
      live = await ctx.api.builds.updateTrigger(id, { accountId, ...toUpdateBody(news, settings) });
    } else {
      live = (await liveTriggers(ctx, accountId, tag))?.find((t) => t.trigger_uuid === id);
    }
    const outs = live
      ? outputsOf({ ...news, externalScriptId: tag }, live)
      : { ...olds, ...news, externalScriptId: tag, triggerUuid: id };
    return { outs };
  },

  async delete(id, props, ctx) {
    try {
      await ctx.api.builds.deleteTrigger(id, { accountId: ctx.accountId(props.accountId) });
    } catch (err) {
      if (err instanceof NotFoundError) return;
      throw err;
    }
  },
};

// ---- the resource class ----

export class BuildTrigger extends AccountApiResource {
  declare readonly accountId: pulumi.Output<string | undefined>;
  declare readonly scriptName: pulumi.Output<string | undefined>;
  /** The script's tag (resolved from `scriptName` when that was given). */
  declare readonly externalScriptId: pulumi.Output<string>;
  declare readonly repoConnectionUuid: pulumi.Output<string>;
  declare readonly kind: pulumi.Output<TriggerKind>;
  declare readonly triggerName: pulumi.Output<string>;
  declare readonly buildTokenUuid: pulumi.Output<string>;
  declare readonly buildCommand: pulumi.Output<string>;
  declare readonly deployCommand: pulumi.Output<string>;
  declare readonly rootDirectory: pulumi.Output<string>;
  declare readonly branchIncludes: pulumi.Output<string[]>;
  declare readonly branchExcludes: pulumi.Output<string[]>;
  declare readonly pathIncludes: pulumi.Output<string[]>;
  declare readonly pathExcludes: pulumi.Output<string[]>;
  declare readonly buildCachingEnabled: pulumi.Output<boolean>;
  declare readonly triggerUuid: pulumi.Output<string>;
  declare readonly createdOn: pulumi.Output<string | null>;
  declare readonly modifiedOn: pulumi.Output<string | null>;

  constructor(name: string, args: BuildTriggerArgs, opts?: pulumi.CustomResourceOptions) {
    super("BuildTrigger", name, registerArgs(args, OUTPUT_NAMES), opts);
  }
}
