/**
 * HTML → Markdown as the spec lays the body out: YAML frontmatter (only when a supported meta tag has a
 * value), the body without header/footer/nav/script/style, then every JSON-LD block in one trailing
 * ```json fence, one document per line. Parsing is domino (a server-side DOM), conversion is turndown.
 * A library of its own: the emulator's edge and the CLI's `markdown` of a local file convert alike.
 */
import TurndownService from "turndown";

/** The few DOM members this module touches; domino ships no usable module typings. */
interface DomElement {
  getAttribute(name: string): string | null;
  textContent: string | null;
  remove(): void;
}
interface DomDocument {
  /** domino's body is a DOM element, which is what turndown takes. */
  body: (DomElement & TurndownService.Node) | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}
const domino = require("@mixmark-io/domino") as {
  createDocument(html: string, force?: boolean): DomDocument;
};

export interface Frontmatter {
  title?: string;
  description?: string;
  image?: string;
}

export interface Conversion {
  markdown: string;
  frontmatter: Frontmatter;
  jsonLd: unknown[];
}

/** Elements that are not content (spec C), plus ones that never render text. */
const STRIPPED = "header, footer, nav, script, style, noscript, template";

const turndown = new TurndownService({
  headingStyle: "atx",
  codeBlockStyle: "fenced",
  fence: "```",
  bulletListMarker: "-",
  emDelimiter: "_",
  strongDelimiter: "**",
});

/** Meta values by key; the first tag with a non-empty value for a key wins. */
function metaValues(doc: DomDocument): Map<string, string> {
  const out = new Map<string, string>();
  for (const el of Array.from(doc.querySelectorAll("meta"))) {
    const content = el.getAttribute("content")?.replace(/\s+/g, " ").trim();
    if (!content) continue;
    const name = el.getAttribute("name")?.trim().toLowerCase();
    const property = el.getAttribute("property")?.trim().toLowerCase();
    if (name && !out.has(`name:${name}`)) out.set(`name:${name}`, content);
    if (property && !out.has(`property:${property}`)) out.set(`property:${property}`, content);
  }
  return out;
}

/** The standard `name` form wins over the `og:` form regardless of order (spec C). */
export function frontmatterOf(meta: Map<string, string>): Frontmatter {
  const fm: Frontmatter = {};
  const title = meta.get("name:title") ?? meta.get("property:og:title");
  const description = meta.get("name:description") ?? meta.get("property:og:description");
  const image = meta.get("property:og:image");
  if (title) fm.title = title;
  if (description) fm.description = description;
  if (image) fm.image = image;
  return fm;
}

/** Plain YAML when unambiguous, else a double-quoted scalar (JSON strings are valid YAML). */
export function yamlScalar(value: string): string {
  const plain =
    /^[A-Za-z]/.test(value) &&
    !/: | #|:$|\s$/.test(value) &&
    ![...value].some((c) => c.charCodeAt(0) < 0x20) &&
    !/^(true|false|null|yes|no|on|off|y|n)$/i.test(value);
  return plain ? value : JSON.stringify(value);
}

export function renderFrontmatter(fm: Frontmatter): string {
  const lines = (["title", "description", "image"] as const)
    .filter((k) => fm[k] !== undefined)
    .map((k) => `${k}: ${yamlScalar(fm[k]!)}`);
  return lines.length ? `---\n${lines.join("\n")}\n---` : "";
}

function isJsonLd(el: DomElement): boolean {
  const type = (el.getAttribute("type") ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "application/ld+json";
}

/** Converts one HTML document. Invalid JSON-LD is dropped: it could not be kept on one line faithfully. */
export function convertHtml(html: string): Conversion {
  const doc = domino.createDocument(html, true);
  const frontmatter = frontmatterOf(metaValues(doc));
  const jsonLd: unknown[] = [];
  for (const el of Array.from(doc.querySelectorAll("script"))) {
    if (!isJsonLd(el)) continue;
    try {
      jsonLd.push(JSON.parse(el.textContent ?? ""));
    } catch {
      // not JSON: nothing trustworthy to keep
    }
  }
  for (const el of Array.from(doc.querySelectorAll(STRIPPED))) el.remove();
  const body = doc.body ? turndown.turndown(doc.body).trim() : "";
  const parts = [renderFrontmatter(frontmatter), body];
  if (jsonLd.length) parts.push(["```json", ...jsonLd.map((j) => JSON.stringify(j)), "```"].join("\n"));
  return { markdown: parts.filter((p) => p !== "").join("\n\n") + "\n", frontmatter, jsonLd };
}
