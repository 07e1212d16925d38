/** Repository connections (`builds/repos/connections`): one per provider, provider account and repository. */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import {
  RepoConnectionBodySchema,
  RepoConnectionSchema,
  type RepoConnection,
  type RepoConnectionBody,
} from "../schemas/builds";
import { validate } from "../validate";
import { P, value, type AccountIds, type RepoConnectionIds } from "./paths";

export class RepoConnections {
  constructor(readonly client: ApiClient) {}

  /** PUT upsert: the same provider, provider account and repository keep one connection UUID. */
  async upsert(
    ids: AccountIds,
    params: RepoConnectionBody,
    options: CallOptions = {},
  ): Promise<RepoConnection> {
    const { accountId } = ids;
    validate(P.account, { accountId }, "builds.upsertRepoConnection");
    const body = validate(RepoConnectionBodySchema, params, "builds.upsertRepoConnection");
    const a = this.client.account(accountId);
    return value(this.client, "build", {
      method: "PUT",
      path: path`/accounts/${a}/builds/repos/connections`,
      body,
      schema: RepoConnectionSchema,
      ...options,
    });
  }

  /**
   * Emulator-only listing of repository connections: the public API documents none (see
   * docs/areas/builds.md, Assumptions). On the real service this gets a 404.
   */
  async list(ids: AccountIds = {}, options: CallOptions = {}): Promise<RepoConnection[]> {
    const p = validate(P.account, ids, "builds.listRepoConnections");
    const a = this.client.account(p.accountId);
    return value(this.client, "build", {
      method: "GET",
      path: path`/accounts/${a}/builds/repos/connections`,
      schema: z.array(RepoConnectionSchema),
      ...options,
    });
  }

  /** Deletes a repository connection (refused while a trigger uses it). */
  async delete(ids: RepoConnectionIds, options: CallOptions = {}): Promise<void> {
    const p = validate(P.repoConnection, ids, "builds.deleteRepoConnection");
    const a = this.client.account(p.accountId);
    await value(this.client, "build", {
      method: "DELETE",
      path: path`/accounts/${a}/builds/repos/connections/${ids.repoConnectionUuid}`,
      schema: z.unknown(),
      ...options,
    });
  }
}
