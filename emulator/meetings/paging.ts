/** The meetings area's listings: `page_no` (from 1) and `per_page`, answered with `paging` offsets. */
import { z } from "zod";
import type { Paging } from "../../sdk/schemas/meetings";
import { queryInteger } from "../paging";

/** The contract allows 0 for both; 0 means the first page and the default size. */
export const PageQuery = z.looseObject({
  page_no: queryInteger(0),
  per_page: queryInteger(0),
});
export type PageQueryOut = z.output<typeof PageQuery>;

const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 100;

/** One page of `items`; `start_offset` is the index of its first item, `end_offset` one past its last. */
export function pageOf<T>(items: readonly T[], q: PageQueryOut): { items: T[]; paging: Paging } {
  const page = Math.max(1, q.page_no ?? 1);
  const perPage = Math.min(MAX_PER_PAGE, q.per_page || DEFAULT_PER_PAGE);
  const start = Math.min(items.length, (page - 1) * perPage);
  const slice = items.slice(start, start + perPage);
  return {
    items: slice,
    paging: { total_count: items.length, start_offset: start, end_offset: start + slice.length },
  };
}
