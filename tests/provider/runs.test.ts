/**
 * Runs (BuildRun, EmailSend, SyncJobRun) through the one pipeline against the emulator: a run happens
 * on create and records its result; the same inputs diff as no change (nothing runs again); a changed
 * trigger or input replaces (runs again); read answers the record without a request; delete undoes
 * nothing and says so; bad input is refused at check, naming the field, before any request.
 */
import { strict as assert } from "node:assert";
import { handler as buildRun } from "../../provider/runs/build-run";
import { handler as emailSend } from "../../provider/runs/email-send";
import { handler as syncJobRun } from "../../provider/runs/sync-job-run";
import { collect } from "../../sdk/paging";
import { productionTrigger, seedBuildWorld } from "../helpers/builds";
import { useEmulator } from "../helpers/emulator";
import { offlineContext, providerContext } from "../helpers/provider-context";

const writes = (log: { method: string }[]): number => log.filter((r) => r.method !== "GET").length;

describe("runs: operations that happen on create and again only on change", () => {
  const fx = useEmulator();

  it("EmailSend's check, before any send: from on a sending domain of a zone that has them, no suppressed recipient", async () => {
    const ctx = providerContext(fx);
    const zoneId = (await fx.api.content.zones.create({}, { name: "shop.test" })).id;
    const message = {
      from: "news@shop.test",
      to: ["ada@dest.test", "bob@dest.test"],
      subject: "s",
      text: "t",
    };
    // A zone with no sending subdomain decides nothing: the send answers for it.
    assert.deepEqual((await emailSend.check(undefined, message, ctx)).failures, []);
    await fx.api.email.subdomains.create({ zoneId }, { name: "mail.shop.test" });
    const refused = await emailSend.check(undefined, message, ctx);
    assert.deepEqual(
      (refused.failures ?? []).map((f) => f.property),
      ["from"],
    );
    assert.match(
      refused.failures![0]!.reason,
      /shop\.test is not one \(zone shop\.test sends from mail\.shop\.test\)/,
    );
    const fromMail = { ...message, from: "news@eu.mail.shop.test" };
    assert.deepEqual((await emailSend.check(undefined, fromMail, ctx)).failures, []);

    await fx.api.email.suppressions.create({}, { email: "bob@dest.test" });
    await fx.api.email.suppressions.create(
      {},
      { email: "ada@dest.test", scope: { type: "sending_domain", value: "other.test" } },
    );
    const suppressed = await emailSend.check(undefined, { ...fromMail, cc: "ada@dest.test" }, ctx);
    assert.deepEqual(
      (suppressed.failures ?? []).map((f) => f.property),
      ["to"],
      "ada is suppressed only for another sending domain",
    );
    assert.match(
      suppressed.failures![0]!.reason,
      /^to\.1: bob@dest\.test is on the suppression list of the account/,
    );
    const sends = fx.em.requestLog.filter((r) => r.method === "POST" && /\/send$/.test(r.url));
    assert.equal(sends.length, 0, "a check sends nothing");
  });

  it("EmailSend sends once; same inputs are no change; a new trigger replaces; read and delete send nothing", async () => {
    await fx.http("PUT", `/__emulator/email/accounts/${fx.em.accountId}/domains/example.com`, { body: {} });
    const logs: string[] = [];
    const ctx = providerContext(fx, logs);
    const news = {
      from: "deploy@example.com",
      to: "team@example.com",
      subject: "built",
      text: "ok",
      triggers: ["b1"],
    };
    const checked = await emailSend.check(undefined, news, ctx);
    assert.deepEqual(checked.failures, []);
    assert.ok(checked.inputs);
    const made = await emailSend.create(checked.inputs, ctx);
    const result = Reflect.get(made.outs, "result") as { delivered: string[] };
    assert.deepEqual(result.delivered, ["team@example.com"]);

    const before = writes(fx.em.requestLog);
    const same = await emailSend.diff(made.id, made.outs, checked.inputs, ctx);
    assert.equal(same.changes, false);
    const read = await emailSend.read(made.id, made.outs, ctx);
    assert.deepEqual(Reflect.get(read?.props ?? {}, "result"), result);
    assert.equal(writes(fx.em.requestLog), before, "diff and read send nothing");

    const retriggered = await emailSend.diff(
      made.id,
      made.outs,
      { ...checked.inputs, triggers: ["b2"] },
      ctx,
    );
    assert.equal(retriggered.changes, true);
    assert.deepEqual(retriggered.replaces, ["triggers"]);
    const edited = await emailSend.diff(made.id, made.outs, { ...checked.inputs, subject: "again" }, ctx);
    assert.deepEqual(edited.replaces, ["subject"]);

    await emailSend.delete(made.id, made.outs, ctx);
    assert.equal(writes(fx.em.requestLog), before, "delete sends nothing");
    assert.ok(
      logs.some((l) => /a sent message cannot be unsent/.test(l)),
      logs.join("\n"),
    );
  });

  it("EmailSend takes named recipients ({ address, name? }) through check and create", async () => {
    await fx.http("PUT", `/__emulator/email/accounts/${fx.em.accountId}/domains/example.com`, { body: {} });
    const ctx = providerContext(fx);
    const named = {
      from: { address: "deploy@example.com", name: "Deploys" },
      to: [{ address: "team@example.com", name: "Team" }, "ops@example.com"],
      cc: { address: "queue.lead@example.com" },
      subject: "built",
      text: "ok",
    };
    const checked = await emailSend.check(undefined, named, ctx);
    assert.deepEqual(checked.failures, []);
    assert.ok(checked.inputs);
    const made = await emailSend.create(checked.inputs, ctx);
    const result = Reflect.get(made.outs, "result") as { delivered: string[]; queued: string[] };
    assert.deepEqual(result.delivered, ["team@example.com", "ops@example.com"]);
    assert.deepEqual(result.queued, ["queue.lead@example.com"]);
    const bad = await emailSend.check(undefined, { ...named, to: [{ address: "nope" }] }, offlineContext);
    assert.deepEqual(
      (bad.failures ?? []).map((f) => f.reason),
      ["to.0.address: must be an email address (local@domain.tld)"],
    );
  });

  it("EmailSend refuses a bad message at check with the field and the sdk's rule, offline", async () => {
    const r = await emailSend.check(
      undefined,
      { from: "not an address", to: "team@example.com", subject: "s" },
      offlineContext,
    );
    const reasons = (r.failures ?? []).map((f) => f.reason);
    assert.ok(
      reasons.some((x) => x.startsWith("from:")),
      reasons.join("; "),
    );
    assert.ok(
      reasons.some((x) => /text|html/.test(x)),
      `a body is required: ${reasons.join("; ")}`,
    );
  });

  it("BuildRun starts a build on create (rule 1 at check) and records it", async () => {
    const world = await seedBuildWorld(fx);
    const triggerUuid = await productionTrigger(fx, world);
    const ctx = providerContext(fx);
    const bad = await buildRun.check(undefined, { triggerUuid }, offlineContext);
    assert.deepEqual(
      (bad.failures ?? []).map((f) => f.reason),
      ["branch: a branch, a commit hash, or both are required (rule 1)"],
    );
    const checked = await buildRun.check(undefined, { triggerUuid, branch: "main" }, ctx);
    assert.ok(checked.inputs);
    const made = await buildRun.create(checked.inputs, ctx);
    const build = Reflect.get(made.outs, "result") as { buildUuid: string; triggerUuid: string };
    assert.equal(made.id, build.buildUuid);
    assert.equal(build.triggerUuid, triggerUuid);
    assert.equal(
      (await fx.api.builds.builds.get({ buildUuid: build.buildUuid })).build_uuid,
      build.buildUuid,
    );
  });

  it("SyncJobRun starts a job of an instance and records it", async () => {
    await fx.api.search.instances.create(
      {},
      { id: "kb", type: "web-crawler", source: "https://example.com/docs/" },
    );
    const ctx = providerContext(fx);
    const checked = await syncJobRun.check(undefined, { instanceId: "kb" }, ctx);
    assert.ok(checked.inputs);
    const made = await syncJobRun.create(checked.inputs, ctx);
    const job = Reflect.get(made.outs, "result") as { id: string };
    assert.equal(made.id, job.id);
    const jobs = await collect(fx.api.search.jobs.list({ id: "kb" }));
    assert.deepEqual(
      jobs.map((j) => j.id),
      [job.id],
    );
  });
});
