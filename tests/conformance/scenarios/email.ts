/**
 * Conformance scenario of the email area: `send` and `send_raw`, each with every request field set,
 * and each documented 4xx the emulator produces (400 through `raw`, 403 with sending disabled, 429
 * from the account's throttle). The runner produces the 500.
 */
import { request } from "undici";
import type { ConformanceKit, AreaScenario } from "../kit";

const DOMAIN = "example.com";

/** Control routes of the email area (no auth; outside the contract, so never recorded). */
async function control(kit: ConformanceKit, method: "PUT" | "PATCH", suffix: string, body: unknown) {
  const res = await request(`${kit.emulator.origin}/__emulator/email/accounts/${kit.accountId}${suffix}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`control ${method} ${suffix}: ${res.statusCode} ${text}`);
}

const MIME = ["From: News <news@example.com>", "To: ada@dest.test", "Subject: Raw", "", "Hello"].join("\r\n");

export const scenario: AreaScenario = {
  area: "email",
  async run(kit) {
    await control(kit, "PUT", `/domains/${DOMAIN}`, {});
    const sendPath = `/accounts/${kit.accountId}/email/sending/send`;
    const rawPath = `/accounts/${kit.accountId}/email/sending/send_raw`;

    // Every field of the send body at once.
    const sent = await kit.api.email.sending.send(
      {},
      {
        from: { address: "news@example.com", name: "Example News" },
        to: ["ada@dest.test", "queue-1@dest.test"],
        cc: "bounce-1@dest.test",
        bcc: ["grace@dest.test"],
        reply_to: { address: "replies@example.com", name: "Replies" },
        subject: "Launch day",
        html: '<p>Hello <img src="cid:logo"></p>',
        text: "Hello",
        attachments: [
          { content: "aGk=", filename: "brief.txt", type: "text/plain", disposition: "attachment" },
          {
            content: "aGk=",
            filename: "logo.png",
            type: "image/png",
            disposition: "inline",
            content_id: "logo",
          },
        ],
        headers: { "List-Unsubscribe": "<https://example.com/u>", "X-Campaign": "launch" },
      },
    );
    if (sent.delivered.length !== 2 || sent.queued.length !== 1 || sent.permanentBounces.length !== 1)
      throw new Error(`send: unexpected outcome ${JSON.stringify(sent)}`);
    // The shortest form too: strings everywhere.
    await kit.api.email.sending.send(
      {},
      { from: "news@example.com", to: "ada@dest.test", subject: "s", text: "t" },
    );

    // Every field of the raw body.
    await kit.api.email.sending.sendRaw(
      {},
      {
        from: "news@example.com",
        recipients: ["ada@dest.test", "bounce@dest.test"],
        mime_message: MIME,
      },
    );

    // 400: a body the sdk refuses (one problem, so one errors[] entry), and content the service refuses.
    await expectRaw(kit, "POST", sendPath, { from: "news@example.com", subject: "s", text: "t" }, 400);
    await expectRaw(
      kit,
      "POST",
      rawPath,
      { from: "news@example.com", recipients: [], mime_message: MIME },
      400,
    );
    await expectRaw(
      kit,
      "POST",
      rawPath,
      { from: "news@example.com", recipients: ["a@dest.test"], mime_message: "x" },
      400,
    );

    // 403: sending disabled for the account (10203).
    await control(kit, "PATCH", "", { sending_disabled: true });
    await kit.expectStatus(
      kit.api.email.sending.send(
        {},
        { from: "news@example.com", to: "a@dest.test", subject: "s", text: "t" },
      ),
      403,
    );
    await kit.expectStatus(
      kit.api.email.sending.sendRaw(
        {},
        {
          from: "news@example.com",
          recipients: ["a@dest.test"],
          mime_message: MIME,
        },
      ),
      403,
    );
    await control(kit, "PATCH", "", { sending_disabled: false });

    // 429: the account's throttle (10004); one send fits, the next of either kind is refused.
    await control(kit, "PATCH", "", { throttle: { limit: 1, window_ms: 3_600_000 } });
    await kit.api.email.sending.send(
      {},
      { from: "news@example.com", to: "a@dest.test", subject: "s", text: "t" },
    );
    await expectRaw(
      kit,
      "POST",
      sendPath,
      { from: "news@example.com", to: "a@dest.test", subject: "s", text: "t" },
      429,
    );
    await expectRaw(
      kit,
      "POST",
      rawPath,
      { from: "news@example.com", recipients: ["a@dest.test"], mime_message: MIME },
      429,
    );
    await control(kit, "PATCH", "", { throttle: null });
  },
};

/** `raw` that must answer `status` (the sdk would refuse the body, or retry the 429). */
async function expectRaw(kit: ConformanceKit, method: string, path: string, body: unknown, status: number) {
  const res = await kit.raw(method, path, body);
  if (res.status !== status)
    throw new Error(`${method} ${path}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
}
