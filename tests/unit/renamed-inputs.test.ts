/**
 * Renamed inputs (`defineResource({ renamed })`): a program that still uses an earlier release's
 * name is refused at check with the new name, and a state stored under the old name is read under
 * the new one, so an upgrade neither replaces nor shows a diff.
 */
import { strict as assert } from "node:assert";
import { z } from "zod";
import { defineResource, local, renameStored, wire } from "../../provider/core/define";
import { handlerFrom, type Remote } from "../../provider/core/pipeline";
import type { HandlerContext } from "../../provider/types";
import { offlineContext } from "../helpers/provider-context";

const Spec = defineResource({
  kind: "MeetingTemplate",
  renamed: { mediaBucket: "bucket", oldSecret: "token" },
  fields: {
    title: wire("title", z.string(), { replaceOnChange: true }),
    bucket: wire("bucket", z.string().optional()),
    token: local(z.string().optional(), { secret: true, writeOnly: true }),
  },
});

interface Live {
  id: string;
  title: string;
  bucket?: string;
}

const store = new Map<string, Live>();
const remote: Remote<typeof Spec, Live> = {
  noun: "thing",
  idOf: (live) => live.id,
  get: async (id) => store.get(id),
  create: async (inputs) => {
    const live = { id: `id-${store.size}`, title: inputs.title, bucket: inputs.bucket };
    store.set(live.id, live);
    return live;
  },
  update: async (id, inputs) => {
    const live = { id, title: inputs.title, bucket: inputs.bucket };
    store.set(id, live);
    return live;
  },
  remove: async (id) => {
    store.delete(id);
  },
};
const handler = handlerFrom(Spec, { remote });
const ctx: HandlerContext = offlineContext;

describe("renamed inputs", () => {
  it("check refuses an old name, naming the new one (not 'is not a known field'), with other failures", async () => {
    const r = await handler.check(undefined, { title: 3, mediaBucket: "b" }, ctx);
    const reasons = (r.failures ?? []).map((f) => f.reason).sort();
    assert.deepEqual(reasons, [
      "mediaBucket: renamed to bucket",
      "title: Invalid input: expected string, received number",
    ]);
    assert.equal(r.inputs, undefined);
  });

  it("check passes the new name", async () => {
    const r = await handler.check(undefined, { title: "t", bucket: "b" }, ctx);
    assert.deepEqual(r.failures, []);
    assert.equal(r.inputs?.bucket, "b");
  });

  it("a state stored under old names diffs as no change against today's program", async () => {
    const old = { title: "t", mediaBucket: "b", oldSecret: "s", oldSecretHash: "h" };
    const upgraded = renameStored(Spec, old);
    assert.deepEqual(upgraded, { title: "t", bucket: "b", token: "s", tokenHash: "h" });
    const news = (await handler.check(old, { title: "t", bucket: "b" }, ctx)).inputs;
    assert.ok(news);
    const d = await handler.diff("id-0", { ...old, oldSecretHash: undefined }, news, ctx);
    assert.deepEqual(d.replaces, []);
    assert.equal(d.changes, false);
  });

  it("a changed value under the old name still shows as a change of the new input", async () => {
    const old = { title: "t", mediaBucket: "old" };
    const d = await handler.diff("id-0", old, { title: "t", bucket: "new" }, ctx);
    assert.equal(d.changes, true);
    assert.deepEqual(d.replaces, []);
  });

  it("a new name that is set wins over a leftover old key", () => {
    assert.deepEqual(renameStored(Spec, { title: "t", bucket: "now", mediaBucket: "then" }), {
      title: "t",
      bucket: "now",
    });
  });

  it("a rename must point from a gone input to a current one", () => {
    assert.throws(
      () =>
        defineResource({
          kind: "MeetingTemplate",
          renamed: { title: "nope" },
          fields: { title: wire("title", z.string()) },
        }),
      /renamed input title → nope must name a gone input and a current one/,
    );
  });
});
