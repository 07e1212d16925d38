/** Versions of a script (`workers/scripts/{script_name}/versions`), newest first. */
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import { pageStyle } from "../paging";
import { VersionsPageSchema, type Version } from "../schemas/builds";
import { validate } from "../validate";
import { P, send, type ScriptNameIds } from "./paths";

export class Versions {
  constructor(readonly client: ApiClient) {}

  /** Every version of a script, newest first, page by page (`perPage` 1 to 100, default 50). */
  async *list(
    ids: ScriptNameIds,
    params: { perPage?: number } = {},
    options: CallOptions = {},
  ): AsyncGenerator<Version> {
    const p = validate(
      P.scriptName.extend({ perPage: P.perPage }),
      { ...params, ...ids },
      "builds.listVersions",
    );
    const a = this.client.account(p.accountId);
    yield* pageStyle(async (page, perPage) => {
      const r = await send(this.client, "script-name", {
        method: "GET",
        path: path`/accounts/${a}/workers/scripts/${ids.scriptName}/versions`,
        query: { page, per_page: perPage },
        schema: VersionsPageSchema,
        ...options,
      });
      return { items: r.value.items, ...(r.resultInfo ? { info: r.resultInfo } : {}) };
    }, p.perPage ?? 50);
  }
}
