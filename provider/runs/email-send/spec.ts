/**
 * EmailSend: one message, sent when the resource is created and again only when an input or
 * `triggers` changes (`sendEmail` sends on every `up`). The inputs are `sendEmail`'s; the sdk's send
 * schema checks them at preview (hooks.ts). Its result is the per-recipient outcome.
 */
import { z } from "zod";
import type { SendEmailResult } from "../../../sdk/email";
import { defineResource } from "../../core/define";
import { shaped } from "../../core/shapes";
import type {
  EmailAddressInput,
  EmailAttachmentInput,
  EmailRecipientsInput,
} from "../../functions/email-logic";
import { SendEmailParamsSchema } from "../../functions/email-params";
import { SendEmailResultSchema } from "../../functions/results";
import { TRIGGERS_FIELD, resultOutput, runInput } from "../run";

// Shapes only: every rule of a send is the sdk's, applied to the whole message by checks.rules. The
// shapes are sendEmail's parameters', for the package schema.
const P = SendEmailParamsSchema.shape;
const address = () => shaped<EmailAddressInput>(P.from);
const recipients = shaped<EmailRecipientsInput>(P.to);

export const EmailSendSpec = defineResource({
  kind: "EmailSend",
  fields: {
    from: runInput(address()),
    to: runInput(recipients),
    cc: runInput(recipients.optional()),
    bcc: runInput(recipients.optional()),
    replyTo: runInput(address().optional()),
    subject: runInput(shaped<string>(P.subject)),
    html: runInput(z.string().optional()),
    text: runInput(z.string().optional()),
    attachments: runInput(shaped<EmailAttachmentInput[]>(P.attachments.unwrap()).optional()),
    /** Allowed headers only (threading, list management, `X-` headers); names kept as written. */
    headers: runInput(z.record(z.string(), z.string()).optional()),
    triggers: TRIGGERS_FIELD,
    /** Per recipient: delivered, queued or bounced; and the message id. */
    result: resultOutput<SendEmailResult>(SendEmailResultSchema),
  },
});
