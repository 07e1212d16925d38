// @ts-check
/**
 * Outbox: every message the account sent (`send` and `send_raw`), newest first, and the one selected:
 * from, to, cc, bcc, reply-to, subject, headers, each recipient's result, the HTML body in a frame
 * with `sandbox=""` served by the emulator with `Content-Security-Policy: sandbox; default-src 'none'`
 * (no script runs, nothing remote loads), the text body, attachments with sizes and a download link.
 * A raw message shows its MIME source as text.
 *
 * Test hooks: outbox-table, outbox-row (data-message-id), outbox-open, outbox-clear, outbox-detail,
 * outbox-recipient (data-address, data-result), outbox-html (the frame), outbox-text, outbox-mime,
 * outbox-headers, outbox-attachment, outbox-empty.
 */

export const title = "Outbox";

/** @typedef {{ filename: string, type: string, disposition: string, size: number, downloadable: boolean }} Attachment */
/**
 * @typedef {object} Entry
 * @property {string} message_id
 * @property {string} accepted_at
 * @property {number} bytes
 * @property {"send" | "raw"} kind
 * @property {string} from
 * @property {string[]} to
 * @property {string[]} cc
 * @property {string[]} bcc
 * @property {string[]} reply_to
 * @property {string} [mime_message]
 * @property {{ subject?: string, html?: string, text?: string, headers?: Record<string, string>, attachments?: Attachment[] }} [message]
 * @property {{ delivered: string[], permanent_bounces: string[], queued: string[], suppressed_recipients?: string[] }} result
 */

/** @param {number} n */
function size(n) {
  return n < 1024
    ? `${n} B`
    : n < 1024 * 1024
      ? `${(n / 1024).toFixed(1)} KiB`
      : `${(n / 1048576).toFixed(1)} MiB`;
}

/** @param {Entry} e */
function subjectOf(e) {
  if (e.message?.subject !== undefined) return e.message.subject;
  const m = /^subject:[ \t]*(.*)$/im.exec(e.mime_message ?? "");
  return m ? m[1] : "";
}

/** @param {Entry} e @returns {[string, "delivered" | "queued" | "bounced" | "suppressed"][]} */
function recipients(e) {
  return [
    ...e.result.delivered.map((a) => /** @type {[string, "delivered"]} */ ([a, "delivered"])),
    ...e.result.queued.map((a) => /** @type {[string, "queued"]} */ ([a, "queued"])),
    ...e.result.permanent_bounces.map((a) => /** @type {[string, "bounced"]} */ ([a, "bounced"])),
    // Dropped by a sending subdomain that drops suppressed recipients: never sent.
    ...(e.result.suppressed_recipients ?? []).map(
      (a) => /** @type {[string, "suppressed"]} */ ([a, "suppressed"]),
    ),
  ];
}

/**
 * @param {HTMLElement} view
 * @param {{ control: import("../app.js").Control, h: typeof import("../dom.js").h, onChange: (fn: () => unknown) => void }} ctx
 */
export async function render(view, { control, h, onChange }) {
  const { accountId } = await control.get("/health");
  const base = `/email/accounts/${encodeURIComponent(accountId)}/outbox`;
  /** @type {string | null} */
  let selected = null;
  /** @type {string | null} */
  let shown = null;
  let drawn = "";

  const list = h("div", { class: "panel table-wrap" });
  const detail = h("div", { class: "panel", "data-testid": "outbox-detail", "aria-live": "polite" });
  const error = h("p", { role: "alert", class: "error" });
  view.replaceChildren(
    h("h1", null, "Outbox"),
    h(
      "div",
      { class: "toolbar" },
      h("span", { class: "muted" }, "Messages sent by send and send_raw, newest first."),
      h(
        "button",
        {
          type: "button",
          "data-testid": "outbox-clear",
          on: {
            click: async () => {
              await control.del(base);
              selected = null;
              await refresh();
            },
          },
        },
        "Clear the outbox",
      ),
    ),
    error,
    h("div", { class: "split" }, list, detail),
  );

  /** @param {Entry} e */
  function showDetail(e) {
    const path = `/__emulator${base}/${encodeURIComponent(e.message_id)}`;
    const m = e.message;
    const headers = Object.entries(m?.headers ?? {});
    detail.replaceChildren(
      h(
        "article",
        { "data-message-id": e.message_id },
        h("h2", null, subjectOf(e) || "(no subject)"),
        h(
          "dl",
          { class: "fields" },
          h("dt", null, "From"),
          h("dd", null, e.from),
          h("dt", null, "To"),
          h("dd", null, e.to.join(", ") || "—"),
          h("dt", null, "Cc"),
          h("dd", null, e.cc.join(", ") || "—"),
          h("dt", null, "Bcc"),
          h("dd", null, e.bcc.join(", ") || "—"),
          e.reply_to.length ? [h("dt", null, "Reply-To"), h("dd", null, e.reply_to.join(", "))] : null,
          h("dt", null, "Message id"),
          h("dd", null, e.message_id),
          h("dt", null, "Accepted"),
          h("dd", null, `${e.accepted_at} (${size(e.bytes)}, ${e.kind === "raw" ? "send_raw" : "send"})`),
        ),
        h("h3", null, "Recipients"),
        h(
          "table",
          null,
          h(
            "thead",
            null,
            h("tr", null, h("th", { scope: "col" }, "Address"), h("th", { scope: "col" }, "Result")),
          ),
          h(
            "tbody",
            null,
            recipients(e).map(([address, result]) =>
              h(
                "tr",
                { "data-testid": "outbox-recipient", "data-address": address, "data-result": result },
                h("td", null, address),
                h("td", null, h("span", { class: `badge ${result}` }, result)),
              ),
            ),
          ),
        ),
        headers.length
          ? [
              h("h3", null, "Headers"),
              h(
                "table",
                { "data-testid": "outbox-headers" },
                h(
                  "thead",
                  null,
                  h("tr", null, h("th", { scope: "col" }, "Name"), h("th", { scope: "col" }, "Value")),
                ),
                h(
                  "tbody",
                  null,
                  headers.map(([k, v]) => h("tr", null, h("td", null, k), h("td", null, String(v)))),
                ),
              ),
            ]
          : null,
        m?.html !== undefined
          ? [
              h("h3", null, "HTML body"),
              h(
                "p",
                { class: "muted" },
                "Shown in a sandbox: its scripts do not run and nothing remote loads.",
              ),
              h("iframe", {
                class: "mail",
                sandbox: "",
                referrerpolicy: "no-referrer",
                title: "The message's HTML body (sandboxed)",
                src: `${path}/html`,
                "data-testid": "outbox-html",
              }),
            ]
          : null,
        m?.text !== undefined
          ? [h("h3", null, "Text body"), h("pre", { class: "plain", "data-testid": "outbox-text" }, m.text)]
          : null,
        e.mime_message !== undefined
          ? [
              h("h3", null, "MIME message"),
              h("pre", { class: "plain", "data-testid": "outbox-mime" }, e.mime_message),
            ]
          : null,
        m?.attachments?.length
          ? [
              h("h3", null, "Attachments"),
              h(
                "ul",
                null,
                m.attachments.map((a, i) =>
                  h(
                    "li",
                    { "data-testid": "outbox-attachment" },
                    a.downloadable
                      ? h("a", { href: `${path}/attachments/${i}`, download: "" }, a.filename)
                      : h("span", null, a.filename),
                    ` — ${a.type}, ${size(a.size)}, ${a.disposition}`,
                    a.downloadable ? null : h("span", { class: "muted" }, " (too large to keep)"),
                  ),
                ),
              ),
            ]
          : null,
      ),
    );
  }

  async function refresh() {
    /** @type {Entry[]} */
    let entries;
    try {
      entries = [...(await control.get(base))].reverse();
      error.textContent = "";
    } catch (e) {
      error.textContent = e instanceof Error ? e.message : String(e);
      return;
    }
    if (selected === null || !entries.some((e) => e.message_id === selected))
      selected = entries[0]?.message_id ?? null;
    // Unchanged data is not drawn again: a button must not be replaced under the pointer.
    const key = JSON.stringify([entries.map((e) => e.message_id), selected]);
    if (key === drawn) return;
    drawn = key;
    list.replaceChildren(
      entries.length === 0
        ? h("p", { "data-testid": "outbox-empty", class: "muted" }, "No message sent yet.")
        : h(
            "table",
            { "data-testid": "outbox-table" },
            h(
              "thead",
              null,
              h(
                "tr",
                null,
                h("th", { scope: "col" }, "Subject"),
                h("th", { scope: "col" }, "From"),
                h("th", { scope: "col" }, "Recipients"),
                h("th", { scope: "col" }, "Accepted"),
              ),
            ),
            h(
              "tbody",
              null,
              entries.map((e) =>
                h(
                  "tr",
                  {
                    "data-testid": "outbox-row",
                    "data-message-id": e.message_id,
                    class: e.message_id === selected ? "selected" : null,
                  },
                  h(
                    "td",
                    null,
                    h(
                      "button",
                      {
                        type: "button",
                        class: "link",
                        "data-testid": "outbox-open",
                        "aria-pressed": String(e.message_id === selected),
                        on: {
                          click: () => {
                            selected = e.message_id;
                            void refresh();
                          },
                        },
                      },
                      subjectOf(e) || "(no subject)",
                    ),
                  ),
                  h("td", null, e.from),
                  h(
                    "td",
                    null,
                    recipients(e).map(([a, r]) => h("span", { class: `badge ${r}`, title: r }, `${a} ${r}`)),
                  ),
                  h("td", null, e.accepted_at.slice(11, 19)),
                ),
              ),
            ),
          ),
    );
    const entry = entries.find((e) => e.message_id === selected);
    if (!entry) {
      shown = null;
      detail.replaceChildren(h("p", { class: "muted" }, "Select a message to see it."));
    } else if (shown !== entry.message_id) {
      // Only when the selection changes: re-rendering would reload the frame on every change event.
      shown = entry.message_id;
      showDetail(entry);
    }
  }

  onChange(refresh);
  await refresh();
}
