/** The registrar families' operations against the contract: the supported extensions, listed and read. */
import { strict as assert } from "node:assert";
import { z } from "zod";
import type { AreaScenario } from "../../kit";
import { callFor, expectCall, expectRaw } from "./exchange";

/** The declarations' result: each extension's `metadata` (its schemas are untyped). */
const Extension = z.looseObject({ metadata: z.looseObject({ name: z.string(), tld: z.string() }) });

export const scenario: AreaScenario = {
  area: "registrar",
  part: "families",
  async run(kit) {
    const base = `/accounts/${kit.accountId}/registrar/extensions`;
    const all = await callFor(kit, z.array(Extension), "GET", base);
    assert.ok(all.length > 1, "the registrar supports several extensions");
    const first = all[0]!.metadata.name;
    await callFor(kit, z.array(Extension), "GET", `${base}?per_page=1&direction=desc&sort_by=name`);
    await callFor(kit, z.array(Extension), "GET", `${base}?name=${encodeURIComponent(first)}`);
    const one = await callFor(kit, Extension, "GET", `${base}/${encodeURIComponent(first)}`);
    assert.equal(one.metadata.name, first);
    await expectCall(kit, 404, "GET", `${base}/not-an-extension`);
    await expectRaw(kit, 400, "GET", `${base}?direction=sideways`);
  },
};
