/**
 * `sendEmail` for programs: sends one message when the stack goes `up` (never on preview), with the
 * client built from the stack config. Inputs are the send body in camelCase (`replyTo`, `contentId`);
 * header names are passed through as written. The sdk validates everything locally first, so a bad
 * message fails the update with the field and the rule before anything is sent.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { SendEmailResult } from "../../sdk/email";
import { toSendEmailCall, type SendEmailInputs } from "./email-logic";
import { onUp } from "./common";

export * from "./email-logic";

export type SendEmailArgs = { [K in keyof SendEmailInputs]: pulumi.Input<SendEmailInputs[K]> };

/**
 * Sends the message on `up` and resolves to the per-recipient outcome; is unknown on
 * preview. Every `up` that evaluates it sends again, and warns so: an EmailSend sends once, and
 * again only when its inputs or `triggers` change.
 */
export function sendEmail(args: SendEmailArgs): pulumi.Output<SendEmailResult | undefined> {
  return onUp(
    args,
    (api, resolved: SendEmailInputs) => api.email.sending.send(...toSendEmailCall(resolved)),
    {
      name: "sendEmail",
      instead: "EmailSend",
    },
  );
}
