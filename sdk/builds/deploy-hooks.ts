/**
 * Deploy hooks of a script (`builds/workers/{script_tag}/deploy_hooks`; the contract calls that
 * segment `script_name` but it takes the tag, as every build-service path does: spec A).
 */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import {
  DeployHookBodySchema,
  DeployHookSchema,
  type DeployHook,
  type DeployHookBody,
} from "../schemas/builds";
import { validate } from "../validate";
import { P, value, type DeployHookIds, type ScriptTagIds } from "./paths";

export class DeployHooks {
  constructor(readonly client: ApiClient) {}

  async list(ids: ScriptTagIds, options: CallOptions = {}): Promise<DeployHook[]> {
    const p = validate(P.scriptTag, ids, "builds.listDeployHooks");
    const a = this.client.account(p.accountId);
    return value(this.client, "script-tag", {
      method: "GET",
      path: path`/accounts/${a}/builds/workers/${ids.scriptTag}/deploy_hooks`,
      schema: z.array(DeployHookSchema),
      ...options,
    });
  }

  /** A second hook of the same name on the script is refused (409). Not retried: it creates. */
  async create(ids: ScriptTagIds, params: DeployHookBody, options: CallOptions = {}): Promise<DeployHook> {
    const p = validate(
      P.scriptTag,
      { accountId: ids.accountId, scriptTag: ids.scriptTag },
      "builds.createDeployHook",
    );
    const body = validate(DeployHookBodySchema, params, "builds.createDeployHook");
    const a = this.client.account(p.accountId);
    return value(this.client, "script-tag", {
      method: "POST",
      path: path`/accounts/${a}/builds/workers/${ids.scriptTag}/deploy_hooks`,
      body,
      schema: DeployHookSchema,
      ...options,
    });
  }

  async get(ids: DeployHookIds, options: CallOptions = {}): Promise<DeployHook> {
    const p = validate(P.hook, ids, "builds.getDeployHook");
    const a = this.client.account(p.accountId);
    return value(this.client, "script-tag", {
      method: "GET",
      path: path`/accounts/${a}/builds/workers/${ids.scriptTag}/deploy_hooks/${ids.deployHookUuid}`,
      schema: DeployHookSchema,
      ...options,
    });
  }

  /** PUT: name and branch both given, both replaced. */
  async update(ids: DeployHookIds, params: DeployHookBody, options: CallOptions = {}): Promise<DeployHook> {
    const { accountId, scriptTag, deployHookUuid } = ids;
    const p = validate(P.hook, { accountId, scriptTag, deployHookUuid }, "builds.updateDeployHook");
    const body = validate(DeployHookBodySchema, params, "builds.updateDeployHook");
    const a = this.client.account(p.accountId);
    return value(this.client, "script-tag", {
      method: "PUT",
      path: path`/accounts/${a}/builds/workers/${scriptTag}/deploy_hooks/${deployHookUuid}`,
      body,
      schema: DeployHookSchema,
      ...options,
    });
  }

  async delete(ids: DeployHookIds, options: CallOptions = {}): Promise<void> {
    const p = validate(P.hook, ids, "builds.deleteDeployHook");
    const a = this.client.account(p.accountId);
    await value(this.client, "script-tag", {
      method: "DELETE",
      path: path`/accounts/${a}/builds/workers/${ids.scriptTag}/deploy_hooks/${ids.deployHookUuid}`,
      schema: z.unknown(),
      ...options,
    });
  }
}
