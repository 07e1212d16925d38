/**
 * The one reading of paging in a query, for every listing: a value is whole digits within the range the
 * contract gives that operation, or the request is refused naming the field. An empty value
 * (`per_page=`), `null`, `1.5`, `-1` or a repeated key is a bad value, never "absent" and never clamped.
 */
import { z } from "zod";

/** A listing's page size: the contract's range for `per_page` and the size served when none is asked. */
export interface PageRule {
  /** Smallest `per_page` accepted (some contracts allow 0, served as the default). */
  min: number;
  max: number;
  default: number;
}

/** The emulator's own listings (not in the public contract) and the contract's most common range. */
export const DEFAULT_PAGES: PageRule = { min: 1, max: 100, default: 20 };

function rangeRule(min: number, max: number | undefined): string {
  return max === undefined ? `must be at least ${min}` : `must be between ${min} and ${max}`;
}

/** What is wrong with a present value, or undefined when it is a whole number in range. */
function integerIssue(v: unknown, min: number, max: number | undefined): string | undefined {
  if (Array.isArray(v)) return "must be given once";
  if (v === "") return "must be a whole number (it is empty)";
  const n =
    typeof v === "string" && /^\d{1,15}$/.test(v)
      ? Number(v)
      : typeof v === "number" && Number.isSafeInteger(v)
        ? v
        : undefined;
  if (n === undefined) return "must be a whole number";
  return n >= min && (max === undefined || n <= max) ? undefined : rangeRule(min, max);
}

/**
 * An integer query parameter: absent is undefined; anything present must be digits within [min, max].
 * Query values arrive as text; a number is taken too (a caller of the schema outside HTTP).
 */
export function queryInteger(min: number, max?: number) {
  // `.optional()` outside: an absent key is no issue (zod runs nothing for it).
  return z
    .unknown()
    .transform((v, ctx): number => {
      const issue = integerIssue(v, min, max);
      if (issue === undefined) return Number(v);
      ctx.addIssue({ code: "custom", message: issue });
      return z.NEVER;
    })
    .optional();
}

/** `page` (from 1) and `per_page` in the listing's range: the fields of a page-style listing's query. */
export function pageFields(rule: PageRule = DEFAULT_PAGES) {
  return { page: queryInteger(1), per_page: queryInteger(rule.min, rule.max) };
}

/** A page-style listing's query schema; other fields of the query pass as they are. */
export function pageQuery(rule: PageRule = DEFAULT_PAGES) {
  return z.looseObject(pageFields(rule));
}

export type PageInfo = { page: number; per_page: number; count: number; total_count: number };

/** One page of `items` with the public API's `result_info`; a `per_page` of 0 is the default size. */
export function pageOf<T>(
  items: readonly T[],
  query: { page?: number | undefined; per_page?: number | undefined },
  rule: PageRule = DEFAULT_PAGES,
): { items: T[]; resultInfo: PageInfo } {
  const page = query.page ?? 1;
  const perPage = query.per_page || rule.default;
  const slice = items.slice((page - 1) * perPage, page * perPage);
  return {
    items: slice,
    resultInfo: { page, per_page: perPage, count: slice.length, total_count: items.length },
  };
}
