/**
 * zod schemas of the email area (spec B; public-api-notes "Email sending"), the error table of the
 * spec, and the size rule. The emulator validates with the same schemas: `SendEmailShapeSchema`
 * failures are 10001 (invalid request schema), `emailContentIssues` failures are 10202 (invalid
 * content); the sdk applies both at once through `SendEmailSchema`.
 */
import { z } from "zod";
import * as G from "../generated/email";
import { list } from "../wire/rules";

/** Total message size, including attachments (spec, Limits): 5 MiB. */
export const EMAIL_MAX_BYTES = 5 * 1024 * 1024;

/**
 * What the limit counts: the UTF-8 byte length of the JSON request body exactly as it goes on the
 * wire (what `JSON.stringify` makes of the body, which is what the transport sends). Attachments
 * count as their base64 text plus the JSON around them, so a raw file of about 3.75 MiB is the most
 * one message can carry.
 */
export function emailBodyBytes(body: unknown): number {
  return Buffer.byteLength(JSON.stringify(body), "utf8");
}

// ---- the error table (spec, Errors: email sending) ----

export const EmailErrorCode = {
  NotFound: 10000,
  InvalidRequestSchema: 10001,
  InternalServer: 10002,
  NotImplemented: 10003,
  Throttled: 10004,
  Upstream: 10100,
  Unauthorized: 10101,
  Forbidden: 10102,
  BadTokenType: 10103,
  NotEntitled: 10105,
  TooBig: 10200,
  NoContentLength: 10201,
  Invalid: 10202,
  SendingDisabled: 10203,
} as const;
export type EmailErrorCode = (typeof EmailErrorCode)[keyof typeof EmailErrorCode];

export interface EmailErrorSpec {
  status: number;
  message: string;
  condition: string;
}

/** Every row of the spec's table, keyed by code. */
export const EMAIL_ERRORS: Readonly<Record<EmailErrorCode, EmailErrorSpec>> = {
  10001: {
    status: 400,
    message: "email.sending.error.invalid_request_schema",
    condition: "invalid request format",
  },
  10200: { status: 400, message: "email.sending.error.email.too_big", condition: "email exceeds size limit" },
  10201: {
    status: 400,
    message: "email.sending.error.email.no_content_length",
    condition: "content length missing",
  },
  10202: { status: 400, message: "email.sending.error.email.invalid", condition: "invalid email content" },
  10101: {
    status: 401,
    message: "email.sending.error.authentication.unauthorized",
    condition: "token missing or invalid",
  },
  10103: {
    status: 401,
    message: "email.sending.error.authentication.bad_token_type",
    condition: "wrong token type for this endpoint",
  },
  10102: {
    status: 403,
    message: "email.sending.error.authentication.forbidden",
    condition: "token lacks permission to send",
  },
  10105: {
    status: 403,
    message: "email.sending.error.authentication.not_entitled",
    condition: "account not entitled to email sending",
  },
  10203: {
    status: 403,
    message: "email.sending.error.email.sending_disabled",
    condition: "sending disabled for the zone or account",
  },
  10000: { status: 404, message: "email.sending.error.not_found", condition: "resource not found" },
  10004: { status: 429, message: "email.sending.error.throttled", condition: "rate limit exceeded" },
  10002: { status: 500, message: "email.sending.error.internal_server", condition: "internal error" },
  10003: {
    status: 500,
    message: "email.sending.error.not_implemented",
    condition: "operation not implemented",
  },
  10100: {
    status: 503,
    message: "email.sending.error.authentication.upstream",
    condition: "authentication service temporarily unavailable",
  },
};

export function isEmailErrorCode(code: unknown): code is EmailErrorCode {
  return typeof code === "number" && Object.prototype.hasOwnProperty.call(EMAIL_ERRORS, code);
}

// ---- field rules ----

/** Headers that mirror a body field: set them through the field (Cloudflare Email Service headers reference). */
export const HEADERS_USE_FIELD: readonly string[] = ["from", "to", "cc", "bcc", "subject", "reply-to"];

/**
 * Headers a sender may set besides any `X-` header: threading, list management and delivery hints.
 * Everything else (Date, Message-ID, Content-Type, DKIM-Signature, Return-Path, Received, ...) is made by
 * the service and refused.
 */
export const ALLOWED_HEADERS: readonly string[] = [
  "in-reply-to",
  "references",
  "list-unsubscribe",
  "list-unsubscribe-post",
  "list-id",
  "list-archive",
  "list-help",
  "list-owner",
  "list-post",
  "list-subscribe",
  "precedence",
  "auto-submitted",
  "importance",
  "priority",
  "sensitivity",
  "keywords",
  "comments",
];

/** Why a header name is refused, or undefined when it may be set. */
export function headerRule(name: string): string | undefined {
  if (!/^[!-9;-~]+$/.test(name)) return "must be a header name (printable ASCII, no spaces or colons)";
  const lower = name.toLowerCase();
  if (HEADERS_USE_FIELD.includes(lower))
    return `must be set through the ${lower.replace("-", "_")} field, not headers`;
  if (lower.startsWith("x-") || ALLOWED_HEADERS.includes(lower)) return undefined;
  return "is not on the allowed-header list (threading, list management, delivery hints, or X- headers)";
}

const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const ADDRESS_RE = new RegExp(
  `^[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+)*@${LABEL}(?:\\.${LABEL})+$`,
);
const ADDRESS_RULE = "must be an email address (local@domain.tld)";

/** `local@domain.tld` with an unquoted local part of at most 64 characters, at most 254 in all. */
export function isEmailAddress(s: string): boolean {
  return s.length <= 254 && ADDRESS_RE.test(s) && s.indexOf("@") <= 64;
}

const SEND = G.EmailSendingAccountSendBuilderBody;
const RAW = G.EmailSendingAccountSendRawMessageBody;

/** A string or `{ address, name? }` as a send's address fields take it (the contract's forms). */
export type Address = string | { address: string; name?: string };

/**
 * The address rules the contract's forms cannot carry: each address well formed, each name on one
 * line (header injection). Shared by every address field, whatever form (string, object, array of
 * either) it takes.
 */
function addressIssues(value: Address | readonly Address[], ctx: z.RefinementCtx): void {
  const all: readonly Address[] = Array.isArray(value) ? value : [value];
  all.forEach((a, i) => {
    const at = Array.isArray(value) ? [i] : [];
    const address = typeof a === "string" ? a : a.address;
    if (!isEmailAddress(address))
      ctx.addIssue({
        code: "custom",
        message: ADDRESS_RULE,
        path: typeof a === "string" ? at : [...at, "address"],
      });
    if (typeof a !== "string" && a.name !== undefined && /[\r\n]/.test(a.name))
      ctx.addIssue({ code: "custom", message: "must not contain line breaks", path: [...at, "name"] });
  });
}

/** `from` and `reply_to`: a string or `{ address, name }` (both keys, the contract's sender form). */
export const SenderSchema = SEND.shape.from.superRefine(addressIssues);

/** `to`, `cc`, `bcc`: an address, `{ address, name? }`, or a non-empty array of either (the newer contract). */
export const RecipientsSchema = SEND.shape.to.superRefine((value, ctx) => {
  // The array form sits in the contract's anyOf, where a rule of the overlay cannot reach it.
  if (Array.isArray(value) && value.length === 0)
    ctx.addIssue({ code: "custom", message: "must list at least one address" });
  addressIssues(value, ctx);
});

/** The contract's attachment, and what it cannot say: an inline one names its `content_id` (public-api-notes). */
export const AttachmentSchema = SEND.shape.attachments.unwrap().element.superRefine((a, ctx) => {
  if (a.disposition === "inline" && a.content_id === undefined) {
    ctx.addIssue({ code: "custom", message: "is required when disposition is inline", path: ["content_id"] });
  }
});
export type Attachment = z.infer<typeof AttachmentSchema>;

/** Header values are the contract's (one line, contracts/rules/email.json); names are checked here. */
export const EmailHeadersSchema = SEND.shape.headers.unwrap().superRefine((headers, ctx) => {
  for (const name of Object.keys(headers)) {
    const rule = headerRule(name);
    if (rule) ctx.addIssue({ code: "custom", message: rule, path: [name] });
  }
});

/**
 * The send body's shape: what the emulator answers with 10001 when it fails. Checks that need to
 * read the content (a body present, base64 that decodes) are in `emailContentIssues`.
 */
export const SendEmailShapeSchema = SEND.extend({
  from: SenderSchema,
  to: RecipientsSchema,
  cc: RecipientsSchema.optional(),
  bcc: RecipientsSchema.optional(),
  reply_to: SenderSchema.optional(),
  attachments: list(AttachmentSchema).optional(),
  headers: EmailHeadersSchema.optional(),
});
export type SendEmailBody = z.infer<typeof SendEmailShapeSchema>;

/** Standard base64 (RFC 4648 section 4) with padding, no whitespace. */
export function isBase64(s: string): boolean {
  return s.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(s);
}

export interface ContentIssue {
  path: (string | number)[];
  message: string;
}

/** Content rules (emulator code 10202): some body to send, and attachments that decode. */
export function emailContentIssues(body: SendEmailBody): ContentIssue[] {
  const issues: ContentIssue[] = [];
  if (!body.html && !body.text) {
    issues.push({ path: ["text"], message: "html or text is required (at least one non-empty body)" });
  }
  body.attachments?.forEach((a, i) => {
    if (!isBase64(a.content)) {
      issues.push({
        path: ["attachments", i, "content"],
        message: "must be base64 (RFC 4648, padded, no whitespace)",
      });
    }
  });
  return issues;
}

/** Shape and content together: what the sdk checks before it sends. */
export const SendEmailSchema = SendEmailShapeSchema.superRefine((body, ctx) => {
  for (const issue of emailContentIssues(body)) ctx.addIssue({ code: "custom", ...issue });
});

/** The bare address of a string or `{ address, name }`. */
export function addressOf(a: Address): string {
  return typeof a === "string" ? a : a.address;
}

/** The bare addresses of a recipients field, in order. */
export function addressesOf(r: Address | readonly Address[] | undefined): string[] {
  if (r === undefined) return [];
  return (Array.isArray(r) ? r : [r]).map((a: Address) => addressOf(a));
}

/** The domain of an address, lower-cased. */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf("@") + 1).toLowerCase();
}

// ---- send_raw: a whole MIME message, routed by the envelope fields ----

/**
 * The raw send body (public contract: `send_raw`). `from` and `recipients` are the SMTP envelope;
 * the MIME message's own From/To headers only say what the recipient's client displays.
 */
export const SendRawEmailShapeSchema = RAW.extend({
  from: RAW.shape.from.refine(isEmailAddress, ADDRESS_RULE),
  recipients: RAW.shape.recipients.superRefine(addressIssues),
});
export type SendRawEmailBody = z.infer<typeof SendRawEmailShapeSchema>;

/** One header line (`Name: value`) or the folded continuation of the one before (RFC 5322 2.2). */
const HEADER_LINE_RE = /^(?:[!-9;-~]+:.*|[ \t].*)$/;

/** The header names of a MIME message, lower-cased, or a reason it has no readable header block. */
export function mimeHeaders(message: string): { names: string[] } | { problem: string } {
  const text = message.replace(/\r\n/g, "\n");
  const end = text.indexOf("\n\n");
  if (end < 0) return { problem: "must separate the header block from the body with an empty line" };
  const lines = text.slice(0, end).split("\n");
  const bad = lines.findIndex((l) => !HEADER_LINE_RE.test(l));
  if (bad >= 0 || /^[ \t]/.test(lines[0] ?? ""))
    return { problem: `line ${Math.max(bad, 0) + 1} of the header block is not a "Name: value" header` };
  return {
    names: lines.filter((l) => !/^[ \t]/.test(l)).map((l) => l.slice(0, l.indexOf(":")).toLowerCase()),
  };
}

/**
 * Content rules of a raw message (emulator code 10202): a readable RFC 5322 header block with the
 * From header every message needs (RFC 5322 3.6).
 */
export function rawContentIssues(body: SendRawEmailBody): ContentIssue[] {
  const parsed = mimeHeaders(body.mime_message);
  if ("problem" in parsed) return [{ path: ["mime_message"], message: parsed.problem }];
  if (!parsed.names.includes("from"))
    return [{ path: ["mime_message"], message: "must carry a From header (RFC 5322 3.6)" }];
  return [];
}

/** Shape and content together: what the sdk checks before a raw send. */
export const SendRawEmailSchema = SendRawEmailShapeSchema.superRefine((body, ctx) => {
  for (const issue of rawContentIssues(body)) ctx.addIssue({ code: "custom", ...issue });
});

// ---- response (both sends) ----

/** The contract's result, and the fields public-api-notes and the public client add. */
export const SendEmailResultSchema = G.EmailSendingAccountSendBuilderResult.extend({
  message_id: z.string().optional(),
  /** Dropped because they are on the suppression list (public client's field). */
  suppressed_recipients: z.array(z.string()).optional(),
});
export type SendEmailResultWire = z.infer<typeof SendEmailResultSchema>;
