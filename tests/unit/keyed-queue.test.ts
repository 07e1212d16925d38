import { strict as assert } from "node:assert";
import { KeyedQueue } from "../../provider/keyed-queue";

describe("KeyedQueue (provider session serialization)", () => {
  it("runs work for one key one at a time, in call order", async () => {
    const q = new KeyedQueue();
    const events: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = q.run("zone", async () => {
      events.push("a:start");
      await gate;
      events.push("a:end");
    });
    const second = q.run("zone", async () => {
      events.push("b:start");
    });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(events, ["a:start"], "the second waits while the first runs");
    release();
    await Promise.all([first, second]);
    assert.deepEqual(events, ["a:start", "a:end", "b:start"]);
  });

  it("lets different keys run side by side", async () => {
    const q = new KeyedQueue();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const blocked = q.run("a", () => gate);
    let otherRan = false;
    await q.run("b", async () => {
      otherRan = true;
    });
    assert.equal(otherRan, true);
    release();
    await blocked;
  });

  it("keeps going after a failure and hands the failure to its own caller", async () => {
    const q = new KeyedQueue();
    const failed = q.run("k", async () => {
      throw new Error("boom");
    });
    const next = q.run("k", async () => "after");
    await assert.rejects(failed, /boom/);
    assert.equal(await next, "after");
  });
});
