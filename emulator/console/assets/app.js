// @ts-check
/**
 * The console's shell: the nav, hash routing (`#/<page>`), the server-sent events subscription, and
 * the `control` helper pages act through (the emulator's control API, JSON bodies, same origin).
 *
 * A page module exports `title` and `render(view, ctx)`; ctx is { control, h, onChange }. onChange
 * handlers belong to the page shown: they are dropped when another page is opened.
 * Test hooks: nav-<id> (links), live-status, view, page-unavailable.
 */
import { h, replace } from "./dom.js";
import { PAGES } from "./pages/index.js";

const CONTROL = "/__emulator";

/**
 * @typedef {object} Control
 * @property {(path: string) => Promise<any>} get
 * @property {(path: string, body?: unknown) => Promise<any>} post
 * @property {(path: string, body?: unknown) => Promise<any>} put
 * @property {(path: string) => Promise<any>} del
 */

/** An answer of the control API that was not a success, with the API's own message. */
export class ControlError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   */
  constructor(status, message) {
    super(message);
    this.name = "ControlError";
    this.status = status;
  }
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 */
async function call(method, path, body) {
  const res = await fetch(`${CONTROL}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    credentials: "same-origin",
  });
  const text = await res.text();
  /** @type {any} */
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    const errors = json && Array.isArray(json.errors) ? json.errors : [];
    const message = errors.map((/** @type {{message?: string}} */ e) => e.message ?? "").join("; ");
    throw new ControlError(res.status, message || `${method} ${path}: HTTP ${res.status}`);
  }
  return json && typeof json === "object" && "result" in json ? json.result : json;
}

/** @type {Control} */
export const control = {
  get: (path) => call("GET", path),
  post: (path, body) => call("POST", path, body ?? {}),
  put: (path, body) => call("PUT", path, body ?? {}),
  del: (path) => call("DELETE", path),
};

/** @type {Set<() => void>} */
let listeners = new Set();

/**
 * A change handler that never runs twice at once: a change arriving while it runs makes it run once
 * more afterwards, so a page shows the newest state without piling up reads.
 * @param {() => unknown} fn
 * @returns {() => void}
 */
function serialized(fn) {
  let running = false;
  let again = false;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await fn();
      } while (again);
    } catch {
      // The page shows its own errors; a failed re-read waits for the next change.
    } finally {
      running = false;
    }
  };
  return () => void run();
}

function connectEvents() {
  const status = /** @type {HTMLElement} */ (document.getElementById("live"));
  const source = new EventSource(`${CONTROL}/events`);
  source.addEventListener("open", () => {
    status.textContent = "live";
    status.dataset.state = "live";
  });
  source.addEventListener("error", () => {
    status.textContent = "reconnecting…";
    status.dataset.state = "down";
  });
  source.addEventListener("change", () => {
    for (const fn of [...listeners]) fn();
  });
}

function renderNav() {
  const nav = /** @type {HTMLElement} */ (document.getElementById("nav"));
  replace(
    nav,
    h(
      "ul",
      null,
      PAGES.map((p) =>
        h(
          "li",
          null,
          h("a", { href: `#/${p.id}`, "data-testid": `nav-${p.id}`, "data-page": p.id }, p.title),
        ),
      ),
    ),
  );
}

function currentId() {
  const id = location.hash.replace(/^#\/?/, "").split("/")[0] ?? "";
  return PAGES.some((p) => p.id === id) ? id : PAGES[0].id;
}

let generation = 0;

async function show() {
  const id = currentId();
  const mine = ++generation;
  listeners = new Set();
  const view = /** @type {HTMLElement} */ (document.getElementById("view"));
  for (const a of document.querySelectorAll("#nav a")) {
    if (a instanceof HTMLElement && a.dataset.page === id) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  const page = PAGES.find((p) => p.id === id) ?? PAGES[0];
  document.title = `${page.title} · account-api emulator`;
  view.removeAttribute("data-page");
  replace(view, h("p", null, "Loading…"));
  /** @type {{ title?: string, render: (view: HTMLElement, ctx: object) => Promise<void> } | undefined} */
  let mod;
  try {
    mod = await import(`./pages/${id}.js`);
  } catch {
    mod = undefined;
  }
  if (mine !== generation) return;
  const own = listeners;
  if (!mod || typeof mod.render !== "function") {
    replace(
      view,
      h("h1", null, page.title),
      h("p", { "data-testid": "page-unavailable" }, "This page is not available in this emulator."),
    );
    return;
  }
  replace(view);
  try {
    await mod.render(view, {
      control,
      h,
      onChange: (/** @type {() => unknown} */ fn) => {
        if (own === listeners) own.add(serialized(fn));
      },
    });
    // Says the page has drawn once: what a test (or a script) waits for before reading it.
    if (mine === generation) view.setAttribute("data-page", id);
  } catch (e) {
    if (mine === generation)
      replace(
        view,
        h("h1", null, page.title),
        h("p", { role: "alert", class: "error" }, String(e instanceof Error ? e.message : e)),
      );
  }
}

renderNav();
connectEvents();
window.addEventListener("hashchange", () => {
  void show();
  document.getElementById("view")?.focus();
});
void show();
