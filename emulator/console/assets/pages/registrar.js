// @ts-check
/**
 * The registrar page: the account's registrations, and every workflow with its state and what it
 * waits on; buttons move an unfinished workflow to action_required, blocked, failed or succeeded
 * (POST /__emulator/registrar/workflows/:domain/:kind/move; the server refuses what the workflow's
 * rules forbid, and the refusal is shown), and an action_required one can be resolved.
 *
 * Test hooks (data-testid): registrar-registrations (section), registration-row (data-domain),
 * registrar-workflows (section), workflow-row (data-domain, data-kind, data-state),
 * move-action_required | move-blocked | move-failed | move-succeeded, resolve-action (buttons in a
 * workflow row), registrar-message (the outcome of the last action, role=status).
 */
import { liveSection, message, row, table, text, time } from "./live-section.js";

export const title = "Registrar";

const MOVES = /** @type {const} */ (["action_required", "blocked", "failed", "succeeded"]);
const FINISHED = new Set(["succeeded", "failed"]);

/**
 * @typedef {{ domain_name: string, status: string, expires_at?: string | null, auto_renew: boolean,
 *   locked?: boolean, privacy_mode?: string, created_at?: string }} Registration
 * @typedef {{ kind: string, state: string, completed: boolean, updated_at: string, waiting_on: string | null,
 *   context: { domain_name: string, action?: string }, error?: { code: string, message: string } }} Workflow
 */

/**
 * @param {HTMLElement} view
 * @param {import("./live-section.js").PageContext} ctx
 */
export async function render(view, ctx) {
  const { h, control } = ctx;
  view.append(h("h1", null, title));
  const status = h("p", { role: "status", "data-testid": "registrar-message", class: "message" });

  /** @param {string} what @param {() => Promise<unknown>} act */
  const run = async (what, act) => {
    status.textContent = `${what}…`;
    try {
      await act();
      status.textContent = `${what}: done`;
      status.className = "message ok";
    } catch (e) {
      status.textContent = `${what}: refused: ${message(e)}`;
      status.className = "message error";
    }
    await Promise.all([reloadRegistrations(), reloadWorkflows()]);
  };

  view.append(h("h2", null, "Registrations"));
  const reloadRegistrations = liveSection(
    view,
    ctx,
    "registrar-registrations",
    () => /** @type {Promise<Registration[]>} */ (control.get("/registrar/registrations")),
    (regs) => [
      table(
        h,
        "registrations-table",
        "Registrations of the emulator's account",
        ["Domain", "Status", "Expires", "Auto-renew", "Locked", "Privacy"],
        regs.map((r) =>
          row(
            h,
            { "data-testid": "registration-row", "data-domain": r.domain_name },
            r.domain_name,
            r.status,
            time(h, r.expires_at),
            r.auto_renew ? "yes" : "no",
            r.locked ? "yes" : "no",
            text(r.privacy_mode),
          ),
        ),
        "No registrations yet.",
      ),
    ],
  );

  view.append(h("h2", null, "Workflows"), status);
  const reloadWorkflows = liveSection(
    view,
    ctx,
    "registrar-workflows",
    () => /** @type {Promise<Workflow[]>} */ (control.get("/registrar/workflows")),
    (wfs) => [
      table(
        h,
        "workflows-table",
        "Registration and update workflows, oldest first",
        ["Domain", "Kind", "State", "Waits on", "Updated", "Move to"],
        wfs.map((w) => workflowRow(w)),
        "No workflows yet: a registration or an auto-renew change starts one.",
      ),
    ],
  );

  /** @param {Workflow} w */
  function workflowRow(w) {
    const domain = w.context.domain_name;
    const at = `/registrar/workflows/${encodeURIComponent(domain)}/${encodeURIComponent(w.kind)}`;
    const buttons = MOVES.map((state) => {
      const refused = FINISHED.has(w.state) || w.state === state;
      const b = h(
        "button",
        {
          type: "button",
          "data-testid": `move-${state}`,
          "aria-label": `Move the ${w.kind} workflow of ${domain} to ${state}`,
          ...(refused ? { disabled: "" } : {}),
        },
        state,
      );
      b.addEventListener(
        "click",
        () => void run(`${domain} ${w.kind} → ${state}`, () => control.post(`${at}/move`, { state })),
      );
      return b;
    });
    if (w.state === "action_required") {
      const b = h("button", { type: "button", "data-testid": "resolve-action" }, "resolve action");
      b.addEventListener(
        "click",
        () => void run(`${domain} ${w.kind}: action resolved`, () => control.post(`${at}/resolve`)),
      );
      buttons.push(b);
    }
    const waits = w.error ? `${w.error.code}: ${w.error.message}` : text(w.waiting_on);
    return h(
      "tr",
      { "data-testid": "workflow-row", "data-domain": domain, "data-kind": w.kind, "data-state": w.state },
      h("td", null, domain),
      h("td", null, w.kind),
      h("td", null, h("span", { class: `state state-${w.state}` }, w.state)),
      h("td", null, waits),
      h("td", null, time(h, w.updated_at)),
      h("td", null, h("div", { class: "actions", role: "group", "aria-label": "Move to" }, ...buttons)),
    );
  }

  await Promise.all([reloadRegistrations(), reloadWorkflows()]);
}
