/** markdown: what an agent gets from a page through the service, or from an HTML file converted locally. */
import { STATUS_CODES } from "node:http";
import type { Command } from "commander";
import { AccountApi, ConnectionError, TimeoutError, apiErrorItems, describeItem } from "../../sdk";
import { MAX_ORIGIN_BYTES } from "../../sdk/schemas/content";
import { terminalText } from "../../sdk/terminal-text";
import { convertLocalHtml } from "../emulator-package";
import { CliError, EXIT, action, leaf, readFileArg, type CommonOptions, type VerbIo } from "../io";

export interface MarkdownReport {
  source: string;
  converted: boolean;
  markdown: string;
  markdownTokens: number;
  /**
   * Tokens of the HTML the page (or file) would have cost an agent; null when the page was not converted
   * (the service sends its counts only with a conversion).
   */
  htmlTokens: number | null;
  savedTokens: number;
  /** Share of the HTML's tokens saved, in percent (one decimal). */
  savedPercent: number;
  frontmatter?: Record<string, unknown>;
  contentSignal?: Record<string, string>;
  /** Why a page was not converted: what came back, and what it means. */
  reason?: string;
  /** The page's answer when it was not converted. */
  status?: number;
  contentType?: string;
}

export function savings(
  markdownTokens: number,
  htmlTokens: number,
): { savedTokens: number; savedPercent: number } {
  const savedTokens = htmlTokens - markdownTokens;
  return {
    savedTokens,
    savedPercent: htmlTokens > 0 ? Math.round((savedTokens / htmlTokens) * 1000) / 10 : 0,
  };
}

const isUrl = (s: string): boolean => /^https?:\/\//i.test(s);

const mediaType = (contentType: string | undefined): string =>
  (contentType ?? "").split(";")[0]!.trim().toLowerCase();

/** What the service said in an error envelope the page came back with, if it is one. */
function serviceSaid(contentType: string | undefined, body: string): string {
  if (!mediaType(contentType).endsWith("json")) return "";
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return "";
  }
  const items = apiErrorItems(json);
  return items.length ? `: ${items.map(describeItem).join("; ")}` : "";
}

/**
 * Why a page came back as something other than Markdown, one case each: not found, another error
 * status, a redirect (not followed), not HTML, too large, or HTML with conversion off.
 */
export function notConvertedReason(
  status: number,
  headers: Readonly<Record<string, string>>,
  body: string,
): string {
  const type = headers["content-type"];
  const answered = `the page answered ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ""}`;
  if (status === 404 || status === 410) return `${answered}: there is no such page${serviceSaid(type, body)}`;
  if (status >= 300 && status < 400)
    return `${answered}: a redirect${headers.location ? ` to ${headers.location}` : ""}, not followed; ask for the page it points to`;
  if (status !== 200) return `${answered}: an error, not the page${serviceSaid(type, body)}`;
  const media = mediaType(type);
  if (media !== "text/html" && media !== "application/xhtml+xml")
    return `the page is ${media ? media : "of no content type"}, not HTML: only HTML pages are converted`;
  const bytes = Buffer.byteLength(body);
  if (bytes > MAX_ORIGIN_BYTES)
    return `the page's HTML is ${bytes} bytes, over the ${MAX_ORIGIN_BYTES} bytes conversion takes`;
  return "the page came back as HTML: Markdown conversion is not on for it (turn it on for its zone, or for its path with a rule)";
}

/** A page through the service (what an agent asking for text/markdown gets), or a local HTML file through the same conversion. */
export async function markdownOf(io: VerbIo, o: CommonOptions, source: string): Promise<MarkdownReport> {
  if (!isUrl(source)) {
    const html = (
      await readFileArg(
        "markdown <page-or-file>",
        source,
        // The service converts no larger page; nor is a larger file read.
        { bytes: MAX_ORIGIN_BYTES, over: `the ${MAX_ORIGIN_BYTES} bytes conversion takes` },
        /^(www\.|[\w-]+(\.[\w-]+)+\/)/i.test(source)
          ? " (a page is given by its URL, with http:// or https://)"
          : "",
      )
    ).toString("utf8");
    const c = convertLocalHtml(html);
    return {
      source,
      converted: true,
      markdown: c.markdown,
      markdownTokens: c.markdownTokens,
      htmlTokens: c.htmlTokens,
      ...savings(c.markdownTokens, c.htmlTokens),
      frontmatter: c.frontmatter,
    };
  }
  // Pages are public: no token is sent, so the client needs none configured.
  const configured = Boolean((o.baseUrl ?? io.env.ACCOUNT_API_BASE_URL) && io.env.ACCOUNT_API_TOKEN);
  const api = configured
    ? new AccountApi({
        ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}),
        // Only pages are fetched, never with the token: nothing travels to the base URL.
        insecureHttp: true,
        env: io.env,
      })
    : new AccountApi({ baseUrl: "http://127.0.0.1/client/v4", token: "unused-for-pages", env: {} });
  try {
    const r = await api.content.markdown.fetch({}, { url: source }).catch((err: unknown) => {
      // A connection error names the path only; the user gave the whole URL.
      if (err instanceof ConnectionError || err instanceof TimeoutError)
        throw new CliError(`${source}: could not fetch the page: ${err.message}`, EXIT.error, { cause: err });
      throw err;
    });
    if (!r.converted) {
      const { status, headers, body } = r.response;
      return {
        source,
        converted: false,
        markdown: "",
        markdownTokens: 0,
        // The service counts only what it converts; counting here would take a tokenizer into the package.
        htmlTokens: null,
        savedTokens: 0,
        savedPercent: 0,
        reason: notConvertedReason(status, headers, body),
        status,
        ...(headers["content-type"] ? { contentType: headers["content-type"] } : {}),
      };
    }
    return {
      source,
      converted: true,
      markdown: r.markdown,
      markdownTokens: r.markdownTokens,
      htmlTokens: r.originalTokens,
      ...savings(r.markdownTokens, r.originalTokens),
      frontmatter: { ...r.frontmatter },
      contentSignal: r.contentSignal,
    };
  } finally {
    await api.close();
  }
}

export function addMarkdownVerb(root: Command, io: VerbIo): void {
  leaf(root.command("markdown <page-or-file>"))
    .description(
      "what an agent gets from a page (a URL, asked for text/markdown) or an HTML file: the Markdown on stdout, its token count and the savings against the HTML on stderr (exit 3 if the page was not converted)",
    )
    .action(
      action(io, async (o: CommonOptions, source: string) => {
        const r = await markdownOf(io, o, source);
        if (!o.quiet && !o.json) {
          io.err(
            r.converted
              ? `${r.markdownTokens} tokens as Markdown, ${r.htmlTokens} as HTML: ${r.savedTokens} fewer (${r.savedPercent}% saved)\n`
              : // The reason quotes the page's answer (a redirect's location): shown inert.
                `not converted: ${terminalText(r.reason ?? "")}\n`,
          );
        }
        return {
          result: r,
          text: r.markdown.endsWith("\n") || !r.markdown ? r.markdown : `${r.markdown}\n`,
          exitCode: r.converted ? EXIT.ok : EXIT.unsuccessful,
        };
      }),
    );
}
