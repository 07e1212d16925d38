import { strict as assert } from "node:assert";
import { useEmulator } from "../helpers/emulator";

describe("emulator core", () => {
  const fx = useEmulator();

  it("answers an unknown route with 404 in the envelope", async () => {
    const res = await fx.http("GET", "/no/such/route");
    assert.equal(res.status, 404);
    assert.equal((res.json as { errors: { code: number }[] }).errors[0]!.code, 1002);
  });

  it("injects a 503 with Retry-After for a matching route, then wears out", async () => {
    const add = await fx.http("POST", "/__emulator/faults", {
      body: { path: "^/client/v4/nothing", status: 503, retryAfter: "7", times: 1 },
    });
    assert.equal(add.status, 200);
    const first = await fx.http("GET", "/nothing");
    assert.equal(first.status, 503);
    assert.equal(first.headers["retry-after"], "7");
    const second = await fx.http("GET", "/nothing");
    assert.equal(second.status, 404);
  });

  it("records requests in the log without the token", async () => {
    await fx.http("GET", "/nothing");
    const log = await fx.http("GET", "/__emulator/requests");
    const entries = (log.json as { result: { url: string }[] }).result;
    assert.ok(entries.some((e) => e.url === "/client/v4/nothing"));
    assert.ok(!JSON.stringify(entries).includes(fx.em.token));
  });
});
