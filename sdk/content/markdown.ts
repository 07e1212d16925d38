/**
 * A page fetched as Markdown. Not an account API path: the page's own URL, with no credentials (pages
 * are public); it still takes `(ids, params, options?)`, with no ids.
 */
import { z } from "zod";
import type { ApiClient } from "../client";
import type { CallOptions } from "../core";
import { validate } from "../validate";
import { parseContentSignal, parseMarkdownDocument, type MarkdownDocument } from "./markdown-document";
import type { NoIds } from "./paths";

/** A page the edge converted (`converted: true`) or served as it was. */
export type MarkdownFetchResult =
  | ({
      converted: true;
      markdownTokens: number;
      originalTokens: number;
      /** The content-signal header as key → value (`{ "ai-train": "yes", ... }`). */
      contentSignal: Record<string, string>;
      headers: Record<string, string>;
    } & MarkdownDocument)
  | { converted: false; response: { status: number; headers: Record<string, string>; body: string } };

const PageUrlSchema = z
  .string()
  .refine((s) => /^https?:\/\//i.test(s) && URL.canParse(s), "must be an absolute http(s) URL");

/** `accept` replaces the `Accept` header sent (`text/markdown` by default). */
export type FetchMarkdownOptions = CallOptions & { accept?: string };

export class Markdown {
  constructor(private readonly client: ApiClient) {}

  /**
   * Fetches a page asking for Markdown. A 200 `text/markdown` answer is split into frontmatter, body
   * and JSON-LD; anything else is returned as it came.
   */
  async fetch(
    _ids: NoIds = {},
    params: { url: string },
    options: FetchMarkdownOptions = {},
  ): Promise<MarkdownFetchResult> {
    const url = validate(PageUrlSchema, params.url, "fetchMarkdown: url");
    const res = await this.client.fetchRaw(url, {
      headers: { accept: options.accept ?? "text/markdown" },
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    const type = (res.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (res.status !== 200 || type !== "text/markdown") {
      return { converted: false, response: { status: res.status, headers: res.headers, body: res.body } };
    }
    return {
      converted: true,
      ...parseMarkdownDocument(res.body),
      markdownTokens: Number(res.headers["x-markdown-tokens"] ?? NaN),
      originalTokens: Number(res.headers["x-original-tokens"] ?? NaN),
      contentSignal: parseContentSignal(res.headers["content-signal"] ?? ""),
      headers: res.headers,
    };
  }
}
