/**
 * SendingDomain on the real engine, one stack: up (its DNS records as outputs), a clean
 * `preview --refresh`, drift made with the sdk seen by refresh and put back by `up --refresh`,
 * adoption of a subdomain made by hand through importId, an EmailSend from a domain that is not a
 * sending domain refused at preview with nothing sent, and destroy deleting both subdomains.
 */
import { strict as assert } from "node:assert";
import { SendingDomain } from "../../provider/resources/sending-domain";
import { EmailSend } from "../../provider/runs/email-send";
import type { AccountApi } from "../../sdk";
import { useE2E } from "./harness";

describe("SendingDomain end to end", function () {
  this.timeout(600_000);
  const e2e = useE2E("email-families");
  let api: AccountApi;

  before(() => {
    api = e2e.api;
  });

  it("goes up with its DNS records, refreshes clean, shows and restores drift, adopts, refuses a send from elsewhere at preview, destroys", async () => {
    const zoneId = (await api.content.zones.create({}, { name: "mail-e2e.test" })).id;
    const legacy = await api.email.subdomains.create({ zoneId }, { name: "legacy.mail-e2e.test" });
    const phase = { adopt: false, send: false };
    const stack = await e2e.stack(async () => {
      const mail = new SendingDomain("mail", { zoneId, name: "news.mail-e2e.test" });
      if (phase.adopt)
        new SendingDomain("legacy", { zoneId, name: "legacy.mail-e2e.test", importId: legacy.tag });
      if (phase.send)
        new EmailSend("hello", {
          from: "hello@other.mail-e2e.test",
          to: "ada@dest.test",
          subject: "Hi",
          text: "Hello",
        });
      return { id: mail.id, records: mail.dnsRecords, status: mail.dnsStatus };
    });

    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    const id = String(up.outputs.id?.value);
    const ids = { zoneId, subdomainId: id };
    assert.deepEqual(up.outputs.records?.value, await api.email.subdomains.dns(ids));
    assert.equal(up.outputs.status?.value, "unconfigured");

    await stack.preview({ refresh: true, expectNoChanges: true });

    await api.email.subdomains.edit(ids, { preview_enabled: true });
    const refresh = await stack.refresh();
    assert.equal(refresh.summary.resourceChanges?.update, 1, JSON.stringify(refresh.summary.resourceChanges));
    const fix = await stack.stack.up({ refresh: true, onOutput: (l) => stack.output.push(l) });
    assert.equal(fix.summary.resourceChanges?.update, 1, JSON.stringify(fix.summary.resourceChanges));
    assert.equal((await api.email.subdomains.get(ids)).preview_enabled, false);

    phase.adopt = true;
    const adopted = await stack.up();
    assert.equal(adopted.summary.resourceChanges?.create, 1);
    assert.equal((await api.email.subdomains.list({ zoneId })).length, 2, "adopted, not made twice");
    await stack.preview({ refresh: true, expectNoChanges: true });

    phase.send = true;
    await assert.rejects(stack.preview(), /from: .*other\.mail-e2e\.test is not one/);
    const outbox = await fetch(
      `${e2e.emulator.origin}/__emulator/email/accounts/${e2e.emulator.accountId}/outbox`,
    );
    assert.equal(outbox.status, 200);
    assert.deepEqual(((await outbox.json()) as { result: unknown[] }).result, [], "nothing sent");
    phase.send = false;

    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
    assert.deepEqual(await api.email.subdomains.list({ zoneId }), [], "destroy deleted both");
  });
});
