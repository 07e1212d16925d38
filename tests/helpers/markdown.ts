/**
 * Reads Markdown back as a renderer does (markdown-it: CommonMark with GFM tables), with raw HTML and
 * bare-URL autolinks on, as GitHub's job summary has them: what each heading, paragraph, list item
 * and table cell renders to, and whether anything in it rendered as markup rather than text.
 */
import MarkdownIt from "markdown-it";

type Token = MarkdownIt.Token;

const md = new MarkdownIt({ html: true, linkify: true });

/** An empty comment: how markdownText keeps an address from GitHub's autolinks; renders as nothing. */
const EMPTY_COMMENT = "<!---->";

/** One block's inline content: the text it renders to, and every piece of it that is not text. */
export interface Inline {
  /** The rendered text (code spans included, as their text). */
  text: string;
  /** Tokens other than text: `code_inline`, `strong_open`, `link_open`, `image`, `html_inline`… */
  markup: string[];
}

export interface MarkdownRead {
  /** The block tokens' types, in order (`heading_open`, `table_open`, `bullet_list_open`…). */
  blocks: string[];
  headings: Inline[];
  /** Top-level paragraphs (not those in list items). */
  paragraphs: Inline[];
  /** Each list item's paragraph. */
  items: Inline[];
  /** Each table row (the header row first), as its cells. */
  rows: Inline[][];
}

function inline(t: Token): Inline {
  const markup: string[] = [];
  let text = "";
  for (const c of t.children ?? []) {
    if (c.type === "text" || c.type === "code_inline") text += c.content;
    if (c.type === "html_inline" && c.content === EMPTY_COMMENT) continue;
    if (c.type !== "text") markup.push(c.type === "html_inline" ? `html_inline ${c.content}` : c.type);
  }
  return { text, markup };
}

export function readMarkdown(source: string): MarkdownRead {
  const out: MarkdownRead = { blocks: [], headings: [], paragraphs: [], items: [], rows: [] };
  let inItem = 0;
  let where: "heading" | "paragraph" | "cell" | undefined;
  for (const t of md.parse(source, {})) {
    if (t.type !== "inline") out.blocks.push(t.type);
    if (t.type === "list_item_open") inItem++;
    if (t.type === "list_item_close") inItem--;
    if (t.type === "tr_open") out.rows.push([]);
    if (t.type === "heading_open") where = "heading";
    else if (t.type === "paragraph_open") where = "paragraph";
    else if (t.type === "th_open" || t.type === "td_open") where = "cell";
    if (t.type !== "inline") continue;
    const read = inline(t);
    if (where === "heading") out.headings.push(read);
    else if (where === "cell") out.rows[out.rows.length - 1]?.push(read);
    else if (inItem > 0) out.items.push(read);
    else out.paragraphs.push(read);
  }
  return out;
}
