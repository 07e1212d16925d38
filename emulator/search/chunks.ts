/**
 * How the emulator splits an item's text into chunks, and how it tokenizes text for search. Both are
 * deterministic and documented in docs/areas/search.md:
 * - words are runs of non-space characters; a chunk holds `chunk_size` words and the next one starts
 *   `chunk_size − overlap` words later, where overlap is `chunk_overlap` percent of `chunk_size`
 *   (rounded down); with `chunk: false` the whole text is one chunk;
 * - terms are the lowercase runs of letters and digits of a text; a query's terms leave out common
 *   English words (STOPWORDS), unless nothing else is left.
 */
import { createHash } from "node:crypto";

export interface ChunkSettings {
  chunk?: boolean | undefined;
  chunk_size?: number | undefined;
  chunk_overlap?: number | undefined;
}

export interface TextChunk {
  /** 0-based place in the item. */
  index: number;
  text: string;
  start_byte: number;
  end_byte: number;
}

export function chunkText(text: string, s: ChunkSettings): TextChunk[] {
  const words = [...text.matchAll(/\S+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  if (words.length === 0) return [];
  const size = s.chunk === false ? words.length : Math.max(1, s.chunk_size ?? 256);
  const overlap = Math.floor((size * (s.chunk_overlap ?? 0)) / 100);
  const step = Math.max(1, size - overlap);
  const out: TextChunk[] = [];
  for (let first = 0; first < words.length; first += step) {
    const last = Math.min(words.length, first + size) - 1;
    const start = words[first]!.start;
    const end = words[last]!.end;
    const start_byte = Buffer.byteLength(text.slice(0, start));
    const piece = text.slice(start, end);
    out.push({ index: out.length, text: piece, start_byte, end_byte: start_byte + Buffer.byteLength(piece) });
    if (last === words.length - 1) break;
  }
  return out;
}

/** Lowercase runs of letters and digits. */
export function terms(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Words a question is made of rather than about. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be by can do does for from how i in is it me my of on or our that the this to " +
    "was we what when where which who why will with you your"
  ).split(" "),
);

/** The terms a query asks for. */
export function queryTerms(text: string): string[] {
  const all = terms(text);
  const kept = all.filter((t) => !STOPWORDS.has(t));
  return kept.length ? kept : all;
}

/** A short stable hex digest (checksums, ids). */
export function digest(text: string, length = 32): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}

/** A UUID-shaped id derived from what fixes it (the same inputs give the same id after a restart). */
export function stableUuid(seed: string): string {
  const h = digest(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
