/**
 * Search and chat over an instance's indexed chunks, with no model: a documented term-frequency
 * score (docs/areas/search.md, "Retrieval") and a reply built from the best chunk.
 *
 * For a query with distinct terms Q (stopwords left out) and a chunk where m of them occur, f times in all:
 *   score = (m / |Q|) × f / (f + 1), rounded to 4 decimals.
 * Candidates hold every term (`keyword_match_mode: "and"`, the default) or any (`"or"`); those under
 * the match threshold drop out; the rest are ranked by score, ties by chunk id, and cut to
 * `max_num_results`.
 */
import { queryTerms, terms, type TextChunk } from "./chunks";

export interface Candidate {
  /** Stable chunk id (`{item id}-{index}`). */
  id: string;
  key: string;
  metadata?: Record<string, string | number | boolean> | undefined;
  /** When the item was last indexed, epoch ms. */
  indexed_at: number;
  chunk: TextChunk;
}

export interface RetrievalOptions {
  mode: "and" | "or";
  threshold: number;
  max: number;
  fusion: string;
  reranking: boolean;
  filters?: Record<string, unknown> | undefined;
}

/** A type alias, not an interface: it is handed to the response schema's open object type. */
export type Ranked = {
  id: string;
  type: "text";
  text: string;
  score: number;
  item: { key: string; metadata?: Record<string, string | number | boolean>; timestamp: number };
  scoring_details: {
    keyword_score: number;
    keyword_rank: number;
    fusion_method: string;
    reranking_score?: number;
  };
};

/** A filter the emulator cannot evaluate: the request is refused naming it. */
export class FilterError extends Error {}

export function rank(query: string, candidates: readonly Candidate[], o: RetrievalOptions): Ranked[] {
  const wanted = [...new Set(queryTerms(query))];
  if (wanted.length === 0) return [];
  const scored: { c: Candidate; score: number; tf: number }[] = [];
  for (const c of candidates) {
    if (o.filters && !matches(o.filters, fieldsOf(c))) continue;
    const counts = new Map<string, number>();
    for (const t of terms(c.chunk.text)) counts.set(t, (counts.get(t) ?? 0) + 1);
    const hits = wanted.map((t) => counts.get(t) ?? 0);
    const matched = hits.filter((n) => n > 0).length;
    if (matched === 0 || (o.mode === "and" && matched < wanted.length)) continue;
    const tf = hits.reduce((a, b) => a + b, 0);
    const score = Math.round((matched / wanted.length) * (tf / (tf + 1)) * 10_000) / 10_000;
    if (score < o.threshold) continue;
    scored.push({ c, score, tf });
  }
  scored.sort((a, b) => b.score - a.score || (a.c.id < b.c.id ? -1 : a.c.id > b.c.id ? 1 : 0));
  return scored.slice(0, o.max).map(({ c, score, tf }, i) => ({
    id: c.id,
    type: "text",
    text: c.chunk.text,
    score,
    item: {
      key: c.key,
      ...(c.metadata ? { metadata: c.metadata } : {}),
      timestamp: Math.floor(c.indexed_at / 1000),
    },
    scoring_details: {
      keyword_score: tf,
      keyword_rank: i + 1,
      fusion_method: o.fusion,
      ...(o.reranking ? { reranking_score: score } : {}),
    },
  }));
}

/** What a filter can name: the item's metadata, its `folder` (key up to the last `/`) and `timestamp`. */
function fieldsOf(c: Candidate): Record<string, unknown> {
  const slash = c.key.lastIndexOf("/");
  // No prototype: a filter naming `constructor` names a field the item does not have.
  return Object.assign(Object.create(null), {
    ...c.metadata,
    folder: slash < 0 ? "" : c.key.slice(0, slash + 1),
    timestamp: Math.floor(c.indexed_at / 1000),
  });
}

/** -1, 0 or 1 for two numbers or two strings; undefined when they cannot be ordered. */
function order(a: unknown, b: unknown): number | undefined {
  if (typeof a === "number" && typeof b === "number") return Math.sign(a - b);
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

const ordered =
  (test: (sign: number) => boolean) =>
  (a: unknown, b: unknown): boolean => {
    const sign = order(a, b);
    return sign !== undefined && test(sign);
  };

/** By the operator a filter names (request text): a Map, so `constructor` is no operator. */
const COMPARE = new Map<string, (a: unknown, b: unknown) => boolean>([
  ["eq", (a, b) => a === b],
  ["ne", (a, b) => a !== b],
  ["gt", ordered((s) => s > 0)],
  ["gte", ordered((s) => s >= 0)],
  ["lt", ordered((s) => s < 0)],
  ["lte", ordered((s) => s <= 0)],
]);

/**
 * A filter: `{type: "eq"|"ne"|"gt"|"gte"|"lt"|"lte", key, value}`, `{type: "and"|"or", filters}`, or
 * a map of field → value (or `{$eq|$ne|$gt|$gte|$lt|$lte|$in|$nin: …}`), all of which must hold.
 */
export function matches(filter: Record<string, unknown>, fields: Record<string, unknown>): boolean {
  const type = filter.type;
  if (typeof type === "string" && (type === "and" || type === "or")) {
    const parts = filter.filters;
    if (!Array.isArray(parts) || parts.some((p) => !isRecord(p)))
      throw new FilterError(`a compound filter needs "filters", an array of filters`);
    const results = parts.filter(isRecord).map((p) => matches(p, fields));
    return type === "and" ? results.every(Boolean) : results.some(Boolean);
  }
  if (typeof type === "string" && "key" in filter) {
    const compare = COMPARE.get(type);
    if (!compare || typeof filter.key !== "string")
      throw new FilterError(`type must be one of eq, ne, gt, gte, lt, lte, and, or, with a string key`);
    return compare(fields[filter.key], filter.value);
  }
  return Object.entries(filter).every(([field, condition]) => holds(fields[field], condition, field));
}

function holds(value: unknown, condition: unknown, field: string): boolean {
  if (!isRecord(condition)) return value === condition;
  return Object.entries(condition).every(([op, operand]) => {
    if (op === "$in" || op === "$nin") {
      if (!Array.isArray(operand)) throw new FilterError(`${field}.${op} must be an array`);
      return operand.includes(value) === (op === "$in");
    }
    const compare = op.startsWith("$") ? COMPARE.get(op.slice(1)) : undefined;
    if (!compare) throw new FilterError(`${field}: unknown operator ${op}`);
    return compare(value, operand);
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The chat reply, without a model: the keys of the retrieved chunks and the first sentence of the
 * best one (title lines skipped), or a fixed sentence when nothing matched.
 */
export function replyFrom(query: string, chunks: readonly Ranked[]): string {
  const top = chunks[0];
  if (!top) return `No indexed content matches "${query}".`;
  const keys = [...new Set(chunks.map((c) => c.item.key))];
  const body = top.text
    .split("\n")
    .filter((l) => !l.startsWith("#"))
    .join(" ")
    .trim();
  const sentence = /^.*?[.!?](?=\s|$)/s.exec(body)?.[0] ?? body;
  return `From ${keys.join(", ")}: ${sentence}`;
}

/** The question a conversation asks: its last user message with text. */
export function lastUserText(
  messages: readonly { role: string; content: string | null }[],
): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "user" && m.content) return m.content;
  }
  return undefined;
}
