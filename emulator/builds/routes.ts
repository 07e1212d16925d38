/** HTTP layer of the builds area: one thin handler per operation over ./state. */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  DeploymentCreateBodySchema,
  EnvVarsPatchBodySchema,
  RepoConnectionBodySchema,
  ScriptMetadataSchema,
  TriggerBuildBodySchema,
  TriggerCreateBodySchema,
  TriggerUpdateBodySchema,
  BUILD_ERROR_CODES,
} from "../../sdk/schemas/builds";
import type { AreaContext, AreaModule } from "../area";
import type { Permission } from "../auth";
import { ok, paginate, parseWith } from "../http";
import { buildErrors } from "./errors";
import { MultipartError, boundaryOf, parseMultipart, type Part } from "./multipart";
import * as render from "./render";
import { BuildsModel, accountState } from "./state";
import { viewBuild } from "./timeline";

const INVALID = BUILD_ERROR_CODES.invalidRequest;
export const LOG_PAGE_SIZE = 5;
export const MAX_VERSION_IDS = 20;

/** In bodies the tag is looked up, not pattern-checked: a script name there is "Resource not found". */
const CreateTriggerWireSchema = TriggerCreateBodySchema.extend({
  external_script_id: z.string().min(1, "must not be empty"),
});

type Req<P = object, Q = object> = FastifyRequest<{ Params: { account_id: string } & P; Querystring: Q }>;

function model(ctx: AreaContext, accountId: string): BuildsModel {
  const now = ctx.clock.now();
  return new BuildsModel(accountState(ctx.store, accountId, now), now, (c) => ctx.store.next(c));
}

/** Spec, Authentication 2: user-scoped tokens only; account-scoped ones get "Invalid token". */
function authorize(ctx: AreaContext, req: Req, permissions: readonly Permission[]): BuildsModel {
  ctx.auth.require(req, {
    accountId: req.params.account_id,
    all: permissions,
    userScoped: true,
    errors: {
      missing: buildErrors.missingToken,
      invalid: buildErrors.invalidToken,
      bad_scope: buildErrors.invalidToken,
      wrong_account: buildErrors.wrongAccount,
      forbidden: () => buildErrors.forbidden(permissions),
    },
  });
  return model(ctx, req.params.account_id);
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
    const meta = (body as { metadata?: unknown }).metadata ?? body;
    return parseWith(ScriptMetadataSchema, meta, INVALID);
  }
  try {
    const parts = parseMultipart(req.body as Buffer, boundaryOf(type));
    const isMeta = (p: Part): boolean => p.name === "metadata" || p.name.startsWith("metadata[");
    const metaPart = parts.find((p) => p.name === "metadata");
    const fieldParts = parts.filter((p) => p.name.startsWith("metadata["));
    if (!metaPart && fieldParts.length === 0)
      throw buildErrors.invalid("metadata", "the multipart body must include a metadata part");
    let json: unknown;
    if (metaPart) {
      try {
        json = JSON.parse(metaPart.body.toString("utf8"));
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
function bracketFields(parts: readonly Part[]): Record<string, unknown> {
  type Node = Record<string, unknown> | unknown[];
  const unsafe = new Set(["__proto__", "constructor", "prototype"]);
  const root: Record<string, unknown> = {};
  for (const p of parts) {
    const keys = [...p.name.slice("metadata".length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!);
    if (keys.some((k) => unsafe.has(k))) continue;
    let node: Node = root;
    keys.forEach((key, i) => {
      const last = i === keys.length - 1;
      const value = last ? p.body.toString("utf8") : keys[i + 1] === "" ? [] : {};
      if (Array.isArray(node)) {
        // `[]` appends: arrays of scalars round-trip; arrays of objects are ambiguous in this encoding.
        node.push(value);
        node = value as Node;
      } else if (last) {
        node[key] = value;
      } else {
        node = (node[key] ??= value) as Node;
      }
    });
  }
  return root;
}

function versionIdsOf(q: { version_ids?: string | string[] }): string[] {
  const raw =
    q.version_ids === undefined ? [] : Array.isArray(q.version_ids) ? q.version_ids : [q.version_ids];
  const ids = raw
    .flatMap((s) => s.split(","))
    .map((s) => s.trim())
    .filter(Boolean);
  if (ids.length === 0) throw buildErrors.invalid("version_ids", "at least one version id is required");
  if (ids.length > MAX_VERSION_IDS)
    throw buildErrors.invalid("version_ids", `at most ${MAX_VERSION_IDS} version ids`);
  return ids;
}

function registerApi(app: FastifyInstance, ctx: AreaContext): void {
  // Script uploads are multipart; the body is parsed in the handler (this parser is scoped to this area).
  app.addContentTypeParser("multipart/form-data", { parseAs: "buffer" }, (_req, body, done) =>
    done(null, body),
  );
  const A = "/accounts/:account_id";

  // Scripts, versions, deployments: addressed by name.
  app.get(`${A}/workers/scripts`, async (req: Req, reply) => {
    const m = authorize(ctx, req, SCRIPTS_READ);
    return ok(reply, m.listScripts().map(render.script));
  });

  app.put(`${A}/workers/scripts/:script_name`, async (req: Req<{ script_name: string }>, reply) => {
    const m = authorize(ctx, req, SCRIPTS_EDIT);
    const { script } = m.uploadScript(req.params.script_name, uploadMetadata(req));
    return ok(reply, render.script(script));
  });

  app.get(
    `${A}/workers/scripts/:script_name/versions`,
    async (req: Req<{ script_name: string }, { page?: string; per_page?: string }>, reply) => {
      const m = authorize(ctx, req, SCRIPTS_READ);
      const { items, resultInfo } = paginate(m.versions(req.params.script_name), req.query);
      return ok(reply, { items: items.map(render.version) }, { resultInfo });
    },
  );

  app.get(
    `${A}/workers/scripts/:script_name/deployments`,
    async (req: Req<{ script_name: string }, { page?: string; per_page?: string }>, reply) => {
      const m = authorize(ctx, req, SCRIPTS_READ);
      // `deployments` is the spec's field; the public client pages `items` (it stops on an empty page),
      // so both carry the same page, newest first.
      const { items, resultInfo } = paginate(m.deployments(req.params.script_name), req.query);
      const page = items.map(render.deployment);
      return ok(reply, { deployments: page, items: page }, { resultInfo });
    },
  );

  app.post(
    `${A}/workers/scripts/:script_name/deployments`,
    async (req: Req<{ script_name: string }>, reply) => {
      const m = authorize(ctx, req, SCRIPTS_EDIT);
      m.script(req.params.script_name);
      const body = parseWith(DeploymentCreateBodySchema, req.body, INVALID);
      return ok(reply, render.deployment(m.createDeployment(req.params.script_name, body)));
    },
  );

  // Triggers: scripts are addressed by tag.
  const triggerJson = (m: BuildsModel, t: Parameters<typeof render.trigger>[0]) =>
    render.trigger(
      t,
      m.repoConnection(t.repo_connection_uuid),
      m.token(t.build_token_uuid)?.build_token_name ?? null,
    );

  app.get(`${A}/builds/workers/:worker_tag/triggers`, async (req: Req<{ worker_tag: string }>, reply) => {
    const m = authorize(ctx, req, EDIT);
    return ok(
      reply,
      m.triggersOf(req.params.worker_tag).map((t) => triggerJson(m, t)),
    );
  });

  app.post(`${A}/builds/triggers`, async (req: Req, reply) => {
    const m = authorize(ctx, req, EDIT);
    const body = parseWith(CreateTriggerWireSchema, req.body, INVALID);
    return ok(reply, triggerJson(m, m.createTrigger(body)));
  });

  app.patch(`${A}/builds/triggers/:trigger_uuid`, async (req: Req<{ trigger_uuid: string }>, reply) => {
    const m = authorize(ctx, req, EDIT);
    m.trigger(req.params.trigger_uuid);
    const body = parseWith(TriggerUpdateBodySchema, req.body ?? {}, INVALID);
    return ok(reply, triggerJson(m, m.updateTrigger(req.params.trigger_uuid, body)));
  });

  app.delete(`${A}/builds/triggers/:trigger_uuid`, async (req: Req<{ trigger_uuid: string }>, reply) => {
    const m = authorize(ctx, req, EDIT);
    m.deleteTrigger(req.params.trigger_uuid);
    return ok(reply, null);
  });

  app.post(
    `${A}/builds/triggers/:trigger_uuid/purge_build_cache`,
    async (req: Req<{ trigger_uuid: string }>, reply) => {
      const m = authorize(ctx, req, EDIT);
      m.purgeCache(req.params.trigger_uuid);
      return ok(reply, null);
    },
  );

  // Environment variables of one trigger.
  app.get(
    `${A}/builds/triggers/:trigger_uuid/environment_variables`,
    async (req: Req<{ trigger_uuid: string }>, reply) => {
      const m = authorize(ctx, req, EDIT);
      return ok(reply, render.envVars(m.trigger(req.params.trigger_uuid).environment_variables));
    },
  );

  app.patch(
    `${A}/builds/triggers/:trigger_uuid/environment_variables`,
    async (req: Req<{ trigger_uuid: string }>, reply) => {
      const m = authorize(ctx, req, EDIT);
      m.trigger(req.params.trigger_uuid);
      const body = parseWith(EnvVarsPatchBodySchema, req.body, INVALID);
      return ok(reply, render.envVars(m.patchEnvVars(req.params.trigger_uuid, body).environment_variables));
    },
  );

  app.delete(
    `${A}/builds/triggers/:trigger_uuid/environment_variables/:variable_key`,
    async (req: Req<{ trigger_uuid: string; variable_key: string }>, reply) => {
      const m = authorize(ctx, req, EDIT);
      m.deleteEnvVar(req.params.trigger_uuid, req.params.variable_key);
      return ok(reply, null);
    },
  );

  // Builds.
  app.post(`${A}/builds/triggers/:trigger_uuid/builds`, async (req: Req<{ trigger_uuid: string }>, reply) => {
    const m = authorize(ctx, req, EDIT);
    m.trigger(req.params.trigger_uuid);
    const body = parseWith(TriggerBuildBodySchema, req.body ?? {}, INVALID);
    return ok(reply, render.build(m.triggerBuild(req.params.trigger_uuid, body), ctx.clock.now()));
  });

  app.get(
    `${A}/builds/workers/:worker_tag/builds`,
    async (req: Req<{ worker_tag: string }, { page?: string; per_page?: string }>, reply) => {
      const m = authorize(ctx, req, EDIT);
      const { items, resultInfo } = paginate(m.buildsOfScript(req.params.worker_tag), req.query);
      const now = ctx.clock.now();
      return ok(
        reply,
        items.map((b) => render.build(b, now)),
        { resultInfo },
      );
    },
  );

  app.get(`${A}/builds/builds`, async (req: Req<object, { version_ids?: string | string[] }>, reply) => {
    const m = authorize(ctx, req, EDIT);
    const found = m.buildsByVersion(versionIdsOf(req.query));
    const now = ctx.clock.now();
    return ok(reply, {
      builds: Object.fromEntries(Object.entries(found).map(([id, b]) => [id, render.build(b, now)])),
    });
  });

  app.get(`${A}/builds/builds/:build_uuid`, async (req: Req<{ build_uuid: string }>, reply) => {
    const m = authorize(ctx, req, EDIT);
    return ok(reply, render.build(m.build(req.params.build_uuid), ctx.clock.now()));
  });

  app.get(
    `${A}/builds/builds/:build_uuid/logs`,
    async (req: Req<{ build_uuid: string }, { cursor?: string }>, reply) => {
      const m = authorize(ctx, req, EDIT);
      const view = viewBuild(m.build(req.params.build_uuid), ctx.clock.now());
      const start = req.query.cursor ? LogCursor.decode(req.query.cursor) : 0;
      if (start === undefined) throw buildErrors.invalid("cursor", "is not a cursor of this build's logs");
      const lines = view.lines.slice(start, start + LOG_PAGE_SIZE);
      const next = start + lines.length;
      // An empty cursor ends the log; a running build keeps a cursor to resume from once more lines exist.
      const done = view.status === "stopped" && next >= view.lines.length;
      return ok(reply, {
        cursor: done ? "" : LogCursor.encode(next),
        lines: lines.map((l) => [l.at, l.text]),
        truncated: false,
      });
    },
  );

  app.put(`${A}/builds/builds/:build_uuid/cancel`, async (req: Req<{ build_uuid: string }>, reply) => {
    const m = authorize(ctx, req, EDIT);
    return ok(reply, render.build(m.cancel(req.params.build_uuid), ctx.clock.now()));
  });

  // Tokens and repository connections.
  app.get(`${A}/builds/tokens`, async (req: Req, reply) => {
    const m = authorize(ctx, req, EDIT);
    return ok(reply, m.tokens().map(render.token));
  });

  app.put(`${A}/builds/repos/connections`, async (req: Req, reply) => {
    const m = authorize(ctx, req, EDIT);
    const body = parseWith(RepoConnectionBodySchema, req.body, INVALID);
    return ok(reply, render.repoConnection(m.upsertRepoConnection(body)));
  });

  // Emulator-only (docs/areas/builds.md, Assumptions): the public API documents no listing.
  app.get(`${A}/builds/repos/connections`, async (req: Req, reply) => {
    const m = authorize(ctx, req, EDIT);
    return ok(reply, m.repoConnections().map(render.repoConnection));
  });

  app.delete(`${A}/builds/repos/connections/:uuid`, async (req: Req<{ uuid: string }>, reply) => {
    const m = authorize(ctx, req, EDIT);
    m.deleteRepoConnection(req.params.uuid);
    return ok(reply, null);
  });
}

const NewBuildTokenSchema = z.strictObject({
  build_token_name: z.string().min(1, "must not be empty"),
  account_id: z.string().min(1).max(32, "must be at most 32 characters").optional(),
});

/** Control routes: build tokens are made in the dashboard on the public service, so tests add them here. */
function registerControl(app: FastifyInstance, ctx: AreaContext): void {
  app.post("/tokens", async (req, reply) => {
    const body = parseWith(NewBuildTokenSchema, req.body);
    const m = model(ctx, body.account_id ?? ctx.store.accountId);
    return ok(reply, render.token(m.addToken(body.build_token_name)));
  });
}

export const buildsArea: AreaModule = {
  name: "builds",
  api: registerApi,
  control: registerControl,
};
