/**
 * Where a request goes: the `path` template that builds a path from values safely, the check on a
 * path below the base URL, the query string, and which account a call acts on.
 */
import { ConfigurationError, InvalidPathError } from "../errors";
import type { RequestSpec } from "./types";

/**
 * Encodes each interpolated value as one path segment and refuses `.`/`..`, empty segments and
 * missing values, so a value can never climb out of the path it is placed in nor silently become
 * "undefined".
 */
export function path(strings: TemplateStringsArray, ...values: readonly (string | number)[]): string {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    if (typeof value === "number" ? !Number.isFinite(value) : typeof value !== "string") {
      throw new InvalidPathError(
        `path segment ${i + 1}: must be a string or a finite number, got ${String(value)}`,
      );
    }
    const s = String(value);
    if (s === "" || s === "." || s === "..") {
      throw new InvalidPathError(`path segment ${JSON.stringify(s)} is not allowed`);
    }
    out += encodeURIComponent(s) + (strings[i + 1] ?? "");
  });
  return out;
}

/** A request's URL below `baseUrl`, and the path its errors name (never the query). */
export function requestTarget(
  baseUrl: string,
  spec: Pick<RequestSpec<unknown>, "path" | "query">,
): { url: string; displayPath: string } {
  if (typeof spec.path !== "string" || !spec.path.startsWith("/") || spec.path.includes("#")) {
    throw new InvalidPathError(
      `path: must start with "/" and have no fragment, got ${JSON.stringify(spec.path)}`,
    );
  }
  const displayPath = spec.path.split("?")[0]!;
  return { url: baseUrl + spec.path + queryString(spec.query, spec.path), displayPath };
}

/** The account to act on: an explicit one, else the client's default. */
export function accountOf(accountId: string | undefined, defaultAccountId: string | undefined): string {
  const id = accountId ?? defaultAccountId;
  if (!id)
    throw new ConfigurationError(
      "accountId: required (option accountId or ACCOUNT_API_ACCOUNT_ID)",
      "accountId",
    );
  if (id.length > 32) throw new ConfigurationError("accountId: at most 32 characters", "accountId");
  return id;
}

/** RFC 3986 encoding (`%20`, not `+`): not every server reads form-encoding in a query. */
function queryString(query: RequestSpec<unknown>["query"], path: string): string {
  if (!query) return "";
  const parts: string[] = [];
  const add = (k: string, v: unknown): void => {
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  };
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) add(key, v);
    else add(key, value);
  }
  if (!parts.length) return "";
  return (path.includes("?") ? "&" : "?") + parts.join("&");
}
