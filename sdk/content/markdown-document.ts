/** Reading a page the edge converted: the content-signal header, and the document split along the spec's layout. */

/** `ai-train=yes, search=yes, ai-input=yes` → `{ "ai-train": "yes", search: "yes", "ai-input": "yes" }`. */
export function parseContentSignal(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

export interface MarkdownFrontmatter {
  title?: string;
  description?: string;
  image?: string;
}

/** A converted page split along the spec's layout: frontmatter, body, JSON-LD. */
export interface MarkdownDocument {
  /** The whole document as served. */
  markdown: string;
  frontmatter: MarkdownFrontmatter;
  /** The body Markdown alone, without frontmatter or the JSON-LD block. */
  body: string;
  /** One entry per JSON-LD document of the trailing ```json block. */
  jsonLd: unknown[];
}

const FRONTMATTER_KEYS: readonly string[] = [
  "title",
  "description",
  "image",
] satisfies (keyof MarkdownFrontmatter)[];

function isFrontmatterKey(key: string): key is keyof MarkdownFrontmatter {
  return FRONTMATTER_KEYS.includes(key);
}

/** A YAML scalar as the converter writes it: plain, "double-quoted" or 'single-quoted'. */
function yamlScalar(raw: string): string {
  const v = raw.trim();
  if (v.startsWith('"')) {
    try {
      return String(JSON.parse(v));
    } catch {
      return v.slice(1, -1);
    }
  }
  if (v.startsWith("'") && v.endsWith("'") && v.length >= 2) return v.slice(1, -1).replace(/''/g, "'");
  return v;
}

/**
 * Splits a converted document. The JSON-LD block is recognised only as the last thing in the document
 * and only when every line in it is a JSON object or array, so a page that merely ends with a json
 * code sample keeps it in its body.
 */
export function parseMarkdownDocument(markdown: string): MarkdownDocument {
  let rest = markdown.replace(/\r\n/g, "\n");
  const frontmatter: MarkdownFrontmatter = {};
  const fm = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(rest);
  if (fm) {
    for (const line of fm[1]!.split("\n")) {
      const m = /^([A-Za-z_]+):\s?(.*)$/.exec(line);
      const key = m?.[1];
      if (m && key !== undefined && isFrontmatterKey(key)) frontmatter[key] = yamlScalar(m[2] ?? "");
    }
    rest = rest.slice(fm[0].length);
  }
  let jsonLd: unknown[] = [];
  const lines = rest.replace(/\n+$/, "").split("\n");
  if (lines.length >= 3 && lines[lines.length - 1] === "```") {
    const open = lines.lastIndexOf("```json");
    const inner = open >= 0 ? lines.slice(open + 1, -1) : [];
    const parsed = inner.length ? inner.map(tryJsonDocument) : [undefined];
    if (parsed.every((p) => p !== undefined)) {
      jsonLd = parsed;
      rest = lines.slice(0, open).join("\n");
    }
  }
  return { markdown, frontmatter, body: rest.trim(), jsonLd };
}

function tryJsonDocument(line: string): unknown {
  try {
    const v: unknown = JSON.parse(line);
    return v !== null && typeof v === "object" ? v : undefined;
  } catch {
    return undefined;
  }
}
