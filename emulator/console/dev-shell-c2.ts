/**
 * TEMPORARY (helper C2, issue 28): a throwaway stand-in for the console's shell, so that the
 * registrar, search, meetings and markdown pages can be driven in a browser before helper C1's shell
 * (routes.ts, app.js, dom.js, the events stream) is merged. It follows the console's contract
 * exactly: `GET /` renders a shell, `GET /__console/<file>` serves emulator/console/assets, every
 * answer carries the console's CSP, and pages get `{ control, h, onChange }`. The lead deletes this
 * file (and the test harness's use of it) at the merge. Mounted only by tests, as an extra area.
 */
import { readFile } from "node:fs/promises";
import { extname, join, relative, resolve, sep } from "node:path";
import type { FastifyReply } from "fastify";
import type { AreaModule } from "../area";

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};
const PAGES = ["registrar", "search", "meetings", "markdown"];

const SHELL = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Emulator console (C2 dev shell)</title>
<link rel="stylesheet" href="/__console/dev-shell-c2.css"><link rel="stylesheet" href="/__console/pages-c2.css"></head><body><nav aria-label="Pages" data-testid="nav"></nav><main id="view" data-testid="view"></main>
<script type="module" src="/__console/dev-shell-c2.js"></script></body></html>`;

// The stand-in app.js: h (text and attributes only), control (JSON, /__emulator), onChange (polling
// here: C1's shell uses the server-sent events instead), hash routing.
const APP = `
const PAGES = ${JSON.stringify(PAGES)};
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) el.setAttribute(k, String(v));
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}
async function call(method, path, body) {
  const res = await fetch("/__emulator" + path, { method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  if (!res.ok) throw new Error(json?.errors?.[0]?.message ?? json?.error?.message ?? json?.message ?? res.status + "");
  return json && typeof json === "object" && "result" in json ? json.result : json;
}
const control = { get: (p) => call("GET", p), post: (p, b) => call("POST", p, b ?? {}), put: (p, b) => call("PUT", p, b), del: (p) => call("DELETE", p) };
let listeners = [];
setInterval(() => { for (const fn of listeners) fn(); }, 300);
const nav = document.querySelector("nav");
nav.append(...PAGES.map((id) => h("a", { href: "#/" + id }, id)));
async function show() {
  const id = location.hash.replace(/^#\\//, "") || PAGES[0];
  const view = document.getElementById("view");
  listeners = [];
  view.replaceChildren();
  const page = await import("/__console/pages/" + id + ".js");
  await page.render(view, { control, h, onChange: (fn) => listeners.push(fn) });
  view.setAttribute("data-page", id);
}
addEventListener("hashchange", () => void show());
void show();
`;

// The stand-in style.css: just enough for the screenshots to read like a page.
const BASE_CSS = `body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1d2128; }
nav { display: flex; flex-wrap: wrap; gap: 1rem; padding: 0.6rem 1rem; background: #1d2128; }
nav a { color: #fff; } main { padding: 0.5rem 1rem 2rem; max-width: 1200px; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; } h3 { font-size: 1rem; }`;

const ASSETS = resolve(__dirname, "assets");

function send(reply: FastifyReply, type: string, body: string | Buffer): FastifyReply {
  return reply
    .header("content-security-policy", CSP)
    .header("x-content-type-options", "nosniff")
    .type(type)
    .send(body);
}

export const devShellC2: AreaModule = {
  name: "dev-shell-c2",
  api: () => undefined,
  edge: (app) => {
    app.get("/", async (_req, reply) => send(reply, "text/html; charset=utf-8", SHELL));
    app.get("/__console/dev-shell-c2.css", async (_req, reply) => send(reply, TYPES[".css"]!, BASE_CSS));
    app.get("/__console/dev-shell-c2.js", async (_req, reply) => send(reply, TYPES[".js"]!, APP));
    app.get<{ Params: { "*": string } }>("/__console/*", async (req, reply) => {
      const file = resolve(ASSETS, req.params["*"]);
      const type = TYPES[extname(file)];
      if (!type || relative(ASSETS, file).startsWith("..") || !file.startsWith(ASSETS + sep))
        return reply.code(404).send();
      return send(reply, type, await readFile(join(file)));
    });
  },
};
