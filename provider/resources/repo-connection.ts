/**
 * RepoConnection: a repository connection of the build service (spec A), made with the PUT upsert.
 *
 * - Its natural key is provider type + provider account id + repository id: changing any of them (or
 *   the account) replaces; the display names update in place with the same PUT.
 * - The public API documents no way to read or list connections; the emulator has a listing
 *   (docs/areas/builds.md, Assumptions). Where the listing answers 404 (the public service), read keeps
 *   the stored state and create cannot tell an existing connection apart, so it upserts.
 * - The git provider's app must be installed through the dashboard first; that is not an API step.
 */
import * as pulumi from "@pulumi/pulumi";
import { NotFoundError } from "../../sdk/errors";
import {
  RepoConnectionBodySchema,
  type RepoConnection as LiveConnection,
  type RepoConnectionBody,
} from "../../sdk/schemas/builds";
import { changedKeys, checkWith, snakeToCamel, toApi } from "../inputs";
import { AccountApiResource, registerArgs, type CommonArgs } from "../resource";
import type { CheckFailure, HandlerContext, ResourceHandler } from "../types";

// ---- shapes ----

export interface RepoConnectionInputs {
  accountId?: string;
  importId?: string;
  /** Name of the git hosting provider, e.g. "github". */
  providerType: string;
  providerAccountId: string;
  providerAccountName: string;
  repoId: string;
  repoName: string;
}

export interface RepoConnectionOutputs extends RepoConnectionInputs {
  repoConnectionUuid: string;
  createdOn?: string | null;
  modifiedOn?: string | null;
}

type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

export interface RepoConnectionArgs
  extends CommonArgs, Inputs<Omit<RepoConnectionInputs, "accountId" | "importId">> {}

// ---- declarations beside the fields ----

/** The upsert's key (and the account): a different key is a different connection. */
export const REPLACE_KEYS = ["accountId", "providerType", "providerAccountId", "repoId"] as const;
const FIELD_KEYS = [
  "providerType",
  "providerAccountId",
  "providerAccountName",
  "repoId",
  "repoName",
] as const;
export const OUTPUT_NAMES = ["repoConnectionUuid", "createdOn", "modifiedOn"] as const;

// ---- pure planning ----

export function toBody(i: RepoConnectionInputs): RepoConnectionBody {
  const fields: Record<string, unknown> = {};
  for (const k of FIELD_KEYS) fields[k] = i[k];
  return toApi(fields) as RepoConnectionBody;
}

export function checkInputs(news: Record<string, unknown>): {
  inputs: RepoConnectionInputs;
  failures: CheckFailure[];
} {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(news)) if (v !== undefined && v !== null) out[k] = v;
  const inputs = out as unknown as RepoConnectionInputs;
  const failures = checkWith(RepoConnectionBodySchema, toBody(inputs), (p) =>
    p.split(".").map(snakeToCamel).join("."),
  );
  return { inputs, failures };
}

const sameKey = (c: LiveConnection, i: RepoConnectionInputs): boolean =>
  c.provider_type === i.providerType &&
  c.provider_account_id === i.providerAccountId &&
  c.repo_id === i.repoId;

export function planDiff(
  olds: RepoConnectionOutputs,
  news: RepoConnectionInputs,
): { changed: string[]; replaces: string[] } {
  const pick = (o: Partial<RepoConnectionInputs>) => ({
    accountId: o.accountId,
    providerType: o.providerType,
    providerAccountId: o.providerAccountId,
    providerAccountName: o.providerAccountName,
    repoId: o.repoId,
    repoName: o.repoName,
  });
  const changed = changedKeys(pick(olds), pick(news));
  return { changed, replaces: changed.filter((k) => (REPLACE_KEYS as readonly string[]).includes(k)) };
}

export function projectInputs(previous: RepoConnectionInputs, live: LiveConnection): RepoConnectionInputs {
  return {
    ...(previous.accountId !== undefined ? { accountId: previous.accountId } : {}),
    ...(previous.importId !== undefined ? { importId: previous.importId } : {}),
    providerType: live.provider_type ?? previous.providerType,
    providerAccountId: live.provider_account_id ?? previous.providerAccountId,
    providerAccountName: live.provider_account_name ?? previous.providerAccountName,
    repoId: live.repo_id ?? previous.repoId,
    repoName: live.repo_name ?? previous.repoName,
  };
}

export function outputsOf(inputs: RepoConnectionInputs, live: LiveConnection): RepoConnectionOutputs {
  return {
    ...inputs,
    repoConnectionUuid: live.repo_connection_uuid,
    createdOn: live.created_on ?? null,
    modifiedOn: live.modified_on ?? null,
  };
}

// ---- the handler ----

/** The account's connections, or undefined where the service offers no listing (404). */
async function listing(ctx: HandlerContext, accountId: string): Promise<LiveConnection[] | undefined> {
  try {
    return await ctx.api.builds.listRepoConnections({ accountId });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

export const handler: ResourceHandler<RepoConnectionInputs, RepoConnectionOutputs> = {
  async check(_olds, news) {
    return checkInputs(news);
  },

  async diff(_id, olds, news) {
    const { changed, replaces } = planDiff(olds, news);
    return { changes: changed.length > 0, replaces, deleteBeforeReplace: false };
  },

  async create(inputs, ctx) {
    const accountId = ctx.accountId(inputs.accountId);
    const known = await listing(ctx, accountId);
    const existing = known?.find((c) => sameKey(c, inputs));
    if (inputs.importId !== undefined) {
      const target = known?.find(
        (c) => c.repo_connection_uuid.toLowerCase() === inputs.importId!.toLowerCase(),
      );
      if (known && !target)
        throw new Error(`importId: repository connection ${inputs.importId} not found; nothing to adopt`);
      if (target && !sameKey(target, inputs)) {
        throw new Error(
          `importId: repository connection ${inputs.importId} is for ${target.provider_type}/${target.provider_account_id}/${target.repo_id}, not ${inputs.providerType}/${inputs.providerAccountId}/${inputs.repoId}`,
        );
      }
    } else if (existing) {
      throw new Error(
        `repository ${inputs.providerType}/${inputs.providerAccountId}/${inputs.repoId} is already connected (${existing.repo_connection_uuid}); set importId: "${existing.repo_connection_uuid}" to adopt it`,
      );
    }
    const live = await ctx.api.builds.upsertRepoConnection({ accountId, ...toBody(inputs) });
    if (
      inputs.importId !== undefined &&
      live.repo_connection_uuid.toLowerCase() !== inputs.importId.toLowerCase()
    ) {
      throw new Error(
        `importId: the service answered with connection ${live.repo_connection_uuid}, not ${inputs.importId}`,
      );
    }
    return { id: live.repo_connection_uuid, outs: outputsOf(inputs, live) };
  },

  async read(id, props, ctx) {
    const known = await listing(ctx, ctx.accountId(props.accountId));
    if (!known) return { id, props, inputs: projectInputs(props, toLive(props)) };
    const live = known.find((c) => c.repo_connection_uuid.toLowerCase() === id.toLowerCase());
    if (!live) return undefined;
    const inputs = projectInputs(props, live);
    return { id, props: outputsOf(inputs, live), inputs };
  },

  async update(_id, _olds, news, ctx) {
    const live = await ctx.api.builds.upsertRepoConnection({
      accountId: ctx.accountId(news.accountId),
      ...toBody(news),
    });
    return { outs: outputsOf(news, live) };
  },

  async delete(id, props, ctx) {
    try {
      await ctx.api.builds.deleteRepoConnection(id, { accountId: ctx.accountId(props.accountId) });
    } catch (err) {
      if (err instanceof NotFoundError) return;
      throw err;
    }
  },
};

function toLive(o: RepoConnectionOutputs): LiveConnection {
  return {
    repo_connection_uuid: o.repoConnectionUuid,
    ...toBody(o),
    ...(o.createdOn !== undefined ? { created_on: o.createdOn } : {}),
    ...(o.modifiedOn !== undefined ? { modified_on: o.modifiedOn } : {}),
  };
}

// ---- the resource class ----

export class RepoConnection extends AccountApiResource {
  declare readonly accountId: pulumi.Output<string | undefined>;
  declare readonly providerType: pulumi.Output<string>;
  declare readonly providerAccountId: pulumi.Output<string>;
  declare readonly providerAccountName: pulumi.Output<string>;
  declare readonly repoId: pulumi.Output<string>;
  declare readonly repoName: pulumi.Output<string>;
  declare readonly repoConnectionUuid: pulumi.Output<string>;
  declare readonly createdOn: pulumi.Output<string | null>;
  declare readonly modifiedOn: pulumi.Output<string | null>;

  constructor(name: string, args: RepoConnectionArgs, opts?: pulumi.CustomResourceOptions) {
    super("RepoConnection", name, registerArgs(args, OUTPUT_NAMES), opts);
  }
}
