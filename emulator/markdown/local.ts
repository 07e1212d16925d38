/**
 * An HTML file converted on this machine the way the emulator's edge converts a page, with both token
 * counts: what `account-api markdown <file>` shows. It lives here, with the converter and the tokenizer,
 * so that the provider's package carries neither (a page's counts come from the service's headers).
 */
import { convertHtml, type Frontmatter } from "./convert";
import { countTokens } from "./tokens";

export interface LocalConversion {
  markdown: string;
  frontmatter: Frontmatter;
  markdownTokens: number;
  htmlTokens: number;
}

export function convertLocalHtml(html: string): LocalConversion {
  const { markdown, frontmatter } = convertHtml(html);
  return { markdown, frontmatter, markdownTokens: countTokens(markdown), htmlTokens: countTokens(html) };
}
