/**
 * What SearchInstance's description cannot say: the id `<namespace>/<instanceId>` (an importId is the
 * bare instance id), "default" as the absent namespace, the rules between type and source, the two
 * bodies (only the create takes `id`, `type` and `hybrid_search_enabled`; only the PUT may repeat `source`), the
 * credentials riding inside `source_params` on the wire, settings read from the live object alone,
 * state of earlier releases, and the stats, which take a call of their own, made only when
 * `readStats` asks.
 *
 * Create is the POST alone, with every setting (the create takes the update's settings too, as the
 * official Terraform provider sends them: docs/assumptions.md, "Families (issue 26)"): no look-up before it, since the service refuses an id in use (the emulator's 400 with the conflict
 * code; the contract lists only 201/400/403, so any 400 or a 409 leads to the look-up).
 */
import type { InstanceRef, SearchInstance as LiveInstance } from "../../../sdk/search";
import {
  CreateInstanceBodySchema,
  SEARCH_INSTANCE_DEFAULTS as D,
  UpdateInstanceBodySchema,
  INSTANCE_CREATE_FIELDS,
  INSTANCE_UPDATE_FIELDS,
  SearchInstanceSchema,
  settingsIssues,
  type CreateInstanceBody,
  type UpdateInstanceBody,
} from "../../../sdk/schemas/search";
import { BadRequestError, ConflictError } from "../../../sdk/errors";
import { fromWire, toWire, type InputsOf } from "../../core/define";
import {
  orGone,
  type Remote,
  type Checks,
  type NaturalKey,
  type Adoption,
  type Reading,
  type History,
  type InputIssue,
  type Known,
} from "../../core/pipeline";
import { deepEqual, isRecord, snakeToCamel, toApi } from "../../core/values";
import { inputError } from "../../errors";
import type { HandlerContext } from "../../types";
import { SearchInstanceSpec } from "./spec";

export type SearchInstanceInputs = InputsOf<typeof SearchInstanceSpec>;

export const DEFAULT_NAMESPACE = "default";

/** The resource id: `<namespace>/<instanceId>` (also the documented import form). */
export function resourceId(i: { namespace?: string | undefined; instanceId: string }): string {
  return `${i.namespace ?? DEFAULT_NAMESPACE}/${i.instanceId}`;
}

/**
 * Where an id points: a resource id names its namespace; a bare instance id (an importId) lives in
 * `namespace`. The default namespace is absent.
 */
export function instanceRef(id: string, namespace?: string): Pick<InstanceRef, "namespace" | "id"> {
  const slash = id.indexOf("/");
  if (slash < 0) return { namespace, id };
  const ns = id.slice(0, slash);
  return { namespace: ns === DEFAULT_NAMESPACE ? undefined : ns, id: id.slice(slash + 1) };
}

const isEmpty = (v: unknown): boolean => isRecord(v) && Object.keys(v).length === 0;

/** The default namespace is stored as absent, and empty sourceParams as none. */
export function normalize(i: SearchInstanceInputs): SearchInstanceInputs {
  const { namespace, sourceParams, ...rest } = i;
  return {
    ...rest,
    ...(namespace !== undefined && namespace !== DEFAULT_NAMESPACE ? { namespace } : {}),
    ...(sourceParams !== undefined && !isEmpty(sourceParams) ? { sourceParams } : {}),
  };
}

export function rules(i: SearchInstanceInputs, known: Known): InputIssue[] {
  const issues: InputIssue[] = [];
  if (i.importId !== undefined && known("importId") && known("instanceId") && i.importId !== i.instanceId)
    issues.push({ field: "importId", rule: "must equal instanceId (an instance's id never changes)" });
  // The sdk's rules between type and source, on the wire's names.
  if (known("type") && known("source")) {
    for (const issue of settingsIssues({ type: i.type, source: i.source }))
      issues.push({ field: issue.path.map(snakeToCamel).join("."), rule: issue.message });
  }
  return issues;
}

const CREATE_KEYS = new Set(INSTANCE_CREATE_FIELDS);
/** The PUT may repeat `source` (the newer contract's), but it is fixed at create: it is not sent. */
const UPDATE_KEYS = new Set(INSTANCE_UPDATE_FIELDS.filter((k) => k !== "source"));

/** Program name of each input sent on the wire. */
const WIRE_INPUTS = Object.entries(SearchInstanceSpec.fields).flatMap(([k, f]) =>
  f.role === "input" && f.wire !== undefined ? [{ name: k, wire: f.wire }] : [],
);

/** Every wire field of the inputs, the credentials inside `source_params`. */
function wireOf(i: SearchInstanceInputs): Record<string, unknown> {
  const body = toWire(SearchInstanceSpec, i);
  if (i.storageCredentials !== undefined) {
    const sourceParams = isRecord(body.source_params) ? body.source_params : {};
    body.source_params = { ...sourceParams, storage_credentials: toApi(i.storageCredentials) };
  }
  return body;
}

const pick = (body: Record<string, unknown>, keys: ReadonlySet<string>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(body).filter(([k]) => keys.has(k)));

/** The create body: what the service's create takes. */
export function createBody(i: SearchInstanceInputs): CreateInstanceBody {
  return CreateInstanceBodySchema.parse(pick(wireOf(i), CREATE_KEYS));
}

/** The update body: every setting the service's PUT takes (it replaces them all). */
export function updateBody(i: SearchInstanceInputs): UpdateInstanceBody {
  return UpdateInstanceBodySchema.parse(pick(wireOf(i), UPDATE_KEYS));
}

/** The settings: inputs the API returns (the credentials it never does). */
const SETTINGS = WIRE_INPUTS.map((f) => f.name).filter(
  (k) => !SearchInstanceSpec.writeOnlyInputs.includes(k),
);

/**
 * Settings the contract's read answer does not list (the public client's listing does): read where
 * the service sends them, kept from the previous inputs where it does not.
 */
const READ_IF_SENT = new Set(
  WIRE_INPUTS.filter((f) => !Object.hasOwn(SearchInstanceSchema.shape, f.wire)).map((f) => f.name),
);

/**
 * The inputs of a live instance: identity and the write-only credentials from the previous inputs
 * (the API never returns the credentials), every setting from the live object, so a setting cleared
 * out of band (absent, or null: the service's unset) shows as drift. Sent credentials alone leave
 * empty sourceParams: none.
 */
export function project(live: LiveInstance, fromTable: SearchInstanceInputs): SearchInstanceInputs {
  const read = fromWire(SearchInstanceSpec, live, "input");
  const namespace = fromTable.namespace ?? live.namespace ?? undefined;
  const out: SearchInstanceInputs = { ...fromTable, ...(namespace !== undefined ? { namespace } : {}) };
  for (const k of SETTINGS) {
    if (read[k] === null || (!(k in read) && !READ_IF_SENT.has(k))) Reflect.deleteProperty(out, k);
  }
  return normalize(out);
}

/** Inputs added since the first release, with the values the service has held for them since. */
const ADDED_DEFAULTS: Record<string, unknown> = {
  fusionMethod: D.fusion_method,
  hybridSearchEnabled: D.hybrid_search_enabled,
  maxNumResults: D.max_num_results,
  reranking: D.reranking,
  rewriteQuery: D.rewrite_query,
  scoreThreshold: D.score_threshold,
  summarization: D.summarization,
};

/**
 * A state stored before these inputs existed holds none of them, though the instance has had their
 * defaults all along: filled in, the next diff shows nothing (and `hybridSearchEnabled`, which
 * replaces on change, no replacement).
 */
export function upgrade(state: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(ADDED_DEFAULTS)) if (state[k] === undefined) state[k] = v;
  // Earlier releases read the stats on every create and refresh; today that is asked for. A stored
  // state (with its `stats`) gets the default, so neither a diff nor an update follows.
  if (state.readStats === undefined) state.readStats = false;
  return state;
}

/** The service refused the create in a way that may mean the id is in use. */
export const refusedAsHeld = (err: unknown): boolean =>
  err instanceof BadRequestError || err instanceof ConflictError;

/** The indexing counts of an instance, as the `stats` output holds them. */
export async function statsOf(
  i: SearchInstanceInputs,
  ctx: HandlerContext,
): Promise<{ queued: number; running: number; completed: number; error: number }> {
  const s = await ctx.api.search.instances.stats({ ...scope(i, ctx), id: i.instanceId });
  return { queued: s.queued, running: s.running, completed: s.completed, error: s.error };
}

function scope(i: SearchInstanceInputs, ctx: HandlerContext): { accountId: string; namespace?: string } {
  return { accountId: ctx.accountId(i.accountId), ...(i.namespace ? { namespace: i.namespace } : {}) };
}

/** Inputs the create body carries (program names): what an earlier attempt of this create set. */
const CREATE_INPUTS = WIRE_INPUTS.filter((f) => CREATE_KEYS.has(f.wire) && f.wire !== "id").map(
  (f) => f.name,
);

export const remote: Remote<typeof SearchInstanceSpec, LiveInstance> = {
  noun: "search instance",
  idOf: (live, i) => resourceId({ namespace: i.namespace, instanceId: live.id }),
  get: (id, state, ctx) =>
    orGone(
      ctx.api.search.instances.get({
        accountId: ctx.accountId(state.accountId),
        ...instanceRef(id, state.namespace),
      }),
    ),
  create: (i, ctx) => ctx.api.search.instances.create(scope(i, ctx), createBody(i)),
  // PUT replaces every setting, so the whole of the inputs goes, changed or not; `readStats` alone is
  // no setting of the instance: the instance is read, not written.
  async update(id, i, changed, olds, ctx) {
    if (changed.length > 0 && changed.every((k) => k === "readStats")) {
      const live = await remote.get(id, i, ctx);
      if (!live) throw inputError("instanceId", `search instance ${id} is gone; run refresh`);
      return live;
    }
    if (olds.storageCredentials !== undefined && i.storageCredentials === undefined)
      ctx.log(
        `SearchInstance ${id}: storageCredentials removed from the program; the service keeps the stored ones until new ones are given`,
      );
    return ctx.api.search.instances.update({ ...scope(i, ctx), id: i.instanceId }, updateBody(i));
  },
  async remove(id, state, ctx) {
    await ctx.api.search.instances.delete({
      accountId: ctx.accountId(state.accountId),
      ...instanceRef(id, state.namespace),
    });
  },
};

export const checks: Checks<typeof SearchInstanceSpec> = {
  normalize,
  rules,
};

export const key: NaturalKey<typeof SearchInstanceSpec, LiveInstance> = {
  keyField: "instanceId",
  keyOf: (i) => `"${i.instanceId}" in namespace "${i.namespace ?? DEFAULT_NAMESPACE}"`,
  findByKey: (i, ctx) => remote.get(i.instanceId, i, ctx),
  refusedAsHeld,
  /**
   * An instance whose create-time settings are these inputs' is one an earlier attempt made: adopted,
   * and a PUT then brings any setting changed since.
   */
  ours(live, i) {
    const seen = project(live, { ...i, ...fromWire(SearchInstanceSpec, live, "input") });
    return CREATE_INPUTS.every((k) => deepEqual(Reflect.get(seen, k), Reflect.get(i, k)));
  },
};

export const adoption: Adoption<typeof SearchInstanceSpec, LiveInstance> = {
  importIdOf: (live) => live.id,
};

export const reading: Reading<typeof SearchInstanceSpec, LiveInstance> = {
  project: (live, _previous, fromTable) => project(live, fromTable),
  async outputs(live, i, ctx) {
    return {
      createdBy: live.created_by ?? null,
      modifiedBy: live.modified_by ?? null,
      lastActivity: live.last_activity ?? null,
      publicEndpointId: live.public_endpoint_id ?? null,
      ...(i.readStats ? { stats: await statsOf(i, ctx) } : {}),
    };
  },
};

export const history: History = {
  upgrade,
};
