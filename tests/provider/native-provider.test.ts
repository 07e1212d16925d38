/**
 * The native provider's methods, driven directly (as the plugin's server calls them) against the
 * emulator: the same pipeline as the dynamic resources behind `account-api:index:<Kind>` tokens, the
 * engine's wire form of secrets in and out, configuration checked by setting, detailed diffs, import
 * by id, partial creates, invokes, and the token in no answer.
 */
import { strict as assert } from "node:assert";
import { keyOfUrn } from "../../provider/core/urn-key";
import { NativeProvider } from "../../provider/native/provider";
import { isSecret } from "../../provider/native/secrets";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

const urn = (kind: string, name = "r") => `urn:pulumi:dev::proj::account-api:index:${kind}::${name}`;
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const wrapped = (value: unknown) => ({ ...SECRET, value });
const CREDS = { accessKeyId: "AKID-1", secretAccessKey: "very-secret-value" };

/** The provider as the engine configures it: stack settings as `account-api:config:<key>` variables. */
async function configured(fx: EmulatorFixture, extra: Record<string, string> = {}): Promise<NativeProvider> {
  const p = new NativeProvider({ version: "0.0.0-test", env: {} });
  await p.configure({
    "account-api:config:baseUrl": fx.em.url,
    "account-api:config:apiToken": fx.em.token,
    "account-api:config:accountId": fx.em.accountId,
    "account-api:config:maxRetries": "0",
    ...extra,
  });
  return p;
}

const record = (v: unknown): Record<string, unknown> => {
  assert.ok(typeof v === "object" && v !== null && !Array.isArray(v), `not an object: ${String(v)}`);
  return Object.fromEntries(Object.entries(v));
};

describe("the native provider (account-api:index:<Kind>)", () => {
  const fx = useEmulator();

  describe("configuration", () => {
    it("checkConfig names the bad setting, and the environment fills a setting left out", async () => {
      const p = new NativeProvider({ version: "1.2.3", env: { ACCOUNT_API_TOKEN: "t" } });
      const bad = await p.checkConfig("urn", {}, { deadlineMs: "soon", baseUrl: "http://127.0.0.1:1" });
      assert.equal(bad.failures?.length, 1);
      assert.equal(bad.failures?.[0]?.property, "deadlineMs");
      assert.match(
        bad.failures?.[0]?.reason ?? "",
        /^account-api:deadlineMs: must be a whole number of at least 1000/,
      );
      const url = await p.checkConfig("urn", {}, { baseUrl: "not a url" });
      assert.equal(url.failures?.[0]?.property, "baseUrl");
      assert.deepEqual((await p.checkConfig("urn", {}, { deadlineMs: 5000, maxRetries: 2 })).failures, []);
      const none = new NativeProvider({ version: "1.2.3", env: {} });
      const missing = await none.checkConfig("urn", {}, {});
      assert.equal(missing.failures?.[0]?.property, "apiToken");
      assert.match(missing.failures?.[0]?.reason ?? "", /pulumi config set --secret account-api:apiToken/);
    });

    it("checkConfig takes insecureHttp as a boolean input (an explicit provider's), as the schema declares it", async () => {
      const p = new NativeProvider({ version: "1.2.3", env: { ACCOUNT_API_TOKEN: "t" } });
      const remote = { baseUrl: "http://emulator.internal:8787/client/v4" };
      const refused = await p.checkConfig("urn", {}, remote);
      assert.equal(refused.failures?.[0]?.property, "baseUrl");
      assert.match(refused.failures?.[0]?.reason ?? "", /account-api:insecureHttp/);
      assert.deepEqual((await p.checkConfig("urn", {}, { ...remote, insecureHttp: true })).failures, []);
      const flag = await p.checkConfig("urn", {}, { ...remote, insecureHttp: "maybe" });
      assert.equal(flag.failures?.[0]?.property, "insecureHttp");
    });

    it("diffConfig: a changed endpoint or account updates the provider, naming the setting; nothing replaces", async () => {
      const p = new NativeProvider({ version: "1.2.3", env: {} });
      const d = await p.diffConfig(
        "urn",
        { baseUrl: "http://a", apiToken: "x" },
        {
          baseUrl: "http://b",
          apiToken: wrapped("x"),
          accountId: "acct",
        },
      );
      assert.deepEqual(d, {
        changes: true,
        replaces: [],
        detailedDiff: { baseUrl: "update", accountId: "add" },
      });
      assert.equal((await p.diffConfig("urn", { apiToken: "x" }, { apiToken: wrapped("x") })).changes, false);
    });

    it("a bad setting at configure fails each resource's check naming it, and no other method starts", async () => {
      const p = await configured(fx, { "account-api:config:maxRetries": "-1" });
      const c = await p.check(urn("ZoneContentConverter"), {}, { zoneId: "z1" });
      assert.equal(c.failures?.[0]?.property, "maxRetries");
      assert.match(
        c.failures?.[0]?.reason ?? "",
        /^account-api:maxRetries: must be a whole number of at least 0/,
      );
      await assert.rejects(p.read("z1", urn("ZoneContentConverter"), { zoneId: "z1" }), (e: Error) => {
        assert.match(e.message, /^ZoneContentConverter read: account-api:maxRetries: /);
        return true;
      });
    });

    it("answers its version and a schema naming the package", async () => {
      const p = new NativeProvider({ version: "1.2.3", env: {} });
      assert.equal(p.version, "1.2.3");
      const schema = record(JSON.parse(await p.getSchema()));
      assert.equal(schema.name, "account-api");
      assert.equal(schema.version, "1.2.3");
      assert.ok(
        record(schema.resources)["account-api:index:SearchInstance"],
        "the schema of the descriptions",
      );
    });
  });

  it("check names each bad field and the rule, before any request", async () => {
    const p = await configured(fx);
    const c = await p.check(urn("SearchInstance"), {}, { instanceId: "Bad Id", chunkSize: "big" });
    assert.deepEqual(
      c.failures?.map((f) => f.property),
      ["instanceId", "chunkSize"],
    );
    assert.match(c.failures?.[0]?.reason ?? "", /^instanceId: must contain only lowercase letters/);
    await assert.rejects(p.check(urn("Nope"), {}, {}), /unknown resource type "account-api:index:Nope"/);
  });

  it("serves the runs as resources too: a BuildRun's, an EmailSend's check names the field", async () => {
    const p = await configured(fx);
    const run = await p.check(
      urn("EmailSend"),
      {},
      { from: "a@example.com", to: "b@example.com", subject: 7 },
    );
    assert.deepEqual(
      run.failures?.map((f) => f.property),
      ["subject"],
    );
    const build = await p.check(urn("BuildRun"), {}, { triggerUuid: 7 });
    assert.equal(build.failures?.[0]?.property, "triggerUuid");
  });

  it("diff reports each changed input, as an update or a replace", async () => {
    const p = await configured(fx);
    const olds = { zoneId: "z1", value: "on", editable: true, modifiedOn: null };
    const update = await p.diff("z1", urn("ZoneContentConverter"), olds, { zoneId: "z1", value: "off" });
    assert.deepEqual(update, { changes: true, replaces: [], detailedDiff: { value: "update" } });
    const replace = await p.diff("z1", urn("ZoneContentConverter"), olds, { zoneId: "z2", value: "on" });
    assert.deepEqual(replace, {
      changes: true,
      replaces: ["zoneId"],
      detailedDiff: { zoneId: "update-replace" },
      deleteBeforeReplace: true,
    });
    const none = await p.diff("z1", urn("ZoneContentConverter"), olds, { zoneId: "z1", value: "on" });
    assert.deepEqual(none, { changes: false, replaces: [], detailedDiff: {} });
  });

  it("creates, reads, updates and deletes a SearchInstance; its secret stays secret and the token is in no answer", async () => {
    const p = await configured(fx);
    const u = urn("SearchInstance");
    const checked = await p.check(u, {}, { instanceId: "kb", chunkSize: 512, storageCredentials: CREDS });
    const inputs = record(checked.inputs);
    assert.deepEqual(checked.failures, []);
    assert.ok(isSecret(inputs.storageCredentials), "the description's secret input comes back secret");
    const created = await p.create(u, inputs);
    assert.equal(created.id, "default/kb");
    const outs = record(created.outs);
    assert.ok(isSecret(outs.storageCredentials));
    assert.equal(outs.chunkSize, 512);

    const read = await p.read(created.id, u, outs, inputs);
    assert.equal(read.id, "default/kb");
    assert.ok(isSecret(record(read.props).storageCredentials));
    assert.ok(isSecret(record(read.inputs).storageCredentials));

    const next = record((await p.check(u, inputs, { ...checkedPlain(inputs), chunkSize: 256 })).inputs);
    const d = await p.diff(created.id, u, outs, next);
    assert.deepEqual(d.detailedDiff, { chunkSize: "update" });
    const updated = record((await p.update(created.id, u, outs, next)).outs);
    assert.equal(updated.chunkSize, 256);
    assert.equal((await fx.api.search.instances.get({ id: "kb" })).chunk_size, 256);

    for (const answer of [checked, created, read, updated])
      assert.ok(!JSON.stringify(answer).includes(fx.em.token), "no answer holds the token");

    await p.delete(created.id, u, updated);
    assert.deepEqual(await p.read(created.id, u, updated), { id: "", props: {} }, "gone: an empty id");
  });

  it("wraps the leaves a description keeps secret inside an input: a variable marked isSecret, not its neighbour", async () => {
    const p = await configured(fx);
    const trigger = "0b6f7c4e-2a7d-4c1e-9a55-3f1f2d9b8c01";
    const c = await p.check(
      urn("TriggerEnvVars"),
      {},
      {
        triggerUuid: trigger,
        variables: { TOKEN: { value: "s3cr3t", isSecret: true }, MODE: { value: "prod" } },
      },
    );
    const vars = record(record(c.inputs).variables);
    assert.ok(isSecret(record(vars.TOKEN).value), "the secret variable's value");
    assert.equal(record(vars.TOKEN).isSecret, true);
    assert.equal(record(vars.MODE).value, "prod", "its neighbour stays plain");
  });

  it("imports by id alone: read answers the inputs (a SearchInstance, a ConfigRule as <zoneId>/<ref>)", async () => {
    const p = await configured(fx);
    await fx.api.search.instances.create({}, { id: "docs", chunk_size: 300 });
    const si = await p.read("default/docs", urn("SearchInstance"), {});
    assert.equal(si.id, "default/docs");
    assert.equal(record(si.inputs).instanceId, "docs");
    assert.equal(record(si.inputs).chunkSize, 300);

    const zoneId = (await fx.api.content.zones.create({}, { name: "example.com" })).id;
    const rule = record((await p.check(urn("ConfigRule"), {}, { zoneId, host: "a.example.com" })).inputs);
    const made = await p.create(urn("ConfigRule"), rule);
    const imported = await p.read(made.id, urn("ConfigRule"), {});
    assert.equal(imported.id, made.id);
    assert.equal(record(imported.inputs).zoneId, zoneId);
    // An imported rule is its expression (the program's host/pathPrefix shorthand is not recoverable).
    assert.equal(record(imported.inputs).expression, 'http.host eq "a.example.com"');
    assert.equal(record(imported.inputs).ref, rule.ref);
    await assert.rejects(
      p.read("no-slash", urn("ConfigRule"), {}),
      /ConfigRule read: id: a ConfigRule is imported as <zoneId>\/<ref>/,
    );
  });

  it("derives a rule's ref and a meeting's marker from the engine's URN: a create whose state was lost adopts", async () => {
    const p = await configured(fx);
    const zoneId = (await fx.api.content.zones.create({}, { name: "example.com" })).id;
    const u = urn("ConfigRule", "docs");
    const rule = record((await p.check(u, {}, { zoneId, host: "a.example.com" })).inputs);
    assert.equal(rule.ref, `pulumi-${keyOfUrn(u)}`);
    assert.equal("__urn" in rule, false, "the URN is never stored");
    const made = await p.create(u, rule);
    // `pulumi refresh --clear-pending-creates` dropped the create: check starts from nothing again.
    const again = record((await p.check(u, {}, { zoneId, host: "a.example.com" })).inputs);
    assert.deepEqual(again, rule);
    assert.equal((await p.create(u, again)).id, made.id);
    assert.equal((await fx.api.content.configRuleset.get({ zoneId }))?.rules.length, 1, "one rule");

    const m = urn("MeetingTemplate", "standup");
    const meeting = record((await p.check(m, {}, { appId: "app-1", title: "Standup" })).inputs);
    assert.deepEqual(record(meeting.aiConfig).transcription, { keywords: [`pulumi-mt-${keyOfUrn(m)}`] });
    const first = await p.create(m, meeting);
    assert.equal((await p.create(m, meeting)).id, first.id);
    assert.equal((await fx.api.meetings.meetings.listAll({ appId: "app-1" })).length, 1, "one meeting");
  });

  it("a create that made something but could not finish is an initialization failure with id and properties", async () => {
    const p = await configured(fx);
    const zoneId = (await fx.api.content.zones.create({}, { name: "example.com" })).id;
    const ins = record(
      (
        await p.check(
          urn("ConfigRule"),
          {},
          {
            zoneId,
            customHostnameMetadata: true,
            customHostnameIds: ["f".repeat(32)],
          },
        )
      ).inputs,
    );
    await assert.rejects(
      p.create(urn("ConfigRule"), ins),
      (e: Error & { id?: string; properties?: unknown }) => {
        assert.equal(e.name, "PartialCreateError");
        assert.equal(e.id, `${zoneId}/${String(ins.ref)}`);
        assert.ok(record(e.properties).ruleId, "what was made is recorded");
        assert.match(e.message, /^customHostnameIds: /);
        return true;
      },
    );
  });

  it("scrubs the token from an error that echoes it", async () => {
    // The API's answer echoes the account; make the token the account to see it scrubbed.
    const leaky = await configured(fx, { "account-api:config:accountId": fx.em.token });
    await assert.rejects(leaky.create(urn("SearchInstance"), { instanceId: "kb" }), (e: Error) => {
      assert.ok(!e.message.includes(fx.em.token), e.message);
      assert.match(e.message, /\/accounts\/\[redacted\]\//);
      assert.match(e.message, /^SearchInstance create: /);
      return true;
    });
  });

  it("invokes a function of the table, names a bad parameter, and refuses a side-effect function naming its run", async () => {
    const p = await configured(fx);
    const ok = await p.invoke("account-api:index:checkDomain", { domainName: "free-name.com" });
    assert.equal(record(ok.outputs).name, "free-name.com");
    assert.equal(typeof record(ok.outputs).registrable, "boolean");
    const bad = await p.invoke("account-api:index:checkDomain", { domainName: 7, extra: true });
    assert.deepEqual(
      bad.failures?.map((f) => f.property),
      ["domainName", "extra"],
    );
    assert.match(bad.failures?.[0]?.reason ?? "", /^checkDomain: domainName: /);
    // A list answers under the one key the SDKs read; the extensions have no price.
    const extensions = await p.invoke("account-api:index:listExtensions", {});
    const listed = record(extensions.outputs).result;
    assert.ok(Array.isArray(listed), JSON.stringify(extensions.outputs));
    assert.deepEqual(listed.slice(0, 2), [
      { name: "ai", tld: "ai" },
      { name: "com", tld: "com" },
    ]);
    await assert.rejects(
      p.invoke("account-api:index:triggerBuild", { triggerUuid: "t" }),
      /changes something remote.*use the resource account-api:index:BuildRun/,
    );
    await assert.rejects(p.invoke("account-api:index:toString", {}), /unknown function/);
  });

  it("invokes listApps: every app of the account, a list under the single result key", async () => {
    const p = await configured(fx);
    const app = await fx.api.meetings.apps.create({}, { name: "support" });
    const listed = await p.invoke("account-api:index:listApps", {});
    assert.deepEqual(record(listed.outputs).result, [
      { id: app.id, name: "support", createdAt: app.created_at },
    ]);
    const bad = await p.invoke("account-api:index:listApps", { appId: "a" });
    assert.deepEqual(
      bad.failures?.map((f) => f.property),
      ["appId"],
    );
  });
});

/** The checked inputs as a program would give them again (secrets revealed, as check reveals them). */
function checkedPlain(inputs: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(inputs, (_k, v: unknown) => (isSecret(v) ? v.value : v)));
}
