/** SendingDomain: its hooks without the API, then the handler against the emulator. */
import { strict as assert } from "node:assert";
import * as sd from "../../provider/resources/sending-domain";
import type { HandlerContext } from "../../provider/types";
import { useEmulator } from "../helpers/emulator";
import { offlineContext as offline, providerContext } from "../helpers/provider-context";

const ZONE = "023e105f4ecef8ad9ca31a8372d0c353";

const check = (news: Record<string, unknown>, ctx: HandlerContext = offline) =>
  sd.handler.check(undefined, news, ctx);

async function inputs(news: Record<string, unknown>): Promise<sd.SendingDomainInputs> {
  const r = await check(news);
  assert.deepEqual(r.failures, [], JSON.stringify(news));
  assert.ok(r.inputs);
  return r.inputs;
}

describe("SendingDomain: check without the API", () => {
  it("keeps the name as the service does and fills in the switches' defaults", async () => {
    assert.deepEqual(await inputs({ zoneId: ZONE, name: " Mail.Example.COM. " }), {
      zoneId: ZONE,
      name: "mail.example.com",
      previewEnabled: false,
      dropSuppressedRecipients: false,
    });
  });

  it("names the field and the rule of each failure, all at once", async () => {
    const table: [Record<string, unknown>, string[]][] = [
      [{}, ["zoneId: required", "name: is required"]],
      [{ zoneId: ZONE, name: "mail" }, ["name: must be a domain name (the zone's name or a name under it)"]],
      [{ zoneId: ZONE, name: "a.example.com", previewEnabled: "on" }, ["previewEnabled: must be a boolean"]],
    ];
    for (const [news, expected] of table) {
      const r = await check(news);
      assert.deepEqual(
        (r.failures ?? []).map((f) => f.reason),
        expected,
        JSON.stringify(news),
      );
    }
  });

  it("replaces (deleting first) when the zone or the name changes, updates a switch in place", async () => {
    const olds = {
      zoneId: ZONE,
      name: "mail.example.com",
      previewEnabled: false,
      dropSuppressedRecipients: false,
    };
    const renamed = await sd.handler.diff("t", olds, { ...olds, name: "news.example.com" }, offline);
    assert.deepEqual(renamed, { changes: true, replaces: ["name"], deleteBeforeReplace: true });
    const switched = await sd.handler.diff("t", olds, { ...olds, previewEnabled: true }, offline);
    assert.deepEqual(switched, { changes: true, replaces: [], deleteBeforeReplace: false });
  });
});

describe("SendingDomain: handler on the emulator", () => {
  const fx = useEmulator();
  let zoneId = "";
  beforeEach(async () => {
    zoneId = (await fx.api.content.zones.create({}, { name: "example.com" })).id;
  });

  it("creates, reads its DNS records without drift, shows out-of-band drift, updates and deletes", async () => {
    const ctx = providerContext(fx);
    const ins = await inputs({ zoneId, name: "mail.example.com", dropSuppressedRecipients: true });
    const created = await sd.handler.create(ins, ctx);
    const live = await fx.api.email.subdomains.get({ zoneId, subdomainId: created.id });
    assert.equal(created.outs.subdomainId, live.tag);
    assert.equal(live.drop_suppressed_recipients, true, "a switch off its default went with a PATCH");
    assert.equal(created.outs.dnsStatus, "unconfigured");
    assert.deepEqual(
      created.outs.dnsRecords,
      await fx.api.email.subdomains.dns({ zoneId, subdomainId: created.id }),
    );
    assert.equal(created.outs.returnPathDomain, "cf-bounce.mail.example.com");

    const read = await sd.handler.read(created.id, created.outs, ctx);
    assert.ok(read);
    assert.deepEqual(read.inputs, ins, "an unchanged object reads back as exactly the inputs");
    assert.equal((await sd.handler.diff(created.id, read.props, read.inputs, ctx)).changes, false);

    await fx.api.email.subdomains.edit({ zoneId, subdomainId: created.id }, { preview_enabled: true });
    await fx.api.email.subdomains.fixDns({ zoneId, subdomainId: created.id });
    const drifted = await sd.handler.read(created.id, created.outs, ctx);
    assert.ok(drifted);
    assert.equal(drifted.inputs.previewEnabled, true);
    assert.equal(drifted.props.dnsStatus, "ready");
    const diff = await sd.handler.diff(created.id, drifted.props, ins, ctx);
    assert.deepEqual(diff, { changes: true, replaces: [], deleteBeforeReplace: false });
    const updated = await sd.handler.update(created.id, drifted.props, ins, ctx);
    assert.equal(updated.outs.previewEnabled, false);
    assert.equal(
      (await fx.api.email.subdomains.get({ zoneId, subdomainId: created.id })).preview_enabled,
      false,
    );

    await sd.handler.delete(created.id, updated.outs, ctx);
    assert.equal(await sd.handler.read(created.id, updated.outs, ctx), undefined, "a 404 on read means gone");
    await sd.handler.delete(created.id, updated.outs, ctx); // deleting again is success
  });

  it("makes no second subdomain: the same name with the same switches is adopted, other switches refused", async () => {
    const ctx = providerContext(fx);
    const made = await fx.api.email.subdomains.create({ zoneId }, { name: "mail.example.com" });
    const own = await sd.handler.create(await inputs({ zoneId, name: "MAIL.example.com" }), ctx);
    assert.equal(own.id, made.tag);
    await fx.api.email.subdomains.edit({ zoneId, subdomainId: made.tag }, { preview_enabled: true });
    await assert.rejects(
      sd.handler.create(await inputs({ zoneId, name: "mail.example.com" }), ctx),
      (e: Error) => /^name: .*mail\.example\.com.*already exists.*importId: "[0-9a-f]{32}"/.test(e.message),
    );
    assert.equal((await fx.api.email.subdomains.list({ zoneId })).length, 1);
  });

  it("a lost create answer leads to the look-up, which adopts what landed", async () => {
    const ctx = providerContext(fx);
    fx.em.faults.add({ method: "POST", path: "/email/sending/subdomains$", commitThenDrop: true, times: 1 });
    const made = await sd.handler.create(await inputs({ zoneId, name: "news.example.com" }), ctx);
    fx.em.faults.clear();
    const all = await fx.api.email.subdomains.list({ zoneId });
    assert.deepEqual(
      all.map((s) => s.tag),
      [made.id],
    );
  });

  it("adopts by importId and brings the switches to the inputs", async () => {
    const ctx = providerContext(fx);
    const legacy = await fx.api.email.subdomains.create({ zoneId }, { name: "old.example.com" });
    await fx.api.email.subdomains.edit({ zoneId, subdomainId: legacy.tag }, { preview_enabled: true });
    const adopted = await sd.handler.create(
      await inputs({ zoneId, name: "old.example.com", importId: legacy.tag }),
      ctx,
    );
    assert.equal(adopted.id, legacy.tag);
    assert.equal(
      (await fx.api.email.subdomains.get({ zoneId, subdomainId: legacy.tag })).preview_enabled,
      false,
    );
  });

  it("an out-of-zone name is the service's 400, naming the field", async () => {
    const ctx = providerContext(fx);
    await assert.rejects(sd.handler.create(await inputs({ zoneId, name: "mail.other.org" }), ctx), /name/);
  });
});
