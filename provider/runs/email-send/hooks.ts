/**
 * EmailSend: the whole message checked by the sdk's send schema at preview, and against the account
 * (its sending domains, its suppressions) wherever every input is known, then sent once.
 */
import { randomUUID } from "node:crypto";
import { SendEmailSchema } from "../../../sdk/schemas/email";
import type { Checks } from "../../core/pipeline";
import { containsUnknown, snakeToCamel } from "../../core/values";
import { toSendEmailCall, toSendEmailParams, type SendEmailInputs } from "../../functions/email-logic";
import { runCapabilities } from "../run";
import type { InputsOf } from "../../core/define";
import type { EmailSendSpec } from "./spec";
import { senderIssue, suppressedIssues } from "./sending-check";

type EmailSendInputs = InputsOf<typeof EmailSendSpec>;

/** The message alone: what the run keeps besides it (account, triggers) is not sent. */
const message = (inputs: EmailSendInputs): SendEmailInputs => {
  const { accountId: _account, importId: _import, triggers: _triggers, ...rest } = inputs;
  return rest;
};

export const { remote, reading } = runCapabilities<typeof EmailSendSpec>({
  noun: "message",
  afterDelete: "a sent message cannot be unsent",
  perform: async (inputs, ctx) => {
    const [, body] = toSendEmailCall(message(inputs));
    const sent = await ctx.api.email.sending.send({ accountId: ctx.accountId(inputs.accountId) }, body);
    // The service's id of the message where it gives one; the run's own otherwise.
    return { id: sent.messageId ?? randomUUID(), result: sent };
  },
});

export const checks: Checks<typeof EmailSendSpec> = {
  rules: (inputs) => {
    if (containsUnknown(inputs)) return [];
    const parsed = SendEmailSchema.safeParse(toSendEmailParams(message(inputs)));
    if (parsed.success) return [];
    return parsed.error.issues.map((issue) => {
      // Header names are the message's own, never renamed; every other key is the program's camelCase.
      const [top, ...rest] = issue.path.map(String);
      const path = [top === undefined ? "(message)" : snakeToCamel(top), ...rest];
      return { field: path.join("."), rule: issue.message };
    });
  },
  // Before any send, at preview too: a sender that cannot send or a recipient nothing reaches.
  async checkLive(inputs, _olds, ctx) {
    const accountId = ctx.accountId(inputs.accountId);
    const sender = await senderIssue(ctx.api, accountId, inputs.from);
    return [...(sender ? [sender] : []), ...(await suppressedIssues(ctx.api, accountId, inputs))];
  },
};
