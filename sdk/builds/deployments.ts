/** Deployments of a script (`workers/scripts/{script_name}/deployments`): newest first, the first one live. */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import {
  DeploymentCreateBodySchema,
  DeploymentSchema,
  DeploymentsSchema,
  type Deployment,
  type DeploymentCreateBody,
} from "../schemas/builds";
import { validate } from "../validate";
import { P, value, type ScriptNameIds } from "./paths";

/** The body (`strategy` defaults to `percentage`) and the query's `force`. */
export type DeploymentCreateParams = Pick<DeploymentCreateBody, "versions" | "annotations"> & {
  strategy?: "percentage";
  /** Deploys over changes made outside the service's tooling (query). */
  force?: boolean;
};

export class Deployments {
  constructor(readonly client: ApiClient) {}

  /** `result.deployments`, newest first: the first one is the active deployment. */
  async list(ids: ScriptNameIds, options: CallOptions = {}): Promise<Deployment[]> {
    const p = validate(P.scriptName, ids, "builds.listDeployments");
    const a = this.client.account(p.accountId);
    const r = await value(this.client, "script-name", {
      method: "GET",
      path: path`/accounts/${a}/workers/scripts/${ids.scriptName}/deployments`,
      schema: DeploymentsSchema,
      ...options,
    });
    return r.deployments;
  }

  /**
   * Deploys versions of a script (percentages add up to 100), with an optional
   * `annotations["workers/message"]`. Not retried: it creates a deployment.
   */
  async create(
    ids: ScriptNameIds,
    params: DeploymentCreateParams,
    options: CallOptions = {},
  ): Promise<Deployment> {
    const { versions, strategy, annotations, force } = params;
    const p = validate(
      P.scriptName.extend({ force: z.boolean().optional() }),
      { accountId: ids.accountId, scriptName: ids.scriptName, force },
      "builds.createDeployment",
    );
    const body = validate(
      DeploymentCreateBodySchema,
      { strategy: strategy ?? "percentage", versions, ...(annotations ? { annotations } : {}) },
      "builds.createDeployment",
    );
    const a = this.client.account(p.accountId);
    return value(this.client, "script-name", {
      method: "POST",
      path: path`/accounts/${a}/workers/scripts/${ids.scriptName}/deployments`,
      query: { force: p.force },
      body,
      schema: DeploymentSchema,
      ...options,
    });
  }
}
