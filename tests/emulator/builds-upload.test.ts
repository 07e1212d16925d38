import { strict as assert } from "node:assert";
import { ValidationError } from "../../sdk/errors";
import { useEmulator } from "../helpers/emulator";

describe("builds: uploading a script through the sdk", () => {
  const fx = useEmulator();

  it("uploads a multipart script and lists it with its tag", async () => {
    const script = await fx.api.builds.scripts.upload({ scriptName: "shop" });
    assert.equal(script.id, "shop");
    assert.match(script.tag, /^[0-9a-f-]{32,36}$/);
    const listed = await fx.api.builds.scripts.list();
    assert.deepEqual(
      listed.map((s) => [s.id, s.tag]),
      [["shop", script.tag]],
    );
    const put = fx.em.requestLog.find((r) => r.method === "PUT");
    assert.equal(put?.url, `/client/v4/accounts/${fx.em.accountId}/workers/scripts/shop`);
    assert.equal(put?.status, 200);
  });

  it("keeps the tag when the same script is uploaded again", async () => {
    const first = await fx.api.builds.scripts.upload({ scriptName: "shop" });
    const second = await fx.api.builds.scripts.upload(
      { scriptName: "shop" },
      { modules: { "main.js": "export default {}" } },
    );
    assert.equal(second.tag, first.tag);
  });

  it("refuses an empty script name locally, before any request", async () => {
    await assert.rejects(fx.api.builds.scripts.upload({ scriptName: "" }), (e: unknown) => {
      assert.ok(e instanceof ValidationError);
      assert.match(e.message, /scriptName/);
      return true;
    });
    assert.equal(fx.em.requestLog.length, 0);
  });
});
