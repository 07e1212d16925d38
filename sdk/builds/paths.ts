/**
 * What every sub-resource of the build service shares: the schemas of its path identifiers (checked
 * before any request), the page-size limits, and the request call that adds the build hints.
 */
import { z } from "zod";
import type { ApiClient, ApiResponse, RequestSpec } from "../client";
import { IdentifierSchema } from "../schemas/common";
import { ProviderTypeSchema, ScriptNameSchema, ScriptTagSchema, UuidSchema } from "../schemas/builds";
import { withBuildHint, type Scope } from "./hints";

export interface AccountParams {
  /** Overrides the client's default account (at most 32 characters). */
  accountId?: string;
}

const Account = { accountId: IdentifierSchema.optional() };
const Repo = z.object({
  ...Account,
  providerType: ProviderTypeSchema,
  providerAccountId: z.string().min(1, "must not be empty"),
  repoId: z.string().min(1, "must not be empty"),
});

/** The identifiers of each kind of path, and the page sizes the listings accept. */
export const P = {
  account: z.object(Account),
  scriptName: z.object({ ...Account, scriptName: ScriptNameSchema }),
  scriptTag: z.object({ ...Account, scriptTag: ScriptTagSchema }),
  trigger: z.object({ ...Account, triggerUuid: UuidSchema }),
  build: z.object({ ...Account, buildUuid: UuidSchema }),
  envKey: z.object({ ...Account, triggerUuid: UuidSchema, key: z.string().min(1, "must not be empty") }),
  versionIds: z.object({
    ...Account,
    versionIds: z
      .array(UuidSchema)
      .min(1, "must hold at least one version id")
      .max(20, "must hold at most 20 version ids"),
  }),
  perPage: z
    .number()
    .int("must be an integer")
    .min(1, "must be at least 1")
    .max(100, "must be at most 100")
    .optional(),
  /** The build service's page-style listings take up to 200 a page (public contract). */
  buildPerPage: z
    .number()
    .int("must be an integer")
    .min(1, "must be at least 1")
    .max(200, "must be at most 200")
    .optional(),
  hook: z.object({ ...Account, scriptTag: ScriptTagSchema, deployHookUuid: UuidSchema }),
  tokenUuid: z.object({ ...Account, buildTokenUuid: UuidSchema }),
  repoConnection: z.object({ ...Account, repoConnectionUuid: UuidSchema }),
  scriptTags: z.object({
    ...Account,
    scriptTags: z
      .array(ScriptTagSchema)
      .min(1, "must hold at least one script tag")
      .max(20, "must hold at most 20 script tags"),
  }),
  repo: Repo,
  /** A repository's ids and the config-autofill query, checked together as one object. */
  autofill: Repo.extend({
    branch: z.string().min(1, "must not be empty").optional(),
    rootDirectory: z.string().optional(),
  }),
  wait: z.object({
    deadlineMs: z.number().positive("must be greater than 0").optional(),
    pollIntervalMs: z.number().positive("must be greater than 0").optional(),
    maxPollIntervalMs: z.number().positive("must be greater than 0").optional(),
  }),
};

/** Ids of the account's own collections (`/accounts/{account_id}/…`). */
export type AccountIds = z.input<typeof P.account>;
/** Ids of a script path (`workers/scripts/{script_name}`): the script's name. */
export type ScriptNameIds = z.input<typeof P.scriptName>;
/** Ids of a build-service path of one script (`builds/workers/{script_tag}`): the script's tag. */
export type ScriptTagIds = z.input<typeof P.scriptTag>;
export type TriggerIds = z.input<typeof P.trigger>;
export type BuildIds = z.input<typeof P.build>;
export type DeployHookIds = z.input<typeof P.hook>;
export type BuildTokenIds = z.input<typeof P.tokenUuid>;
export type RepoConnectionIds = z.input<typeof P.repoConnection>;
export type RepoIds = z.input<typeof P.repo>;
export interface EnvironmentVariableIds extends TriggerIds {
  environmentVariableKey: string;
}

/** One request with its paging info; an API error gets the hint its scope calls for. */
export async function send<T>(
  client: ApiClient,
  scope: Scope,
  spec: RequestSpec<T>,
): Promise<ApiResponse<T>> {
  try {
    return await client.requestWithInfo(spec);
  } catch (e) {
    throw withBuildHint(e, scope);
  }
}

/** One request's value. */
export async function value<T>(client: ApiClient, scope: Scope, spec: RequestSpec<T>): Promise<T> {
  return (await send(client, scope, spec)).value;
}

/** `{ accountId }` when one is given, else nothing: the account part of a call's ids. */
export function accountOf(accountId: string | undefined): AccountIds {
  return accountId ? { accountId } : {};
}
