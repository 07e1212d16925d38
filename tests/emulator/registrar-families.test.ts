/** Registrar extensions (issue 26) over real HTTP, and through the public client's cursor pages. */
import { strict as assert } from "node:assert";
import Cloudflare from "cloudflare";
import { EXTENSIONS } from "../../emulator/registrar/catalogue";
import { useEmulator, type EmulatorFixture } from "../helpers/emulator";

type Extension = {
  metadata: { name: string; tld: string };
  registration_schema: { properties: { years: { minimum: number; default: number } } };
  transfer_schema: unknown;
};
type Envelope<T> = {
  success: boolean;
  errors: { code: number; message: string }[];
  result: T;
  result_info?: { count: number; cursor: string; per_page: number };
};

function extensions(fx: EmulatorFixture, rest = ""): string {
  return `/accounts/${fx.em.accountId}/registrar/extensions${rest}`;
}

async function page(fx: EmulatorFixture, query: string): Promise<Envelope<Extension[]>> {
  const res = await fx.http("GET", extensions(fx, query));
  assert.equal(res.status, 200, res.text);
  return res.json as Envelope<Extension[]>;
}

const ALL = Object.keys(EXTENSIONS).sort();

describe("registrar emulator: extensions", () => {
  const fx = useEmulator();

  it("lists every supported extension by name, with its schemas and no price (the contract has none)", async () => {
    const body = await page(fx, "");
    assert.deepEqual(
      body.result.map((e) => e.metadata.name),
      ALL,
    );
    assert.deepEqual(body.result_info, { count: ALL.length, cursor: "", per_page: 20 });
    const ai = body.result.find((e) => e.metadata.name === "ai")!;
    assert.deepEqual(ai.metadata, { name: "ai", tld: "ai" });
    assert.deepEqual(Object.keys(ai).sort(), ["metadata", "registration_schema", "transfer_schema"]);
    assert.equal(ai.registration_schema.properties.years.minimum, 2);
    assert.equal(ai.registration_schema.properties.years.default, 2);
    assert.equal(typeof ai.transfer_schema, "object");
  });

  it("pages by cursor (an empty cursor ends), in either direction", async () => {
    for (const direction of ["asc", "desc"] as const) {
      const seen: string[] = [];
      let cursor = "";
      for (let guard = 0; guard < 10; guard++) {
        const q = `?per_page=3&direction=${direction}${cursor ? `&cursor=${cursor}` : ""}`;
        const body = await page(fx, q);
        seen.push(...body.result.map((e) => e.metadata.name));
        assert.equal(body.result_info?.per_page, 3);
        cursor = body.result_info!.cursor;
        if (cursor === "") break;
      }
      assert.deepEqual(seen, direction === "asc" ? ALL : [...ALL].reverse());
    }
  });

  it("filters on the exact name, sorts by the documented fields, and refuses what it cannot read", async () => {
    assert.deepEqual(
      (await page(fx, "?name=com")).result.map((e) => e.metadata.name),
      ["com"],
    );
    assert.deepEqual((await page(fx, "?name=co")).result, []);
    for (const sort_by of ["name", "created_at", "updated_at"])
      assert.deepEqual(
        (await page(fx, `?sort_by=${sort_by}`)).result.map((e) => e.metadata.name),
        ALL,
      );
    for (const q of [
      "?sort_by=price",
      "?direction=up",
      "?per_page=0",
      "?per_page=1.5",
      "?cursor=bogus",
      "?x=1",
    ]) {
      const res = await fx.http("GET", extensions(fx, q));
      assert.equal(res.status, 400, q);
    }
  });

  it("reads one supported extension, and answers 404 for an unsupported or unknown one", async () => {
    const res = await fx.http("GET", extensions(fx, "/dev"));
    assert.equal(res.status, 200, res.text);
    const dev = (res.json as Envelope<Extension>).result;
    assert.deepEqual(dev.metadata, { name: "dev", tld: "dev" });
    assert.equal("pricing" in dev, false);
    for (const [ext, reason] of [
      ["uk", "extension_not_supported_via_api"],
      ["tk", "extension_disallows_registration"],
      ["zzz", "extension_not_supported"],
    ] as const) {
      const missing = await fx.http("GET", extensions(fx, `/${ext}`));
      assert.equal(missing.status, 404, ext);
      const error = (missing.json as Envelope<null>).errors[0]!;
      assert.equal(error.code, 13002);
      assert.ok(error.message.includes(reason), error.message);
    }
  });

  it("serves the public client's list (auto-paginated by cursor) and get", async () => {
    const cf = new Cloudflare({ apiToken: fx.em.token, baseURL: fx.em.url, maxRetries: 0 });
    const names: string[] = [];
    for await (const e of cf.registrar.extensions.list({ account_id: fx.em.accountId, per_page: 3 }))
      names.push(e.metadata.name);
    assert.deepEqual(names, ALL);
    const io = await cf.registrar.extensions.get("io", { account_id: fx.em.accountId });
    assert.equal(io.metadata.tld, "io");
    await assert.rejects(
      cf.registrar.extensions.get("uk", { account_id: fx.em.accountId }),
      Cloudflare.NotFoundError,
    );
  });
});
