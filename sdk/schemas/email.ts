/**
 * zod schemas of the email area (spec B; public-api-notes "Email sending"), the error table of the
 * spec, and the size rule. The emulator validates with the same schemas: `SendEmailShapeSchema`
 * failures are 10001 (invalid request schema), `emailContentIssues` failures are 10202 (invalid
 * content); the sdk applies both at once through `SendEmailSchema`.
 */
import { z } from "zod";
import { strictShape } from "./common";

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

/** `local@domain.tld` with an unquoted local part of at most 64 characters. */
export function isEmailAddress(s: string): boolean {
  return ADDRESS_RE.test(s) && s.indexOf("@") <= 64;
}

/** A bare address: `local@domain.tld`, at most 254 characters. */
export const EmailAddressSchema = z
  .string({ error: (iss) => (iss.input === undefined ? "is required" : ADDRESS_RULE) })
  .max(254, "must be at most 254 characters")
  .refine(isEmailAddress, ADDRESS_RULE);

const noLineBreaks = (s: string): boolean => !/[\r\n]/.test(s);

function text(what = "a string") {
  return z.string({ error: (iss) => (iss.input === undefined ? "is required" : `must be ${what}`) });
}

/**
 * A named address: `{ address, name }`, both required (the public contract's shape; `from` and
 * `reply_to` are the fields that take it).
 */
export const NamedAddressSchema = strictShape({
  address: EmailAddressSchema,
  name: text().refine(noLineBreaks, "must not contain line breaks"),
});

const NAMED_RULE = "must be an email address or { address, name }";

/** `from` and `reply_to`: a string or `{ address, name }`. */
export const SenderSchema = z.union([EmailAddressSchema, NamedAddressSchema], {
  error: (iss) => (iss.input === undefined ? "is required" : NAMED_RULE),
});

/**
 * `to`, `cc`, `bcc`: an address or a non-empty array of addresses. The public contract takes strings
 * only here (named forms are for `from` and `reply_to`), so an object is refused before it is sent.
 */
export const RecipientsSchema = z.union(
  [EmailAddressSchema, z.array(EmailAddressSchema).min(1, "must list at least one address")],
  {
    error: (iss) =>
      iss.input === undefined ? "is required" : "must be an email address or an array of addresses",
  },
);

const MEDIA_TYPE_RE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/;

export const AttachmentSchema = strictShape({
  /** The file, base64 (checked as content: a bad encoding is 10202, not 10001). */
  content: text("a base64 string"),
  filename: text().min(1, "must not be empty").refine(noLineBreaks, "must not contain line breaks"),
  type: text("a media type (type/subtype)").regex(MEDIA_TYPE_RE, "must be a media type (type/subtype)"),
  disposition: z.enum(["attachment", "inline"], {
    error: (iss) => (iss.input === undefined ? "is required" : "must be one of attachment, inline"),
  }),
  /** Required for inline attachments: the `cid:` the HTML refers to (public-api-notes). */
  content_id: text()
    .min(1, "must not be empty")
    .refine(noLineBreaks, "must not contain line breaks")
    .optional(),
}).superRefine((a, ctx) => {
  if (a.disposition === "inline" && a.content_id === undefined) {
    ctx.addIssue({ code: "custom", message: "is required when disposition is inline", path: ["content_id"] });
  }
});
export type Attachment = z.infer<typeof AttachmentSchema>;

export const EmailHeadersSchema = z
  .record(text(), text().refine(noLineBreaks, "must not contain line breaks"), {
    error: "must be an object mapping header names to strings",
  })
  .superRefine((headers, ctx) => {
    for (const name of Object.keys(headers)) {
      const rule = headerRule(name);
      if (rule) ctx.addIssue({ code: "custom", message: rule, path: [name] });
    }
  });

/**
 * The send body's shape: what the emulator answers with 10001 when it fails. Checks that need to
 * read the content (a body present, base64 that decodes) are in `emailContentIssues`.
 */
export const SendEmailShapeSchema = strictShape({
  from: SenderSchema,
  to: RecipientsSchema,
  cc: RecipientsSchema.optional(),
  bcc: RecipientsSchema.optional(),
  reply_to: SenderSchema.optional(),
  subject: text().min(1, "must not be empty").refine(noLineBreaks, "must not contain line breaks"),
  html: text().optional(),
  text: text().optional(),
  attachments: z.array(AttachmentSchema, { error: "must be an array of attachments" }).optional(),
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

export type Address = z.infer<typeof NamedAddressSchema> | string;

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
export const SendRawEmailShapeSchema = strictShape({
  from: EmailAddressSchema,
  recipients: z
    .array(EmailAddressSchema, {
      error: (iss) => (iss.input === undefined ? "is required" : "must be an array of addresses"),
    })
    .min(1, "must list at least one address"),
  mime_message: text().min(1, "must not be empty"),
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

export const SendEmailResultSchema = z.looseObject({
  delivered: z.array(z.string()),
  permanent_bounces: z.array(z.string()),
  queued: z.array(z.string()),
  message_id: z.string().optional(),
  /** Dropped because they are on the suppression list (public client's field). */
  suppressed_recipients: z.array(z.string()).optional(),
});
export type SendEmailResultWire = z.infer<typeof SendEmailResultSchema>;
