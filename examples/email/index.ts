/**
 * Email: a release note sent by the deployment itself. On every `up` the program mails the team from
 * a verified sender domain, with an HTML and a text body, a reply-to address, an `X-` header, and the
 * release notes attached as a Markdown file. A preview sends nothing; `destroy` has nothing to undo.
 *
 * Run: `npx mocha tests/e2e/examples.test.ts` (after `npm run build`) runs it against the emulator.
 * In your own Pulumi project: import from `pulumi-account-api/provider` instead of `../../provider`,
 * optionally `pulumi config set --path 'releaseRecipients[0]' team@your-domain`, then `pulumi up`.
 * On the real account the sender domain is verified in the dashboard; `seed` stands in for that
 * through the emulator's control API.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RunningEmulator } from "../../emulator/server";
import { sendEmail } from "../../provider";
import type { AccountApi } from "../../sdk";

export interface Seeded {
  senderDomain: string;
}

/** Registers the verified sender domain (a PUT: running it twice changes nothing). */
export async function seed(
  _api: AccountApi,
  em: Pick<RunningEmulator, "origin" | "accountId">,
): Promise<Seeded> {
  const senderDomain = "releases.example.net";
  const res = await fetch(`${em.origin}/__emulator/email/accounts/${em.accountId}/domains/${senderDomain}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  if (!res.ok) throw new Error(`seed: registering the sender domain failed with ${res.status}`);
  return { senderDomain };
}

export async function program(seeded: Seeded): Promise<Record<string, unknown>> {
  const config = new pulumi.Config();
  const stack = pulumi.getStack();
  const recipients = config.getObject<string[]>("releaseRecipients") ?? [`team@${seeded.senderDomain}`];
  const notes = [
    `# Release of ${stack}`,
    "",
    "- Search results now include the handbook.",
    "- Build times are down by a third.",
  ].join("\n");

  const sent = sendEmail({
    from: { address: `deploys@${seeded.senderDomain}`, name: "Deploy bot" },
    to: recipients,
    replyTo: `ops@${seeded.senderDomain}`,
    subject: `Released: ${stack}`,
    text: `The ${stack} stack is up. The release notes are attached.`,
    html: `<p>The <strong>${stack}</strong> stack is up. The release notes are attached.</p>`,
    headers: { "X-Release-Stack": stack },
    attachments: [
      {
        content: Buffer.from(notes, "utf8").toString("base64"),
        filename: "release-notes.md",
        type: "text/markdown",
        disposition: "attachment",
      },
    ],
  });

  return {
    delivered: sent.apply((r) => r?.delivered),
    bounced: sent.apply((r) => r?.permanentBounces),
    messageId: sent.apply((r) => r?.messageId),
  };
}
