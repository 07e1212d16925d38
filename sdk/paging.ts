/**
 * Paged listings as async iterators. Both loops have a hard stop besides the server's word, because
 * some servers keep answering past the end (an endless page loop is a real hazard).
 */
import type { ResultInfo } from "./client";

export interface Page<T> {
  items: readonly T[];
  info?: ResultInfo;
}

/** Page-style listings (`page`, `per_page`, `result_info.total_count`). */
export async function* pageStyle<T>(
  fetchPage: (page: number, perPage: number) => Promise<Page<T>>,
  perPage = 50,
  maxPages = 10_000,
): AsyncGenerator<T> {
  let seen = 0;
  for (let page = 1; page <= maxPages; page++) {
    const { items, info } = await fetchPage(page, perPage);
    for (const item of items) yield item;
    seen += items.length;
    if (items.length === 0) return;
    if (info?.total_count !== undefined && seen >= info.total_count) return;
    if (items.length < (info?.per_page ?? perPage)) return;
  }
}

/** Cursor-style listings (`result_info.cursor`; empty or repeated cursor ends it). */
export async function* cursorStyle<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: readonly T[]; cursor?: string | null }>,
  maxPages = 10_000,
): AsyncGenerator<T> {
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let i = 0; i < maxPages; i++) {
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
