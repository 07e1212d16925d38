/** Search namespaces: the named groups instances live in (`default` always exists). */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import { pageStyle, type PagedGenerator } from "../paging";
import { SearchNamespaceInfoSchema, type SearchNamespace } from "../schemas/search";
import { PAGE_BOUNDS, SearchPaths } from "./paths";

const ListOfNamespaces = z.array(SearchNamespaceInfoSchema);

export class Namespaces {
  readonly #paths: SearchPaths;

  constructor(readonly client: ApiClient) {
    this.#paths = new SearchPaths(client);
  }

  /** The account's namespaces, page by page (`default` among them: it always exists). */
  list(
    ids: { accountId?: string } = {},
    params: { perPage?: number } = {},
    options: CallOptions = {},
  ): PagedGenerator<SearchNamespace> {
    const base = path`/accounts/${this.client.account(ids.accountId)}/ai-search/namespaces`;
    const perPage = this.#paths.perPage(params.perPage, PAGE_BOUNDS.instances, "search.listNamespaces");
    return pageStyle(async (page, per_page) => {
      const res = await this.client.requestWithInfo({
        method: "GET",
        path: base,
        query: { page, per_page },
        schema: ListOfNamespaces,
        ...options,
      });
      return { items: res.value, info: res.resultInfo };
    }, perPage);
  }
}
