/**
 * How an area words its errors: an injected fault renders through the one error handler, in the
 * area's code and message (`defineArea({ fault })`) and envelope (`defineArea({ errorBody })`).
 */
import { strict as assert } from "node:assert";
import { request } from "undici";
import { z } from "zod";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import type { AreaModule } from "../../emulator/area";
import { defineArea } from "../../emulator/define";
import { DomainError, notFound } from "../../emulator/http";

/** A small area whose errors read `{success: false, error: {code, message}}`, as meetings' 500 does. */
const worded: AreaModule = {
  name: "worded",
  api: (app) => {
    const area = defineArea(app, {
      envelope: "data",
      auth: () => undefined,
      fault: (status) => new DomainError(status, { code: 7000 + status, message: `worded.${status}` }),
      errorBody: (e) => ({ success: false, error: { code: e.code, message: e.errors[0]?.message } }),
    });
    area.get(
      "/worded/:id",
      { params: z.object({ id: z.string() }), permissions: undefined },
      ({ params }) => {
        if (params.id !== "here") throw notFound(`thing ${params.id}`);
        return { id: params.id };
      },
    );
  },
};

async function get(em: RunningEmulator, path: string) {
  const res = await request(`${em.url}${path}`, { headers: { authorization: `Bearer ${em.token}` } });
  return { status: res.statusCode, headers: res.headers, body: await res.body.json() };
}

describe("emulator: errors in the area's words", function () {
  let em: RunningEmulator;
  before(async () => (em = await startEmulator({ extraAreas: [worded] })));
  after(async () => em.stop());
  afterEach(() => em.faults.clear());

  it("renders a handler's error with the area's errorBody", async function () {
    const found = await get(em, "/worded/here");
    assert.deepEqual([found.status, found.body], [200, { success: true, data: { id: "here" } }]);
    const missing = await get(em, "/worded/gone");
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, {
      success: false,
      error: { code: 1002, message: "thing gone not found" },
    });
  });

  it("words an injected fault with the area's fault and errorBody, keeping Retry-After", async function () {
    em.faults.add({ path: "^/client/v4/worded/", status: 500, times: 1 });
    const failed = await get(em, "/worded/here");
    assert.equal(failed.status, 500);
    assert.deepEqual(failed.body, { success: false, error: { code: 7500, message: "worded.500" } });
    em.faults.add({ path: "^/client/v4/worded/", status: 429, retryAfter: "3", times: 1 });
    const throttled = await get(em, "/worded/here");
    assert.equal(throttled.status, 429);
    assert.equal(throttled.headers["retry-after"], "3");
    assert.deepEqual(throttled.body, { success: false, error: { code: 7429, message: "worded.429" } });
  });

  it("keeps the generic envelope and codes on an area that words nothing", async function () {
    em.faults.add({ path: "/ai-search/instances$", status: 503, retryAfter: "1", times: 1 });
    const failed = await get(em, `/accounts/${em.accountId}/ai-search/instances`);
    assert.equal(failed.status, 503);
    assert.equal(failed.headers["retry-after"], "1");
    assert.deepEqual(failed.body, {
      success: false,
      errors: [{ code: 10002, message: "injected fault" }],
      messages: [],
      result: null,
    });
  });
});
