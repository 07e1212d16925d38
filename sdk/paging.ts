/**
 * Paged listings as async iterators. Both loops have hard stops besides the server's word, because
 * some servers keep answering past the end (an endless page loop is a real hazard): a page budget
 * whose overrun is an error (never a silent truncation), and a guard against the same page or cursor
 * coming back.
 */
import type { ResultInfo } from "./client";
import { PagingError } from "./errors";

export interface Page<T> {
  items: readonly T[];
  info?: ResultInfo;
}

/**
 * Page-style listings (`page`, `per_page`, `result_info.total_count`). Stops on an empty page, once
 * `total_count` items arrived, on a short page, or when the server answers an earlier page than asked
 * (it ignores `page`: its items were already yielded).
 */
export async function* pageStyle<T>(
  fetchPage: (page: number, perPage: number) => Promise<Page<T>>,
  perPage = 50,
  maxPages = 10_000,
): AsyncGenerator<T> {
  let seen = 0;
  for (let page = 1; ; page++) {
    if (page > maxPages) throw new PagingError(`page-style listing did not end within ${maxPages} pages`);
    const { items, info } = await fetchPage(page, perPage);
    if (info?.page !== undefined && info.page < page) return;
    for (const item of items) yield item;
    seen += items.length;
    if (items.length === 0) return;
    if (info?.total_count !== undefined && seen >= info.total_count) return;
    if (items.length < (info?.per_page ?? perPage)) return;
  }
}

/** Cursor-style listings (`result_info.cursor`): an empty, missing or already-seen cursor ends it. */
export async function* cursorStyle<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: readonly T[]; cursor?: string | null }>,
  maxPages = 10_000,
): AsyncGenerator<T> {
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let i = 0; ; i++) {
    if (i >= maxPages) throw new PagingError(`cursor-style listing did not end within ${maxPages} pages`);
    const page = await fetchPage(cursor);
    for (const item of page.items) yield item;
    const next = page.cursor ?? undefined;
    if (!next || seen.has(next)) return;
    seen.add(next);
    cursor = next;
  }
}

/** Drains an async iterator into an array. */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
