/**
 * The pipeline's capability objects (provider/core/pipeline.ts): what a kind hands `handlerFrom` decides
 * what create, read and diff do. A kind without a natural key throws a refused create as it is and
 * looks nothing up; with one, a refusal (or, with `lookupBeforeCreate`, every create) looks the key up
 * and adopts its own; `history.upgrade` brings an old stored state to today's on read and diff. The
 * remote object is an in-memory map: no request is sent.
 */
import { strict as assert } from "node:assert";
import { z } from "zod";
import { defineResource, wire } from "../../provider/core/define";
import {
  handlerFrom,
  type Adoption,
  type Capabilities,
  type Checks,
  type History,
  type NaturalKey,
  type Reading,
  type Remote,
} from "../../provider/core/pipeline";
import { ResourceInputError } from "../../provider/errors";
import type { HandlerContext } from "../../provider/types";
import { AccountApi } from "../../sdk";
import { ConflictError, InternalServerError } from "../../sdk/errors";

const Spec = defineResource({
  kind: "MeetingTemplate",
  fields: {
    name: wire("name", z.string(), { identity: true }),
    size: wire("size", z.number().optional()),
  },
});
type Spec = typeof Spec;

interface Live {
  id: string;
  name: string;
  size?: number;
  /** What a create of ours writes, so that `ours` can tell. */
  marker?: string;
}

const apiError = (status: number): { status: number; errors: []; method: string; path: string } => ({
  status,
  errors: [],
  method: "POST",
  path: "/things",
});

/** An in-memory remote object that records every call; `refuse` makes the next create throw. */
function world() {
  const store = new Map<string, Live>();
  const calls: string[] = [];
  const state: { refuse?: Error; seenOnGet: unknown[] } = { seenOnGet: [] };
  const remote: Remote<Spec, Live> = {
    noun: "thing",
    idOf: (live) => live.id,
    get: async (id, stored) => {
      calls.push("get");
      state.seenOnGet.push({ ...stored });
      return store.get(id);
    },
    create: async (inputs) => {
      calls.push("create");
      const refusal = state.refuse;
      state.refuse = undefined;
      if (refusal) throw refusal;
      const live = { id: `id-${store.size}`, name: inputs.name, size: inputs.size, marker: "ours" };
      store.set(live.id, live);
      return live;
    },
    update: async (id, inputs, changed) => {
      calls.push(`update ${changed.join(",")}`);
      const live = { ...store.get(id), id, name: inputs.name, size: inputs.size };
      store.set(id, live);
      return live;
    },
    remove: async (id) => {
      calls.push("remove");
      store.delete(id);
    },
  };
  const byName: NaturalKey<Spec, Live> = {
    keyField: "name",
    keyOf: (i) => `named "${i.name}"`,
    findByKey: async (i) => {
      calls.push("findByKey");
      return [...store.values()].find((t) => t.name === i.name);
    },
    ours: (live) => live.marker === "ours",
  };
  return { store, calls, state, remote, byName };
}

const logs: string[] = [];
const api = new AccountApi({
  baseUrl: "http://127.0.0.1:9/client/v4",
  token: "t".repeat(40),
  accountId: "acct",
  retry: { maxRetries: 0 },
  env: {},
});
const ctx: HandlerContext = {
  api,
  accountId: (override) => override ?? "acct",
  log: (message) => {
    logs.push(message);
  },
  serialize: (_key, fn) => fn(),
};

const handler = (caps: Capabilities<Spec, Live>) => handlerFrom(Spec, caps);

describe("capabilities: what a kind hands the pipeline decides what it does", () => {
  after(() => api.close());

  describe("no natural key", () => {
    it("a create the API refuses as held is thrown as it is, sent once, nothing looked up", async () => {
      const w = world();
      const conflict = new ConflictError(apiError(409));
      w.state.refuse = conflict;
      await assert.rejects(handler({ remote: w.remote }).create({ name: "a" }, ctx), (e) => e === conflict);
      assert.deepEqual(w.calls, ["create"]);
    });

    it("a create whose outcome is unknown (a 500) is thrown as it is: nothing could tell whether it landed", async () => {
      const w = world();
      const unknown = new InternalServerError(apiError(500));
      w.state.refuse = unknown;
      await assert.rejects(handler({ remote: w.remote }).create({ name: "a" }, ctx), (e) => e === unknown);
      assert.deepEqual(w.calls, ["create"]);
    });

    it("find answers nothing without a key", async () => {
      const w = world();
      w.store.set("x", { id: "x", name: "a", marker: "ours" });
      assert.equal(await handler({ remote: w.remote }).find?.({ name: "a" }, ctx), undefined);
      assert.deepEqual(w.calls, []);
    });
  });

  describe("a natural key", () => {
    it("sends first; a 409 leads to the look-up, and an object with the very settings is adopted", async () => {
      const w = world();
      w.store.set("x", { id: "x", name: "a", size: 2 });
      w.state.refuse = new ConflictError(apiError(409));
      const made = await handler({ remote: w.remote, key: w.byName }).create({ name: "a", size: 2 }, ctx);
      assert.equal(made.id, "x");
      // Same settings: adopted without a write.
      assert.deepEqual(w.calls, ["create", "findByKey"]);
    });

    it("a 409 with nothing holding the key is thrown as it was", async () => {
      const w = world();
      const conflict = new ConflictError(apiError(409));
      w.state.refuse = conflict;
      await assert.rejects(
        handler({ remote: w.remote, key: w.byName }).create({ name: "a" }, ctx),
        (e) => e === conflict,
      );
      assert.deepEqual(w.calls, ["create", "findByKey"]);
    });

    it("lookupBeforeCreate looks up before the first send and adopts its own (`ours`), updating what differs", async () => {
      const w = world();
      w.store.set("x", { id: "x", name: "a", size: 1, marker: "ours" });
      const key = { ...w.byName, lookupBeforeCreate: true };
      const made = await handler({ remote: w.remote, key }).create({ name: "a", size: 5 }, ctx);
      assert.equal(made.id, "x");
      assert.deepEqual(w.calls, ["findByKey", "update size"]);
      assert.equal(w.store.get("x")?.size, 5);
      assert.ok(logs.some((l) => l.includes("thing x is this resource's own; adopted")));
    });

    it("lookupBeforeCreate refuses an object that is not ours, naming the key and the importId to adopt it", async () => {
      const w = world();
      w.store.set("x", { id: "x", name: "a", size: 1 });
      const key = { ...w.byName, lookupBeforeCreate: true };
      const adoption: Adoption<Spec, Live> = { importIdOf: (live) => `import-${live.id}` };
      await assert.rejects(
        handler({ remote: w.remote, key, adoption }).create({ name: "a", size: 5 }, ctx),
        (e) =>
          e instanceof ResourceInputError &&
          e.field === "name" &&
          e.rule ===
            'a thing named "a" already exists (x) with other settings (size); set importId: "import-x" to adopt it',
      );
      assert.deepEqual(w.calls, ["findByKey"]);
    });

    it("without lookupBeforeCreate no look-up precedes a create that succeeds", async () => {
      const w = world();
      const made = await handler({ remote: w.remote, key: w.byName }).create({ name: "a" }, ctx);
      assert.equal(made.id, "id-0");
      assert.deepEqual(w.calls, ["create"]);
    });
  });

  describe("adoption", () => {
    it("importId goes through `adoptable`, then `adopt` instead of an update", async () => {
      const w = world();
      w.store.set("x", { id: "x", name: "other" });
      const adoption: Adoption<Spec, Live> = {
        adoptable: (live, i) =>
          live.name === i.name ? undefined : { field: "importId", rule: `thing ${live.id} is not ${i.name}` },
        adopt: async (id, live) => {
          w.calls.push("adopt");
          return { ...live, id, marker: "ours" };
        },
      };
      const h = handler({ remote: w.remote, adoption });
      await assert.rejects(
        h.create({ name: "a", importId: "x" }, ctx),
        (e) => e instanceof ResourceInputError && e.rule === "thing x is not a",
      );
      const adopted = await h.create({ name: "other", size: 3, importId: "x" }, ctx);
      assert.equal(adopted.id, "x");
      assert.deepEqual(w.calls, ["get", "get", "adopt"]);
    });
  });

  describe("history", () => {
    // Releases before this one stored the size as `oldSize`.
    const history: History = {
      upgrade: ({ oldSize, ...rest }) => (oldSize === undefined ? rest : { ...rest, size: oldSize }),
    };
    const old = { name: "a", oldSize: 3 };

    it("upgrade runs on read of an old state: the remote call and the inputs see today's shape", async () => {
      const w = world();
      w.store.set("x", { id: "x", name: "a", size: 3 });
      const read = await handler({ remote: w.remote, history }).read("x", old, ctx);
      assert.deepEqual(w.state.seenOnGet, [{ name: "a", size: 3 }]);
      assert.deepEqual(read?.inputs, { name: "a", size: 3 });
    });

    it("an old state diffs as no change against today's program, and as a change without the upgrade", async () => {
      const w = world();
      const upgraded = await handler({ remote: w.remote, history }).diff(
        "x",
        old,
        { name: "a", size: 3 },
        ctx,
      );
      assert.equal(upgraded.changes, false);
      const plain = await handler({ remote: w.remote }).diff("x", old, { name: "a", size: 3 }, ctx);
      assert.equal(plain.changes, true);
    });
  });

  describe("checks and reading", () => {
    const checks: Checks<Spec> = {
      normalize: (i) => ({ ...i, size: i.size ?? 1 }),
      rules: (i, known) => (known("size") && (i.size ?? 0) > 9 ? [{ field: "size", rule: "at most 9" }] : []),
    };

    it("normalize fills a default before the rules run", async () => {
      const w = world();
      const h = handler({ remote: w.remote, checks });
      assert.deepEqual((await h.check(undefined, { name: "a" }, ctx)).inputs, { name: "a", size: 1 });
      assert.deepEqual((await h.check(undefined, { name: "a", size: 10 }, ctx)).failures, [
        { property: "size", reason: "size: at most 9" },
      ]);
    });

    it("`same` turns a difference that means nothing into no change; `outOfSync` a state into one", async () => {
      const w = world();
      const reading: Reading<Spec, Live> = {
        same: (field, olds, news) => field === "size" && Math.abs((olds.size ?? 0) - (news.size ?? 0)) < 1,
        // A size of 0 is what a write outside the program leaves: no input says so, update puts it right.
        outOfSync: (state) => state.size === 0,
      };
      const h = handler({ remote: w.remote, reading });
      assert.equal((await h.diff("x", { name: "a", size: 1 }, { name: "a", size: 1.5 }, ctx)).changes, false);
      assert.equal((await h.diff("x", { name: "a", size: 1 }, { name: "a", size: 3 }, ctx)).changes, true);
      assert.equal((await h.diff("x", { name: "a", size: 0 }, { name: "a", size: 0 }, ctx)).changes, true);
    });
  });
});
