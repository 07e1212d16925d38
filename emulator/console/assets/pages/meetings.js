// @ts-check
/**
 * The meetings page: the account's apps, each with its meetings (title, status, dates, how many
 * participants were added) and each meeting's session (live or ended, who is in it by name).
 * Read-only: GET /__emulator/meetings/overview, re-read on every change. No participant token is
 * ever read: the overview does not carry them.
 *
 * Test hooks (data-testid): meetings-overview (section), meetings-app (data-app),
 * meeting-row (data-meeting), meeting-session (a meeting's session cell).
 */
import { overviewPage, row, table, text, time } from "./live-section.js";

export const title = "Meetings";

/**
 * @typedef {{ id: string, name: string | null, custom_participant_id: string | null }} LiveParticipant
 * @typedef {{ id: string, status: string, started_at: string, ended_at: string | null,
 *   live_participants: LiveParticipant[], max_concurrent_participants: number }} Session
 * @typedef {{ id: string, title?: string | null, status: string, created_at: string,
 *   participants: number, session: Session | null }} Meeting
 * @typedef {{ id: string, name?: string, created_at: string, meetings: Meeting[] }} App
 */

/**
 * @param {HTMLElement} view
 * @param {import("./live-section.js").PageContext} ctx
 */
export async function render(view, ctx) {
  const { h } = ctx;
  /** @type {(data: App[]) => (Node | string)[]} */
  const draw = (apps) => {
    if (apps.length === 0) return [h("p", { class: "empty" }, "No apps yet.")];
    return apps.map((app) =>
      h(
        "section",
        { class: "panel", "data-testid": "meetings-app", "data-app": app.id },
        h("h2", null, app.name ?? app.id, h("span", { class: "muted" }, ` app ${app.id}`)),
        table(
          h,
          "meetings-table",
          `Meetings of app ${app.name ?? app.id}`,
          ["Meeting", "Status", "Created", "Participants", "Session"],
          app.meetings.map((m) =>
            row(
              h,
              { "data-testid": "meeting-row", "data-meeting": m.id },
              h("span", null, text(m.title), h("br"), h("code", { class: "muted" }, m.id)),
              m.status,
              time(h, m.created_at),
              String(m.participants),
              session(h, m.session),
            ),
          ),
          "No meetings in this app.",
        ),
      ),
    );
  };
  await overviewPage(view, ctx, { title, testid: "meetings-overview", path: "/meetings/overview", draw });
}

/** @param {import("./live-section.js").H} h @param {Session | null} s */
function session(h, s) {
  if (!s) return h("span", { class: "muted", "data-testid": "meeting-session" }, "none yet");
  const who = s.live_participants.map((p) => p.name ?? p.custom_participant_id ?? p.id).join(", ");
  return h(
    "span",
    { "data-testid": "meeting-session", "data-status": s.status },
    `${s.status} since `,
    time(h, s.started_at),
    s.status === "LIVE" ? ` · in it: ${who || "nobody"}` : ` · ended `,
    s.status === "LIVE" ? "" : time(h, s.ended_at),
    ` · peak ${s.max_concurrent_participants}`,
  );
}
