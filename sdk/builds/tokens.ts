/** Build tokens of the account (`builds/tokens`): API tokens registered for triggers to deploy with. */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import { pageStyle } from "../paging";
import {
  BuildTokenCreateBodySchema,
  BuildTokenSchema,
  type BuildToken,
  type BuildTokenCreateBody,
} from "../schemas/builds";
import { validate } from "../validate";
import { P, send, value, type AccountIds, type BuildTokenIds } from "./paths";

export class Tokens {
  constructor(readonly client: ApiClient) {}

  /** Every build token of the account (`build_token_uuid`, `build_token_name`, …), all pages. */
  async list(
    ids: AccountIds = {},
    params: { perPage?: number } = {},
    options: CallOptions = {},
  ): Promise<BuildToken[]> {
    const p = validate(
      P.account.extend({ perPage: P.buildPerPage }),
      { ...params, ...ids },
      "builds.listTokens",
    );
    const a = this.client.account(p.accountId);
    return pageStyle(async (page, perPage) => {
      const r = await send(this.client, "build", {
        method: "GET",
        path: path`/accounts/${a}/builds/tokens`,
        query: { page, per_page: perPage },
        schema: z.array(BuildTokenSchema),
        ...options,
      });
      return { items: r.value, ...(r.resultInfo ? { info: r.resultInfo } : {}) };
    }, p.perPage ?? 50).toArray();
  }

  /**
   * Registers an API token (its id and secret) as a build token. The secret is sent once and never
   * comes back. Not retried: a second POST would register a second token.
   */
  async create(
    ids: AccountIds,
    params: BuildTokenCreateBody,
    options: CallOptions = {},
  ): Promise<BuildToken> {
    const { accountId } = ids;
    validate(P.account, { accountId }, "builds.createToken");
    const body = validate(BuildTokenCreateBodySchema, params, "builds.createToken");
    const a = this.client.account(accountId);
    return value(this.client, "build", {
      method: "POST",
      path: path`/accounts/${a}/builds/tokens`,
      body,
      schema: BuildTokenSchema,
      ...options,
    });
  }

  /** Refused (400, 12005) while a trigger deploys with the token. */
  async delete(ids: BuildTokenIds, options: CallOptions = {}): Promise<void> {
    const p = validate(P.tokenUuid, ids, "builds.deleteToken");
    const a = this.client.account(p.accountId);
    await value(this.client, "build", {
      method: "DELETE",
      path: path`/accounts/${a}/builds/tokens/${ids.buildTokenUuid}`,
      schema: z.unknown(),
      ...options,
    });
  }
}
