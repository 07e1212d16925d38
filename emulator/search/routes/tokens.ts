/** The search service token operations: create, list, read, update (a whole PUT) and delete. */
import { z } from "zod";
import { AccountParams, answer, orEmpty } from "../../define";
import { pageOf } from "../../paging";
import { iso } from "../../clock";
import * as G from "../../../sdk/generated/search";
import type { TokenRecord } from "../state";
import { SearchTokens } from "../tokens";
import { INSTANCE_PAGES, type SearchArea } from "./context";

const TokenSchema = G.AiSearchCreateTokensResult;
const Token = AccountParams.extend({ id: z.string() });

/** A token as the contract's results show it: never its `cf_api_key`. */
function tokenView(t: TokenRecord): z.input<typeof TokenSchema> {
  return {
    id: t.id,
    name: t.name,
    cf_api_id: t.cf_api_id,
    legacy: t.legacy,
    enabled: t.enabled,
    created_at: iso(t.created_at),
    modified_at: iso(t.modified_at),
    created_by: t.created_by,
    modified_by: t.modified_by,
  };
}

export function tokenRoutes(area: SearchArea): void {
  const TOKENS = "/accounts/:account_id/ai-search/tokens";
  // "namespaces": the path names no namespace to look up before the body is read.
  const scope = { permissions: "namespaces", response: TokenSchema } as const;

  area.post(
    TOKENS,
    { ...scope, params: AccountParams, body: orEmpty(G.AiSearchCreateTokensBody) },
    ({ auth: { model, actor }, params, body }) =>
      answer(tokenView(new SearchTokens(model, params.account_id).create(body, actor)), { status: 201 }),
  );

  area.get(
    TOKENS,
    {
      params: AccountParams,
      querystring: G.AiSearchListTokensQuery,
      response: G.AiSearchListTokensResult,
      permissions: "namespaces",
    },
    ({ auth: { model }, params, query }) => {
      const all = new SearchTokens(model, params.account_id).list(query.search);
      const page = pageOf(all, query, INSTANCE_PAGES);
      return answer(page.items.map(tokenView), { resultInfo: page.resultInfo });
    },
  );

  area.get(`${TOKENS}/:id`, { ...scope, params: Token }, ({ auth: { model }, params }) =>
    tokenView(new SearchTokens(model, params.account_id).get(params.id)),
  );

  area.put(
    `${TOKENS}/:id`,
    { ...scope, params: Token, body: orEmpty(G.AiSearchUpdateTokensBody) },
    ({ auth: { model, actor }, params, body }) =>
      tokenView(new SearchTokens(model, params.account_id).update(params.id, body, actor)),
  );

  // The contract's DELETE result is an object with no declared field: the emulator answers `{}`.
  area.delete(
    `${TOKENS}/:id`,
    { params: Token, response: G.AiSearchDeleteTokensResult, permissions: "namespaces" },
    ({ auth: { model }, params }) => {
      new SearchTokens(model, params.account_id).delete(params.id);
      return {};
    },
  );
}
