/**
 * Routes of the build service around the triggers: build tokens made and deleted, deploy hooks,
 * worker build configurations, the account's build-minute limits and the repository autofill. One
 * thin handler per operation over ./state; every path is below `/accounts/{account_id}`.
 */
import { z } from "zod";
import {
  AccountLimitsSchema,
  BuildTokenCreateBodySchema,
  BuildTokenSchema,
  ConfigAutofillSchema,
  DeployHookBodySchema,
  DeployHookSchema,
  WorkerBuildConfigCreateBodySchema,
  WorkerBuildConfigSchema,
  WorkerBuildConfigUpdateBodySchema,
} from "../../sdk/schemas/builds";
import * as G from "../../sdk/generated/builds";
import type { Permission } from "../auth";
import { openQuery, orEmpty } from "../define";
import * as render from "./render";
import type { BuildsArea } from "./builds-area";

const EDIT: readonly Permission[] = ["builds:edit"];

export function registerConfigRoutes(area: BuildsArea, A: string): void {
  // Build tokens: an API token registered for builds to deploy with.
  area.post(
    `${A}/builds/tokens`,
    {
      params: G.CreateBuildTokenPath,
      body: BuildTokenCreateBodySchema,
      response: BuildTokenSchema,
      permissions: EDIT,
    },
    ({ auth: m, body }) => render.token(m.addToken(body.build_token_name, body.cloudflare_token_id)),
  );

  area.delete(
    `${A}/builds/tokens/:build_token_uuid`,
    { params: G.DeleteBuildTokenPath, permissions: EDIT },
    ({ auth: m, params }) => {
      m.deleteToken(params.build_token_uuid);
      return null;
    },
  );

  area.get(
    `${A}/builds/account/limits`,
    { params: G.GetAccountLimitsPath, response: AccountLimitsSchema, permissions: EDIT },
    ({ auth: m }) => m.limits(),
  );

  area.get(
    `${A}/builds/repos/:provider_type/:provider_account_id/:repo_id/config_autofill`,
    {
      params: G.GetWorkerConfigAutofillPath,
      querystring: openQuery(G.GetWorkerConfigAutofillQuery),
      response: ConfigAutofillSchema,
      permissions: EDIT,
    },
    ({ auth: m, params, query }) => m.configAutofill(params, query.root_directory),
  );

  // Deploy hooks of one script, addressed by tag as every build-service path is (the contract's `script_name`).
  area.get(
    `${A}/builds/workers/:script_name/deploy_hooks`,
    { params: G.ListDeployHooksPath, response: z.array(DeployHookSchema), permissions: EDIT },
    ({ auth: m, params }) => m.hooks.list(params.script_name).map(render.deployHook),
  );

  area.post(
    `${A}/builds/workers/:script_name/deploy_hooks`,
    {
      params: G.CreateDeployHookPath,
      body: DeployHookBodySchema,
      response: DeployHookSchema,
      permissions: EDIT,
    },
    ({ auth: m, params, body }) => render.deployHook(m.hooks.create(params.script_name, body)),
  );

  area.get(
    `${A}/builds/workers/:script_name/deploy_hooks/:deploy_hook_uuid`,
    { params: G.GetDeployHookPath, response: DeployHookSchema, permissions: EDIT },
    ({ auth: m, params }) => render.deployHook(m.hooks.get(params.script_name, params.deploy_hook_uuid)),
  );

  area.put(
    `${A}/builds/workers/:script_name/deploy_hooks/:deploy_hook_uuid`,
    {
      params: G.UpdateDeployHookPath,
      body: DeployHookBodySchema,
      response: DeployHookSchema,
      permissions: EDIT,
    },
    ({ auth: m, params, body }) =>
      render.deployHook(m.hooks.update(params.script_name, params.deploy_hook_uuid, body)),
  );

  area.delete(
    `${A}/builds/workers/:script_name/deploy_hooks/:deploy_hook_uuid`,
    { params: G.DeleteDeployHookPath, response: DeployHookSchema, permissions: EDIT },
    ({ auth: m, params }) => render.deployHook(m.hooks.delete(params.script_name, params.deploy_hook_uuid)),
  );

  // Worker build configuration: one per script.
  area.post(
    `${A}/builds/workers`,
    {
      params: G.PostBuildsWorkersPath,
      // In bodies the tag is looked up: a name there is "Resource not found", as in a trigger's body.
      body: WorkerBuildConfigCreateBodySchema.extend({
        external_script_id: z.string().min(1, "must not be empty"),
      }),
      response: WorkerBuildConfigSchema,
      permissions: EDIT,
    },
    ({ auth: m, body }) => render.workerConfig(m.configs.create(body)),
  );

  area.get(
    `${A}/builds/workers/:script_tag`,
    { params: G.GetBuildsWorkersPath, response: WorkerBuildConfigSchema, permissions: EDIT },
    ({ auth: m, params }) => render.workerConfig(m.configs.get(params.script_tag)),
  );

  area.patch(
    `${A}/builds/workers/:script_tag`,
    {
      params: G.PatchBuildsWorkersPath,
      body: orEmpty(WorkerBuildConfigUpdateBodySchema),
      response: WorkerBuildConfigSchema,
      permissions: EDIT,
    },
    ({ auth: m, params, body }) => render.workerConfig(m.configs.update(params.script_tag, body)),
  );

  area.delete(
    `${A}/builds/workers/:script_tag`,
    { params: G.DeleteBuildsWorkersPath, response: WorkerBuildConfigSchema, permissions: EDIT },
    ({ auth: m, params }) => render.workerConfig(m.configs.delete(params.script_tag)),
  );
}
