/**
 * sendEmail's parameters (and an EmailSend's inputs' shapes) as a strict zod object in program
 * naming, apart from the other functions' so that an EmailSend host loads the email area's schemas
 * only. See params.ts.
 */
import { z } from "zod";
import { IdentifierSchema } from "../../sdk/schemas/common";
import {
  AttachmentSchema,
  EmailHeadersSchema,
  RecipientsSchema,
  SendEmailShapeSchema,
  SenderSchema,
} from "../../sdk/schemas/email";

/** Every function takes it. */
export const accountId = IdentifierSchema.optional().describe(
  "The account to act on (default: the provider's).",
);

const S = SendEmailShapeSchema.shape;
const A = AttachmentSchema.shape;

/** An attachment in program naming (`contentId`); the sdk's rule on inline ones applies at send. */
export const EmailAttachmentParamsSchema = z.strictObject({
  content: A.content.describe("File content, base64."),
  filename: A.filename,
  type: A.type.describe("Media type, e.g. `application/pdf`."),
  disposition: A.disposition,
  contentId: A.content_id.describe("Required for inline attachments: the `cid:` the HTML refers to."),
});

export const SendEmailParamsSchema = z.strictObject({
  accountId,
  from: SenderSchema.describe("An address, or `{ address, name }`."),
  to: RecipientsSchema.describe("An address, `{ address, name? }`, or a list of either."),
  cc: RecipientsSchema.optional().describe("Copied: an address, `{ address, name? }`, or a list of either."),
  bcc: RecipientsSchema.optional().describe(
    "Blind-copied: an address, `{ address, name? }`, or a list of either.",
  ),
  replyTo: SenderSchema.optional().describe("An address, or `{ address, name }`."),
  subject: S.subject.describe("One line."),
  html: S.html.describe("The HTML body; `html`, `text` or both."),
  text: S.text.describe("The plain-text body; `html`, `text` or both."),
  attachments: z
    .array(EmailAttachmentParamsSchema, { error: "must be an array of attachments" })
    .optional()
    .describe("Files, base64, attached or inline."),
  headers: EmailHeadersSchema.optional().describe(
    "Allowed headers only (threading, list management, `X-` headers); names kept as written.",
  ),
});
