/**
 * The console on the emulator's own port: `GET /` (the HTML shell), `GET /__console/<file>` (its
 * browser files, plain ES modules: no build step) and `GET /__emulator/events` (server-sent events;
 * under the control prefix, so the control API's trust checks refuse foreign hosts and other sites).
 * Every page reads and acts through the control API, so each action meets those checks too.
 *
 * Every console answer carries a strict content security policy: only the console's own scripts and
 * styles run, nothing remote loads, no form posts anywhere, and no other site may frame it.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { CONTROL_PREFIX } from "../prefixes";
import { consoleAssetsDir } from "./assets-dir";
import { ChangeFeed } from "./events";
import { liveChecksOf, type ConsoleSubject } from "./live";
import { readAsset } from "./static-files";

export const CONSOLE_ASSETS_PREFIX = "/__console";

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": CONSOLE_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

const SHELL = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>account-api emulator</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${CONSOLE_ASSETS_PREFIX}/style.css">
<script type="module" src="${CONSOLE_ASSETS_PREFIX}/app.js"></script>
</head>
<body>
<header class="top">
<span class="brand">account-api emulator</span>
<nav id="nav" aria-label="Console pages" data-testid="nav"></nav>
<span id="live" class="live" role="status" data-testid="live-status">connecting…</span>
</header>
<main id="view" tabindex="-1" data-testid="view"><p>Loading the console…</p></main>
<noscript><p>The console needs JavaScript (its own scripts only; nothing remote).</p></noscript>
</body>
</html>
`;

/** Requests a page makes to read what it shows: they change nothing, so they raise no `change`. */
function isConsoleRead(req: FastifyRequest): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const path = req.url.split("?")[0] ?? "";
  return (
    path === "/" || path.startsWith(`${CONSOLE_ASSETS_PREFIX}/`) || path.startsWith(`${CONTROL_PREFIX}/`)
  );
}

/** Mounts the console; called once from buildEmulator, before the areas. Returns the change feed. */
export function registerConsole(app: FastifyInstance, em: ConsoleSubject): ChangeFeed {
  const feed = new ChangeFeed();
  for (const check of liveChecksOf(em)) feed.addLiveCheck(check);
  const root = consoleAssetsDir();

  app.addHook("onResponse", async (req) => {
    if (!isConsoleRead(req)) feed.notify();
  });
  // Before the server stops accepting: an open stream would otherwise keep `close()` waiting.
  app.addHook("preClose", async () => feed.closeAll());

  app.get("/", async (_req, reply) =>
    reply.headers(CONSOLE_HEADERS).type("text/html; charset=utf-8").send(SHELL),
  );
  app.get<{ Params: { "*": string } }>(`${CONSOLE_ASSETS_PREFIX}/*`, async (req, reply) => {
    const file = readAsset(root, req.params["*"]);
    if (!file)
      return reply.code(404).headers(CONSOLE_HEADERS).type("text/plain; charset=utf-8").send("not found");
    return reply.headers(CONSOLE_HEADERS).type(file.contentType).send(file.body);
  });
  app.get(`${CONTROL_PREFIX}/events`, async (_req, reply) => {
    reply.hijack();
    feed.open(reply.raw, CONSOLE_HEADERS);
  });
  return feed;
}
