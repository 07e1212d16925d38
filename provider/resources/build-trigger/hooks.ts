/**
 * What BuildTrigger's description cannot say: defaults by kind, the script name to its tag, the
 * slot rule (a script has at most one production and one preview trigger: the program's own rivals at
 * check, a live holder through the create's refusal), and reaching a trigger through its script's
 * listing (the API cannot read one trigger).
 */
import { ScriptNotFoundError, type Trigger } from "../../../sdk/builds";
import { BadRequestError, ConflictError } from "../../../sdk/errors";
import {
  TriggerCreateBodySchema,
  TriggerUpdateBodySchema,
  triggerKind,
  type TriggerKind,
} from "../../../sdk/schemas/builds";
import { toWire, type InputsOf } from "../../core/define";
import {
  orGone,
  type Remote,
  type Checks,
  type NaturalKey,
  type Reading,
  type InputIssue,
  type Known,
} from "../../core/pipeline";
import { inputError } from "../../errors";
import type { HandlerContext } from "../../types";
import { BuildTriggerSpec } from "./spec";

export type BuildTriggerInputs = InputsOf<typeof BuildTriggerSpec>;

/** Defaults by kind: the preview trigger uploads a version without replacing the live deployment. */
export const KIND_DEFAULTS: Record<TriggerKind, { branchIncludes: string[]; deployCommand: string }> = {
  production: { branchIncludes: ["main"], deployCommand: "npx wrangler deploy" },
  preview: { branchIncludes: ["*"], deployCommand: "npx wrangler versions upload" },
};

/** Fields a PATCH can change (the script and the repository connection are fixed at creation). */
const PATCHABLE = new Set(
  Object.entries(BuildTriggerSpec.fields)
    .filter(([, f]) => f.wire !== undefined && f.wire in TriggerUpdateBodySchema.shape)
    .map(([k]) => k),
);

/** The kind the inputs ask for: given, or derived from known branch patterns. */
function kindOf(i: BuildTriggerInputs, known: Known): TriggerKind | undefined {
  if (!known("kind")) return undefined;
  if (i.kind) return i.kind;
  return i.branchIncludes && known("branchIncludes")
    ? triggerKind({ branch_includes: i.branchIncludes })
    : undefined;
}

export function normalize(i: BuildTriggerInputs, known: Known): BuildTriggerInputs {
  const kind = kindOf(i, known);
  if (!kind) return i;
  return {
    ...i,
    kind,
    branchIncludes: i.branchIncludes ?? [...KIND_DEFAULTS[kind].branchIncludes],
    deployCommand: i.deployCommand ?? KIND_DEFAULTS[kind].deployCommand,
    triggerName: i.triggerName ?? kind,
  };
}

export function rules(i: BuildTriggerInputs, known: Known): InputIssue[] {
  const issues: InputIssue[] = [];
  if (known("kind") && i.kind === undefined && i.branchIncludes === undefined)
    issues.push({
      field: "branchIncludes",
      rule: 'required unless kind is set ("production" defaults to ["main"], "preview" to ["*"])',
    });
  if (i.kind && i.branchIncludes && known("branchIncludes") && known("kind")) {
    const derived = triggerKind({ branch_includes: i.branchIncludes });
    if (derived !== i.kind)
      issues.push({
        field: "kind",
        rule:
          i.kind === "preview"
            ? "a preview trigger needs a branch pattern with '*' in branchIncludes"
            : "a production trigger names its branches in branchIncludes without '*'",
      });
  }
  const byName = i.scriptName !== undefined;
  const byTag = i.externalScriptId !== undefined;
  if (byName && byTag)
    issues.push({ field: "scriptName", rule: "give either scriptName or externalScriptId, not both" });
  if (!byName && !byTag)
    issues.push({ field: "scriptName", rule: "required (or externalScriptId, the script's tag)" });
  return issues;
}

const sameId = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

async function scriptTag(i: BuildTriggerInputs, ctx: HandlerContext): Promise<string> {
  if (i.externalScriptId) return i.externalScriptId;
  const name = i.scriptName ?? "";
  try {
    return await ctx.api.builds.scripts.resolveTag({
      accountId: ctx.accountId(i.accountId),
      scriptName: name,
    });
  } catch (err) {
    if (err instanceof ScriptNotFoundError) throw inputError("scriptName", err.message, err);
    throw err;
  }
}

/** The script's triggers; a script that is gone (404) has none. */
async function triggersOf(i: BuildTriggerInputs, ctx: HandlerContext): Promise<Trigger[] | undefined> {
  return orGone(
    ctx.api.builds.triggers.list({
      accountId: ctx.accountId(i.accountId),
      scriptTag: await scriptTag(i, ctx),
    }),
  );
}

/**
 * A create the service refused in a way that may mean the slot is held: its "one trigger of a kind
 * per script" limit (the emulator's 400, code 12002; the public contract documents only 200 for the
 * POST, so any 400) or a 409. The look-up then tells: ours is adopted, another's refused naming it.
 */
export const refusedAsHeld = (err: unknown): boolean =>
  err instanceof BadRequestError || err instanceof ConflictError;

export const remote: Remote<typeof BuildTriggerSpec, Trigger> = {
  noun: "trigger",
  idOf: (live) => live.trigger_uuid,
  async get(id, state, ctx) {
    return (await triggersOf(state, ctx))?.find((t) => sameId(t.trigger_uuid, id));
  },
  async create(i, ctx) {
    const body = TriggerCreateBodySchema.parse(
      toWire(BuildTriggerSpec, { ...i, externalScriptId: await scriptTag(i, ctx) }),
    );
    return ctx.api.builds.triggers.create({ accountId: ctx.accountId(i.accountId) }, body);
  },
  async update(id, i, changed, _olds, ctx) {
    const patch = TriggerUpdateBodySchema.parse(
      toWire(
        BuildTriggerSpec,
        i,
        changed.filter((k) => PATCHABLE.has(k)),
      ),
    );
    if (Object.keys(patch).length === 0) {
      const live = await remote.get(id, i, ctx);
      if (!live) throw inputError("triggerUuid", `trigger ${id} is gone; run refresh`);
      return live;
    }
    return ctx.api.builds.triggers.update({ accountId: ctx.accountId(i.accountId), triggerUuid: id }, patch);
  },
  async remove(id, state, ctx) {
    await ctx.api.builds.triggers.delete({ accountId: ctx.accountId(state.accountId), triggerUuid: id });
  },
};

export const checks: Checks<typeof BuildTriggerSpec> = {
  normalize,
  rules,
  async resolve(i, ctx) {
    return i.scriptName === undefined ? i : { ...i, externalScriptId: await scriptTag(i, ctx) };
  },
  // Another resource of this program taking the same slot: refused now, not halfway through `up`. A
  // slot an object outside the program holds is the create's refusal to tell (no listing at check).
  async checkLive(i, _olds, ctx) {
    const rival =
      i.kind && ctx.claims?.claim(`${ctx.accountId(i.accountId)}/${i.externalScriptId ?? ""}/${i.kind}`, i);
    if (!rival) return [];
    return [
      {
        field: "kind",
        rule: `another BuildTrigger of this program also takes the ${i.kind} trigger of script ${i.scriptName ?? i.externalScriptId}; a script has one production and one preview trigger`,
      },
    ];
  },
};

export const key: NaturalKey<typeof BuildTriggerSpec, Trigger> = {
  keyField: "kind",
  keyOf: (i) => `for the ${i.kind ?? "(unknown)"} slot of script ${i.scriptName ?? i.externalScriptId ?? ""}`,
  refusedAsHeld,
  async findByKey(i, ctx) {
    return (await triggersOf(i, ctx))?.find((t) => triggerKind(t) === i.kind);
  },
};

export const reading: Reading<typeof BuildTriggerSpec, Trigger> = {
  same(field, olds, news) {
    // Naming the script or giving its tag is no change of identity while the tag stays the same.
    if (field !== "scriptName" && field !== "externalScriptId") return false;
    // An imported trigger is stored by its script's name alone: the tag resolved from that name is no change.
    if (olds.externalScriptId === undefined)
      return (
        field === "externalScriptId" && olds.scriptName !== undefined && olds.scriptName === news.scriptName
      );
    return sameId(olds.externalScriptId, news.externalScriptId ?? "");
  },
  project(live, previous, fromTable) {
    // The tag and the connection as the program gave them: the listing may spell them otherwise.
    // An import gave no connection: it is then the listing's.
    return {
      ...fromTable,
      externalScriptId: previous.externalScriptId,
      repoConnectionUuid: previous.repoConnectionUuid ?? live.repo_connection?.repo_connection_uuid,
      kind: triggerKind(live),
    };
  },
};
