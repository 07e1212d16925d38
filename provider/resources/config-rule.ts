/**
 * ConfigRule: one `set_config` rule with `content_converter` in a zone's `http_config_settings`
 * entrypoint (spec C), matching a host, a path prefix, custom-hostname metadata, or a raw expression.
 *
 * The entrypoint is one document shared by every rule of the zone, and the API can only replace it
 * whole. So each write is a read-modify-write that keeps every rule this resource does not own (its
 * rule is the one with its `ref`), serialised per zone inside the provider process, and checked against
 * the ruleset version: re-read just before the PUT (someone wrote → start over) and after it (the
 * version moved by more than one → start over on fresh state). Several ConfigRules of one zone thus run
 * in parallel without losing each other's rules.
 *
 * Where the rule matches custom-hostname metadata, `customHostnameIds` opts those hostnames in by
 * setting `custom_metadata.content_converter = "enabled"` (other keys kept); delete removes that key.
 *
 * Identity: `zoneId` and `ref` (generated when not given, then kept) force replacement. The resource id
 * is `<zoneId>/<ref>`. Import: `importId` is the id or ref of an existing rule, which is taken over in
 * place (it keeps its id and position and gets this resource's ref).
 */
import { randomBytes } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import type { AccountApi } from "../../sdk";
import type { ConfigRule as LiveRule, ConfigRuleRequest, Ruleset } from "../../sdk/content";
import { NotFoundError } from "../../sdk/errors";
import {
  CONTENT_CONVERTER_METADATA_ENABLED,
  CONTENT_CONVERTER_METADATA_KEY,
  ConfigRuleRequestSchema,
  HostnameSchema,
  ZoneIdSchema,
} from "../../sdk/schemas/content";
import { changedKeys, checkWith, containsUnknown, isUnknown, UNKNOWN } from "../inputs";
import { PartialCreateError } from "../errors";
import { AccountApiResource, registerArgs, type CommonArgs } from "../resource";
import type { CheckFailure, HandlerContext, ResourceHandler } from "../types";

// ---- shapes ----

export interface ConfigRuleArgs extends CommonArgs {
  /** The zone (at most 32 characters). Changing it replaces. */
  zoneId: pulumi.Input<string>;
  /** Match requests for this host (`http.host eq "…"`). Combines with `pathPrefix` (and). */
  host?: pulumi.Input<string>;
  /** Match paths starting with this (`starts_with(http.request.uri.path, "…")`); must start with "/". */
  pathPrefix?: pulumi.Input<string>;
  /** Match custom hostnames whose metadata has `content_converter: "enabled"`. */
  customHostnameMetadata?: pulumi.Input<boolean>;
  /** Any other expression, instead of host / pathPrefix / customHostnameMetadata. */
  expression?: pulumi.Input<string>;
  /** The action parameter: true (default) converts, false keeps the original. */
  contentConverter?: pulumi.Input<boolean>;
  description?: pulumi.Input<string>;
  /** Default true. */
  enabled?: pulumi.Input<boolean>;
  /** The rule's identity in the entrypoint; generated when absent. Changing it replaces. */
  ref?: pulumi.Input<string>;
  /** Custom hostnames (ids in this zone) to opt in through metadata; needs customHostnameMetadata. */
  customHostnameIds?: pulumi.Input<pulumi.Input<string>[]>;
}

export interface ConfigRuleInputs {
  accountId?: string;
  importId?: string;
  zoneId: string;
  host?: string;
  pathPrefix?: string;
  customHostnameMetadata?: boolean;
  expression?: string;
  contentConverter: boolean;
  description: string;
  enabled: boolean;
  ref: string;
  customHostnameIds?: string[];
}

export interface ConfigRuleOutputs extends ConfigRuleInputs {
  ruleId: string;
  rulesetId: string;
  ruleVersion: string;
  lastUpdated: string;
  /** The expression the rule carries (generated from host / pathPrefix / metadata, or as given). */
  ruleExpression: string;
}

/** Inputs whose change replaces: where the rule lives and which rule it is. */
export const REPLACE_ON_CHANGE = ["accountId", "zoneId", "ref"] as const;
const INPUT_NAMES = [
  "accountId",
  "importId",
  "zoneId",
  "host",
  "pathPrefix",
  "customHostnameMetadata",
  "expression",
  "contentConverter",
  "description",
  "enabled",
  "ref",
  "customHostnameIds",
] as const;
/** Server fields, and inputs check defaults (registered so the class exposes them as outputs). */
const OUTPUT_NAMES = [
  "ruleId",
  "rulesetId",
  "ruleVersion",
  "lastUpdated",
  "ruleExpression",
  "contentConverter",
  "description",
  "enabled",
  "ref",
];

// ---- pure planning ----

/** A string literal of the rule expression language. */
export function quote(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

export const METADATA_EXPRESSION = `lookup_json_string(cf.hostname.metadata, ${quote(CONTENT_CONVERTER_METADATA_KEY)}) eq ${quote(CONTENT_CONVERTER_METADATA_ENABLED)}`;

/** The expression the inputs stand for. */
export function ruleExpression(
  i: Pick<ConfigRuleInputs, "host" | "pathPrefix" | "customHostnameMetadata" | "expression">,
): string {
  if (i.expression !== undefined) return i.expression;
  const parts: string[] = [];
  if (i.host !== undefined) parts.push(`http.host eq ${quote(i.host.toLowerCase())}`);
  if (i.pathPrefix !== undefined) parts.push(`starts_with(http.request.uri.path, ${quote(i.pathPrefix)})`);
  if (i.customHostnameMetadata) parts.push(METADATA_EXPRESSION);
  return parts.join(" and ");
}

/** The rule as the API takes it. */
export function ruleBody(i: ConfigRuleInputs): ConfigRuleRequest {
  return {
    ref: i.ref,
    expression: ruleExpression(i),
    action: "set_config",
    action_parameters: { content_converter: i.contentConverter },
    description: i.description,
    enabled: i.enabled,
  };
}

/** A live rule written back as it is, keeping its identity (the rules this resource does not own). */
export function asRequest(r: LiveRule): ConfigRuleRequest {
  return {
    id: r.id,
    ...(r.ref !== undefined ? { ref: r.ref } : {}),
    expression: r.expression,
    action: r.action as "set_config",
    // Every parameter is written back as read, including the service's others (polish, …).
    action_parameters: { ...r.action_parameters } as ConfigRuleRequest["action_parameters"],
    description: r.description ?? "",
    enabled: r.enabled ?? true,
  };
}

function sameContent(live: LiveRule, want: ConfigRuleRequest): boolean {
  return (
    live.ref === want.ref &&
    live.expression === want.expression &&
    live.action === want.action &&
    live.action_parameters?.content_converter === want.action_parameters.content_converter &&
    (live.description ?? "") === (want.description ?? "") &&
    (live.enabled ?? true) === (want.enabled ?? true)
  );
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
  if (index >= 0 && sameContent(current[index]!, mine)) return undefined;
  const rules = current.map(asRequest);
  if (index >= 0) rules[index] = { ...mine, id: current[index]!.id };
  else rules.push(mine);
  return rules;
}

/** The rule list without the rule with this ref; undefined when it is not there. */
export function planRemoval(current: readonly LiveRule[], ref: string): ConfigRuleRequest[] | undefined {
  if (!current.some((r) => r.ref === ref)) return undefined;
  return current.filter((r) => r.ref !== ref).map(asRequest);
}

/** Check failures of raw inputs, each naming the input and the rule. */
export function checkInputs(news: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const fail = (property: string, rule: string): void => {
    failures.push({ property, reason: `${property}: ${rule}` });
  };
  for (const [k, v] of Object.entries(news)) {
    if (v !== undefined && ![...INPUT_NAMES, ...OUTPUT_NAMES].includes(k)) fail(k, "is not a known field");
  }
  if (news.zoneId === undefined) fail("zoneId", "required");
  else if (!isUnknown(news.zoneId)) {
    const r = ZoneIdSchema.safeParse(news.zoneId);
    if (!r.success) fail("zoneId", r.error.issues[0]?.message ?? "is invalid");
  }
  if (news.host !== undefined && !isUnknown(news.host)) {
    const r = HostnameSchema.safeParse(news.host);
    if (!r.success) fail("host", r.error.issues[0]?.message ?? "is invalid");
  }
  if (news.pathPrefix !== undefined && !isUnknown(news.pathPrefix)) {
    if (typeof news.pathPrefix !== "string" || !news.pathPrefix.startsWith("/"))
      fail("pathPrefix", 'must start with "/"');
  }
  for (const k of ["customHostnameMetadata", "contentConverter", "enabled"] as const) {
    if (news[k] !== undefined && !isUnknown(news[k]) && typeof news[k] !== "boolean")
      fail(k, "must be a boolean");
  }
  const matchers = (["host", "pathPrefix", "customHostnameMetadata"] as const).filter(
    (k) => news[k] !== undefined && news[k] !== false,
  );
  if (news.expression !== undefined && matchers.length) {
    fail("expression", `cannot be combined with ${matchers.join(", ")}`);
  } else if (news.expression === undefined && !matchers.length) {
    fail("expression", "one of host, pathPrefix, customHostnameMetadata or expression is required");
  }
  const ids = news.customHostnameIds;
  if (ids !== undefined && !isUnknown(ids)) {
    if (!Array.isArray(ids)) fail("customHostnameIds", "must be a list of custom hostname ids");
    else {
      if (news.customHostnameMetadata !== true && !isUnknown(news.customHostnameMetadata)) {
        fail(
          "customHostnameIds",
          "needs customHostnameMetadata: true (the rule must read the metadata it sets)",
        );
      }
      ids.forEach((id, i) => {
        if (isUnknown(id)) return;
        const r = ZoneIdSchema.safeParse(id);
        if (!r.success) fail(`customHostnameIds[${i}]`, r.error.issues[0]?.message ?? "is invalid");
      });
      const known = ids.filter((id) => !isUnknown(id));
      if (new Set(known).size !== known.length) fail("customHostnameIds", "must not repeat an id");
    }
  }
  if (failures.length) return failures;

  // The rest of the rules of the API's schema (lengths of expression, description, ref).
  const withDefaults = applyDefaults(news, undefined);
  const expression = containsUnknown([
    news.host,
    news.pathPrefix,
    news.customHostnameMetadata,
    news.expression,
  ])
    ? UNKNOWN
    : ruleExpression(withDefaults);
  const body = { ...ruleBody(withDefaults), expression };
  const names: Record<string, string> = { "action_parameters.content_converter": "contentConverter" };
  return checkWith(ConfigRuleRequestSchema, body, (p) => names[p] ?? p);
}

/** Inputs with the defaults filled in: stored inputs are complete and stable, the ref never moves. */
export function applyDefaults(
  news: Record<string, unknown>,
  olds: Partial<ConfigRuleInputs> | undefined,
): ConfigRuleInputs {
  const out: Record<string, unknown> = {};
  for (const k of INPUT_NAMES) if (news[k] !== undefined) out[k] = news[k];
  out.contentConverter ??= true;
  out.description ??= "";
  out.enabled ??= true;
  if (out.customHostnameMetadata === false) delete out.customHostnameMetadata;
  out.ref ??= olds?.ref ?? `pulumi-${randomBytes(8).toString("hex")}`;
  return out as unknown as ConfigRuleInputs;
}

function inputPart(o: ConfigRuleInputs): ConfigRuleInputs {
  const out: Record<string, unknown> = {};
  for (const k of INPUT_NAMES) if (o[k] !== undefined) out[k] = o[k];
  return out as unknown as ConfigRuleInputs;
}

export function outputsFrom(inputs: ConfigRuleInputs, ruleset: Ruleset, rule: LiveRule): ConfigRuleOutputs {
  return {
    ...inputPart(inputs),
    ruleId: rule.id,
    rulesetId: ruleset.id,
    ruleVersion: rule.version,
    lastUpdated: rule.last_updated,
    ruleExpression: rule.expression,
  };
}

/**
 * The live rule projected onto the inputs: the old matcher inputs while the live expression is still
 * the one they stand for, else the live expression itself (so the drift shows and `up` restores it).
 */
export function projectInputs(
  props: ConfigRuleInputs,
  live: LiveRule,
  optedIn: string[] | undefined,
): ConfigRuleInputs {
  const base: ConfigRuleInputs = {
    ...(props.accountId !== undefined ? { accountId: props.accountId } : {}),
    ...(props.importId !== undefined ? { importId: props.importId } : {}),
    zoneId: props.zoneId,
    ref: props.ref,
    contentConverter: live.action_parameters?.content_converter ?? false,
    description: live.description ?? "",
    enabled: live.enabled ?? true,
  };
  if (live.expression === ruleExpression(props)) {
    for (const k of ["host", "pathPrefix", "customHostnameMetadata", "expression"] as const) {
      if (props[k] !== undefined) (base as unknown as Record<string, unknown>)[k] = props[k];
    }
  } else {
    base.expression = live.expression;
  }
  if (optedIn !== undefined) base.customHostnameIds = optedIn;
  return base;
}

// ---- the shared entrypoint: serialised per zone, version-checked ----

export interface EntrypointOptions {
  maxAttempts?: number;
  /** Queues writes to one zone within the provider process (the handler passes `ctx.serialize`). */
  serialize?: HandlerContext["serialize"];
  /** Pause before another attempt (injectable so tests never sleep). */
  sleep?: (ms: number) => Promise<void>;
}

const versionOf = (rs: Ruleset | undefined): number => (rs ? Number(rs.version) : 0);

/**
 * Read-modify-write of a zone's entrypoint. `plan` gets the current rules and returns the new list,
 * or undefined for "nothing to do". Retries from a fresh read whenever the version shows another
 * writer between our read and our write. Returns the ruleset as it stands after our write.
 */
export async function updateEntrypoint(
  api: AccountApi,
  zoneId: string,
  plan: (rules: readonly LiveRule[]) => ConfigRuleRequest[] | undefined,
  o: EntrypointOptions = {},
): Promise<Ruleset | undefined> {
  const maxAttempts = o.maxAttempts ?? 8;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const serialize = o.serialize ?? ((_key, fn) => fn());
  return serialize(zoneId, async () => {
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (attempt > 1) await sleep(Math.round(50 * 2 ** (attempt - 2) * (0.5 + Math.random())));
      const current = await api.content.getConfigRuleset({ zoneId });
      const rules = plan(current?.rules ?? []);
      if (rules === undefined) return current;
      const again = await api.content.getConfigRuleset({ zoneId });
      if (versionOf(again) !== versionOf(current)) continue; // someone wrote since our read
      const written = await api.content.putConfigRuleset({ zoneId, rules });
      if (versionOf(written) === versionOf(current) + 1) return written;
      // Another write landed between our check and our PUT: go again on fresh state, so a rule of
      // ours that it removed, or a change it made that we overwrote, is reconsidered.
    }
    throw new Error(
      `zone ${zoneId}: the http_config_settings entrypoint kept changing during ${maxAttempts} attempts; try again`,
    );
  });
}

// ---- custom-hostname metadata ----

/** Sets or removes `content_converter: "enabled"` in a custom hostname's metadata, keeping other keys. */
export async function setHostnameOptIn(
  api: AccountApi,
  zoneId: string,
  customHostnameId: string,
  on: boolean,
): Promise<void> {
  const live = await api.content.getCustomHostname({ zoneId, customHostnameId });
  const metadata: Record<string, string> = { ...(live.custom_metadata ?? {}) };
  const isOn = metadata[CONTENT_CONVERTER_METADATA_KEY] === CONTENT_CONVERTER_METADATA_ENABLED;
  if (on === isOn && (on || !(CONTENT_CONVERTER_METADATA_KEY in metadata))) return;
  if (on) metadata[CONTENT_CONVERTER_METADATA_KEY] = CONTENT_CONVERTER_METADATA_ENABLED;
  else delete metadata[CONTENT_CONVERTER_METADATA_KEY];
  await api.content.updateCustomHostname({ zoneId, customHostnameId, custom_metadata: metadata });
}

/** The ids among `ids` whose hostname still exists and is opted in. */
async function optedIn(api: AccountApi, zoneId: string, ids: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const customHostnameId of ids) {
    try {
      const live = await api.content.getCustomHostname({ zoneId, customHostnameId });
      if (live.custom_metadata?.[CONTENT_CONVERTER_METADATA_KEY] === CONTENT_CONVERTER_METADATA_ENABLED)
        out.push(customHostnameId);
    } catch (e) {
      if (!(e instanceof NotFoundError)) throw e;
    }
  }
  return out;
}

async function syncOptIns(
  ctx: HandlerContext,
  zoneId: string,
  want: readonly string[],
  had: readonly string[],
): Promise<void> {
  await ctx.serialize(`${zoneId}#hostnames`, async () => {
    for (const id of want) await setHostnameOptIn(ctx.api, zoneId, id, true);
    for (const id of had) {
      if (want.includes(id)) continue;
      try {
        await setHostnameOptIn(ctx.api, zoneId, id, false);
      } catch (e) {
        if (!(e instanceof NotFoundError)) throw e;
      }
    }
  });
}

// ---- handler ----

function ownRule(ruleset: Ruleset | undefined, ref: string): LiveRule | undefined {
  return ruleset?.rules.find((r) => r.ref === ref);
}

export const handler: ResourceHandler<ConfigRuleInputs, ConfigRuleOutputs> = {
  async check(olds, news) {
    const failures = checkInputs(news);
    if (failures.length) return { failures };
    return { inputs: applyDefaults(news, olds) };
  },

  async diff(_id, olds, news) {
    const changed = changedKeys(inputPart(olds), inputPart(news), ["importId"]);
    const replaces = changed.filter((k) => (REPLACE_ON_CHANGE as readonly string[]).includes(k));
    return { changes: changed.length > 0, replaces, deleteBeforeReplace: false };
  },

  async create(inputs, ctx) {
    const { zoneId, ref, importId } = inputs;
    const mine = ruleBody(inputs);
    const ruleset = await updateEntrypoint(
      ctx.api,
      zoneId,
      (rules) => {
        if (importId !== undefined) {
          if (!rules.some((r) => r.id === importId || r.ref === importId)) {
            throw new Error(
              `importId: no rule with id or ref "${importId}" in zone ${zoneId}'s http_config_settings entrypoint; nothing to adopt`,
            );
          }
        } else if (rules.some((r) => r.ref === ref)) {
          throw new Error(
            `ref: a rule with ref "${ref}" already exists in zone ${zoneId}; set importId: "${ref}" to adopt it`,
          );
        }
        return planUpsert(rules, mine, importId);
      },
      { serialize: ctx.serialize },
    );
    const rule = ownRule(ruleset, ref);
    if (!ruleset || !rule)
      throw new Error(`zone ${zoneId}: rule ${ref} is missing right after it was written`);
    const outs = outputsFrom(inputs, ruleset, rule);
    const id = `${zoneId}/${ref}`;
    try {
      await syncOptIns(ctx, zoneId, inputs.customHostnameIds ?? [], []);
    } catch (e) {
      throw new PartialCreateError(id, outs, [
        `customHostnameIds: ${e instanceof Error ? e.message : String(e)}`,
      ]);
    }
    return { id, outs };
  },

  async read(id, props, ctx) {
    const ruleset = await ctx.api.content.getConfigRuleset({ zoneId: props.zoneId });
    const rule = ownRule(ruleset, props.ref);
    if (!ruleset || !rule) return undefined;
    const ids = props.customHostnameIds
      ? await optedIn(ctx.api, props.zoneId, props.customHostnameIds)
      : undefined;
    const inputs = projectInputs(props, rule, ids);
    return { id, props: outputsFrom(inputs, ruleset, rule), inputs };
  },

  async update(_id, olds, news, ctx) {
    const mine = ruleBody(news);
    const ruleset = await updateEntrypoint(ctx.api, news.zoneId, (rules) => planUpsert(rules, mine), {
      serialize: ctx.serialize,
    });
    const rule = ownRule(ruleset, news.ref);
    if (!ruleset || !rule)
      throw new Error(`zone ${news.zoneId}: rule ${news.ref} is missing right after it was written`);
    await syncOptIns(ctx, news.zoneId, news.customHostnameIds ?? [], olds.customHostnameIds ?? []);
    return { outs: outputsFrom(news, ruleset, rule) };
  },

  async delete(_id, props, ctx) {
    await updateEntrypoint(ctx.api, props.zoneId, (rules) => planRemoval(rules, props.ref), {
      serialize: ctx.serialize,
    });
    await syncOptIns(ctx, props.zoneId, [], props.customHostnameIds ?? []);
  },
};

export class ConfigRule extends AccountApiResource {
  declare readonly accountId: pulumi.Output<string | undefined>;
  declare readonly zoneId: pulumi.Output<string>;
  declare readonly host: pulumi.Output<string | undefined>;
  declare readonly pathPrefix: pulumi.Output<string | undefined>;
  declare readonly customHostnameMetadata: pulumi.Output<boolean | undefined>;
  declare readonly expression: pulumi.Output<string | undefined>;
  declare readonly contentConverter: pulumi.Output<boolean>;
  declare readonly description: pulumi.Output<string>;
  declare readonly enabled: pulumi.Output<boolean>;
  declare readonly ref: pulumi.Output<string>;
  declare readonly customHostnameIds: pulumi.Output<string[] | undefined>;
  declare readonly ruleId: pulumi.Output<string>;
  declare readonly rulesetId: pulumi.Output<string>;
  declare readonly ruleVersion: pulumi.Output<string>;
  declare readonly lastUpdated: pulumi.Output<string>;
  declare readonly ruleExpression: pulumi.Output<string>;

  constructor(name: string, args: ConfigRuleArgs, opts?: pulumi.CustomResourceOptions) {
    super("ConfigRule", name, registerArgs(args, OUTPUT_NAMES), opts);
  }
}
