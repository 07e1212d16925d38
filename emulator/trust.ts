/**
 * Who may use the control API (`/__emulator/*`). It has no token: whoever reaches it can read the
 * state, add tokens and wipe everything. Loopback keeps other machines out, but not a web page in the
 * user's browser: a cross-site form posts `text/plain` to it, and a page whose name is rebound to
 * 127.0.0.1 reads it as its own origin. So a control request is refused when:
 * - its `Host` is not a name of this emulator (loopback names and addresses, the bound address, and
 *   what `allowHosts` adds): that is DNS rebinding;
 * - the browser says it is cross-site (`Sec-Fetch-Site`), or its `Origin` is not the emulator's own;
 * - it carries a body that is not JSON (the only content types a page may post without asking).
 */
import { isIP } from "node:net";

/** Why a control request is refused, as the status and the message of the answer. */
export interface Refusal {
  status: 403 | 415;
  message: string;
}

/** Addresses that only this machine reaches. */
export function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, "");
  if (isIP(a) === 4) return a.startsWith("127.");
  if (isIP(a) === 6) return a === "::1" || /^::ffff:127\./.test(a);
  return false;
}

/** Names and addresses that only this machine reaches (`localhost` and its subdomains resolve to loopback). */
export function isLoopbackName(name: string): boolean {
  const n = name.toLowerCase().replace(/\.$/, "");
  return n === "localhost" || n.endsWith(".localhost") || isLoopbackAddress(n);
}

/** The name of a `Host` header without its port (`[::1]:8787` → `::1`), or undefined when malformed. */
export function hostName(host: string): string | undefined {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s/@]+))(?::\d{1,5})?$/.exec(host.trim());
  return m ? (m[1] ?? m[2])!.toLowerCase() : undefined;
}

const FOREIGN_FETCH = new Set(["cross-site", "same-site"]);

/**
 * The check for one control request; `allowed` are the extra names (bound address, `allowHosts`),
 * lower case. Returns undefined when the request may go on.
 */
export function controlRefusal(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  allowed: ReadonlySet<string>,
): Refusal | undefined {
  const one = (name: string): string | undefined => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const host = one("host") ?? "";
  const name = hostName(host);
  if (name === undefined || !(isLoopbackName(name) || allowed.has(name)))
    return {
      status: 403,
      message: `host: ${JSON.stringify(host)} is not a name of this emulator (the control API answers loopback names, the address it listens on, and --allow-host names)`,
    };
  const site = one("sec-fetch-site");
  if (site !== undefined && FOREIGN_FETCH.has(site.toLowerCase()))
    return { status: 403, message: `sec-fetch-site: ${site} requests may not use the control API` };
  const origin = one("origin");
  if (origin !== undefined && origin.toLowerCase() !== `http://${host.toLowerCase()}`)
    return {
      status: 403,
      message: `origin: ${JSON.stringify(origin)} is not this emulator; the control API refuses other sites`,
    };
  const type = one("content-type");
  if (type !== undefined && type.split(";")[0]!.trim().toLowerCase() !== "application/json")
    return {
      status: 415,
      message: `content-type: ${JSON.stringify(type)} is not accepted; this operation takes application/json`,
    };
  return undefined;
}

/** An address that binds every interface: no request names it as its host. */
export function isWildcardAddress(host: string): boolean {
  return ["0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0"].includes(host.trim());
}
