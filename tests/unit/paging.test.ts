/** Paged listings: every way a listing ends, and the guards against servers that never say so. */
import { strict as assert } from "node:assert";
import { z } from "zod";
import type { ResultInfo } from "../../sdk/client";
import { PagingError } from "../../sdk/errors";
import { collect, cursorStyle, pageStyle, type Page } from "../../sdk/paging";
import { harness, ok, scriptedServer, type ScriptedServer } from "./transport-server.test";

/** A fake page source over `pages`, recording each call. */
function pages<T>(list: readonly Page<T>[]) {
  const calls: [number, number][] = [];
  const fetchPage = async (page: number, perPage: number): Promise<Page<T>> => {
    calls.push([page, perPage]);
    return list[page - 1] ?? { items: [] };
  };
  return { calls, fetchPage };
}

describe("paging: page style", () => {
  it("stops on an empty page", async () => {
    const src = pages([{ items: [1, 2] }, { items: [3, 4] }, { items: [] }]);
    assert.deepEqual(await collect(pageStyle(src.fetchPage, 2)), [1, 2, 3, 4]);
    assert.deepEqual(src.calls, [
      [1, 2],
      [2, 2],
      [3, 2],
    ]);
  });

  it("stops once total_count items arrived, without asking for an empty page", async () => {
    const info: ResultInfo = { per_page: 3, total_count: 6 };
    const src = pages([
      { items: ["a", "b", "c"], info },
      { items: ["d", "e", "f"], info },
      { items: ["never"] },
    ]);
    assert.deepEqual(await collect(pageStyle(src.fetchPage, 3)), ["a", "b", "c", "d", "e", "f"]);
    assert.equal(src.calls.length, 2);
  });

  it("stops on a short page", async () => {
    const src = pages([{ items: [1, 2, 3] }, { items: [4] }, { items: [99] }]);
    assert.deepEqual(await collect(pageStyle(src.fetchPage, 3)), [1, 2, 3, 4]);
    assert.equal(src.calls.length, 2);
  });

  it("measures a short page against the server's per_page, not the one asked for", async () => {
    const info: ResultInfo = { per_page: 2 };
    const src = pages([
      { items: [1, 2], info },
      { items: [3, 4], info },
      { items: [5], info },
    ]);
    assert.deepEqual(await collect(pageStyle(src.fetchPage, 50)), [1, 2, 3, 4, 5]);
    assert.equal(src.calls.length, 3);
  });

  it("stops when the server ignores `page` and answers page 1 again", async () => {
    const src = { calls: 0 };
    const fetchPage = async (): Promise<Page<number>> => {
      src.calls++;
      return { items: [1, 2], info: { page: 1, per_page: 2 } };
    };
    assert.deepEqual(await collect(pageStyle(fetchPage, 2)), [1, 2]);
    assert.equal(src.calls, 2);
  });

  it("throws PagingError rather than loop forever or truncate silently", async () => {
    let calls = 0;
    const endless = async (): Promise<Page<number>> => ({ items: [calls++, calls++] });
    await assert.rejects(collect(pageStyle(endless, 2, 5)), (e: unknown) => {
      assert.ok(e instanceof PagingError);
      assert.equal(e.code, "ERR_PAGING");
      assert.equal(e.message, "page-style listing did not end within 5 pages");
      return true;
    });
    assert.equal(calls, 10);
  });

  it("fetches lazily: a consumer that stops early asks for no further page", async () => {
    const src = pages([{ items: [1, 2] }, { items: [3, 4] }, { items: [] }]);
    for await (const x of pageStyle(src.fetchPage, 2)) if (x === 2) break;
    assert.equal(src.calls.length, 1);
  });

  it("passes an error of a page fetch through", async () => {
    const failing = async (): Promise<Page<number>> => {
      throw new Error("page 1 failed");
    };
    await assert.rejects(collect(pageStyle(failing)), /page 1 failed/);
  });
});

describe("paging: cursor style", () => {
  function cursors(list: Record<string, { items: string[]; cursor?: string | null }>) {
    const calls: (string | undefined)[] = [];
    const fetchPage = async (cursor: string | undefined) => {
      calls.push(cursor);
      const page = list[cursor ?? ""];
      assert.ok(page, `unexpected cursor ${cursor}`);
      return page;
    };
    return { calls, fetchPage };
  }

  it("follows cursors until one is missing", async () => {
    const src = cursors({
      "": { items: ["a"], cursor: "c1" },
      c1: { items: ["b"], cursor: "c2" },
      c2: { items: ["c"] },
    });
    assert.deepEqual(await collect(cursorStyle(src.fetchPage)), ["a", "b", "c"]);
    assert.deepEqual(src.calls, [undefined, "c1", "c2"]);
  });

  it("stops on an empty or null cursor", async () => {
    const empty = cursors({ "": { items: ["a"], cursor: "c1" }, c1: { items: ["b"], cursor: "" } });
    assert.deepEqual(await collect(cursorStyle(empty.fetchPage)), ["a", "b"]);
    assert.equal(empty.calls.length, 2);
    const nul = cursors({ "": { items: ["a"], cursor: null } });
    assert.deepEqual(await collect(cursorStyle(nul.fetchPage)), ["a"]);
    assert.equal(nul.calls.length, 1);
  });

  it("stops on a repeated cursor (the same one, or one seen before)", async () => {
    const same = cursors({ "": { items: ["a"], cursor: "c1" }, c1: { items: ["b"], cursor: "c1" } });
    assert.deepEqual(await collect(cursorStyle(same.fetchPage)), ["a", "b"]);
    assert.deepEqual(same.calls, [undefined, "c1"]);
    const cycle = cursors({
      "": { items: ["a"], cursor: "c1" },
      c1: { items: ["b"], cursor: "c2" },
      c2: { items: ["c"], cursor: "c1" },
    });
    assert.deepEqual(await collect(cursorStyle(cycle.fetchPage)), ["a", "b", "c"]);
    assert.deepEqual(cycle.calls, [undefined, "c1", "c2"]);
  });

  it("throws PagingError past its page budget", async () => {
    let n = 0;
    const endless = async () => ({ items: [n], cursor: `c${++n}` });
    await assert.rejects(collect(cursorStyle(endless, 4)), (e: unknown) => {
      assert.ok(e instanceof PagingError);
      assert.equal(e.message, "cursor-style listing did not end within 4 pages");
      return true;
    });
    assert.equal(n, 4);
  });
});

describe("paging: over the transport", () => {
  let srv: ScriptedServer;
  afterEach(() => srv.close());

  it("walks a page-style listing through requestWithInfo", async () => {
    const info = (page: number) => ({ result_info: { page, per_page: 2, count: 2, total_count: 3 } });
    srv = await scriptedServer([ok([{ id: "a" }, { id: "b" }], info(1)), ok([{ id: "c" }], info(2))]);
    const { client } = harness(srv);
    const list = pageStyle(async (page, perPage) => {
      const res = await client.requestWithInfo({
        method: "GET",
        path: "/items",
        query: { page, per_page: perPage },
        schema: z.array(z.looseObject({ id: z.string() })),
      });
      return { items: res.value, info: res.resultInfo };
    }, 2);
    assert.deepEqual(
      (await collect(list)).map((x) => x.id),
      ["a", "b", "c"],
    );
    assert.deepEqual(
      srv.requests.map((r) => r.url),
      ["/client/v4/items?page=1&per_page=2", "/client/v4/items?page=2&per_page=2"],
    );
  });
});
