/**
 * Paged listings as async iterators. Both loops have hard stops besides the server's word, because
 * some servers keep answering past the end (an endless page loop is a real hazard): a page budget
 * whose overrun is an error (never a silent truncation), and a guard against the same page or cursor
 * coming back.
 */
import type { ResultInfo } from "./result-info";
import { PagingError } from "./errors";

/** A listing: iterate it lazily, page by page, or collect it whole. */
export interface Paged<T> extends AsyncIterable<T> {
  toArray(): Promise<T[]>;
}

/** A listing's generator that is also `Paged`, so existing `for await` and `.next()` callers keep working. */
export type PagedGenerator<T> = AsyncGenerator<T> & Paged<T>;

/** Gives a generator `toArray`; it drains the same generator, so call one or iterate, not both. */
export function paged<T>(gen: AsyncGenerator<T>): PagedGenerator<T> {
  return Object.assign(gen, { toArray: () => collect(gen) });
}

export interface Page<T> {
  items: readonly T[];
  info?: ResultInfo;
}

/**
 * Page-style listings (`page`, `per_page`, `result_info.total_count`). Stops on an empty page, once
 * `total_count` items arrived, on a short page, or when the server answers an earlier page than asked
 * (it ignores `page`: its items were already yielded).
 */
export function pageStyle<T>(
  fetchPage: (page: number, perPage: number) => Promise<Page<T>>,
  perPage = 50,
  maxPages = 10_000,
): PagedGenerator<T> {
  return paged(pageLoop(fetchPage, perPage, maxPages));
}

async function* pageLoop<T>(
  fetchPage: (page: number, perPage: number) => Promise<Page<T>>,
  perPage: number,
  maxPages: number,
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
export function cursorStyle<T>(
  fetchPage: (cursor: string | undefined) => Promise<CursorPage<T>>,
  maxPages = 10_000,
): PagedGenerator<T> {
  return paged(cursorLoop(fetchPage, maxPages));
}

export interface CursorPage<T> {
  items: readonly T[];
  cursor?: string | null;
}

async function* cursorLoop<T>(
  fetchPage: (cursor: string | undefined) => Promise<CursorPage<T>>,
  maxPages: number,
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
