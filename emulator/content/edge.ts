/**
 * The edge: serves a zone's pages at `/__edge/{hostname}/{path}`, fetching them from the zone's origin
 * with Node's own fetch, and converts HTML to Markdown when the request lists `text/markdown` and
 * conversion is on for that host and path. Everything else is served as the origin sent it.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { DomainError } from "../http";
import { DEFAULT_CONTENT_SIGNAL, MAX_ORIGIN_BYTES } from "../../sdk/schemas/content";
import { convertHtml } from "../markdown/convert";
import { CONTENT_CODES, type ContentModel } from "./state";
import { countTokens } from "../markdown/tokens";

export const EDGE_PREFIX = "/__edge/";
const ORIGIN_TIMEOUT_MS = 30_000;

/** Hop-by-hop headers, and ones that stop being true once fetch has decoded and buffered the body. */
const NOT_FORWARDED = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-encoding",
  "content-length",
  "upgrade",
  "proxy-connection",
  "te",
  "trailer",
]);

/** True when some media range of the Accept header is text/markdown with a non-zero quality. */
export function acceptsMarkdown(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(",").some((range) => {
    const [type, ...params] = range.split(";").map((p) => p.trim().toLowerCase());
    if (type !== "text/markdown") return false;
    const q = params.find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** Only HTML is converted (spec, Limits). */
export function isHtml(contentType: string | null): boolean {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "text/html" || type === "application/xhtml+xml";
}

/** `/__edge/Example.COM:8080/docs/a?x=1` → host `example.com`, path `/docs/a`, search `?x=1`. */
export function splitEdgeUrl(url: string): { host: string; path: string; search: string } {
  const rest = url.slice(EDGE_PREFIX.length);
  const q = rest.indexOf("?");
  const beforeQuery = q === -1 ? rest : rest.slice(0, q);
  const search = q === -1 ? "" : rest.slice(q);
  const slash = beforeQuery.indexOf("/");
  const rawHost = slash === -1 ? beforeQuery : beforeQuery.slice(0, slash);
  const path = slash === -1 ? "/" : beforeQuery.slice(slash);
  const host = decodeURIComponent(rawHost).toLowerCase().replace(/:\d+$/, "");
  return { host, path, search };
}

export async function serveEdge(
  model: ContentModel,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { host, path, search } = splitEdgeUrl(req.url);
  const served = model.resolveHost(host);
  if (!served)
    throw new DomainError(404, { code: CONTENT_CODES.notFound, message: `no zone serves host ${host}` });
  const origin = model.getOrigin(served.zone.id);
  if (!origin) {
    throw new DomainError(502, {
      code: CONTENT_CODES.noOrigin,
      message: `zone ${served.zone.name} has no origin (PUT /__emulator/content/zones/${served.zone.id}/origin)`,
    });
  }

  let res: Response;
  try {
    res = await fetch(origin.replace(/\/+$/, "") + path + search, {
      headers: {
        accept: String(req.headers.accept ?? "*/*"),
        "x-forwarded-host": host,
        ...(req.headers["user-agent"] ? { "user-agent": String(req.headers["user-agent"]) } : {}),
      },
      redirect: "manual",
      signal: AbortSignal.timeout(ORIGIN_TIMEOUT_MS),
    });
  } catch (err) {
    throw new DomainError(502, {
      code: CONTENT_CODES.originUnreachable,
      message: `origin of ${served.zone.name} unreachable: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
  const body = Buffer.from(await res.arrayBuffer());

  const wanted = acceptsMarkdown(req.headers.accept);
  const convertible =
    res.status === 200 && isHtml(res.headers.get("content-type")) && body.byteLength <= MAX_ORIGIN_BYTES;
  const enabled =
    wanted &&
    convertible &&
    model.conversionEnabled(served.zone.id, {
      host,
      path: decodePath(path),
      metadata: served.customHostname?.custom_metadata ?? {},
    });

  if (!enabled) {
    reply.code(res.status);
    res.headers.forEach((value, key) => {
      if (!NOT_FORWARDED.has(key)) reply.header(key, value);
    });
    return reply.send(body);
  }

  const html = body.toString("utf8");
  const { markdown } = convertHtml(html);
  return reply
    .code(200)
    .header("content-type", "text/markdown; charset=utf-8")
    .header("content-length", String(Buffer.byteLength(markdown)))
    .header("vary", "accept")
    .header("x-markdown-tokens", String(countTokens(markdown)))
    .header("x-original-tokens", String(countTokens(html)))
    .header("content-signal", DEFAULT_CONTENT_SIGNAL)
    .send(markdown);
}

/** Rule expressions see the decoded path, as a person writes it in a rule. */
function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
