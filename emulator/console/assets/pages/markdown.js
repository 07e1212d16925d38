// @ts-check
/**
 * The markdown page: each zone with its content_converter setting, its configuration rules (in the
 * order they apply) and its origin; and a form that fetches a page through the emulator's edge
 * (GET /__edge/<hostname>/<path> with `accept: text/markdown`, same origin) and shows what came back:
 * the status, the content type, the token counts (x-markdown-tokens, x-original-tokens) and the body
 * as text.
 *
 * Test hooks (data-testid): markdown-zones (section), zone-row (data-zone), rule-row (data-rule),
 * markdown-form, markdown-host, markdown-path, markdown-fetch (button), markdown-result (panel),
 * markdown-status, markdown-tokens, markdown-original-tokens, markdown-body.
 */
import { liveSection, message, row, table, text, time } from "./live-section.js";

export const title = "Markdown";

/**
 * @typedef {{ id: string, expression: string, description?: string, enabled: boolean,
 *   action_parameters: { content_converter?: boolean } }} Rule
 * @typedef {{ zone: { id: string, name: string, status: string },
 *   content_converter: { value: string, modified_on: string | null }, rules: Rule[], origin: string | null }} Zone
 */

/**
 * @param {HTMLElement} view
 * @param {import("./live-section.js").PageContext} ctx
 */
export async function render(view, ctx) {
  const { h, control } = ctx;
  view.append(h("h1", null, title));
  view.append(h("h2", null, "Zones"));
  const reload = liveSection(
    view,
    ctx,
    "markdown-zones",
    () => /** @type {Promise<Zone[]>} */ (control.get("/content/zones")),
    (zones) => [
      table(
        h,
        "zones-table",
        "Zones, their content_converter setting and their origin",
        ["Zone", "content_converter", "Changed", "Origin", "Rules"],
        zones.map((z) =>
          row(
            h,
            { "data-testid": "zone-row", "data-zone": z.zone.name },
            h("span", null, z.zone.name, h("br"), h("code", { class: "muted" }, z.zone.id)),
            h("strong", null, z.content_converter.value),
            time(h, z.content_converter.modified_on),
            text(z.origin),
            rules(h, z.rules),
          ),
        ),
        "No zones yet.",
      ),
    ],
  );

  view.append(h("h2", null, "Fetch a page as Markdown"));
  const host = h("input", {
    id: "markdown-host",
    name: "host",
    required: "",
    "data-testid": "markdown-host",
    placeholder: "www.example.com",
    autocomplete: "off",
  });
  const path = h("input", {
    id: "markdown-path",
    name: "path",
    value: "/",
    "data-testid": "markdown-path",
    autocomplete: "off",
  });
  const result = h("section", { class: "panel", "data-testid": "markdown-result", "aria-live": "polite" });
  const form = h(
    "form",
    { "data-testid": "markdown-form", class: "inline-form" },
    h("label", { for: "markdown-host" }, "Hostname"),
    host,
    h("label", { for: "markdown-path" }, "Path"),
    path,
    h("button", { type: "submit", "data-testid": "markdown-fetch" }, "Fetch as Markdown"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void fetchPage(
      /** @type {HTMLInputElement} */ (host).value.trim(),
      /** @type {HTMLInputElement} */ (path).value.trim(),
    );
  });
  view.append(form, result);

  /** @param {string} hostname @param {string} pagePath */
  async function fetchPage(hostname, pagePath) {
    result.replaceChildren(h("p", null, "Fetching…"));
    const prefix = `/__edge/${encodeURIComponent(hostname)}`;
    const url = `${prefix}${pagePath.startsWith("/") ? pagePath : `/${pagePath}`}`;
    // Dot segments ("..", or a host named "..") would resolve outside the edge: refused, not fetched.
    const resolved = new URL(url, location.origin);
    if (!hostname || hostname.startsWith(".") || !`${resolved.pathname}/`.startsWith(`${prefix}/`)) {
      result.replaceChildren(
        h(
          "p",
          { class: "error", role: "alert" },
          `Not fetched: ${url} is not a page of the edge (no "." or ".." segments).`,
        ),
      );
      return;
    }
    try {
      const res = await fetch(url, { headers: { accept: "text/markdown, text/html;q=0.5" } });
      const body = await res.text();
      const header = (/** @type {string} */ name) => res.headers.get(name) ?? "—";
      result.replaceChildren(
        h(
          "dl",
          { class: "facts" },
          h("dt", null, "Status"),
          h("dd", { "data-testid": "markdown-status" }, `${res.status} ${res.statusText}`),
          h("dt", null, "Content type"),
          h("dd", null, header("content-type")),
          h("dt", null, "Markdown tokens"),
          h("dd", { "data-testid": "markdown-tokens" }, header("x-markdown-tokens")),
          h("dt", null, "Original tokens"),
          h("dd", { "data-testid": "markdown-original-tokens" }, header("x-original-tokens")),
        ),
        h("pre", { class: "body", "data-testid": "markdown-body", tabindex: "0" }, body),
      );
    } catch (e) {
      result.replaceChildren(
        h("p", { class: "error", role: "alert" }, `Could not fetch ${url}: ${message(e)}`),
      );
    }
  }

  await reload();
}

/** @param {import("./live-section.js").H} h @param {Rule[]} list */
function rules(h, list) {
  if (list.length === 0) return h("span", { class: "muted" }, "none");
  return h(
    "ol",
    { class: "rules" },
    ...list.map((r) =>
      h(
        "li",
        { "data-testid": "rule-row", "data-rule": r.id },
        h("code", null, r.expression),
        ` → content_converter ${text(r.action_parameters.content_converter)}`,
        r.enabled ? "" : " (disabled)",
        r.description ? ` · ${r.description}` : "",
      ),
    ),
  );
}
