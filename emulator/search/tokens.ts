/**
 * Search service tokens (`/ai-search/tokens`): the Cloudflare API token an instance's storage-backed
 * source uses, registered by its id (`cf_api_id`) and secret (`cf_api_key`). The secret is write-only:
 * kept in state, never rendered (the contract's results have no `cf_api_key`).
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type * as G from "../../sdk/generated/search";
import { conflict, notFound } from "../http";
import { invalid, type SearchModel, type TokenRecord } from "./state";

export type TokenBody = z.output<typeof G.AiSearchCreateTokensBody>;

/** Token ids are UUIDs (the emulator makes them so; an instance's `token_id` is one). */
const TOKEN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The account's tokens, over the search state (a view: it keeps nothing of its own). */
export class SearchTokens {
  constructor(
    private readonly model: SearchModel,
    private readonly accountId: string,
  ) {}

  get #records(): Record<string, TokenRecord> {
    return this.model.tokenRecords(this.accountId);
  }

  /** Oldest first (then by id, for a manual clock); `search` keeps the names that contain it. */
  list(search?: string): TokenRecord[] {
    const needle = search?.toLowerCase();
    return Object.values(this.#records)
      .filter((t) => needle === undefined || t.name.toLowerCase().includes(needle))
      .sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** An id that is not a UUID cannot name a token: 400 (a status the contract's read, update and delete list). */
  get(id: string): TokenRecord {
    if (!TOKEN_ID.test(id)) throw invalid("id", "must be a token id (a UUID)");
    const token = Object.hasOwn(this.#records, id) ? this.#records[id] : undefined;
    if (!token) throw notFound(`token "${id}"`);
    return token;
  }

  create(body: TokenBody, actor: string): TokenRecord {
    const now = this.model.now;
    const token: TokenRecord = {
      id: randomUUID(),
      ...fieldsOf(body),
      enabled: true,
      created_at: now,
      modified_at: now,
      created_by: actor,
      modified_by: actor,
    };
    this.#records[token.id] = token;
    return token;
  }

  /** PUT: the body is whole (the contract requires name, cf_api_id and cf_api_key again). */
  update(id: string, body: TokenBody, actor: string): TokenRecord {
    const token = this.get(id);
    Object.assign(token, fieldsOf(body), { modified_at: this.model.now, modified_by: actor });
    return token;
  }

  /** A token an instance names by `token_id` is in use: 409 (a status the contract's DELETE lists). */
  delete(id: string): TokenRecord {
    const token = this.get(id);
    const users = this.model
      .listNamespaces(this.accountId)
      .flatMap((ns) => Object.values(ns.instances).filter((i) => i.settings.token_id === id))
      .map((i) => `"${i.id}"`);
    if (users.length)
      throw conflict(`token "${id}" is used by instance ${users.join(", ")}: change or delete it first`);
    delete this.#records[id];
    return token;
  }
}

function fieldsOf(body: TokenBody): Pick<TokenRecord, "name" | "cf_api_id" | "cf_api_key" | "legacy"> {
  return {
    name: body.name,
    cf_api_id: body.cf_api_id,
    cf_api_key: body.cf_api_key,
    legacy: body.legacy ?? true,
  };
}
