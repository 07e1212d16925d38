/**
 * Keeps the token out of everything the transport shows: events, error messages, error bodies and
 * the headers handed back to callers (a server may echo what it was sent).
 */

/** Request headers that carry credentials: shown to the observer as `[redacted]`. */
const SECRET_HEADERS: ReadonlySet<string> = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "x-auth-key",
]);

export function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

/** A base64 fragment shorter than this could match by chance: such tokens keep their other forms only. */
const MIN_BASE64_FRAGMENT = 12;

/**
 * The token's base64 as it stands inside a longer base64 text (a `Basic` credential, an encoded
 * echo): its encoding depends on where it starts in the 3-byte groups, so each of the three
 * alignments is taken, less the edge characters it shares with its neighbours' bytes. Both
 * alphabets: standard and URL-safe.
 */
function base64Forms(token: string): string[] {
  const bytes = Buffer.from(token, "utf8");
  const forms: string[] = [];
  for (const lead of [0, 1, 2]) {
    const text = Buffer.concat([Buffer.alloc(lead), bytes])
      .toString("base64")
      .replace(/=+$/, "");
    const start = [0, 2, 3][lead] ?? 0;
    const end = ((lead + bytes.length) * 8) % 6 === 0 ? text.length : text.length - 1;
    const fragment = text.slice(start, end);
    if (fragment.length >= MIN_BASE64_FRAGMENT)
      forms.push(fragment, fragment.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return forms;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export class Redactor {
  /**
   * The token in every form a server may echo it: raw and URL-encoded in any letter case (a header
   * lowercased on the way back), and base64 at any alignment (exact case). Two patterns, as Node 22
   * has no inline case modifier.
   */
  readonly #patterns: readonly RegExp[];

  constructor(token: string) {
    const pattern = (forms: string[], flags: string) =>
      new RegExp([...new Set(forms)].map(escapeRegExp).join("|"), flags);
    this.#patterns = token
      ? [pattern([token, encodeURIComponent(token)], "gi"), pattern(base64Forms(token), "g")].filter(
          (p) => p.source !== "(?:)",
        )
      : [];
  }

  /** Replaces every occurrence of the token, in any of its forms, with `[redacted]`. */
  text(text: string): string {
    let out = text;
    for (const p of this.#patterns) out = out.replace(p, "[redacted]");
    return out;
  }

  /** Names and values alike. */
  headers(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) out[this.text(k)] = this.text(v);
    return out;
  }

  /** Every string of a parsed JSON value, keys included. */
  deep(value: unknown): unknown {
    if (typeof value === "string") return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.deep(v));
    if (isRecord(value)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.text(k), this.deep(v)]));
    }
    return value;
  }

  /** Request headers (lower-case names) as the observer sees them: a credential keeps only its scheme. */
  requestHeaders(headers: Record<string, string>): Record<string, string> {
    return Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k, SECRET_HEADERS.has(k) ? redactHeader(v) : this.text(v)]),
    );
  }
}

function redactHeader(value: string): string {
  const scheme = /^(\w+)\s/.exec(value)?.[1];
  return scheme ? `${scheme} [redacted]` : "[redacted]";
}
