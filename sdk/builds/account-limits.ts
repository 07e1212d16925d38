/** The account's build limits (`builds/account/limits`). */
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import { AccountLimitsSchema, type AccountLimits as Limits } from "../schemas/builds";
import { validate } from "../validate";
import { P, value, type AccountIds } from "./paths";

export class AccountLimits {
  constructor(readonly client: ApiClient) {}

  /** Whether the account used up this month's build minutes, and when they refresh. */
  async get(ids: AccountIds = {}, options: CallOptions = {}): Promise<Limits> {
    const p = validate(P.account, ids, "builds.getAccountLimits");
    const a = this.client.account(p.accountId);
    return value(this.client, "build", {
      method: "GET",
      path: path`/accounts/${a}/builds/account/limits`,
      schema: AccountLimitsSchema,
      ...options,
    });
  }
}
