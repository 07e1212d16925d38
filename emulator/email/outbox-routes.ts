/**
 * The outbox as the console reads it (control routes under /__emulator/email): the listing without
 * attachment contents, a message's HTML body as a document for a sandboxed frame, and an attachment
 * as a download.
 *
 * The HTML is the sender's, so it is served as its own document with `Content-Security-Policy:
 * sandbox` (an opaque origin: no script runs, no form posts, it cannot reach the console or the
 * control API) and `default-src 'none'` (nothing remote loads; inline styles and data: images only).
 * An attachment is always `application/octet-stream` with `Content-Disposition: attachment` and a
 * filename reduced to safe characters: the browser saves it and never renders it here.
 */
import type { FastifyInstance } from "fastify";
import { notFound } from "../http";
import type { EmailModel, OutboxEntry } from "./state";

export const EMAIL_HTML_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:";

type Attachment = NonNullable<NonNullable<OutboxEntry["message"]>["attachments"]>[number];

/** An attachment as listed: its content left out, `downloadable` saying whether it was kept. */
export type ListedAttachment = Omit<Attachment, "content"> & { downloadable: boolean };

export type ListedEntry = Omit<OutboxEntry, "message"> & {
  message?: Omit<NonNullable<OutboxEntry["message"]>, "attachments"> & { attachments?: ListedAttachment[] };
};

export function listedEntry(entry: OutboxEntry): ListedEntry {
  // Without attachments the stored entry already has the listed shape.
  if (!entry.message?.attachments) return entry as ListedEntry;
  const attachments = entry.message.attachments.map(({ content, ...a }) => ({
    ...a,
    downloadable: content !== undefined,
  }));
  return { ...entry, message: { ...entry.message, attachments } };
}

/** A filename a browser may save under: letters, digits, `.`, `-`, `_`; no leading dot; 100 characters. */
export function safeFilename(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^[._]+/, "")
    .slice(0, 100);
  return cleaned || "attachment";
}

interface EntryParams {
  account_id: string;
  /** As the send answered it (`<n.emulator@domain>`), percent-encoded in the path. */
  message_id: string;
}

export function outboxRoutes(app: FastifyInstance, model: EmailModel): void {
  const entry = (p: EntryParams): OutboxEntry => {
    const found = model.account(p.account_id).outbox.find((e) => e.message_id === p.message_id);
    if (!found) throw notFound(`message ${p.message_id}`);
    return found;
  };
  app.get<{ Params: EntryParams }>("/accounts/:account_id/outbox/:message_id/html", async (req, reply) => {
    const html = entry(req.params).message?.html;
    if (html === undefined) throw notFound(`the HTML body of ${req.params.message_id}`);
    return reply
      .headers({
        "content-security-policy": EMAIL_HTML_CSP,
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        "cache-control": "no-store",
      })
      .type("text/html; charset=utf-8")
      .send(html);
  });
  app.get<{ Params: EntryParams & { index: string } }>(
    "/accounts/:account_id/outbox/:message_id/attachments/:index",
    async (req, reply) => {
      const list = entry(req.params).message?.attachments ?? [];
      const index = /^\d{1,4}$/.test(req.params.index) ? Number(req.params.index) : -1;
      const a = list[index];
      if (a?.content === undefined)
        throw notFound(`attachment ${req.params.index} of ${req.params.message_id}`);
      return reply
        .headers({
          "content-disposition": `attachment; filename="${safeFilename(a.filename)}"`,
          "content-security-policy": "sandbox; default-src 'none'",
          "x-content-type-options": "nosniff",
          "cache-control": "no-store",
        })
        .type("application/octet-stream")
        .send(Buffer.from(a.content, "base64"));
    },
  );
}
