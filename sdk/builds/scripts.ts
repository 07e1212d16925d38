/** Scripts (`workers/scripts`): listed with their names and tags, uploaded by name, a name resolved to its tag. */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import { ScriptSchema, type Script } from "../schemas/builds";
import { validate } from "../validate";
import { ScriptNotFoundError } from "./errors";
import { P, accountOf, value, type AccountIds, type ScriptNameIds } from "./paths";

export interface ScriptListParams {
  /** Filters on the scripts' own tags: comma-separated `name` or `name:yes` (has it), `name:no` (has it not). */
  tags?: string;
}

export interface ScriptUploadParams {
  /** The module that is the entry point; the first of `modules` when left out. */
  mainModule?: string;
  /** File name to source; a one-line `fetch` handler when left out. */
  modules?: Record<string, string>;
}

export class Scripts {
  constructor(readonly client: ApiClient) {}

  /** `result[]`: `id` is the script's name, `tag` its tag. */
  async list(
    ids: AccountIds = {},
    params: ScriptListParams = {},
    options: CallOptions = {},
  ): Promise<Script[]> {
    const p = validate(
      P.account.extend({ tags: z.string().min(1, "must not be empty").optional() }),
      { ...ids, ...params },
      "builds.listScripts",
    );
    const a = this.client.account(p.accountId);
    return value(this.client, "build", {
      method: "GET",
      path: path`/accounts/${a}/workers/scripts`,
      query: { tags: p.tags },
      schema: z.array(ScriptSchema),
      ...options,
    });
  }

  /**
   * Uploads a script as the public API does (`PUT …/workers/scripts/{name}`, multipart: a `metadata`
   * JSON part and the module files). Scripts are made outside the build service; this is the way in
   * that lets a program or test make one before pointing triggers at it. Returns `id` (name) and `tag`.
   */
  async upload(
    ids: ScriptNameIds,
    params: ScriptUploadParams = {},
    options: CallOptions = {},
  ): Promise<Script> {
    const { scriptName } = ids;
    const p = validate(P.scriptName, { scriptName, ...accountOf(ids.accountId) }, "builds.uploadScript");
    const a = this.client.account(p.accountId);
    const modules = params.modules ?? {
      "index.js": "export default { fetch() { return new Response('ok'); } };",
    };
    const mainModule = params.mainModule ?? Object.keys(modules)[0] ?? "index.js";
    const form = new FormData();
    form.append(
      "metadata",
      new Blob([JSON.stringify({ main_module: mainModule })], { type: "application/json" }),
    );
    for (const [file, code] of Object.entries(modules)) {
      form.append(file, new Blob([code], { type: "application/javascript+module" }), file);
    }
    return value(this.client, "build", {
      method: "PUT",
      path: path`/accounts/${a}/workers/scripts/${scriptName}`,
      body: form,
      schema: ScriptSchema,
      ...options,
    });
  }

  /**
   * The tag of the script with this name. A value that already is a tag of the account's scripts is
   * returned as is, so callers may pass either.
   */
  async resolveTag(ids: ScriptNameIds, options: CallOptions = {}): Promise<string> {
    const p = validate(P.scriptName, ids, "builds.resolveScriptTag");
    const { scriptName } = ids;
    const scripts = await this.list(accountOf(p.accountId), {}, options);
    const byName = scripts.find((s) => s.id === scriptName);
    if (byName) return byName.tag;
    const byTag = scripts.find((s) => s.tag.toLowerCase() === scriptName.toLowerCase());
    if (byTag) return byTag.tag;
    throw new ScriptNotFoundError(
      scriptName,
      this.client.account(p.accountId),
      scripts.map((s) => s.id),
    );
  }
}
