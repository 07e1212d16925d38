/**
 * How drift's writers show what they read from an account (names, ids, property paths, values, the
 * engine's messages): as one line of visible text that maps back to exactly one value. The text
 * report, the Markdown job summary, JUnit and SARIF's messages all start from these display forms;
 * each format then escapes its own syntax (Markdown here, XML in junit.ts). The JSON report
 * holds the values themselves.
 */
import { shown, visible } from "../../../sdk/terminal-text";

export { shown, visible };

/** A value as JSON that is also visible text: `JSON.parse` of it gives the value back. */
export function shownJson(value: unknown): string {
  return visible(JSON.stringify(value) ?? String(value));
}

/**
 * The characters that start Markdown syntax in a line's inline content (GFM as GitHub renders it):
 * code, emphasis, strikethrough, links and images, HTML, autolinks and entities, GitHub's math,
 * and the `:` and `.` of extended autolinks (`https://…`, `www.…`). CommonMark lets each be escaped
 * with a backslash.
 */
const MARKDOWN_SPECIAL = /[\\`*_~[\]()<>&!#$:.|@]/g;
/** Leading or trailing white space, which a table cell or a paragraph would trim. */
const EDGE_SPACE = /^\s+|\s+$/gu;

function markdownEscape(ch: string): string {
  // A table splits its row on `|` before any backslash escape applies: a reference cannot split it.
  if (ch === "|") return "&#124;";
  // GitHub links `name@host.tld` after joining the text around an escape: an empty comment (which
  // renders as nothing) keeps the local part in another text node.
  if (ch === "@") return "<!---->\\@";
  return `\\${ch}`;
}

/**
 * Text for a Markdown cell, list item or paragraph (GitHub's job summary renders GFM, HTML allowed)
 * that renders as exactly this text: no code, emphasis, link, image, autolink, HTML, entity, math,
 * heading or table cell can start in it, white space at either end is a character reference (a cell
 * is trimmed), and controls and line endings, which `shown` already escaped, are escaped here too
 * should any remain. The line it goes in must start with Markdown of our own.
 */
export function markdownText(text: string): string {
  return visible(text)
    .replace(MARKDOWN_SPECIAL, markdownEscape)
    .replace(EDGE_SPACE, (run) => [...run].map((ch) => `&#x${ch.codePointAt(0)?.toString(16)};`).join(""));
}
