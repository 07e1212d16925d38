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
import { AccountParams, orEmpty } from "../define";
import * as render from "./render";
import type { BuildsArea } from "./builds-area";

const EDIT: readonly Permission[] = ["builds:edit"];

export function registerConfigRoutes(area: BuildsArea, A: string): void {
  const Tag = AccountParams.extend({ worker_tag: z.string() });
  const Hook = Tag.extend({ deploy_hook_uuid: z.string() });

  // Build tokens: an API token registered for builds to deploy with.
  area.post(
    `${A}/builds/tokens`,
    {
      params: AccountParams,
      body: BuildTokenCreateBodySchema,
      response: BuildTokenSchema,
      permissions: EDIT,
    },
    ({ auth: m, body }) => render.token(m.addToken(body.build_token_name, body.cloudflare_token_id)),
  );

  area.delete(
    `${A}/builds/tokens/:build_token_uuid`,
    { params: AccountParams.extend({ build_token_uuid: z.string() }), permissions: EDIT },
    ({ auth: m, params }) => {
      m.deleteToken(params.build_token_uuid);
      return null;
    },
  );

  area.get(
    `${A}/builds/account/limits`,
    { params: AccountParams, response: AccountLimitsSchema, permissions: EDIT },
    ({ auth: m }) => m.limits(),
  );

  area.get(
    `${A}/builds/repos/:provider_type/:provider_account_id/:repo_id/config_autofill`,
    {
      params: AccountParams.extend({
        provider_type: z.string(),
        provider_account_id: z.string(),
        repo_id: z.string(),
      }),
      querystring: z.looseObject(G.GetWorkerConfigAutofillQuery.shape),
      response: ConfigAutofillSchema,
      permissions: EDIT,
    },
    ({ auth: m, params, query }) => m.configAutofill(params, query.root_directory),
  );

  // Deploy hooks of one script (addressed by tag, as every build-service path is).
  area.get(
    `${A}/builds/workers/:worker_tag/deploy_hooks`,
    { params: Tag, response: z.array(DeployHookSchema), permissions: EDIT },
    ({ auth: m, params }) => m.hooks.list(params.worker_tag).map(render.deployHook),
  );

  area.post(
    `${A}/builds/workers/:worker_tag/deploy_hooks`,
    { params: Tag, body: DeployHookBodySchema, response: DeployHookSchema, permissions: EDIT },
    ({ auth: m, params, body }) => render.deployHook(m.hooks.create(params.worker_tag, body)),
  );

  area.get(
    `${A}/builds/workers/:worker_tag/deploy_hooks/:deploy_hook_uuid`,
    { params: Hook, response: DeployHookSchema, permissions: EDIT },
    ({ auth: m, params }) => render.deployHook(m.hooks.get(params.worker_tag, params.deploy_hook_uuid)),
  );

  area.put(
    `${A}/builds/workers/:worker_tag/deploy_hooks/:deploy_hook_uuid`,
    { params: Hook, body: DeployHookBodySchema, response: DeployHookSchema, permissions: EDIT },
    ({ auth: m, params, body }) =>
      render.deployHook(m.hooks.update(params.worker_tag, params.deploy_hook_uuid, body)),
  );

  area.delete(
    `${A}/builds/workers/:worker_tag/deploy_hooks/:deploy_hook_uuid`,
    { params: Hook, response: DeployHookSchema, permissions: EDIT },
    ({ auth: m, params }) => render.deployHook(m.hooks.delete(params.worker_tag, params.deploy_hook_uuid)),
  );

  // Worker build configuration: one per script.
  area.post(
    `${A}/builds/workers`,
    {
      params: AccountParams,
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
    `${A}/builds/workers/:worker_tag`,
    { params: Tag, response: WorkerBuildConfigSchema, permissions: EDIT },
    ({ auth: m, params }) => render.workerConfig(m.configs.get(params.worker_tag)),
  );

  area.patch(
    `${A}/builds/workers/:worker_tag`,
    {
      params: Tag,
      body: orEmpty(WorkerBuildConfigUpdateBodySchema),
      response: WorkerBuildConfigSchema,
      permissions: EDIT,
    },
    ({ auth: m, params, body }) => render.workerConfig(m.configs.update(params.worker_tag, body)),
  );

  area.delete(
    `${A}/builds/workers/:worker_tag`,
    { params: Tag, response: WorkerBuildConfigSchema, permissions: EDIT },
    ({ auth: m, params }) => render.workerConfig(m.configs.delete(params.worker_tag)),
  );
}
