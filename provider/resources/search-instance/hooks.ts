/**
 * What SearchInstance's description cannot say: the id `<namespace>/<instanceId>` (an importId is the
 * bare instance id), "default" as the absent namespace, the rules between type, source and
 * sourceParams, the credentials riding inside `source_params` on the wire, settings read from the
 * live object alone, and the stats, which take a call of their own.
 */
import type { InstanceRef, SearchInstance as LiveInstance } from "../../../sdk/search";
import {
  CreateInstanceBodySchema,
  settingsIssues,
  type CreateInstanceBody,
} from "../../../sdk/schemas/search";
import { fromWire, toWire, type InputsOf } from "../../core/define";
import { orGone, type Hooks, type InputIssue, type Known } from "../../core/pipeline";
import { isRecord, snakeToCamel, toApi } from "../../core/values";
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
  // The sdk's rules between type, source and source params, on the wire's names.
  if (known("type") && known("source") && known("sourceParams")) {
    const p = i.sourceParams;
    const wire = {
      type: i.type,
      source: i.source,
      source_params: p && { web_crawler: p.webCrawler, prefix: p.prefix },
    };
    for (const issue of settingsIssues(wire))
      issues.push({ field: issue.path.map(snakeToCamel).join("."), rule: issue.message });
  }
  return issues;
}

/** The create body: the table's wire fields, with the credentials inside `source_params`. */
export function toBody(i: SearchInstanceInputs): CreateInstanceBody {
  const body = toWire(SearchInstanceSpec, i);
  if (i.storageCredentials !== undefined) {
    const sourceParams = isRecord(body.source_params) ? body.source_params : {};
    body.source_params = { ...sourceParams, storage_credentials: toApi(i.storageCredentials) };
  }
  return CreateInstanceBodySchema.parse(body);
}

/** The settings: inputs the API returns (the credentials it never does). */
const SETTINGS = Object.entries(SearchInstanceSpec.fields)
  .filter(
    ([k, f]) => f.role === "input" && f.wire !== undefined && !SearchInstanceSpec.writeOnlyInputs.includes(k),
  )
  .map(([k]) => k);

/**
 * The inputs of a live instance: identity and the write-only credentials from the previous inputs
 * (the API never returns the credentials), every setting from the live object alone, so a setting
 * cleared out of band shows as drift. Sent credentials alone leave empty sourceParams: none.
 */
export function project(live: LiveInstance, fromTable: SearchInstanceInputs): SearchInstanceInputs {
  const read = fromWire(SearchInstanceSpec, live, "input");
  const out = { ...fromTable, namespace: fromTable.namespace ?? live.namespace };
  for (const k of SETTINGS) if (!(k in read)) Reflect.deleteProperty(out, k);
  return normalize(out);
}

function scope(i: SearchInstanceInputs, ctx: HandlerContext): { accountId: string; namespace?: string } {
  return { accountId: ctx.accountId(i.accountId), ...(i.namespace ? { namespace: i.namespace } : {}) };
}

export const hooks: Hooks<typeof SearchInstanceSpec, LiveInstance> = {
  noun: "search instance",
  keyField: "instanceId",
  keyOf: (i) => `"${i.instanceId}" in namespace "${i.namespace ?? DEFAULT_NAMESPACE}"`,
  normalize,
  rules,
  idOf: (live, i) => resourceId({ namespace: i.namespace, instanceId: live.id }),
  importIdOf: (live) => live.id,
  get: (id, state, ctx) =>
    orGone(
      ctx.api.search.getInstance({
        accountId: ctx.accountId(state.accountId),
        ...instanceRef(id, state.namespace),
      }),
    ),
  findByKey: (i, ctx) => hooks.get(i.instanceId, i, ctx),
  // The API answers 409 to a create of an id that exists, and the conflict leads to the lookup.
  lookupBeforeCreate: false,
  create: (i, ctx) => ctx.api.search.createInstance({ ...scope(i, ctx), ...toBody(i) }),
  // PUT replaces every setting, so the whole of the inputs goes, changed or not.
  update(id, i, _changed, olds, ctx) {
    if (olds.storageCredentials !== undefined && i.storageCredentials === undefined)
      ctx.log(
        `SearchInstance ${id}: storageCredentials removed from the program; the service keeps the stored ones until new ones are given`,
      );
    const { id: instanceId, ...settings } = toBody(i);
    return ctx.api.search.updateInstance({ ...scope(i, ctx), id: instanceId, ...settings });
  },
  async remove(id, state, ctx) {
    await ctx.api.search.deleteInstance({
      accountId: ctx.accountId(state.accountId),
      ...instanceRef(id, state.namespace),
    });
  },
  project: (live, _previous, fromTable) => project(live, fromTable),
  async outputs(live, i, ctx) {
    const stats = await ctx.api.search.instanceStats({ ...scope(i, ctx), id: i.instanceId });
    return {
      createdBy: live.created_by ?? null,
      modifiedBy: live.modified_by ?? null,
      lastActivity: live.last_activity ?? null,
      stats: { queued: stats.queued, running: stats.running, completed: stats.completed, error: stats.error },
    };
  },
};
