/** HTTP layer of the builds area: one thin handler per operation over ./state. */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  BUILD_ERROR_CODES as C,
  BuildLogsSchema,
  BuildSchema,
  BuildTokenSchema,
  BuildsByVersionSchema,
  CancelledBuildSchema,
  DeploymentCreateBodySchema,
  DeploymentSchema,
  EnvVarsPatchBodySchema,
  EnvVarsSchema,
  LatestBuildsSchema,
  RepoConnectionBodySchema,
  RepoConnectionSchema,
  ScriptMetadataSchema,
  ScriptSchema,
  TriggerBuildBodySchema,
  TriggerCreateBodySchema,
  TriggerSchema,
  TriggerUpdateBodySchema,
  VersionSchema,
} from "../../sdk/schemas/builds";
import type { AreaContext, AreaModule } from "../area";
import type { Permission } from "../auth";
import { NoParams, answer, defineArea, defineControl, openQuery, orEmpty } from "../define";
import { DomainError, jsonTooDeep, parseWith } from "../http";
import { DEFAULT_PAGES, pageOf, pageQuery, type PageRule } from "../paging";
import * as G from "../../sdk/generated/builds";
import { TOO_DEEP_RULE } from "../../sdk/validate";
import { dict } from "../store";
import { registerConfigRoutes } from "./config-routes";
import { buildsConsoleRoutes } from "./console-routes";
import { MultipartError, boundaryOf, parseMultipart, type Part } from "./multipart";
import * as render from "./render";
import { BuildsModel, accountState, buildErrors } from "./state";
import { viewBuild } from "./timeline";

const INVALID = C.invalidRequest;
export const LOG_PAGE_SIZE = 5;
export const MAX_VERSION_IDS = 20;
export const MAX_SCRIPT_IDS = 20;

/** Page-style listings of the build service: 50 a page by default, at most 200 (public contract). */
export const BUILD_PAGES: PageRule = { min: 1, max: 200, default: 50 };

/**
 * PATCH takes any subset of the trigger fields of the spec's table, `environment_variables` included
 * (merged like the variables PATCH: a name given is set, the others stay).
 */
const UpdateTriggerWireSchema = TriggerUpdateBodySchema.extend({
  environment_variables: EnvVarsPatchBodySchema.optional(),
});

/**
 * The service ignores the read-only fields of a deployment it is sent (they describe one it made):
 * accepted and dropped, rather than refused as unknown.
 */
const READ_ONLY_DEPLOYMENT_FIELDS = ["id", "created_on", "source", "author_email"] as const;
const DeploymentCreateWireSchema = z.preprocess((v) => {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  const body: Record<string, unknown> = { ...v };
  for (const k of READ_ONLY_DEPLOYMENT_FIELDS) delete body[k];
  const notes = body.annotations;
  if (typeof notes === "object" && notes !== null && !Array.isArray(notes)) {
    const { "workers/triggered_by": _by, ...rest } = notes as Record<string, unknown>;
    body.annotations = rest;
  }
  return body;
}, DeploymentCreateBodySchema);

/** In bodies the tag is looked up, not pattern-checked: a script name there is "Resource not found". */
const CreateTriggerWireSchema = TriggerCreateBodySchema.extend({
  external_script_id: z.string().min(1, "must not be empty"),
});

function model(ctx: AreaContext, accountId: string): BuildsModel {
  const now = ctx.clock.now();
  return new BuildsModel(accountState(ctx.store, accountId, now), now, (c) => ctx.store.next(c));
}

const invalidToken = (): DomainError =>
  new DomainError(401, { code: C.invalidToken, message: "Invalid token" });

/** Spec, Authentication 2: user-scoped tokens only; account-scoped ones get "Invalid token". */
function authorize(
  ctx: AreaContext,
  req: FastifyRequest,
  permissions: readonly Permission[],
  accountId: string,
): BuildsModel {
  ctx.auth.require(req, {
    accountId,
    all: permissions,
    userScoped: true,
    errors: {
      missing: () =>
        new DomainError(401, {
          code: C.missingToken,
          message: "Authentication required: send Authorization: Bearer <user-scoped API token>",
        }),
      invalid: invalidToken,
      bad_scope: invalidToken,
      wrong_account: () =>
        new DomainError(403, {
          code: C.wrongAccount,
          message: "Forbidden: the token does not belong to this account",
        }),
      forbidden: () =>
        new DomainError(403, {
          code: C.forbidden,
          message: `Forbidden: the token lacks the permission ${permissions.join(" and ")}`,
        }),
    },
  });
  return model(ctx, accountId);
}

const EDIT: readonly Permission[] = ["builds:edit"];
const SCRIPTS_READ: readonly Permission[] = ["scripts:read"];
const SCRIPTS_EDIT: readonly Permission[] = ["scripts:edit"];

const LogCursor = {
  encode: (index: number): string => Buffer.from(`line:${index}`).toString("base64url"),
  decode: (cursor: string): number | undefined => {
    const m = /^line:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
    return m ? Number(m[1]) : undefined;
  },
};

/** The upload body: multipart with a `metadata` part (public API), or JSON (the emulator's shortcut). */
function uploadMetadata(req: FastifyRequest): Record<string, unknown> {
  const type = req.headers["content-type"] ?? "";
  if (!/^multipart\/form-data/i.test(type)) {
    const body = req.body ?? {};
    if (typeof body !== "object" || Array.isArray(body))
      throw buildErrors.invalid("body", "must be a JSON object");
    const meta: unknown =
      (Object.hasOwn(body, "metadata") ? Reflect.get(body, "metadata") : undefined) ?? body;
    return parseWith(ScriptMetadataSchema, meta, INVALID);
  }
  try {
    if (!Buffer.isBuffer(req.body)) throw buildErrors.invalid("body", "must be multipart/form-data");
    const parts = parseMultipart(req.body, boundaryOf(type));
    const isMeta = (p: Part): boolean => p.name === "metadata" || p.name.startsWith("metadata[");
    const metaPart = parts.find((p) => p.name === "metadata");
    const fieldParts = parts.filter((p) => p.name.startsWith("metadata["));
    if (!metaPart && fieldParts.length === 0)
      throw buildErrors.invalid("metadata", "the multipart body must include a metadata part");
    let json: unknown;
    if (metaPart) {
      const text = metaPart.body.toString("utf8");
      if (jsonTooDeep(text)) throw buildErrors.invalid("metadata", TOO_DEEP_RULE);
      try {
        json = JSON.parse(text);
      } catch {
        throw buildErrors.invalid("metadata", "must be JSON");
      }
    } else {
      json = bracketFields(fieldParts);
    }
    const meta = parseWith(ScriptMetadataSchema, json, INVALID);
    // A module is named by its part name, or, for the public client's `files[]` parts, by its file name.
    const moduleName = (p: Part): string => (p.name.endsWith("[]") && p.filename ? p.filename : p.name);
    const modules = parts.filter((p) => !isMeta(p)).map(moduleName);
    const main = meta.main_module ?? meta.body_part;
    if (main !== undefined && !modules.includes(main)) {
      throw buildErrors.invalid(
        meta.main_module ? "main_module" : "body_part",
        `no part named ${JSON.stringify(main)}`,
      );
    }
    return { ...meta, modules };
  } catch (e) {
    if (e instanceof MultipartError) throw buildErrors.invalid("body", e.message.replace(/^[a-z-]+: /, ""));
    throw e;
  }
}

/**
 * The public client's form encoding of an object: `metadata[a]=x`, `metadata[b][c]=y`, `metadata[d][]=z`
 * become `{ a: "x", b: { c: "y" }, d: ["z"] }` (values stay strings, as the form carries them).
 */
type Node = Record<string, unknown> | unknown[];

function isNode(v: unknown): v is Node {
  return typeof v === "object" && v !== null;
}

function put(node: Node, key: string, value: unknown): void {
  if (Array.isArray(node)) node.push(value);
  else node[key] = value;
}

function bracketFields(parts: readonly Part[]): Record<string, unknown> {
  // Nodes have no prototype, so `constructor` is an ordinary key; `__proto__` would be dropped by
  // the metadata schema's parse, so it is refused rather than lost.
  const root: Record<string, unknown> = dict();
  for (const p of parts) {
    const keys = [...p.name.slice("metadata".length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? "");
    if (keys.includes("__proto__")) throw buildErrors.invalid(p.name, "__proto__ is not accepted as a key");
    let node: Node = root;
    keys.forEach((key, i) => {
      if (i === keys.length - 1) return put(node, key, p.body.toString("utf8"));
      const existing = Array.isArray(node) ? undefined : node[key];
      const next: Node = isNode(existing) ? existing : keys[i + 1] === "" ? [] : dict();
      // `[]` appends: arrays of scalars round-trip; arrays of objects are ambiguous in this encoding.
      if (next !== existing) put(node, key, next);
      node = next;
    });
  }
  return root;
}

/** A comma-separated (or repeated) id list of a query: at least one, at most `max`. */
function idsOf(field: string, value: string | string[] | undefined, max: number, what: string): string[] {
  const raw = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const ids = raw
    .flatMap((s) => s.split(","))
    .map((s) => s.trim())
    .filter(Boolean);
  if (ids.length === 0) throw buildErrors.invalid(field, `at least one ${what} is required`);
  if (ids.length > max) throw buildErrors.invalid(field, `at most ${max} ${what}s`);
  return ids;
}

const IdList = z.union([z.string(), z.array(z.string())]).optional();

function registerApi(app: FastifyInstance, ctx: AreaContext): void {
  // Script uploads are multipart; the body is parsed in the handler (this parser is scoped to this area).
  app.addContentTypeParser("multipart/form-data", { parseAs: "buffer" }, (_req, body, done) =>
    done(null, body),
  );
  const area = defineArea(app, {
    envelope: "result",
    invalidCode: INVALID,
    auth: (req, permissions: readonly Permission[], params: { account_id: string }) =>
      authorize(ctx, req, permissions, params.account_id),
  });
  const A = "/accounts/:account_id";

  // Scripts, versions, deployments: addressed by name.
  area.get(
    `${A}/workers/scripts`,
    {
      params: G.WorkerScriptListWorkersPath,
      querystring: openQuery(G.WorkerScriptListWorkersQuery),
      response: z.array(ScriptSchema),
      permissions: SCRIPTS_READ,
    },
    ({ auth: m, query }) => m.listScripts(query.tags).map(render.script),
  );

  area.put(
    `${A}/workers/scripts/:script_name`,
    {
      // Not an operation of the contract's subset: the path of the script's deployments, one segment short.
      params: G.WorkerDeploymentsListDeploymentsPath,
      response: ScriptSchema,
      permissions: SCRIPTS_EDIT,
      accepts: ["multipart/form-data", "application/json"],
    },
    ({ auth: m, params, req }) =>
      render.script(m.uploadScript(params.script_name, uploadMetadata(req)).script),
  );

  area.get(
    `${A}/workers/scripts/:script_name/versions`,
    {
      // Not an operation of the contract's subset: a script's path, as its deployments'.
      params: G.WorkerDeploymentsListDeploymentsPath,
      querystring: pageQuery(),
      response: z.looseObject({ items: z.array(VersionSchema) }),
      permissions: SCRIPTS_READ,
    },
    ({ auth: m, params, query }) => {
      const { items, resultInfo } = pageOf(m.versions(params.script_name), query, DEFAULT_PAGES);
      return answer({ items: items.map(render.version) }, { resultInfo });
    },
  );

  area.get(
    `${A}/workers/scripts/:script_name/deployments`,
    {
      params: G.WorkerDeploymentsListDeploymentsPath,
      querystring: pageQuery(),
      response: z.looseObject({ deployments: z.array(DeploymentSchema), items: z.array(DeploymentSchema) }),
      permissions: SCRIPTS_READ,
    },
    ({ auth: m, params, query }) => {
      // `deployments` is the spec's field; the public client pages `items` (it stops on an empty page),
      // so both carry the same page, newest first.
      const { items, resultInfo } = pageOf(m.deployments(params.script_name), query, DEFAULT_PAGES);
      const page = items.map(render.deployment);
      return answer({ deployments: page, items: page }, { resultInfo });
    },
  );

  area.post(
    `${A}/workers/scripts/:script_name/deployments`,
    {
      params: G.WorkerDeploymentsCreateDeploymentPath,
      // `force` lets the service deploy over changes made outside it; the emulator has none to guard.
      querystring: openQuery(G.WorkerDeploymentsCreateDeploymentQuery),
      body: DeploymentCreateWireSchema,
      response: DeploymentSchema,
      permissions: SCRIPTS_EDIT,
    },
    ({ auth: m, params, body }) => render.deployment(m.createDeployment(params.script_name, body)),
  );

  // Triggers: scripts are addressed by tag.
  const triggerJson = (m: BuildsModel, t: Parameters<typeof render.trigger>[0]) =>
    render.trigger(
      t,
      m.repoConnection(t.repo_connection_uuid),
      m.token(t.build_token_uuid)?.build_token_name ?? null,
    );

  area.get(
    `${A}/builds/workers/:external_script_id/triggers`,
    { params: G.ListTriggersByScriptPath, response: z.array(TriggerSchema), permissions: EDIT },
    ({ auth: m, params }) => m.triggersOf(params.external_script_id).map((t) => triggerJson(m, t)),
  );

  area.post(
    `${A}/builds/triggers`,
    {
      params: G.CreateTriggerPath,
      body: CreateTriggerWireSchema,
      response: TriggerSchema,
      permissions: EDIT,
    },
    ({ auth: m, body }) => triggerJson(m, m.createTrigger(body)),
  );

  area.patch(
    `${A}/builds/triggers/:trigger_uuid`,
    {
      params: G.UpdateTriggerPath,
      body: orEmpty(UpdateTriggerWireSchema),
      response: TriggerSchema,
      permissions: EDIT,
    },
    ({ auth: m, params, body }) => triggerJson(m, m.updateTrigger(params.trigger_uuid, body)),
  );

  area.delete(
    `${A}/builds/triggers/:trigger_uuid`,
    { params: G.DeleteTriggerPath, permissions: EDIT },
    ({ auth: m, params }) => {
      m.deleteTrigger(params.trigger_uuid);
      return null;
    },
  );

  area.post(
    `${A}/builds/triggers/:trigger_uuid/purge_build_cache`,
    { params: G.PurgeBuildCachePath, permissions: EDIT },
    ({ auth: m, params }) => {
      m.purgeCache(params.trigger_uuid);
      return null;
    },
  );

  // Environment variables of one trigger.
  area.get(
    `${A}/builds/triggers/:trigger_uuid/environment_variables`,
    { params: G.ListEnvironmentVariablesPath, response: EnvVarsSchema, permissions: EDIT },
    ({ auth: m, params }) => {
      const t = m.trigger(params.trigger_uuid);
      return render.envVars(t.environment_variables, t.created_on);
    },
  );

  area.patch(
    `${A}/builds/triggers/:trigger_uuid/environment_variables`,
    {
      params: G.UpsertEnvironmentVariablesPath,
      body: EnvVarsPatchBodySchema,
      response: EnvVarsSchema,
      permissions: EDIT,
    },
    ({ auth: m, params, body }) => {
      const t = m.patchEnvVars(params.trigger_uuid, body);
      return render.envVars(t.environment_variables, t.created_on);
    },
  );

  area.delete(
    `${A}/builds/triggers/:trigger_uuid/environment_variables/:environment_variable_key`,
    { params: G.DeleteEnvironmentVariablePath, permissions: EDIT },
    ({ auth: m, params }) => {
      m.deleteEnvVar(params.trigger_uuid, params.environment_variable_key);
      return null;
    },
  );

  // Builds.
  area.post(
    `${A}/builds/triggers/:trigger_uuid/builds`,
    {
      params: G.CreateManualBuildPath,
      body: orEmpty(TriggerBuildBodySchema),
      response: BuildSchema,
      permissions: EDIT,
    },
    ({ auth: m, params, body }) => render.build(m.triggerBuild(params.trigger_uuid, body), ctx.clock.now()),
  );

  area.get(
    `${A}/builds/workers/:external_script_id/builds`,
    {
      params: G.ListBuildsByScriptPath,
      querystring: pageQuery(BUILD_PAGES),
      response: z.array(BuildSchema),
      permissions: EDIT,
    },
    ({ auth: m, params, query }) => {
      const { items, resultInfo } = pageOf(m.buildsOfScript(params.external_script_id), query, BUILD_PAGES);
      const now = ctx.clock.now();
      return answer(
        items.map((b) => render.build(b, now)),
        { resultInfo },
      );
    },
  );

  area.get(
    `${A}/builds/builds`,
    {
      params: G.GetBuildsByVersionIdsPath,
      querystring: z.looseObject({ version_ids: IdList }),
      response: BuildsByVersionSchema,
      permissions: EDIT,
    },
    ({ auth: m, query }) => {
      const found = m.buildsByVersion(idsOf("version_ids", query.version_ids, MAX_VERSION_IDS, "version id"));
      const now = ctx.clock.now();
      return { builds: Object.fromEntries([...found].map(([id, b]) => [id, render.build(b, now)])) };
    },
  );

  area.get(
    `${A}/builds/builds/latest`,
    {
      params: G.GetLatestBuildsByScriptsPath,
      querystring: z.looseObject({ external_script_ids: IdList }),
      response: LatestBuildsSchema,
      permissions: EDIT,
    },
    ({ auth: m, query }) => {
      const tags = idsOf("external_script_ids", query.external_script_ids, MAX_SCRIPT_IDS, "script tag");
      const now = ctx.clock.now();
      const found = m.latestBuilds(tags);
      return { builds: Object.fromEntries([...found].map(([tag, b]) => [tag, render.build(b, now)])) };
    },
  );

  area.get(
    `${A}/builds/builds/:build_uuid`,
    { params: G.GetBuildByUuidPath, response: BuildSchema, permissions: EDIT },
    ({ auth: m, params }) => render.build(m.build(params.build_uuid), ctx.clock.now()),
  );

  area.get(
    `${A}/builds/builds/:build_uuid/logs`,
    {
      params: G.GetBuildLogsPath,
      querystring: openQuery(G.GetBuildLogsQuery),
      response: BuildLogsSchema,
      permissions: EDIT,
    },
    ({ auth: m, params, query }) => {
      const view = viewBuild(m.build(params.build_uuid), ctx.clock.now());
      const start = query.cursor ? LogCursor.decode(query.cursor) : 0;
      if (start === undefined) throw buildErrors.invalid("cursor", "is not a cursor of this build's logs");
      const lines = view.lines.slice(start, start + LOG_PAGE_SIZE);
      const next = start + lines.length;
      // An empty cursor ends the log; a running build keeps a cursor to resume from once more lines exist.
      const done = view.status === "stopped" && next >= view.lines.length;
      return {
        cursor: done ? "" : LogCursor.encode(next),
        lines: lines.map((l): [number, string] => [l.at, l.text]),
        truncated: false,
      };
    },
  );

  area.put(
    `${A}/builds/builds/:build_uuid/cancel`,
    { params: G.CancelBuildByUuidPath, response: CancelledBuildSchema, permissions: EDIT },
    ({ auth: m, params }) => render.build(m.cancel(params.build_uuid), ctx.clock.now()),
  );

  // Tokens and repository connections.
  area.get(
    `${A}/builds/tokens`,
    {
      params: G.ListBuildTokensPath,
      querystring: pageQuery(BUILD_PAGES),
      response: z.array(BuildTokenSchema),
      permissions: EDIT,
    },
    ({ auth: m, query }) => {
      const { items, resultInfo } = pageOf(m.tokens(), query, BUILD_PAGES);
      return answer(items.map(render.token), { resultInfo });
    },
  );

  area.put(
    `${A}/builds/repos/connections`,
    {
      params: G.UpsertRepoConnectionPath,
      body: RepoConnectionBodySchema,
      response: RepoConnectionSchema,
      permissions: EDIT,
    },
    ({ auth: m, body }) => render.repoConnection(m.upsertRepoConnection(body)),
  );

  // Emulator-only (docs/areas/builds.md, Assumptions): the public API documents no listing.
  area.get(
    `${A}/builds/repos/connections`,
    { params: G.UpsertRepoConnectionPath, response: z.array(RepoConnectionSchema), permissions: EDIT },
    ({ auth: m }) => m.repoConnections().map(render.repoConnection),
  );

  area.delete(
    `${A}/builds/repos/connections/:repo_connection_uuid`,
    { params: G.DeleteRepoConnectionPath, permissions: EDIT },
    ({ auth: m, params }) => {
      m.deleteRepoConnection(params.repo_connection_uuid);
      return null;
    },
  );

  registerConfigRoutes(area, A);
}

const ControlAccount = { account_id: z.string().min(1).max(32, "must be at most 32 characters").optional() };

const NewBuildTokenSchema = z.strictObject({
  build_token_name: z.string().min(1, "must not be empty"),
  ...ControlAccount,
});

const AllowanceSchema = z.strictObject({
  build_minutes: z.number().int("must be an integer").min(0, "must be at least 0"),
  ...ControlAccount,
});

/** Control routes: build tokens are made in the dashboard on the public service, so tests add them here. */
function registerControl(app: FastifyInstance, ctx: AreaContext): void {
  const control = defineControl(app);
  control.post(
    "/tokens",
    { params: NoParams, body: NewBuildTokenSchema, response: BuildTokenSchema, permissions: undefined },
    ({ body }) =>
      render.token(model(ctx, body.account_id ?? ctx.store.accountId).addToken(body.build_token_name)),
  );
  // The monthly build minutes `GET …/builds/account/limits` measures against (default 3000).
  control.put("/limits", { params: NoParams, body: AllowanceSchema, permissions: undefined }, ({ body }) => {
    const m = model(ctx, body.account_id ?? ctx.store.accountId);
    m.setBuildMinutesAllowance(body.build_minutes);
    return m.limits();
  });
  buildsConsoleRoutes(
    app,
    () => model(ctx, ctx.store.accountId),
    () => ctx.clock.now(),
  );
}

export const buildsArea: AreaModule = {
  name: "builds",
  api: registerApi,
  control: registerControl,
};
