/**
 * Client for the email area: a send built from fields and a send of a whole MIME message, each
 * validated locally before anything goes on the wire.
 */
import { z } from "zod";
import { path, type ApiClient } from "./client";
import type { CallOptions } from "./core";
import { ApiError, ValidationError } from "./errors";
import {
  EMAIL_ERRORS,
  EMAIL_MAX_BYTES,
  EmailErrorCode,
  SendEmailResultSchema,
  SendEmailSchema,
  SendRawEmailSchema,
  emailBodyBytes,
  isEmailErrorCode,
  type SendEmailBody,
  type SendEmailResultWire,
  type SendRawEmailBody,
} from "./schemas/email";
import { validate } from "./validate";

export {
  EMAIL_ERRORS,
  EMAIL_MAX_BYTES,
  EmailErrorCode,
  emailBodyBytes,
  type Address,
  type Attachment,
  type SendEmailBody,
  type SendRawEmailBody,
} from "./schemas/email";

export type SendEmailParams = SendEmailBody & { accountId?: string };
export type SendRawEmailParams = SendRawEmailBody & { accountId?: string };

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

export type { CallOptions } from "./core";

/** An email error recognised from the table: its code, the table's message and condition. */
export interface EmailErrorInfo {
  code: EmailErrorCode;
  status: number;
  message: string;
  condition: string;
  /** Field-level details the server gave (`errors[].detail`), e.g. `to: must be an email address`. */
  details: string[];
}

/** Only what `emailError` reads from an error body; entries without a string `detail` are skipped. */
const ErrorListSchema = z.looseObject({ errors: z.array(z.unknown()) });
const ErrorDetailSchema = z.looseObject({ detail: z.string() });

/**
 * Recognises an `ApiError` carrying one of the email table's codes (its `apiCode`); `code` narrows to
 * one row. Undefined for anything else, so it can guard a branch: `if (emailError(e, EmailErrorCode.TooBig))`.
 */
export function emailError(err: unknown, code?: EmailErrorCode): EmailErrorInfo | undefined {
  if (!(err instanceof ApiError) || !isEmailErrorCode(err.apiCode)) return undefined;
  if (code !== undefined && err.apiCode !== code) return undefined;
  const row = EMAIL_ERRORS[err.apiCode];
  const list = ErrorListSchema.safeParse(err.body);
  const details = (list.success ? list.data.errors : []).flatMap((e) => {
    const d = ErrorDetailSchema.safeParse(e);
    return d.success ? [d.data.detail] : [];
  });
  return { code: err.apiCode, status: row.status, message: row.message, condition: row.condition, details };
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

export class EmailApi {
  constructor(readonly client: ApiClient) {}

  /**
   * Sends one message. Checks every rule it can locally (addresses, shapes, allowed headers,
   * attachments, a body present, base64, the 5 MiB limit on the JSON body as sent) and throws a
   * `ValidationError` naming the field without making a request. Not retried: a repeated send would
   * deliver the message twice.
   */
  async sendEmail(params: SendEmailParams, options: CallOptions = {}): Promise<SendEmailResult> {
    const { accountId, ...rest } = params;
    const body = validate(SendEmailSchema, rest, "sendEmail");
    return this.#send("send", "sendEmail", body, accountId, options);
  }

  /**
   * Sends a whole MIME message to `recipients` (the envelope; the message's own To and Cc headers
   * only say what the reader sees). Checked locally first (addresses, a header block with From, the
   * 5 MiB limit); never retried, like `sendEmail`.
   */
  async sendRawEmail(params: SendRawEmailParams, options: CallOptions = {}): Promise<SendEmailResult> {
    const { accountId, ...rest } = params;
    const body = validate(SendRawEmailSchema, rest, "sendRawEmail");
    return this.#send("send_raw", "sendRawEmail", body, accountId, options);
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
