/**
 * The inputs of `sendEmail` and of an EmailSend, and their mapping to the sdk's parameters: pure,
 * because the provider host loads it and never loads Pulumi. Inputs are the send body in camelCase
 * (`replyTo`, `contentId`); header names are passed through as written.
 */
import type { EmailIds, SendEmailBody, SendEmailParams } from "../../sdk/email";
import { toApi } from "../core/values";

/** `from` and `replyTo`: an address, or an address with the name shown beside it. */
export type EmailAddressInput = string | { address: string; name: string };

/** `to`, `cc` and `bcc`: an address, or one with the name shown beside it (optional), or a list of either. */
export type EmailRecipientInput = string | { address: string; name?: string };
export type EmailRecipientsInput = EmailRecipientInput | EmailRecipientInput[];

export interface EmailAttachmentInput {
  /** File content, base64. */
  content: string;
  filename: string;
  /** Media type, e.g. `application/pdf`. */
  type: string;
  disposition: "attachment" | "inline";
  /** Required for inline attachments: the `cid:` the HTML refers to. */
  contentId?: string;
}

export interface SendEmailInputs {
  accountId?: string;
  from: EmailAddressInput;
  to: EmailRecipientsInput;
  cc?: EmailRecipientsInput;
  bcc?: EmailRecipientsInput;
  replyTo?: EmailAddressInput;
  subject: string;
  html?: string;
  text?: string;
  attachments?: EmailAttachmentInput[];
  /** Allowed headers only (threading, list management, `X-` headers); names kept as written. */
  headers?: Record<string, string>;
}

/** Maps the function's camelCase inputs to the sdk's parameters (pure; header names untouched). */
export function toSendEmailParams(inputs: SendEmailInputs): SendEmailParams {
  const { accountId, ...body } = inputs;
  const params = toApi(body, ["headers"]) as SendEmailParams;
  return accountId !== undefined ? { ...params, accountId } : params;
}

/** The same inputs as the sdk's `(ids, message)` of `api.email.sending.send`. */
export function toSendEmailCall(inputs: SendEmailInputs): [EmailIds, SendEmailBody] {
  const { accountId, ...message } = toSendEmailParams(inputs);
  return [accountId !== undefined ? { accountId } : {}, message];
}
