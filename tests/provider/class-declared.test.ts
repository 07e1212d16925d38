/**
 * What a resource class declares to the SDK: every declared property costs an Output of eight
 * promises per resource, so only the inputs given, the ones check fills in, the server's values and
 * the hashes are declared; a left-out input reads as its type's default.
 */
import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import { BuildTrigger, MeetingTemplate, SearchInstance } from "../../provider";
import { SearchInstanceSpec } from "../../provider/resources/search-instance/spec";

/** The engine answers the inputs it was given, with `status` as the server's value. */
const mocks: pulumi.runtime.Mocks = {
  newResource: (args) => ({ id: `${args.name}-id`, state: { ...args.inputs, status: "waiting" } }),
  call: (args) => args.inputs,
};

const valueOf = <T>(output: pulumi.Output<T>): Promise<T> =>
  new Promise((resolve) => output.apply((v) => resolve(v)));

/** The resources an Output depends on (the SDK's own method, not in its declarations). */
async function resourcesOf(output: object): Promise<unknown> {
  const method: unknown = Reflect.get(output, "resources");
  return typeof method === "function" ? await method.call(output) : undefined;
}

/** The properties the SDK made Outputs of (own, enumerable, not the SDK's bookkeeping). */
const declared = (r: object): string[] =>
  Object.keys(r)
    .filter((k) => !k.startsWith("__") && k !== "urn" && k !== "id")
    .sort();

describe("a described resource class declares only what it must", () => {
  before(() => pulumi.runtime.setMocks(mocks, "proj", "stack", false));

  it("a SearchInstance declares its given inputs, its outputs and its hash, not its 35 left-out inputs", async () => {
    const given = {
      instanceId: "docs",
      type: "web-crawler",
      source: "docs.example.com",
      syncInterval: 3600,
    } as const;
    const si = new SearchInstance("docs", given);
    const expected = [
      ...Object.keys(given),
      ...SearchInstanceSpec.outputNames,
      ...SearchInstanceSpec.hashOutputs,
    ].sort();
    assert.deepEqual(declared(si), expected);
    assert.ok(SearchInstanceSpec.inputNames.length > expected.length);
    assert.equal(await valueOf(si.syncInterval), 3600);
    assert.equal(await valueOf(si.status), "waiting");
  });

  it("a left-out input reads as its type's default, or undefined without one", async () => {
    const si = new SearchInstance("defaults", {
      instanceId: "d",
      type: "web-crawler",
      source: "docs.example.com",
    });
    const chunkSize = SearchInstanceSpec.fields.chunkSize.type.parse(undefined);
    assert.notEqual(chunkSize, undefined);
    assert.equal(await valueOf(si.chunkSize), chunkSize);
    assert.equal(
      await valueOf(si.summarization),
      SearchInstanceSpec.fields.summarization.type.parse(undefined),
    );
    assert.equal(await valueOf(si.importId), undefined);
    // The value still depends on the resource: a consumer waits for it.
    const deps = await resourcesOf(si.chunkSize);
    assert.ok(deps instanceof Set && deps.has(si));
  });

  it("inputs that normalize fills are declared even when left out", () => {
    const t = new BuildTrigger("t", {
      externalScriptId: "00000000-0000-4000-8000-000000000001",
      repoConnectionUuid: "00000000-0000-4000-8000-000000000002",
      buildTokenUuid: "00000000-0000-4000-8000-000000000003",
      kind: "production",
    });
    for (const k of ["branchIncludes", "deployCommand", "triggerName"]) assert.ok(declared(t).includes(k), k);
    const m = new MeetingTemplate("m", { appId: "app", title: "Standup" });
    assert.ok(declared(m).includes("aiConfig"));
  });

  it("a program may still assign a left-out input's property", () => {
    const si = new SearchInstance("assign", {
      instanceId: "a",
      type: "web-crawler",
      source: "docs.example.com",
    });
    const replacement = pulumi.output(7);
    Object.assign(si, { chunkSize: replacement });
    assert.equal(si.chunkSize, replacement);
  });
});

describe("a resource's registration and stack traces", () => {
  before(() => pulumi.runtime.setMocks(mocks, "proj", "stack", false));

  it("leaves Error.stackTraceLimit as it found it, also when the SDK refuses the resource", () => {
    const saved = Error.stackTraceLimit;
    try {
      Error.stackTraceLimit = 17;
      new SearchInstance("limit", { instanceId: "l", type: "web-crawler", source: "docs.example.com" });
      assert.equal(Error.stackTraceLimit, 17);
      assert.throws(
        () =>
          new SearchInstance(Reflect.get({}, "name"), {
            instanceId: "x",
            type: "web-crawler",
            source: "docs.example.com",
          }),
        /name/i,
      );
      assert.equal(Error.stackTraceLimit, 17);
    } finally {
      Error.stackTraceLimit = saved;
    }
  });
});
