/**
 * `sendEmail` for programs: sends one message when the stack goes `up` (never on preview), with the
 * client built from the stack config. Inputs are the send body in camelCase (`replyTo`, `contentId`);
 * header names are passed through as written. The sdk validates everything locally first, so a bad
 * message fails the update with the field and the rule before anything is sent.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { SendEmailParams, SendEmailResult } from "../../sdk/email";
import { toApi } from "../core/values";
import { onUp } from "./common";

/** `from` and `replyTo`: an address, or an address with the name shown beside it. */
export type EmailAddressInput = string | { address: string; name: string };

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
  /** Recipients are bare addresses (the public contract takes no named form here). */
  to: string | string[];
  cc?: string | string[];
  bcc?: string | string[];
  replyTo?: EmailAddressInput;
  subject: string;
  html?: string;
  text?: string;
  attachments?: EmailAttachmentInput[];
  /** Allowed headers only (threading, list management, `X-` headers); names kept as written. */
  headers?: Record<string, string>;
}

export type SendEmailArgs = { [K in keyof SendEmailInputs]: pulumi.Input<SendEmailInputs[K]> };

/** Maps the function's camelCase inputs to the sdk's parameters (pure; header names untouched). */
export function toSendEmailParams(inputs: SendEmailInputs): SendEmailParams {
  const { accountId, ...body } = inputs;
  const params = toApi(body, ["headers"]) as SendEmailParams;
  return accountId !== undefined ? { ...params, accountId } : params;
}

/**
 * Sends the message on `up` and resolves to the per-recipient outcome; resolves to undefined on
 * preview. Every `up` that evaluates it sends again: guard it with your own condition if a message
 * must go out once.
 */
export function sendEmail(args: SendEmailArgs): pulumi.Output<SendEmailResult | undefined> {
  return onUp(args, (api, resolved: SendEmailInputs) => api.email.sendEmail(toSendEmailParams(resolved)));
}
