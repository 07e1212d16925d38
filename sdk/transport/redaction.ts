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

export class Redactor {
  /** The token as it may appear in text: raw and URL-encoded. */
  readonly #secrets: readonly string[];

  constructor(token: string) {
    this.#secrets = [...new Set([token, encodeURIComponent(token)])];
  }

  /** Replaces every occurrence of the token (raw or URL-encoded) with `[redacted]`. */
  text(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.split(secret).join("[redacted]");
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
