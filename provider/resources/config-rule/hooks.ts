/**
 * What ConfigRule's description cannot say: the expression its matchers stand for, the rule's place
 * in the zone's one shared entrypoint (a serialised, version-checked read-modify-write that keeps
 * every rule it does not own), the ref generated once, adoption by taking a rule over, and the
 * custom-hostname opt-ins.
 */
import { randomBytes } from "node:crypto";
import type { ConfigRule as LiveRule, ConfigRuleRequest, Ruleset } from "../../../sdk/content";
import { backoff, orGone, systemClock } from "../../../sdk/core";
import { BadRequestError } from "../../../sdk/errors";
import {
  CONTENT_CONVERTER_METADATA_ENABLED,
  CONTENT_CONVERTER_METADATA_KEY,
  ConfigRuleRequestSchema,
} from "../../../sdk/schemas/content";
import { fromWire, toWire, type Flags, type InputsOf } from "../../core/define";
import { deepEqual, defined, isRecord } from "../../core/values";
import type {
  Remote,
  Checks,
  NaturalKey,
  Adoption,
  Reading,
  History,
  InputIssue,
  Known,
} from "../../core/pipeline";
import { PartialCreateError, inputError } from "../../errors";
import type { HandlerContext } from "../../types";
import { ConfigRuleSpec, RULE_DEFAULTS } from "./spec";

type Spec = typeof ConfigRuleSpec;
export type ConfigRuleInputs = InputsOf<Spec>;
type Matchers = Pick<ConfigRuleInputs, "host" | "pathPrefix" | "customHostnameMetadata" | "expression">;

/** A live rule where it stands: its ruleset, and (when asked) which of the hostnames are opted in. */
export type PlacedRule = LiveRule & { ruleset_id: string; opted_in?: string[] };

// ---- the rule ----

/** A string literal of the rule expression language. */
export function quote(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

export const METADATA_EXPRESSION = `lookup_json_string(cf.hostname.metadata, ${quote(CONTENT_CONVERTER_METADATA_KEY)}) eq ${quote(CONTENT_CONVERTER_METADATA_ENABLED)}`;

/** The expression the inputs stand for. */
export function ruleExpression(i: Matchers): string {
  if (i.expression !== undefined) return i.expression;
  const parts: string[] = [];
  if (i.host !== undefined) parts.push(`http.host eq ${quote(i.host.toLowerCase())}`);
  if (i.pathPrefix !== undefined) parts.push(`starts_with(http.request.uri.path, ${quote(i.pathPrefix)})`);
  if (i.customHostnameMetadata) parts.push(METADATA_EXPRESSION);
  return parts.join(" and ");
}

/** The ref check gave the inputs (given, kept from the previous inputs, or generated). */
function refOf(i: ConfigRuleInputs): string {
  if (i.ref === undefined) throw inputError("ref", "is missing; check sets it");
  return i.ref;
}

/** The rule as the API takes it. */
export function ruleBody(i: ConfigRuleInputs): ConfigRuleRequest {
  return ConfigRuleRequestSchema.parse({
    ...toWire(ConfigRuleSpec, i),
    expression: ruleExpression(i),
    action: "set_config",
  });
}

/** What the server sets on a rule: its id (its identity in a read-modify-write), version and last update. */
const SERVER_SET = new Set(["id", "version", "last_updated"]);

/** The fields of a rule besides its identity and the server's stamps: what a PUT writes (the contract's rule). */
const RULE_CONTENT = Object.keys(ConfigRuleRequestSchema.shape).filter((k) => !SERVER_SET.has(k));

/**
 * The rule's settings that are absent unless set (the contract's optional fields with no default:
 * `logging`, `categories`, …): a live rule without one had it removed.
 */
const UNSET_WHEN_ABSENT = Object.entries(ConfigRuleSpec.fields).flatMap(([name, f]) => {
  const flags: Flags = f.flags;
  const unset = f.type.safeParse(undefined);
  return f.role === "input" &&
    f.wire !== undefined &&
    flags.identity !== true &&
    unset.success &&
    unset.data === undefined
    ? [{ name, wire: f.wire }]
    : [];
});

/** A live rule written back as it is, keeping its identity and every field (polish, logging, …). */
export function asRequest(r: LiveRule): ConfigRuleRequest {
  const content = Object.fromEntries(
    RULE_CONTENT.flatMap((k) => {
      const v: unknown = Reflect.get(r, k);
      return v === undefined ? [] : [[k, v]];
    }),
  );
  return ConfigRuleRequestSchema.parse({
    id: r.id,
    ...RULE_DEFAULTS,
    ...content,
    action_parameters: { ...r.action_parameters },
  });
}

/** The content of a rule as a PUT would write it, with the API's defaults filled in. */
function contentOf(r: ConfigRuleRequest): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...RULE_DEFAULTS, ...defined(r) };
  return Object.fromEntries(RULE_CONTENT.map((k) => [k, filled[k]]));
}

function sameContent(live: LiveRule, want: ConfigRuleRequest): boolean {
  return deepEqual(contentOf(asRequest(live)), contentOf(want));
}

/**
 * The new rule list with `mine` in place of the rule it owns (the one with its ref, or for an
 * adoption the one with id or ref `adopt`), appended when there is none; undefined when nothing changes.
 */
export function planUpsert(
  current: readonly LiveRule[],
  mine: ConfigRuleRequest,
  adopt?: string,
): ConfigRuleRequest[] | undefined {
  const index = current.findIndex(
    (r) => r.ref === mine.ref || (adopt !== undefined && (r.id === adopt || r.ref === adopt)),
  );
  const own = current[index];
  if (own && sameContent(own, mine)) return undefined;
  const rules = current.map(asRequest);
  if (own) rules[index] = { ...mine, id: own.id };
  else rules.push(mine);
  return rules;
}

/** The rule list without the rule with this ref; undefined when it is not there. */
export function planRemoval(current: readonly LiveRule[], ref: string): ConfigRuleRequest[] | undefined {
  if (!current.some((r) => r.ref === ref)) return undefined;
  return current.filter((r) => r.ref !== ref).map(asRequest);
}

// ---- check ----

/**
 * An unset `customHostnameMetadata` means false. The ref is the one given, else the one stored, else
 * `pulumi-<key>` derived from the resource's URN (the same on every run: a rule that a lost create
 * put in place is found by its ref), else, where no host passed the URN, a random one.
 */
export function normalize(
  i: ConfigRuleInputs,
  _known: Known,
  olds?: Partial<ConfigRuleInputs>,
  key?: string,
): ConfigRuleInputs {
  const { customHostnameMetadata, ...rest } = i;
  return {
    ...rest,
    ...(customHostnameMetadata ? { customHostnameMetadata } : {}),
    ref: i.ref ?? olds?.ref ?? refFromKey(key ?? randomBytes(8).toString("hex")),
  };
}

export function rules(i: ConfigRuleInputs, known: Known): InputIssue[] {
  const issues: InputIssue[] = [];
  const matchers = (["host", "pathPrefix", "customHostnameMetadata"] as const).filter(
    (k) => i[k] !== undefined,
  );
  if (i.expression !== undefined && matchers.length)
    issues.push({ field: "expression", rule: `cannot be combined with ${matchers.join(", ")}` });
  if (i.expression === undefined && !matchers.length)
    issues.push({
      field: "expression",
      rule: "one of host, pathPrefix, customHostnameMetadata or expression is required",
    });
  if (i.expression === undefined && matchers.length && matchers.every(known)) {
    // The expression the matchers make obeys the API's limits too.
    const made = ConfigRuleRequestSchema.shape.expression.safeParse(ruleExpression(i));
    if (!made.success)
      issues.push({ field: "expression", rule: made.error.issues[0]?.message ?? "is invalid" });
  }
  if (
    i.customHostnameIds !== undefined &&
    known("customHostnameIds") &&
    known("customHostnameMetadata") &&
    i.customHostnameMetadata !== true
  )
    issues.push({
      field: "customHostnameIds",
      rule: "needs customHostnameMetadata: true (the rule must read the metadata it sets)",
    });
  return issues;
}

// ---- the shared entrypoint: serialised per zone, version-checked ----

/** The two calls a read-modify-write of the entrypoint makes (the sdk's `content.configRuleset`). */
export interface EntrypointApi {
  get(ids: { zoneId: string }): Promise<Ruleset | undefined>;
  put(ids: { zoneId: string }, params: { rules: readonly ConfigRuleRequest[] }): Promise<Ruleset>;
}

export interface EntrypointOptions {
  maxAttempts?: number;
  /** Pause before another attempt and before the check after a write (injectable so tests never sleep). */
  sleep?: (ms: number) => Promise<void>;
  /**
   * How long after a write the entrypoint is read again to check the write still stands (default
   * 100 ms): a writer of another program that read before our write and writes after it would
   * otherwise drop our change unseen (the API takes no version precondition).
   */
  settleMs?: number;
  /** Jitter source for the backoff, in [0, 1). */
  random?: () => number;
}

/** The ref a resource's key (derived from its URN) gives: the same on every run. */
export const refFromKey = (key: string): string => `pulumi-${key}`;

/** The shape of a ref this provider generated (above): only we write those. */
const GENERATED_REF = /^pulumi-[0-9a-f]{16}$/;

const versionOf = (rs: Ruleset | undefined): number => (rs ? Number(rs.version) : 0);

/**
 * Read-modify-write of a zone's entrypoint, queued behind every other write to the zone in this
 * process (`ctx.serialize`). `plan` gets the current rules and returns the new list, or undefined for
 * "nothing to do" (our change is in place). Retries from a fresh read, after a backoff, whenever the
 * version shows another writer between our read and our write, when the PUT is refused because a
 * rule it names was removed meanwhile (a 400 with the version moved), and when the read made
 * `settleMs` after our write shows our change undone by a writer of another program. Returns the
 * ruleset as it stands with our change in place.
 */
export async function updateEntrypoint(
  ctx: { api: { content: { configRuleset: EntrypointApi } }; serialize: HandlerContext["serialize"] },
  zoneId: string,
  plan: (rules: readonly LiveRule[]) => ConfigRuleRequest[] | undefined,
  o: EntrypointOptions = {},
): Promise<Ruleset | undefined> {
  const maxAttempts = o.maxAttempts ?? 8;
  const sleep = o.sleep ?? ((ms: number) => systemClock.sleep(ms));
  const api = ctx.api.content.configRuleset;
  return ctx.serialize(zoneId, async () => {
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (attempt > 1)
        await sleep(backoff(attempt - 1, { baseMs: 50, capMs: 2_000, random: o.random ?? Math.random }));
      const current = await api.get({ zoneId });
      const rules = plan(current?.rules ?? []);
      if (rules === undefined) return current;
      const again = await api.get({ zoneId });
      if (versionOf(again) !== versionOf(current)) continue; // someone wrote since our read
      let written: Ruleset;
      try {
        written = await api.put({ zoneId }, { rules });
      } catch (err) {
        // A rule our list names by id was removed by another writer since our read: go again.
        if (err instanceof BadRequestError && versionOf(await api.get({ zoneId })) !== versionOf(again))
          continue;
        throw err;
      }
      // Another write landed between our check and our PUT: go again on fresh state, so a rule of
      // ours that it removed, or a change it made that we overwrote, is reconsidered.
      if (versionOf(written) !== versionOf(current) + 1) continue;
      // Verify after the write: a writer that read before it and writes after it undoes it unseen.
      await sleep(o.settleMs ?? 100);
      const after = await api.get({ zoneId });
      if (plan(after?.rules ?? []) === undefined) return after;
    }
    throw new Error(
      `zone ${zoneId}: the http_config_settings entrypoint kept changing during ${maxAttempts} attempts; try again`,
    );
  });
}

// ---- custom-hostname metadata ----

/** Sets or removes `content_converter: "enabled"` in a custom hostname's metadata, keeping other keys. */
export async function setHostnameOptIn(
  ctx: HandlerContext,
  zoneId: string,
  customHostnameId: string,
  on: boolean,
): Promise<void> {
  const live = await ctx.api.content.customHostnames.get({ zoneId, customHostnameId });
  const metadata: Record<string, string> = { ...live.custom_metadata };
  const isOn = metadata[CONTENT_CONVERTER_METADATA_KEY] === CONTENT_CONVERTER_METADATA_ENABLED;
  if (on === isOn && (on || !(CONTENT_CONVERTER_METADATA_KEY in metadata))) return;
  if (on) metadata[CONTENT_CONVERTER_METADATA_KEY] = CONTENT_CONVERTER_METADATA_ENABLED;
  else delete metadata[CONTENT_CONVERTER_METADATA_KEY];
  await ctx.api.content.customHostnames.update({ zoneId, customHostnameId }, { custom_metadata: metadata });
}

/** The ids among `ids` whose hostname still exists (a 404 drops it) and is opted in. */
async function optedIn(ctx: HandlerContext, zoneId: string, ids: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const customHostnameId of ids) {
    const live = await orGone(ctx.api.content.customHostnames.get({ zoneId, customHostnameId }));
    if (live?.custom_metadata?.[CONTENT_CONVERTER_METADATA_KEY] === CONTENT_CONVERTER_METADATA_ENABLED)
      out.push(customHostnameId);
  }
  return out;
}

/** Opts `want` in and what only `had` listed out (a hostname gone meanwhile is out already). */
async function syncOptIns(
  ctx: HandlerContext,
  zoneId: string,
  want: readonly string[],
  had: readonly string[],
): Promise<void> {
  await ctx.serialize(`${zoneId}#hostnames`, async () => {
    for (const id of want) await setHostnameOptIn(ctx, zoneId, id, true);
    for (const id of had) if (!want.includes(id)) await orGone(setHostnameOptIn(ctx, zoneId, id, false));
  });
}

// ---- the capabilities ----

/**
 * The entrypoint holds a rule under the ref this create asked for that is not ours (the program named
 * the ref, and the rule has other settings): the pipeline's look-up then refuses it naming importId.
 */
export class RefHeldError extends Error {
  constructor(zoneId: string, ref: string) {
    super(`zone ${zoneId}: a rule with ref "${ref}" already exists`);
    this.name = "RefHeldError";
  }
}

/**
 * The create's plan, on the one read the placement makes: a rule holding the ref is ours when the
 * ref is one we generate (an earlier attempt, or a concurrent run of this program, put it there) or
 * when it already has these settings; any other holder is refused.
 */
export function planCreate(rules: readonly LiveRule[], i: ConfigRuleInputs): ConfigRuleRequest[] | undefined {
  const mine = ruleBody(i);
  const held = rules.find((r) => r.ref === mine.ref);
  if (held && !GENERATED_REF.test(mine.ref ?? "") && !sameContent(held, mine))
    throw new RefHeldError(i.zoneId, refOf(i));
  return planUpsert(rules, mine);
}

const resourceId = (i: ConfigRuleInputs): string => `${i.zoneId}/${refOf(i)}`;

/** This resource's rule in a ruleset: by its ref, or, for an id that is not its own (an importId), by id or ref. */
function findRule(rules: readonly LiveRule[], id: string, i: ConfigRuleInputs): LiveRule | undefined {
  if (id === resourceId(i)) return rules.find((r) => r.ref === i.ref);
  const key = id.startsWith(`${i.zoneId}/`) ? id.slice(i.zoneId.length + 1) : id;
  return rules.find((r) => r.id === key || r.ref === key);
}

/** The rule with the inputs' ref as the entrypoint holds it after a write of ours. */
function written(ruleset: Ruleset | undefined, i: ConfigRuleInputs): PlacedRule {
  const rule = ruleset?.rules.find((r) => r.ref === i.ref);
  if (!ruleset || !rule)
    throw new Error(`zone ${i.zoneId}: rule ${i.ref} is missing right after it was written`);
  return { ...rule, ruleset_id: ruleset.id };
}

/** Writes the rule with `plan`, then opts the hostnames in; the rule made, a failure there is partial. */
async function place(
  ctx: HandlerContext,
  i: ConfigRuleInputs,
  plan: (rules: readonly LiveRule[]) => ConfigRuleRequest[] | undefined,
): Promise<PlacedRule> {
  const placed = written(await updateEntrypoint(ctx, i.zoneId, plan), i);
  try {
    await syncOptIns(ctx, i.zoneId, i.customHostnameIds ?? [], []);
  } catch (err) {
    // The engine records the rule with the outputs it would have had, so the next `up` goes on.
    const outs = { ...i, ...fromWire(ConfigRuleSpec, placed, "output") };
    throw new PartialCreateError(resourceId(i), outs, [
      `customHostnameIds: ${err instanceof Error ? err.message : String(err)}`,
    ]);
  }
  return placed;
}

export const remote: Remote<Spec, PlacedRule> = {
  noun: "config rule",
  idOf: (_live, i) => resourceId(i),
  async get(id, state, ctx) {
    // The sdk answers undefined for the API's 404 (no entrypoint yet, or no zone): the rule is gone.
    const ruleset = await ctx.api.content.configRuleset.get({ zoneId: state.zoneId });
    const rule = ruleset && findRule(ruleset.rules, id, state);
    if (!ruleset || !rule) return undefined;
    const ids = state.customHostnameIds;
    return {
      ...rule,
      ruleset_id: ruleset.id,
      ...(ids ? { opted_in: await optedIn(ctx, state.zoneId, ids) } : {}),
    };
  },
  // No look-up before: the placement's own read of the entrypoint is the one that tells whether an
  // earlier attempt put the rule there (it is then brought to the inputs, as an adoption would).
  create: (i, ctx) => place(ctx, i, (rules) => planCreate(rules, i)),
  async update(_id, i, _changed, olds, ctx) {
    const placed = written(
      await updateEntrypoint(ctx, i.zoneId, (rules) => planUpsert(rules, ruleBody(i))),
      i,
    );
    await syncOptIns(ctx, i.zoneId, i.customHostnameIds ?? [], olds.customHostnameIds ?? []);
    return placed;
  },
  async remove(_id, state, ctx) {
    await updateEntrypoint(ctx, state.zoneId, (rules) => planRemoval(rules, refOf(state)));
    await syncOptIns(ctx, state.zoneId, [], state.customHostnameIds ?? []);
  },
};

export const checks: Checks<Spec> = {
  normalize,
  rules,
  // Another rule of this program with the same ref in the zone: refused at preview, not halfway.
  async checkLive(i, _olds, ctx) {
    const rival = ctx.claims?.claim(`${i.zoneId}/${i.ref}`, i);
    return rival
      ? [
          {
            field: "ref",
            rule: `another ConfigRule of this program also takes ref "${i.ref}" in zone ${i.zoneId}`,
          },
        ]
      : [];
  },
};

export const key: NaturalKey<Spec, PlacedRule> = {
  keyField: "ref",
  keyOf: (i) => `with ref "${i.ref}" in zone ${i.zoneId}`,
  refusedAsHeld: (err) => err instanceof RefHeldError,
  async findByKey(i, ctx) {
    const ruleset = await ctx.api.content.configRuleset.get({ zoneId: i.zoneId });
    const rule = ruleset?.rules.find((r) => r.ref === i.ref);
    return ruleset && rule ? { ...rule, ruleset_id: ruleset.id } : undefined;
  },
  // A generated ref is this resource's marker: a rule holding it was put there by an earlier attempt
  // of ours or by a concurrent run of the same program. A ref the program names is ours only with the
  // same settings (the pipeline's default test): someone else's rule of that name is refused.
  ours: (live) => GENERATED_REF.test(live.ref ?? ""),
};

export const adoption: Adoption<Spec, PlacedRule> = {
  importIdOf: (live) => live.ref ?? live.id,
  // Taken over in place: the rule keeps its id and position and gets this resource's ref.
  adopt: (_id, live, i, ctx) =>
    place(ctx, i, (rules) => {
      if (!rules.some((r) => r.id === live.id))
        throw inputError("importId", `rule ${live.id} left zone ${i.zoneId}'s entrypoint; nothing to adopt`);
      return planUpsert(rules, ruleBody(i), live.id);
    }),
};

export const reading: Reading<Spec, PlacedRule> = {
  /**
   * The old matchers while the live expression is still the one they stand for, else the live
   * expression itself (so the drift shows and `up` restores it); every other field exactly as the
   * live rule has it (a field removed out of band drops out); the hostnames still opted in.
   */
  project(live, previous, fromTable) {
    const {
      host,
      pathPrefix,
      customHostnameMetadata,
      expression,
      customHostnameIds: _ids,
      ...rest
    } = fromTable;
    const matchers =
      live.expression === ruleExpression(previous)
        ? { host, pathPrefix, customHostnameMetadata, expression }
        : { expression: live.expression };
    const projected = {
      ...rest,
      ...Object.fromEntries(Object.entries(matchers).filter(([, v]) => v !== undefined)),
      actionParameters: live.action_parameters === undefined ? {} : rest.actionParameters,
      description: live.description ?? RULE_DEFAULTS.description,
      enabled: live.enabled ?? RULE_DEFAULTS.enabled,
      ...(live.opted_in ? { customHostnameIds: live.opted_in } : {}),
    };
    // fromTable holds the live value where the live rule has the field, else the previous input: a
    // field removed out of band must drop out instead.
    for (const f of UNSET_WHEN_ABSENT)
      if (Reflect.get(live, f.wire) === undefined) Reflect.deleteProperty(projected, f.name);
    return projected;
  },
};

export const history: History = {
  upgrade,
};

/**
 * State of earlier releases kept the one action parameter as `contentConverter`; today it is
 * `actionParameters.contentConverter`, the contract's name. Moved over, so the rule is not replaced
 * and shows no change.
 */
export function upgrade(state: Record<string, unknown>): Record<string, unknown> {
  if (!("contentConverter" in state)) return state;
  const { contentConverter, ...rest } = state;
  const had = isRecord(rest.actionParameters) ? rest.actionParameters : undefined;
  return {
    ...rest,
    actionParameters:
      had ?? (typeof contentConverter === "boolean" ? { contentConverter } : { contentConverter: true }),
  };
}
