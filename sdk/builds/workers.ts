/**
 * A Worker's build configuration (`builds/workers`, `builds/workers/{script_tag}`): the contract
 * publishes paths and methods only (docs/assumptions.md).
 */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import {
  WorkerBuildConfigCreateBodySchema,
  WorkerBuildConfigSchema,
  WorkerBuildConfigUpdateBodySchema,
  type WorkerBuildConfig,
  type WorkerBuildConfigCreateBody,
  type WorkerBuildConfigUpdateBody,
} from "../schemas/builds";
import { validate } from "../validate";
import { P, value, type AccountIds, type ScriptTagIds } from "./paths";

export class Workers {
  constructor(readonly client: ApiClient) {}

  /** Connects a script to a repository connection; fields beyond those two travel as given. */
  async create(
    ids: AccountIds,
    params: WorkerBuildConfigCreateBody,
    options: CallOptions = {},
  ): Promise<WorkerBuildConfig> {
    const { accountId } = ids;
    validate(P.account, { accountId }, "builds.createWorkerBuildConfig");
    const body = validate(WorkerBuildConfigCreateBodySchema, params, "builds.createWorkerBuildConfig");
    const a = this.client.account(accountId);
    return value(this.client, "script-tag", {
      method: "POST",
      path: path`/accounts/${a}/builds/workers`,
      body,
      schema: WorkerBuildConfigSchema,
      ...options,
    });
  }

  async get(ids: ScriptTagIds, options: CallOptions = {}): Promise<WorkerBuildConfig> {
    const p = validate(P.scriptTag, ids, "builds.getWorkerBuildConfig");
    const a = this.client.account(p.accountId);
    return value(this.client, "script-tag", {
      method: "GET",
      path: path`/accounts/${a}/builds/workers/${ids.scriptTag}`,
      schema: WorkerBuildConfigSchema,
      ...options,
    });
  }

  /** PATCH: the fields given replace, the others stay; the script is the path's. */
  async update(
    ids: ScriptTagIds,
    params: WorkerBuildConfigUpdateBody,
    options: CallOptions = {},
  ): Promise<WorkerBuildConfig> {
    const p = validate(
      P.scriptTag,
      { accountId: ids.accountId, scriptTag: ids.scriptTag },
      "builds.updateWorkerBuildConfig",
    );
    const body = validate(WorkerBuildConfigUpdateBodySchema, params, "builds.updateWorkerBuildConfig");
    const a = this.client.account(p.accountId);
    return value(this.client, "script-tag", {
      method: "PATCH",
      path: path`/accounts/${a}/builds/workers/${ids.scriptTag}`,
      body,
      schema: WorkerBuildConfigSchema,
      ...options,
    });
  }

  async delete(ids: ScriptTagIds, options: CallOptions = {}): Promise<void> {
    const p = validate(P.scriptTag, ids, "builds.deleteWorkerBuildConfig");
    const a = this.client.account(p.accountId);
    await value(this.client, "script-tag", {
      method: "DELETE",
      path: path`/accounts/${a}/builds/workers/${ids.scriptTag}`,
      schema: z.unknown(),
      ...options,
    });
  }
}
