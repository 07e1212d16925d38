/** The meetings families' operations against the contract: RealtimeKit apps, list and create. */
import { strict as assert } from "node:assert";
import type { z } from "zod";
import * as G from "../../../../sdk/generated/meetings";
import type { AreaScenario } from "../../kit";
import { callFor, expectRaw } from "./exchange";

export const scenario: AreaScenario = {
  area: "meetings",
  part: "families",
  async run(kit) {
    const apps = `/accounts/${kit.accountId}/realtime/kit/apps`;
    const body: z.input<typeof G.CreateAppBody> = { name: "conformance" };
    const made = await callFor(kit, G.CreateAppResult.shape.data, "POST", apps, body, { field: "data" });
    const listed = await callFor(kit, G.GetAppsResult.shape.data, "GET", apps, undefined, { field: "data" });
    assert.deepEqual(
      listed?.map((a) => a.id),
      [made?.app?.id],
    );
    await expectRaw(kit, 400, "POST", apps, { name: 5 });
  },
};
