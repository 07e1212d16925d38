/**
 * SearchInstance: a search instance in the default namespace or a named one, with its settings,
 * its write-only storage credentials, and its indexing stats among the outputs.
 *
 * Identity (account, namespace, instance id) and the data source (`type`, `source`, fixed by the API
 * after create) force replacement; every other setting updates in place with a PUT of all of them.
 * Check fills in the server's defaults, so the stored inputs are complete and refresh can show drift
 * on any setting without a perpetual diff.
 */
import * as pulumi from "@pulumi/pulumi";
import { NotFoundError } from "../../sdk/errors";
import type { SearchInstance as LiveInstance, SearchStats } from "../../sdk/search";
import {
  CreateInstanceBodySchema,
  SEARCH_INSTANCE_DEFAULTS,
  SearchNamespaceSchema,
  type CreateInstanceBody,
} from "../../sdk/schemas/search";
import {
  changedKeys,
  checkWith,
  containsUnknown,
  fromApi,
  isUnknown,
  secretHash,
  snakeToCamel,
  toApi,
} from "../inputs";
import type { DeepInputs } from "../input-types";
import { AccountApiResource, registerArgs, type CommonArgs } from "../resource";
import type { CheckFailure, HandlerContext, ResourceHandler } from "../types";

// ---- shapes ----

export interface SearchSourceParams {
  prefix?: string;
  includeItems?: string[];
  excludeItems?: string[];
  r2Jurisdiction?: "default" | "eu" | "fedramp";
  webCrawler?: {
    parseType?: "sitemap" | "feed-rss";
    parseOptions?: { includeImages?: boolean; useBrowserRendering?: boolean; specificSitemaps?: string[] };
    storeOptions?: { storageId: string; storageType?: "r2"; r2Jurisdiction?: "default" | "eu" | "fedramp" };
  };
}

/**
 * The source's storage credentials. In the API they sit in `source_params.storage_credentials`; here
 * they are a top-level input so that only they are secret (a secret `sourceParams` would hide every
 * change to the prefix or patterns in previews).
 */
export interface SearchStorageCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** The settings, named after the API's fields in camelCase. */
export interface SearchInstanceSettings {
  type?: "r2" | "web-crawler";
  source?: string;
  sourceParams?: SearchSourceParams;
  aiSearchModel?: string;
  embeddingModel?: string;
  rewriteModel?: string;
  rerankingModel?: string;
  chunk?: boolean;
  chunkSize?: number;
  chunkOverlap?: number;
  cache?: boolean;
  cacheThreshold?: "super_strict_match" | "close_enough" | "flexible_friend" | "anything_goes";
  cacheTtl?: number;
  indexMethod?: { keyword: boolean; vector: boolean };
  customMetadata?: { fieldName: string; dataType: "text" | "number" | "boolean" }[];
  syncInterval?: number;
  paused?: boolean;
  tokenId?: string;
}

export interface SearchInstanceInputs extends SearchInstanceSettings {
  accountId?: string;
  importId?: string;
  /** A named namespace; absent (or "default") means the default one. */
  namespace?: string;
  /** The instance's `id` (lowercase letters, digits, `-`, `_`), unique per namespace. */
  instanceId: string;
  storageCredentials?: SearchStorageCredentials;
}

export interface SearchInstanceStatsOutput {
  queued: number;
  running: number;
  completed: number;
  error: number;
}

export interface SearchInstanceOutputs extends SearchInstanceInputs {
  createdAt?: string;
  modifiedAt?: string;
  createdBy?: string | null;
  modifiedBy?: string | null;
  status?: string;
  enable?: boolean;
  lastActivity?: string | null;
  stats?: SearchInstanceStatsOutput;
  /** Hash of the write-only credentials: shows that they changed without revealing them. */
  storageCredentialsHash?: string;
}

export interface SearchInstanceArgs
  extends CommonArgs, DeepInputs<Omit<SearchInstanceInputs, "accountId" | "importId">> {
  instanceId: pulumi.Input<string>;
}

// ---- declarations beside the fields ----

/** Inputs that force a new instance: identity, and the data source the API fixes at create. */
export const REPLACE_KEYS = ["accountId", "namespace", "instanceId", "type", "source"] as const;
/** Identity: when it stays the same a replacement must delete first (ids are unique per namespace). */
const IDENTITY_KEYS = ["accountId", "namespace", "instanceId"] as const;

const SETTING_KEYS = [
  "type",
  "source",
  "sourceParams",
  "aiSearchModel",
  "embeddingModel",
  "rewriteModel",
  "rerankingModel",
  "chunk",
  "chunkSize",
  "chunkOverlap",
  "cache",
  "cacheThreshold",
  "cacheTtl",
  "indexMethod",
  "customMetadata",
  "syncInterval",
  "paused",
  "tokenId",
] as const satisfies readonly (keyof SearchInstanceSettings)[];

const INPUT_KEYS = [
  "accountId",
  "importId",
  "namespace",
  "instanceId",
  "storageCredentials",
  ...SETTING_KEYS,
] as const satisfies readonly (keyof SearchInstanceInputs)[];

export const OUTPUT_NAMES = [
  "createdAt",
  "modifiedAt",
  "createdBy",
  "modifiedBy",
  "status",
  "enable",
  "lastActivity",
  "stats",
  "storageCredentialsHash",
] as const;

export const SECRET_OUTPUTS = ["storageCredentials"] as const;

const DEFAULT_NAMESPACE = "default";

/** The server's defaults in input naming. */
export const INPUT_DEFAULTS = fromApi(SEARCH_INSTANCE_DEFAULTS) as Partial<SearchInstanceSettings>;

// ---- pure planning (tested with tables) ----

/** Input path of an API path: `id` → `instanceId`, credentials → the top-level input, else camelCase. */
export function inputFieldName(apiPath: string): string {
  if (apiPath === "id") return "instanceId";
  const creds = "source_params.storage_credentials";
  if (apiPath === creds || apiPath.startsWith(`${creds}.`)) {
    return [
      "storageCredentials",
      ...apiPath
        .slice(creds.length + 1)
        .split(".")
        .filter(Boolean)
        .map(snakeToCamel),
    ].join(".");
  }
  return apiPath
    .split(".")
    .map((seg) => snakeToCamel(seg))
    .join(".");
}

/** The create/PUT body for these inputs. */
export function toApiBody(inputs: SearchInstanceInputs): CreateInstanceBody {
  const settings: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) if (inputs[key] !== undefined) settings[key] = inputs[key];
  const body = toApi(settings) as Record<string, unknown>;
  if (inputs.storageCredentials !== undefined) {
    body.source_params = {
      ...((body.source_params as object | undefined) ?? {}),
      storage_credentials: toApi(inputs.storageCredentials),
    };
  }
  return { id: inputs.instanceId, ...body } as CreateInstanceBody;
}

/** Inputs as stored: no undefined keys, the default namespace as absent, the server's defaults filled. */
export function normalizeInputs(news: Record<string, unknown>): SearchInstanceInputs {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(news)) if (v !== undefined && v !== null) out[k] = v;
  if (out.namespace === DEFAULT_NAMESPACE) delete out.namespace;
  for (const [k, v] of Object.entries(INPUT_DEFAULTS)) if (out[k] === undefined) out[k] = structuredClone(v);
  if (isPlainEmpty(out.sourceParams)) delete out.sourceParams;
  return out as unknown as SearchInstanceInputs;
}

export function checkInputs(news: Record<string, unknown>): {
  inputs: SearchInstanceInputs;
  failures: CheckFailure[];
} {
  const inputs = normalizeInputs(news);
  const failures: CheckFailure[] = [];
  if (inputs.namespace !== undefined && !isUnknown(inputs.namespace)) {
    const ns = SearchNamespaceSchema.safeParse(inputs.namespace);
    if (!ns.success)
      for (const i of ns.error.issues)
        failures.push({ property: "namespace", reason: `namespace: ${i.message}` });
  }
  if (
    inputs.importId !== undefined &&
    !containsUnknown([inputs.importId, inputs.instanceId]) &&
    inputs.importId !== inputs.instanceId
  ) {
    failures.push({
      property: "importId",
      reason: "importId: must equal instanceId (an instance's id never changes)",
    });
  }
  failures.push(...checkWith(CreateInstanceBodySchema, toApiBody(inputs), inputFieldName));
  return { inputs, failures };
}

function inputPart(o: SearchInstanceInputs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of INPUT_KEYS) if (o[k] !== undefined && k !== "storageCredentials") out[k] = o[k];
  return out;
}

/** Which inputs changed and what that means. `olds` are the previous outputs. */
export function planDiff(
  olds: SearchInstanceOutputs,
  news: SearchInstanceInputs,
): { changes: boolean; replaces: string[]; deleteBeforeReplace: boolean; changed: string[] } {
  const changed = changedKeys(inputPart(olds), inputPart(news), ["importId"]);
  const newHash =
    news.storageCredentials === undefined
      ? undefined
      : secretHash("storageCredentials", news.storageCredentials);
  if (newHash !== olds.storageCredentialsHash) changed.push("storageCredentials");
  const replaces = changed.filter((k) => (REPLACE_KEYS as readonly string[]).includes(k));
  const identityChanged = replaces.some((k) => (IDENTITY_KEYS as readonly string[]).includes(k));
  return {
    changes: changed.length > 0,
    replaces,
    deleteBeforeReplace: replaces.length > 0 && !identityChanged,
    changed,
  };
}

/** The live settings in input naming; empty `sourceParams` (credentials only) reads as absent. */
export function liveSettings(live: LiveInstance): SearchInstanceSettings {
  const apiSettings: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const apiKey = toApiKey(key);
    const value = (live as Record<string, unknown>)[apiKey];
    if (value !== undefined && value !== null) apiSettings[apiKey] = value;
  }
  const settings = fromApi(apiSettings) as Record<string, unknown>;
  if (isPlainEmpty(settings.sourceParams)) delete settings.sourceParams;
  return settings as SearchInstanceSettings;
}

/**
 * The live object projected onto the inputs: identity and write-only values from the previous state
 * (the API never returns the credentials), every setting from the live object.
 */
export function projectInputs(previous: SearchInstanceInputs, live: LiveInstance): SearchInstanceInputs {
  const out: Record<string, unknown> = {};
  for (const k of ["accountId", "importId", "namespace", "instanceId", "storageCredentials"] as const) {
    if (previous[k] !== undefined) out[k] = previous[k];
  }
  return { ...(out as unknown as SearchInstanceInputs), ...liveSettings(live) };
}

export function outputsOf(
  inputs: SearchInstanceInputs,
  live: LiveInstance,
  stats: SearchStats,
): SearchInstanceOutputs {
  return {
    ...inputs,
    createdAt: live.created_at,
    modifiedAt: live.modified_at,
    createdBy: live.created_by ?? null,
    modifiedBy: live.modified_by ?? null,
    status: live.status,
    enable: live.enable,
    lastActivity: live.last_activity ?? null,
    stats: { queued: stats.queued, running: stats.running, completed: stats.completed, error: stats.error },
    ...(inputs.storageCredentials !== undefined
      ? { storageCredentialsHash: secretHash("storageCredentials", inputs.storageCredentials) }
      : {}),
  };
}

/** Pulumi id: `<namespace>/<instanceId>` (also the documented import form). */
export function resourceId(inputs: Pick<SearchInstanceInputs, "namespace" | "instanceId">): string {
  return `${inputs.namespace ?? DEFAULT_NAMESPACE}/${inputs.instanceId}`;
}

function toApiKey(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function isPlainEmpty(v: unknown): boolean {
  return !!v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0;
}

// ---- the handler ----

function refOf(inputs: SearchInstanceInputs, ctx: HandlerContext, id = inputs.instanceId) {
  return { accountId: ctx.accountId(inputs.accountId), namespace: inputs.namespace, id };
}

async function getOrUndefined(
  ctx: HandlerContext,
  ref: { accountId: string; namespace?: string; id: string },
) {
  try {
    return await ctx.api.search.getInstance(ref);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

async function put(ctx: HandlerContext, inputs: SearchInstanceInputs): Promise<LiveInstance> {
  const { id, ...settings } = toApiBody(inputs);
  return ctx.api.search.updateInstance({ ...refOf(inputs, ctx), ...settings, id });
}

export const handler: ResourceHandler<SearchInstanceInputs, SearchInstanceOutputs> = {
  async check(_olds, news) {
    return checkInputs(news);
  },

  async diff(_id, olds, news) {
    const { changes, replaces, deleteBeforeReplace } = planDiff(olds, news);
    return { changes, replaces, deleteBeforeReplace };
  },

  async create(inputs, ctx) {
    const ref = refOf(inputs, ctx);
    const where = `namespace "${inputs.namespace ?? DEFAULT_NAMESPACE}"`;
    let live: LiveInstance;
    if (inputs.importId !== undefined) {
      const existing = await getOrUndefined(ctx, { ...ref, id: inputs.importId });
      if (!existing)
        throw new Error(`importId: instance "${inputs.importId}" not found in ${where}; nothing to adopt`);
      live = await put(ctx, inputs);
    } else {
      if (await getOrUndefined(ctx, ref)) {
        throw new Error(
          `instanceId: instance "${inputs.instanceId}" already exists in ${where}; set importId: "${inputs.instanceId}" to adopt it`,
        );
      }
      live = await ctx.api.search.createInstance({
        ...toApiBody(inputs),
        accountId: ref.accountId,
        namespace: ref.namespace,
      });
    }
    const stats = await ctx.api.search.instanceStats(ref);
    return { id: resourceId(inputs), outs: outputsOf(inputs, live, stats) };
  },

  async read(id, props, ctx) {
    const previous = props.instanceId ? props : { ...props, ...parseResourceId(id) };
    const ref = refOf(previous, ctx);
    const live = await getOrUndefined(ctx, ref);
    if (!live) return undefined;
    const stats = await ctx.api.search.instanceStats(ref);
    const inputs = projectInputs(previous, live);
    return { id, props: outputsOf(inputs, live, stats), inputs };
  },

  async update(_id, olds, news, ctx) {
    if (olds.storageCredentials !== undefined && news.storageCredentials === undefined) {
      ctx.log(
        `SearchInstance ${resourceId(news)}: storageCredentials removed from the program; the service keeps the stored ones until new ones are given`,
      );
    }
    const live = await put(ctx, news);
    const stats = await ctx.api.search.instanceStats(refOf(news, ctx));
    return { outs: outputsOf(news, live, stats) };
  },

  async delete(_id, props, ctx) {
    try {
      await ctx.api.search.deleteInstance(refOf(props, ctx));
    } catch (err) {
      if (err instanceof NotFoundError) return;
      throw err;
    }
  },
};

/** `<namespace>/<instanceId>`, or a bare `<instanceId>` for the default namespace. */
export function parseResourceId(id: string): Pick<SearchInstanceInputs, "namespace" | "instanceId"> {
  const slash = id.indexOf("/");
  if (slash < 0) return { instanceId: id };
  const namespace = id.slice(0, slash);
  return { instanceId: id.slice(slash + 1), ...(namespace === DEFAULT_NAMESPACE ? {} : { namespace }) };
}

// ---- the resource class ----

export class SearchInstance extends AccountApiResource {
  declare readonly accountId: pulumi.Output<string | undefined>;
  declare readonly namespace: pulumi.Output<string | undefined>;
  declare readonly instanceId: pulumi.Output<string>;
  declare readonly type: pulumi.Output<SearchInstanceSettings["type"]>;
  declare readonly source: pulumi.Output<string | undefined>;
  declare readonly sourceParams: pulumi.Output<SearchSourceParams | undefined>;
  declare readonly storageCredentials: pulumi.Output<SearchStorageCredentials | undefined>;
  declare readonly aiSearchModel: pulumi.Output<string | undefined>;
  declare readonly embeddingModel: pulumi.Output<string | undefined>;
  declare readonly rewriteModel: pulumi.Output<string | undefined>;
  declare readonly rerankingModel: pulumi.Output<string | undefined>;
  declare readonly chunk: pulumi.Output<boolean>;
  declare readonly chunkSize: pulumi.Output<number>;
  declare readonly chunkOverlap: pulumi.Output<number>;
  declare readonly cache: pulumi.Output<boolean>;
  declare readonly cacheThreshold: pulumi.Output<string>;
  declare readonly cacheTtl: pulumi.Output<number | undefined>;
  declare readonly indexMethod: pulumi.Output<{ keyword: boolean; vector: boolean }>;
  declare readonly customMetadata: pulumi.Output<SearchInstanceSettings["customMetadata"]>;
  declare readonly syncInterval: pulumi.Output<number>;
  declare readonly paused: pulumi.Output<boolean>;
  declare readonly tokenId: pulumi.Output<string | undefined>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly modifiedAt: pulumi.Output<string>;
  declare readonly createdBy: pulumi.Output<string | null>;
  declare readonly modifiedBy: pulumi.Output<string | null>;
  declare readonly status: pulumi.Output<string>;
  declare readonly enable: pulumi.Output<boolean>;
  declare readonly lastActivity: pulumi.Output<string | null>;
  declare readonly stats: pulumi.Output<SearchInstanceStatsOutput>;
  declare readonly storageCredentialsHash: pulumi.Output<string | undefined>;

  constructor(name: string, args: SearchInstanceArgs, opts?: pulumi.CustomResourceOptions) {
    const props: Record<string, unknown> = { ...args };
    // Encrypted in state even when the program passed a plain value.
    if (args.storageCredentials !== undefined)
      props.storageCredentials = pulumi.secret(args.storageCredentials);
    // Every input is declared too, so the settings the server defaults are readable as outputs.
    super(
      "SearchInstance",
      name,
      registerArgs(props, [...INPUT_KEYS, ...OUTPUT_NAMES]),
      opts,
      SECRET_OUTPUTS,
    );
  }
}
