/**
 * Sending (`/email/sending/send`, `/email/sending/send_raw`): a send built from fields and a send of a
 * whole MIME message, each validated locally before anything goes on the wire.
 */
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import { ValidationError } from "../errors";
import {
  EMAIL_MAX_BYTES,
  SendEmailResultSchema,
  SendEmailSchema,
  SendRawEmailSchema,
  emailBodyBytes,
  type SendEmailBody,
  type SendEmailResultWire,
  type SendRawEmailBody,
} from "../schemas/email";
import { validate } from "../validate";

/** The ids of `/accounts/{account_id}/email/sending/...`. */
export interface EmailIds {
  /** Falls back to the client's default account. */
  accountId?: string;
}

export interface SendEmailResult {
  /** Delivered immediately. */
  delivered: string[];
  /** Bounced permanently: do not retry these. */
  permanentBounces: string[];
  /** Accepted; delivery will be attempted later. */
  queued: string[];
  messageId?: string;
  /** Dropped because they are on the account's suppression list. */
  suppressedRecipients?: string[];
}

function resultOf(wire: SendEmailResultWire): SendEmailResult {
  return {
    delivered: wire.delivered,
    permanentBounces: wire.permanent_bounces,
    queued: wire.queued,
    ...(wire.message_id !== undefined ? { messageId: wire.message_id } : {}),
    ...(wire.suppressed_recipients !== undefined ? { suppressedRecipients: wire.suppressed_recipients } : {}),
  };
}

export class Sending {
  constructor(readonly client: ApiClient) {}

  /**
   * Sends one message. Checks every rule it can locally (addresses, shapes, allowed headers,
   * attachments, a body present, base64, the 5 MiB limit on the JSON body as sent) and throws a
   * `ValidationError` naming the field without making a request. Not retried: a repeated send would
   * deliver the message twice.
   */
  async send(ids: EmailIds = {}, params: SendEmailBody, options: CallOptions = {}): Promise<SendEmailResult> {
    const body = validate(SendEmailSchema, params, "sendEmail");
    return this.#send("send", "sendEmail", body, ids.accountId, options);
  }

  /**
   * Sends a whole MIME message to `recipients` (the envelope; the message's own To and Cc headers
   * only say what the reader sees). Checked locally first (addresses, a header block with From, the
   * 5 MiB limit); never retried, like `send`.
   */
  async sendRaw(
    ids: EmailIds = {},
    params: SendRawEmailBody,
    options: CallOptions = {},
  ): Promise<SendEmailResult> {
    const body = validate(SendRawEmailSchema, params, "sendRawEmail");
    return this.#send("send_raw", "sendRawEmail", body, ids.accountId, options);
  }

  async #send(
    operation: "send" | "send_raw",
    what: string,
    body: SendEmailBody | SendRawEmailBody,
    accountId: string | undefined,
    options: CallOptions,
  ): Promise<SendEmailResult> {
    const bytes = emailBodyBytes(body);
    if (bytes > EMAIL_MAX_BYTES) {
      throw new ValidationError(what, [
        {
          field: "body",
          rule: `must be at most ${EMAIL_MAX_BYTES} bytes (5 MiB) as sent, attachments included; it is ${bytes} bytes`,
        },
      ]);
    }
    const account = this.client.account(accountId);
    const result = await this.client.request({
      method: "POST",
      path: path`/accounts/${account}/email/sending/${operation}`,
      body,
      schema: SendEmailResultSchema,
      idempotent: false,
      ...options,
    });
    return resultOf(result);
  }
}
