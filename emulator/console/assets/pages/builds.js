// @ts-check
/**
 * Builds: the account's scripts and their triggers (variables by name only), builds newest first
 * with their status, and the selected build's log, which grows while the build runs (the page
 * re-reads on every change event, sent once a second while a build runs). Cancel from the list or
 * the log panel.
 *
 * Test hooks: builds-scripts, script-row (data-script), trigger-item, builds-table, build-row
 * (data-build-uuid, data-status), build-status, build-open, build-cancel, build-log-panel, build-log,
 * build-log-line, builds-empty, builds-error.
 */

export const title = "Builds";

/**
 * @typedef {{ build_uuid: string, script_name: string, trigger_name: string, kind: string, branch: string,
 *   commit_hash: string, status: string, outcome: string | null, created_on: number, stopped_on: number | null }} Build
 * @typedef {{ trigger_uuid: string, trigger_name: string, branch_includes: string[], build_command: string,
 *   deploy_command: string, root_directory: string, variables: { name: string, is_secret: boolean }[] }} Trigger
 * @typedef {{ name: string, tag: string, triggers: Trigger[] }} Script
 */

/** @param {number} ms */
const time = (ms) => new Date(ms).toISOString().slice(11, 19);

/** @param {Build} b */
const statusText = (b) => (b.outcome ? `${b.status}: ${b.outcome}` : b.status);

/**
 * @param {HTMLElement} view
 * @param {{ control: import("../app.js").Control, h: typeof import("../dom.js").h, onChange: (fn: () => unknown) => void }} ctx
 */
export async function render(view, { control, h, onChange }) {
  /** @type {string | null} */
  let selected = null;
  const error = h("p", { role: "alert", class: "error", "data-testid": "builds-error" });
  const scriptsPanel = h("div", { class: "panel table-wrap" });
  const buildsPanel = h("div", { class: "panel table-wrap" });
  const logPanel = h("div", { class: "panel", "data-testid": "build-log-panel" });
  view.replaceChildren(
    h("h1", null, "Builds"),
    error,
    h(
      "div",
      { class: "split" },
      h("div", null, h("h2", null, "Scripts and triggers"), scriptsPanel),
      h("div", null, h("h2", null, "Builds"), buildsPanel),
    ),
    h("h2", null, "Log"),
    logPanel,
  );

  /** @param {string} uuid */
  async function cancel(uuid) {
    try {
      await control.post(`/builds/builds/${encodeURIComponent(uuid)}/cancel`);
      error.textContent = "";
    } catch (e) {
      error.textContent = e instanceof Error ? e.message : String(e);
    }
    await refresh();
  }

  /** @param {Build} b */
  const cancelButton = (b) =>
    h(
      "button",
      {
        type: "button",
        class: "danger",
        "data-testid": "build-cancel",
        disabled: b.status === "stopped",
        "aria-label": `Cancel build ${b.build_uuid.slice(0, 8)}`,
        on: { click: () => void cancel(b.build_uuid) },
      },
      "Cancel",
    );

  /** @param {Script[]} scripts */
  function showScripts(scripts) {
    scriptsPanel.replaceChildren(
      scripts.length === 0
        ? h("p", { class: "muted" }, "No script yet.")
        : h(
            "table",
            { "data-testid": "builds-scripts" },
            h(
              "thead",
              null,
              h("tr", null, h("th", { scope: "col" }, "Script"), h("th", { scope: "col" }, "Triggers")),
            ),
            h(
              "tbody",
              null,
              scripts.map((s) =>
                h(
                  "tr",
                  { "data-testid": "script-row", "data-script": s.name },
                  h("td", null, s.name, h("div", { class: "muted" }, s.tag)),
                  h(
                    "td",
                    null,
                    s.triggers.length === 0
                      ? h("span", { class: "muted" }, "none")
                      : h(
                          "ul",
                          null,
                          s.triggers.map((t) =>
                            h(
                              "li",
                              { "data-testid": "trigger-item" },
                              h("strong", null, t.trigger_name),
                              ` on ${t.branch_includes.join(", ") || "any branch"}`,
                              h(
                                "div",
                                { class: "muted" },
                                `build: ${t.build_command || "(none)"} · deploy: ${t.deploy_command} · in ${t.root_directory}`,
                              ),
                              t.variables.length
                                ? h(
                                    "div",
                                    { class: "muted" },
                                    `variables: ${t.variables.map((v) => (v.is_secret ? `${v.name} (secret)` : v.name)).join(", ")}`,
                                  )
                                : null,
                            ),
                          ),
                        ),
                  ),
                ),
              ),
            ),
          ),
    );
  }

  /** @param {Build[]} builds */
  function showBuilds(builds) {
    buildsPanel.replaceChildren(
      builds.length === 0
        ? h("p", { class: "muted", "data-testid": "builds-empty" }, "No build yet.")
        : h(
            "table",
            { "data-testid": "builds-table" },
            h(
              "thead",
              null,
              h(
                "tr",
                null,
                ["Build", "Script", "Trigger", "Branch", "Started", "Status", ""].map((c) =>
                  h("th", { scope: "col" }, c),
                ),
              ),
            ),
            h(
              "tbody",
              null,
              builds.map((b) =>
                h(
                  "tr",
                  {
                    "data-testid": "build-row",
                    "data-build-uuid": b.build_uuid,
                    "data-status": b.status,
                    class: b.build_uuid === selected ? "selected" : null,
                  },
                  h(
                    "td",
                    null,
                    h(
                      "button",
                      {
                        type: "button",
                        class: "link",
                        "data-testid": "build-open",
                        "aria-pressed": String(b.build_uuid === selected),
                        on: {
                          click: () => {
                            selected = b.build_uuid;
                            void refresh();
                          },
                        },
                      },
                      b.build_uuid.slice(0, 8),
                    ),
                  ),
                  h("td", null, b.script_name),
                  h("td", null, `${b.trigger_name} (${b.kind})`),
                  h("td", null, `${b.branch} @ ${b.commit_hash.slice(0, 7)}`),
                  h("td", null, time(b.created_on)),
                  h(
                    "td",
                    null,
                    h(
                      "span",
                      { class: `badge ${b.outcome ?? b.status}`, "data-testid": "build-status" },
                      statusText(b),
                    ),
                  ),
                  h("td", null, cancelButton(b)),
                ),
              ),
            ),
          ),
    );
  }

  async function showLog() {
    if (selected === null) {
      drawnLog = "";
      logPanel.replaceChildren(h("p", { class: "muted" }, "Select a build to see its log."));
      return;
    }
    /** @type {Build & { lines: { at: number, text: string }[] }} */
    const b = await control.get(`/builds/builds/${encodeURIComponent(selected)}/log`);
    const key = JSON.stringify(b);
    if (key === drawnLog) return;
    drawnLog = key;
    const pre = h(
      "pre",
      { class: "log", "data-testid": "build-log", "aria-live": "polite" },
      b.lines.map((l) => h("span", { "data-testid": "build-log-line" }, `${time(l.at)}  ${l.text}\n`)),
    );
    logPanel.replaceChildren(
      h(
        "div",
        { class: "toolbar" },
        h("strong", null, `${b.script_name} · ${b.build_uuid}`),
        h("span", { class: `badge ${b.outcome ?? b.status}` }, statusText(b)),
        cancelButton(b),
      ),
      pre,
    );
    pre.scrollTop = pre.scrollHeight;
  }

  let drawn = "";
  let drawnLog = "";

  async function refresh() {
    try {
      /** @type {{ scripts: Script[], builds: Build[] }} */
      const data = await control.get("/builds/console");
      if (selected === null || !data.builds.some((b) => b.build_uuid === selected))
        selected = data.builds[0]?.build_uuid ?? null;
      // Unchanged data is not drawn again: a button must not be replaced under the pointer.
      const key = JSON.stringify([data, selected]);
      if (key !== drawn) {
        showScripts(data.scripts);
        showBuilds(data.builds);
      }
      drawn = key;
      await showLog();
    } catch (e) {
      error.textContent = e instanceof Error ? e.message : String(e);
    }
  }

  onChange(refresh);
  await refresh();
}
