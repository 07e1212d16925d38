/** send-email: one message, every file it carries checked against the size limit before any is read. */
import { basename } from "node:path";
import type { Command } from "commander";
import { EMAIL_MAX_BYTES, type Attachment } from "../../sdk/email";
import {
  EXIT,
  UsageError,
  action,
  collect,
  leaf,
  progressFor,
  readFileArg,
  statFileArg,
  withClient,
  type CommonOptions,
  type FileLimit,
  type VerbIo,
} from "../io";

interface SendOpts extends CommonOptions {
  from: string;
  to: string[];
  cc?: string[];
  bcc?: string[];
  subject: string;
  text?: string;
  textFile?: string;
  htmlFile?: string;
  attach?: string[];
  header?: string[];
}

const MEDIA_TYPES: Readonly<Record<string, string>> = {
  pdf: "application/pdf",
  txt: "text/plain",
  csv: "text/csv",
  html: "text/html",
  json: "application/json",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  zip: "application/zip",
};

/** What an email may be as sent, in the words of an argument over it. */
const EMAIL_LIMIT = `the 5 MiB (${EMAIL_MAX_BYTES} bytes) an email may be as sent`;
/** Bytes of a file as base64, which is how an attachment is sent. */
const base64Bytes = (n: number): number => 4 * Math.ceil(n / 3);
/** The largest file whose base64 still fits the limit. */
const ATTACH_LIMIT: FileLimit = {
  bytes: Math.floor(EMAIL_MAX_BYTES / 4) * 3,
  over: `${Math.floor(EMAIL_MAX_BYTES / 4) * 3} bytes, as base64 over ${EMAIL_LIMIT}`,
};
const BODY_LIMIT: FileLimit = { bytes: EMAIL_MAX_BYTES, over: EMAIL_LIMIT };

/**
 * Every file a message would carry, sized with stat before any is read: one that cannot fit, or the
 * one that takes the message past the limit with those before it, is bad input naming it. Nothing
 * is read, however many or large the files, unless together they can be sent. The sdk then checks
 * the exact JSON as sent.
 */
async function checkEmailFiles(o: SendOpts): Promise<void> {
  const files: { argument: string; file: string; limit: FileLimit; sent: (n: number) => number }[] = [
    ...(o.textFile
      ? [{ argument: "--text-file", file: o.textFile, limit: BODY_LIMIT, sent: (n: number) => n }]
      : []),
    ...(o.htmlFile
      ? [{ argument: "--html-file", file: o.htmlFile, limit: BODY_LIMIT, sent: (n: number) => n }]
      : []),
    ...(o.attach ?? []).map((file) => ({
      argument: "--attach",
      file,
      limit: ATTACH_LIMIT,
      sent: base64Bytes,
    })),
  ];
  let total = Buffer.byteLength(o.text ?? "") + Buffer.byteLength(o.subject);
  for (const f of files) {
    const size = await statFileArg(f.argument, f.file);
    if (size > f.limit.bytes)
      throw new UsageError(`${f.argument} ${f.file}: ${size} bytes, over ${f.limit.over}`);
    total += f.sent(size);
    if (total > EMAIL_MAX_BYTES)
      throw new UsageError(
        `${f.argument} ${f.file}: with the message's other parts before it, ${total} bytes as sent, over ${EMAIL_LIMIT}`,
      );
  }
}

async function attachment(file: string): Promise<Attachment> {
  const bytes = await readFileArg("--attach", file, ATTACH_LIMIT);
  const ext = file.split(".").pop()?.toLowerCase() ?? "";
  return {
    content: bytes.toString("base64"),
    filename: basename(file),
    type: MEDIA_TYPES[ext] ?? "application/octet-stream",
    disposition: "attachment",
  };
}

function headers(pairs: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((p) => {
      const i = p.indexOf(":");
      if (i <= 0) throw new UsageError(`--header ${JSON.stringify(p)}: must be "Name: value"`);
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    }),
  );
}

export function addEmailVerb(root: Command, io: VerbIo): void {
  leaf(root.command("send-email"))
    .description(
      `send one message; prints each recipient's result (exit 3 if any bounced). Checked locally first, the ${EMAIL_MAX_BYTES / 1024 / 1024} MiB limit included: nothing is sent when a check fails (exit 64)`,
    )
    .requiredOption("--from <address>", "sender, on a domain of the account")
    .requiredOption("--to <address>", "recipient (repeat for more)", collect)
    .option("--cc <address>", "copy (repeatable)", collect)
    .option("--bcc <address>", "blind copy (repeatable)", collect)
    .requiredOption("--subject <text>")
    .option("--text <body>", "plain-text body")
    .option("--text-file <file>", "plain-text body from a file")
    .option("--html-file <file>", "HTML body from a file")
    .option("--attach <file>", "attach a file (repeatable)", collect)
    .option("--header <name:value>", "an allowed custom header (repeatable)", collect)
    .action(
      action(io, async (o: SendOpts) => {
        if (o.text !== undefined && o.textFile !== undefined)
          throw new UsageError("--text-file: pass the plain-text body once: --text or --text-file, not both");
        if (o.text === undefined && o.textFile === undefined && o.htmlFile === undefined)
          throw new UsageError("send-email: pass a body: --text, --text-file or --html-file");
        await checkEmailFiles(o);
        const text =
          o.text ??
          (o.textFile
            ? (await readFileArg("--text-file", o.textFile, BODY_LIMIT)).toString("utf8")
            : undefined);
        const html = o.htmlFile
          ? (await readFileArg("--html-file", o.htmlFile, BODY_LIMIT)).toString("utf8")
          : undefined;
        // One at a time: their sizes passed together above, and each read stops at its limit.
        const attachments: Attachment[] = [];
        for (const file of o.attach ?? []) attachments.push(await attachment(file));
        return withClient(io, o, async (api) => {
          progressFor(
            io,
            o,
          )(`sending to ${o.to.length + (o.cc?.length ?? 0) + (o.bcc?.length ?? 0)} recipient(s)…`);
          const r = await api.email.sending.send(
            {},
            {
              from: o.from,
              to: o.to.length === 1 ? o.to[0]! : o.to,
              subject: o.subject,
              ...(o.cc ? { cc: o.cc } : {}),
              ...(o.bcc ? { bcc: o.bcc } : {}),
              ...(text !== undefined ? { text } : {}),
              ...(html !== undefined ? { html } : {}),
              ...(attachments.length ? { attachments } : {}),
              ...(o.header?.length ? { headers: headers(o.header) } : {}),
            },
          );
          const recipients = [
            ...r.delivered.map((address) => ({ address, result: "delivered" as const })),
            ...r.queued.map((address) => ({ address, result: "queued" as const })),
            ...r.permanentBounces.map((address) => ({ address, result: "bounced" as const })),
          ];
          return {
            result: { ...(r.messageId ? { messageId: r.messageId } : {}), recipients },
            text: recipients.map((x) => `${x.address}: ${x.result}\n`).join(""),
            exitCode: r.permanentBounces.length ? EXIT.unsuccessful : EXIT.ok,
          };
        });
      }),
    );
}
