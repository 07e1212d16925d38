// @ts-check
/**
 * Requests & faults: the request log (method, path, status, latency; newest first, filtered by a
 * text, live), the console's own reads hidden unless asked for; the fault rules, added from a small
 * form and removed one by one. A rule applies to API requests (`/client/v4/…`), as the control API's.
 *
 * Test hooks: requests-filter, requests-own, requests-clear, requests-table, request-row
 * (data-method, data-status), requests-count, faults-table, fault-row (data-fault-id), fault-remove,
 * fault-form, fault-method, fault-path, fault-status, fault-latency, fault-rate, fault-times,
 * fault-reset, fault-drop, fault-add, fault-error, faults-empty.
 */

export const title = "Requests & faults";

/** How many log rows the page shows (the emulator keeps 5,000). */
const SHOWN = 500;

/**
 * @typedef {{ at: number, method: string, url: string, status: number, durationMs: number, fault?: string }} LogEntry
 * @typedef {{ id: number, hits: number, method?: string, path: string, latencyMs?: number, errorRate?: number,
 *   status?: number, retryAfter?: string, reset?: boolean, commitThenDrop?: boolean, times?: number }} Fault
 */

/** The console's own reads: its files and the control API's GETs. */
/** @param {LogEntry} e */
const isConsoleRead = (e) =>
  (e.method === "GET" || e.method === "HEAD") && (e.url === "/" || /^\/__(console|emulator)\//.test(e.url));

/** @param {Fault} f */
function effect(f) {
  const parts = [];
  if (f.status !== undefined) parts.push(`status ${f.status}`);
  if (f.reset) parts.push("reset the connection");
  if (f.commitThenDrop) parts.push("commit, then drop the answer");
  if (f.latencyMs) parts.push(`+${f.latencyMs} ms`);
  if (f.errorRate !== undefined) parts.push(`rate ${f.errorRate}`);
  if (f.retryAfter !== undefined) parts.push(`Retry-After ${f.retryAfter}`);
  return parts.join(", ") || "nothing";
}

/**
 * @param {HTMLElement} view
 * @param {{ control: import("../app.js").Control, h: typeof import("../dom.js").h, onChange: (fn: () => unknown) => void }} ctx
 */
export async function render(view, { control, h, onChange }) {
  /** @type {LogEntry[]} */
  let log = [];
  const filter = /** @type {HTMLInputElement} */ (
    h("input", {
      type: "search",
      id: "requests-filter",
      "data-testid": "requests-filter",
      placeholder: "method, path or status",
    })
  );
  const own = /** @type {HTMLInputElement} */ (
    h("input", { type: "checkbox", id: "requests-own", "data-testid": "requests-own" })
  );
  const count = h("span", { class: "muted", "data-testid": "requests-count", role: "status" });
  const logPanel = h("div", { class: "panel table-wrap" });
  const faultsPanel = h("div", { class: "panel table-wrap" });
  const faultError = h("p", { role: "alert", class: "error", "data-testid": "fault-error" });

  /** @param {string} id @param {string} text @param {HTMLElement} input */
  const labelled = (id, text, input) => {
    input.id = id;
    return h("label", { for: id }, text, input);
  };
  const method = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { "data-testid": "fault-method" },
      ["", "GET", "POST", "PUT", "PATCH", "DELETE"].map((m) => h("option", { value: m }, m || "any")),
    )
  );
  const path = /** @type {HTMLInputElement} */ (
    h("input", {
      type: "text",
      required: true,
      "data-testid": "fault-path",
      placeholder: "/zones$",
      size: 24,
    })
  );
  const status = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { "data-testid": "fault-status" },
      ["", "429", "500", "502", "503", "504"].map((s) => h("option", { value: s }, s || "none")),
    )
  );
  const latency = /** @type {HTMLInputElement} */ (
    h("input", { type: "number", min: 0, step: 1, "data-testid": "fault-latency", size: 6 })
  );
  const rate = /** @type {HTMLInputElement} */ (
    h("input", { type: "number", min: 0, max: 1, step: "any", "data-testid": "fault-rate", size: 4 })
  );
  const times = /** @type {HTMLInputElement} */ (
    h("input", { type: "number", min: 1, step: 1, "data-testid": "fault-times", size: 4 })
  );
  const reset = /** @type {HTMLInputElement} */ (
    h("input", { type: "checkbox", "data-testid": "fault-reset" })
  );
  const drop = /** @type {HTMLInputElement} */ (
    h("input", { type: "checkbox", "data-testid": "fault-drop" })
  );

  async function addRule() {
    /** @type {Record<string, unknown>} */
    const rule = { path: path.value };
    if (method.value) rule.method = method.value;
    if (status.value) rule.status = Number(status.value);
    if (latency.value) rule.latencyMs = Number(latency.value);
    if (rate.value) rule.errorRate = Number(rate.value);
    if (times.value) rule.times = Number(times.value);
    if (reset.checked) rule.reset = true;
    if (drop.checked) rule.commitThenDrop = true;
    try {
      await control.post("/faults", rule);
      faultError.textContent = "";
      /** @type {HTMLFormElement} */ (form).reset();
    } catch (e) {
      faultError.textContent = e instanceof Error ? e.message : String(e);
    }
    await refresh();
  }

  const form = h(
    "form",
    {
      class: "inline",
      "data-testid": "fault-form",
      "aria-label": "Add a fault rule",
      on: {
        submit: (ev) => {
          ev.preventDefault();
          void addRule();
        },
      },
    },
    labelled("fault-method", "Method", method),
    labelled("fault-path", "Path (regular expression)", path),
    labelled("fault-status", "Status", status),
    labelled("fault-latency", "Latency (ms)", latency),
    labelled("fault-rate", "Error rate (0–1)", rate),
    labelled("fault-times", "Times", times),
    h("label", { class: "check", for: "fault-reset" }, reset, "Reset"),
    h("label", { class: "check", for: "fault-drop" }, drop, "Commit, then drop"),
    h("button", { type: "submit", "data-testid": "fault-add" }, "Add rule"),
  );
  reset.id = "fault-reset";
  drop.id = "fault-drop";

  view.replaceChildren(
    h("h1", null, "Requests & faults"),
    h("h2", null, "Fault rules"),
    h(
      "p",
      { class: "muted" },
      "Rules apply to API requests whose path matches; every matching rule applies.",
    ),
    form,
    faultError,
    faultsPanel,
    h("h2", null, "Request log"),
    h(
      "div",
      { class: "toolbar" },
      h("label", { for: "requests-filter" }, "Filter", filter),
      h("label", { class: "check", for: "requests-own" }, own, "Show the console's own reads"),
      h(
        "button",
        {
          type: "button",
          "data-testid": "requests-clear",
          on: {
            click: async () => {
              await control.del("/requests");
              await refresh();
            },
          },
        },
        "Clear the log",
      ),
      count,
    ),
    logPanel,
  );

  function showLog() {
    const needle = filter.value.trim().toLowerCase();
    const rows = log
      .filter((e) => own.checked || !isConsoleRead(e))
      .filter(
        (e) => !needle || `${e.method} ${e.url} ${e.status} ${e.fault ?? ""}`.toLowerCase().includes(needle),
      )
      .reverse();
    count.textContent = `${rows.length} request${rows.length === 1 ? "" : "s"}${rows.length > SHOWN ? `, the newest ${SHOWN} shown` : ""}`;
    logPanel.replaceChildren(
      h(
        "table",
        { "data-testid": "requests-table" },
        h(
          "thead",
          null,
          h(
            "tr",
            null,
            ["Time", "Method", "Path", "Status", "Latency"].map((c) => h("th", { scope: "col" }, c)),
          ),
        ),
        h(
          "tbody",
          null,
          rows.slice(0, SHOWN).map((e) =>
            h(
              "tr",
              { "data-testid": "request-row", "data-method": e.method, "data-status": String(e.status) },
              h("td", null, new Date(e.at).toISOString().slice(11, 23)),
              h("td", null, e.method),
              h("td", null, e.url),
              h(
                "td",
                null,
                h(
                  "span",
                  {
                    class: `badge ${e.status >= 500 || e.status === 0 ? "bad" : e.status >= 400 ? "warn" : "ok"}`,
                  },
                  e.fault ? `${e.status || "—"} (${e.fault})` : String(e.status),
                ),
              ),
              h("td", { class: "num" }, `${e.durationMs} ms`),
            ),
          ),
        ),
      ),
    );
  }

  /** @param {Fault[]} faults */
  function showFaults(faults) {
    faultsPanel.replaceChildren(
      faults.length === 0
        ? h(
            "p",
            { class: "muted", "data-testid": "faults-empty" },
            "No fault rule: every request is served as it comes.",
          )
        : h(
            "table",
            { "data-testid": "faults-table" },
            h(
              "thead",
              null,
              h(
                "tr",
                null,
                ["#", "Method", "Path", "Effect", "Hits", "Times", ""].map((c) =>
                  h("th", { scope: "col" }, c),
                ),
              ),
            ),
            h(
              "tbody",
              null,
              faults.map((f) =>
                h(
                  "tr",
                  { "data-testid": "fault-row", "data-fault-id": String(f.id) },
                  h("td", null, String(f.id)),
                  h("td", null, f.method ?? "any"),
                  h("td", null, h("code", null, f.path)),
                  h("td", null, effect(f)),
                  h("td", { class: "num" }, String(f.hits)),
                  h("td", { class: "num" }, f.times === undefined ? "∞" : String(f.times)),
                  h(
                    "td",
                    null,
                    h(
                      "button",
                      {
                        type: "button",
                        class: "danger",
                        "data-testid": "fault-remove",
                        "aria-label": `Remove fault rule ${f.id}`,
                        on: {
                          click: async () => {
                            await control.del(`/faults/${f.id}`);
                            await refresh();
                          },
                        },
                      },
                      "Remove",
                    ),
                  ),
                ),
              ),
            ),
          ),
    );
  }

  // What is on screen: unchanged data is not drawn again (a button must not be replaced under the pointer).
  let drawnFaults = "";
  let drawnLog = "";

  async function refresh() {
    const [entries, faults] = await Promise.all([control.get("/requests"), control.get("/faults")]);
    log = entries;
    const faultsKey = JSON.stringify(faults);
    if (faultsKey !== drawnFaults) showFaults(faults);
    drawnFaults = faultsKey;
    const logKey = `${log.length}:${JSON.stringify(log.at(-1) ?? null)}`;
    if (logKey !== drawnLog) showLog();
    drawnLog = logKey;
  }

  filter.addEventListener("input", showLog);
  own.addEventListener("change", showLog);
  onChange(refresh);
  await refresh();
}
