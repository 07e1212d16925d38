/**
 * `/realtime/kit/apps` of an account: list and create. The contract has no read, update or delete
 * of an app, so an app once made stays; names need not be unique.
 */
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import {
  AppCreateSchema,
  AppListSchema,
  CreatedAppSchema,
  type App,
  type AppCreate,
} from "../schemas/meetings";
import { validate } from "../validate";
import { call } from "./request";

/** The account whose apps are meant (`accountId` defaults to the client's). */
export interface AccountIds {
  accountId?: string;
}

export class Apps {
  constructor(private readonly client: ApiClient) {}

  /** Every app of the account, in the service's order (one answer: the contract has no paging). */
  async list(ids: AccountIds = {}, options: CallOptions = {}): Promise<App[]> {
    const c = { method: "GET", path: "", schema: AppListSchema } as const;
    return call(this.client, this.#base(ids), c, options);
  }

  /** Makes an app; a second create with the same name makes a second app. Not retried. */
  async create(ids: AccountIds, params: AppCreate, options: CallOptions = {}): Promise<App> {
    const body = validate(AppCreateSchema, params, "createApp");
    const c = { method: "POST", path: "", body, schema: CreatedAppSchema, idempotent: false } as const;
    return (await call(this.client, this.#base(ids), c, options)).app;
  }

  #base(ids: AccountIds): string {
    return path`/accounts/${this.client.account(ids.accountId)}/realtime/kit/apps`;
  }
}
