/**
 * Token counts (the emulator's x-markdown-tokens and x-original-tokens headers, the CLI's `markdown` of a file),
 * with a real BPE tokenizer: gpt-tokenizer's `o200k_base` encoding (the GPT-4o family's). Loaded on
 * first use because its table takes a moment to load and most emulator runs never convert a page.
 */
type CountTokens = (text: string, options: { disallowedSpecial: Set<string> }) => number;

let counter: CountTokens | undefined;

export const TOKEN_ENCODING = "o200k_base";

/**
 * BPE merging is quadratic in the length of one pre-token, and a run without whitespace (a data: URI,
 * minified script) is one pre-token: counted whole, a 2 MB run would take hours. Runs longer than this
 * are counted in pieces of this size, which changes the estimate by at most a token per piece.
 */
export const MAX_RUN = 256;

export function countTokens(text: string): number {
  const count = (counter ??= (require("gpt-tokenizer/encoding/o200k_base") as { countTokens: CountTokens })
    .countTokens);
  // Page text may spell out special tokens such as <|endoftext|>; they count as plain text.
  const options = { disallowedSpecial: new Set<string>() };
  let total = 0;
  for (const piece of pieces(text)) total += count(piece, options);
  return total;
}

/** The text, with every run of more than MAX_RUN non-whitespace characters cut into MAX_RUN pieces. */
function* pieces(text: string): Generator<string> {
  let last = 0;
  for (const m of text.matchAll(new RegExp(`\\S{${MAX_RUN + 1},}`, "g"))) {
    if (m.index > last) yield text.slice(last, m.index);
    for (let i = 0; i < m[0].length; i += MAX_RUN) yield m[0].slice(i, i + MAX_RUN);
    last = m.index + m[0].length;
  }
  if (last < text.length) yield text.slice(last);
}
