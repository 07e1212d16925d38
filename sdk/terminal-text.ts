/**
 * A value read from an account, made safe to print on a terminal or in a CI log: every character
 * that could move the cursor, change colours, set the clipboard (OSC 52), reorder the text (bidi
 * controls) or end a line is shown as an escape (`\x1b`, `\u202e`, `\n`), and so is the backslash,
 * so that what a reader sees maps back to exactly one value.
 */

/** C0 and C1 controls, DEL, line and paragraph separators, bidi and zero-width format characters. */
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- matching controls is the point
  /[\\\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const NAMED: Readonly<Record<string, string>> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeOne(ch: string): string {
  const named = NAMED[ch];
  if (named !== undefined) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** `value` with every unsafe character escaped; a string without any comes back unchanged. */
export function terminalText(value: string): string {
  return value.replace(UNSAFE, escapeOne);
}

/** Noncharacters that XML 1.0 cannot hold and terminalText leaves alone. */
const NONCHARACTER = /[\ufffe\uffff]/g;

const unicodeEscape = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * A string as visible text: terminalText's escapes (controls, line endings, bidi and zero-width
 * characters, lone surrogates, and the backslash itself), and `\ufffe`, `\uffff`.
 */
export function shown(value: string): string {
  return terminalText(value).replace(NONCHARACTER, unicodeEscape);
}

/**
 * Text whose backslashes are already escapes of its own (JSON): every character `shown` would escape
 * but the backslash becomes `\uXXXX`. Printable ASCII is never touched.
 */
export function visible(text: string): string {
  // Whole code points (`u`): a surrogate pair is one character, safe; JSON escapes lone ones.
  return text.replace(/[^\x20-\x7e]/gu, (ch) => (shown(ch) === ch ? ch : unicodeEscape(ch)));
}
