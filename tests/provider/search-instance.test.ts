import { strict as assert } from "node:assert";
import { runTriggerSyncJob, runWaitForJob } from "../../provider/functions/search";
import { UNKNOWN, secretHash } from "../../provider/inputs";
import {
  checkInputs,
  handler,
  inputFieldName,
  parseResourceId,
  planDiff,
  toApiBody,
  type SearchInstanceInputs,
  type SearchInstanceOutputs,
} from "../../provider/resources/search-instance";
import { ConflictError } from "../../sdk/errors";
import { useEmulator } from "../helpers/emulator";
import { providerContext } from "../helpers/provider-context";

const DEFAULTS = {
  chunk: true,
  chunkSize: 256,
  chunkOverlap: 10,
  cache: true,
  cacheThreshold: "close_enough",
  indexMethod: { keyword: false, vector: true },
  syncInterval: 21600,
  paused: false,
};

const CREDS = { accessKeyId: "AKID-1", secretAccessKey: "very-secret-value" };

describe("SearchInstance: check", () => {
  it("fills in the server's defaults and treats the default namespace as absent", () => {
    const { inputs, failures } = checkInputs({
      instanceId: "kb",
      namespace: "default",
      chunkSize: 512,
      tokenId: undefined,
    });
    assert.deepEqual(failures, []);
    assert.deepEqual(inputs, { ...DEFAULTS, instanceId: "kb", chunkSize: 512 });
  });

  it("names the input field and the rule of each failure", () => {
    const table: [Record<string, unknown>, string[]][] = [
      [{}, ["instanceId: is required"]],
      [{ instanceId: "Bad Id" }, ["instanceId: must contain only lowercase letters, digits, - and _"]],
      [{ instanceId: "kb", syncInterval: 60 }, ["syncInterval: must be between 900 and 86400 seconds"]],
      [
        { instanceId: "kb", namespace: "Team A" },
        ["namespace: must contain only lowercase letters, digits, - and _"],
      ],
      [{ instanceId: "kb", source: "b-bucket" }, ["type: is required when source is set"]],
      [
        { instanceId: "kb", customMetadata: [{ fieldName: "team", dataType: "date" }] },
        ["customMetadata.0.dataType: must be one of text, number, boolean"],
      ],
      [
        { instanceId: "kb", type: "web-crawler", source: "example.com", sourceParams: { prefix: "x/" } },
        ["sourceParams.prefix: is only allowed when type is r2"],
      ],
      [
        { instanceId: "kb", storageCredentials: { accessKeyId: "a" } },
        ["storageCredentials.secretAccessKey: is required"],
      ],
      [
        { instanceId: "kb", importId: "other" },
        ["importId: must equal instanceId (an instance's id never changes)"],
      ],
    ];
    for (const [news, reasons] of table) {
      assert.deepEqual(
        checkInputs(news).failures.map((f) => f.reason),
        reasons,
        JSON.stringify(news),
      );
    }
  });

  it("leaves values unknown at preview for the real run", () => {
    const { failures } = checkInputs({
      instanceId: UNKNOWN,
      type: "r2",
      source: UNKNOWN,
      chunkSize: UNKNOWN,
    });
    assert.deepEqual(failures, []);
  });

  it("maps API paths back to input names", () => {
    assert.equal(inputFieldName("id"), "instanceId");
    assert.equal(
      inputFieldName("source_params.storage_credentials.access_key_id"),
      "storageCredentials.accessKeyId",
    );
    assert.equal(inputFieldName("source_params.web_crawler.parse_type"), "sourceParams.webCrawler.parseType");
  });

  it("puts the credentials into source_params for the API", () => {
    const body = toApiBody({
      instanceId: "kb",
      type: "r2",
      source: "kb-bucket",
      sourceParams: { prefix: "d/" },
      storageCredentials: CREDS,
    });
    assert.deepEqual(body, {
      id: "kb",
      type: "r2",
      source: "kb-bucket",
      source_params: {
        prefix: "d/",
        storage_credentials: { access_key_id: "AKID-1", secret_access_key: "very-secret-value" },
      },
    });
  });
});

describe("SearchInstance: diff", () => {
  const base: SearchInstanceInputs = {
    ...DEFAULTS,
    instanceId: "kb",
    type: "r2",
    source: "kb-bucket",
  } as SearchInstanceInputs;
  const olds: SearchInstanceOutputs = {
    ...base,
    storageCredentials: CREDS,
    storageCredentialsHash: secretHash("storageCredentials", CREDS),
    createdAt: "t",
    status: "ready",
    stats: { queued: 0, running: 0, completed: 3, error: 0 },
  };

  const table: [
    string,
    Partial<SearchInstanceInputs>,
    { changed: string[]; replaces: string[]; deleteBeforeReplace: boolean },
  ][] = [
    ["nothing", {}, { changed: [], replaces: [], deleteBeforeReplace: false }],
    ["a setting", { chunkSize: 512 }, { changed: ["chunkSize"], replaces: [], deleteBeforeReplace: false }],
    [
      "the source",
      { source: "other-bucket" },
      { changed: ["source"], replaces: ["source"], deleteBeforeReplace: true },
    ],
    [
      "the id",
      { instanceId: "kb2" },
      { changed: ["instanceId"], replaces: ["instanceId"], deleteBeforeReplace: false },
    ],
    [
      "the namespace",
      { namespace: "team-a" },
      { changed: ["namespace"], replaces: ["namespace"], deleteBeforeReplace: false },
    ],
    ["only importId", { importId: "kb" }, { changed: [], replaces: [], deleteBeforeReplace: false }],
    [
      "the credentials",
      { storageCredentials: { ...CREDS, secretAccessKey: "rotated" } },
      { changed: ["storageCredentials"], replaces: [], deleteBeforeReplace: false },
    ],
  ];
  for (const [label, change, expected] of table) {
    it(`on a change of ${label}`, () => {
      const news = { ...base, storageCredentials: CREDS, ...change } as SearchInstanceInputs;
      const plan = planDiff(olds, news);
      assert.deepEqual(
        { changed: plan.changed, replaces: plan.replaces, deleteBeforeReplace: plan.deleteBeforeReplace },
        expected,
      );
      assert.equal(plan.changes, expected.changed.length > 0);
      assert.ok(!JSON.stringify(plan).includes("rotated"), "the diff never carries the secret");
    });
  }

  it("parses the documented resource id", () => {
    assert.deepEqual(parseResourceId("default/kb"), { instanceId: "kb" });
    assert.deepEqual(parseResourceId("team-a/kb"), { namespace: "team-a", instanceId: "kb" });
    assert.deepEqual(parseResourceId("kb"), { instanceId: "kb" });
  });
});

describe("SearchInstance: handler against the emulator", () => {
  const fx = useEmulator();

  async function seedNamespace(name: string): Promise<void> {
    const res = await fx.http("POST", "/__emulator/search/namespaces", { body: { name } });
    assert.equal(res.status, 200, res.text);
  }

  for (const namespace of [undefined, "team-a"]) {
    it(`creates, reads without drift, shows out-of-band drift, updates and deletes (${namespace ?? "default"})`, async () => {
      if (namespace) await seedNamespace(namespace);
      const ctx = providerContext(fx);
      const checked = checkInputs({
        instanceId: "kb",
        namespace,
        type: "r2",
        source: "kb-bucket",
        sourceParams: { prefix: "docs/" },
        storageCredentials: CREDS,
        customMetadata: [{ fieldName: "team", dataType: "text" }],
      });
      assert.deepEqual(checked.failures, []);
      const inputs = checked.inputs;

      const created = await handler.create(inputs, ctx);
      assert.equal(created.id, `${namespace ?? "default"}/kb`);
      assert.equal(created.outs.status, "waiting");
      assert.deepEqual(created.outs.stats, { queued: 0, running: 0, completed: 0, error: 0 });
      assert.equal(created.outs.storageCredentialsHash, secretHash("storageCredentials", CREDS));

      const read = await handler.read(created.id, created.outs, ctx);
      assert.ok(read);
      assert.deepEqual(read.inputs, inputs, "an unchanged object reads back as exactly the inputs");
      assert.equal((await handler.diff(created.id, read.props, read.inputs, ctx)).changes, false);

      // Out of band: a setting changes and a job runs.
      const live = await fx.api.search.getInstance({ namespace, id: "kb" });
      await fx.api.search.updateInstance({
        namespace,
        id: "kb",
        source_params: { prefix: "docs/" },
        chunk_size: 1024,
        custom_metadata: [{ field_name: "team", data_type: "text" }],
      });
      assert.equal(live.chunk_size, 256);
      const job = await fx.api.search.createJob({ namespace, id: "kb" });
      fx.clock.advance(60_000);
      const drifted = await handler.read(created.id, created.outs, ctx);
      assert.ok(drifted);
      assert.equal(drifted.inputs.chunkSize, 1024);
      assert.deepEqual(drifted.props.stats, { queued: 0, running: 0, completed: 3, error: 0 });
      assert.equal(drifted.props.status, "ready");
      assert.deepEqual(drifted.inputs.storageCredentials, CREDS, "write-only values are kept from state");
      const diff = await handler.diff(created.id, drifted.props, inputs, ctx);
      assert.deepEqual(diff, { changes: true, replaces: [], deleteBeforeReplace: false });
      assert.ok(job.id);

      const updated = await handler.update(created.id, drifted.props, inputs, ctx);
      assert.equal(updated.outs.chunkSize, 256);
      assert.equal((await fx.api.search.getInstance({ namespace, id: "kb" })).chunk_size, 256);

      await handler.delete(created.id, updated.outs, ctx);
      assert.equal(await handler.read(created.id, updated.outs, ctx), undefined, "a 404 on read means gone");
      await handler.delete(created.id, updated.outs, ctx); // deleting again is success
    });
  }

  it("refuses to create over an existing instance and says how to adopt it", async () => {
    const ctx = providerContext(fx);
    await fx.api.search.createInstance({ id: "taken" });
    await assert.rejects(handler.create(checkInputs({ instanceId: "taken" }).inputs, ctx), {
      message:
        'instanceId: instance "taken" already exists in namespace "default"; set importId: "taken" to adopt it',
    });
  });

  it("adopts an existing instance with importId and brings it to the inputs", async () => {
    const ctx = providerContext(fx);
    await fx.api.search.createInstance({ id: "legacy", type: "r2", source: "kb-bucket", chunk_size: 2048 });
    const inputs = checkInputs({
      instanceId: "legacy",
      importId: "legacy",
      type: "r2",
      source: "kb-bucket",
    }).inputs;
    const adopted = await handler.create(inputs, ctx);
    assert.equal(adopted.outs.chunkSize, 256);
    assert.equal((await fx.api.search.getInstance({ id: "legacy" })).chunk_size, 256);
    await assert.rejects(
      handler.create(checkInputs({ instanceId: "ghost", importId: "ghost" }).inputs, ctx),
      {
        message: 'importId: instance "ghost" not found in namespace "default"; nothing to adopt',
      },
    );
  });

  it("logs that removed credentials stay with the service", async () => {
    const logs: string[] = [];
    const ctx = providerContext(fx, logs);
    const inputs = checkInputs({
      instanceId: "kb",
      type: "r2",
      source: "kb-bucket",
      storageCredentials: CREDS,
    }).inputs;
    const created = await handler.create(inputs, ctx);
    const { storageCredentials: _gone, ...without } = inputs;
    await handler.update(created.id, created.outs, without as SearchInstanceInputs, ctx);
    assert.equal(logs.length, 1);
    assert.match(logs[0]!, /storageCredentials removed from the program/);
    assert.ok(!logs[0]!.includes(CREDS.secretAccessKey));
  });
});

describe("search functions (the logic run on up)", () => {
  const fx = useEmulator();

  it("starts a job, reuses a running one, and waits for it", async () => {
    await fx.api.search.createInstance({ id: "kb", type: "r2", source: "kb-bucket" });
    const started = await runTriggerSyncJob(fx.api, { instanceId: "kb" });
    assert.equal(started.reused, false);
    assert.equal(started.endedAt, null);
    const again = await runTriggerSyncJob(fx.api, { instanceId: "kb" });
    assert.deepEqual({ id: again.id, reused: again.reused }, { id: started.id, reused: true });
    await assert.rejects(runTriggerSyncJob(fx.api, { instanceId: "kb", reuseRunning: false }), ConflictError);
    fx.clock.advance(10_000);
    const done = await runWaitForJob(fx.api, { instanceId: "kb", jobId: started.id });
    assert.equal(done.endReason, "completed");
    assert.equal(done.endedAt, "2026-01-01T00:00:02.500Z");
  });
});
