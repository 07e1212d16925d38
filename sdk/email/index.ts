/**
 * Client for the email area: `sending` (a send built from fields, a send of a whole MIME message),
 * `subdomains` (a zone's sending subdomains and their DNS records), `suppressions` (the account's
 * suppression list), and `emailError` to recognise the email table's errors. The flat methods of release 0.1.0 stay at
 * the end for one more minor release.
 */
import type { ApiClient } from "../client";
import type { CallOptions } from "../core";
import type { SendEmailBody, SendRawEmailBody } from "../schemas/email";
import { Sending, type SendEmailResult } from "./sending";
import { Subdomains } from "./subdomains";
import { Suppressions } from "./suppressions";

export {
  EMAIL_ERRORS,
  EMAIL_MAX_BYTES,
  EmailErrorCode,
  emailBodyBytes,
  type Address,
  type Attachment,
  type SendEmailBody,
  type SendRawEmailBody,
} from "../schemas/email";
export type { CallOptions } from "../core";
export { emailError, type EmailErrorInfo } from "./errors";
export { Sending, type EmailIds, type SendEmailResult } from "./sending";
export {
  SendingSubdomainSchema,
  Subdomains,
  type CreateSubdomainBody,
  type EditSubdomainBody,
  type SendingSubdomain,
  type SubdomainDnsRecord,
  type SubdomainDnsStatus,
  type SubdomainIds,
  type SubdomainZoneIds,
} from "./subdomains";
export {
  SuppressionSchema,
  Suppressions,
  type CreateSuppressionBody,
  type EditSuppressionBody,
  type ImportSuppressionsBody,
  type ListSuppressionsParams,
  type Suppression,
  type SuppressionIds,
} from "./suppressions";

export class EmailApi {
  /** `email/sending/send` and `email/sending/send_raw`. */
  readonly sending: Sending;
  /** A zone's sending subdomains (`/zones/{zone_id}/email/sending/subdomains`), with their DNS records. */
  readonly subdomains: Subdomains;
  /** The account's suppression list (`email/sending/suppressions`). */
  readonly suppressions: Suppressions;

  constructor(readonly client: ApiClient) {
    this.sending = new Sending(client);
    this.subdomains = new Subdomains(client);
    this.suppressions = new Suppressions(client);
  }

  // -------------------------------------------------------------------------------------------
  // Deprecated flat methods of release 0.1.0: each one delegates to its sub-resource method.

  /** @deprecated Since 0.2.0: use `api.email.sending.send(ids, message)`; removed in 0.3.0. */
  async sendEmail(
    { accountId, ...message }: SendEmailParams,
    options?: CallOptions,
  ): Promise<SendEmailResult> {
    return this.sending.send({ accountId }, message, options);
  }

  /** @deprecated Since 0.2.0: use `api.email.sending.sendRaw(ids, message)`; removed in 0.3.0. */
  async sendRawEmail(
    { accountId, ...message }: SendRawEmailParams,
    options?: CallOptions,
  ): Promise<SendEmailResult> {
    return this.sending.sendRaw({ accountId }, message, options);
  }
}

/** Each deprecated flat method of `EmailApi` and the sub-resource method that replaces it. */
export const DEPRECATED_EMAIL_METHODS: Readonly<Record<string, string>> = Object.freeze({
  sendEmail: "sending.send",
  sendRawEmail: "sending.sendRaw",
} satisfies Record<Exclude<keyof EmailApi, "sending" | "subdomains" | "suppressions" | "client">, string>);

/** @deprecated Since 0.2.0: the parameters of the deprecated `sendEmail` (ids and message in one). */
export type SendEmailParams = SendEmailBody & { accountId?: string };
/** @deprecated Since 0.2.0: the parameters of the deprecated `sendRawEmail` (ids and message in one). */
export type SendRawEmailParams = SendRawEmailBody & { accountId?: string };
