/**
 * What the one pipeline promises, on the real engine: only a 404 means gone (a 500 during refresh
 * keeps the resource), one provider object per kind, and state written by 0.1.x still refreshes and
 * destroys.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { request } from "undici";
import { BuildTrigger } from "../../provider/resources/build-trigger";
import { TriggerEnvVars } from "../../provider/resources/trigger-env-vars";
import { useE2E, type E2EStack } from "./harness";

interface StateResource {
  urn: string;
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

describe("the resource pipeline end to end (real engine)", function () {
  this.timeout(600_000);
  const e2e = useE2E("pipeline");

  async function world(name: string): Promise<{ tag: string; repo: string; token: string }> {
    const res = await request(
      `${e2e.emulator.url}/accounts/${e2e.emulator.accountId}/workers/scripts/${name}`,
      {
        method: "PUT",
        headers: { authorization: `Bearer ${e2e.emulator.token}`, "content-type": "application/json" },
        body: "{}",
      },
    );
    const { result } = (await res.body.json()) as { result: { tag: string } };
    const repo = await e2e.api.builds.repos.connections.upsert(
      {},
      {
        provider_type: "github",
        provider_account_id: "acme",
        provider_account_name: "Acme",
        repo_id: name,
        repo_name: name,
      },
    );
    const [token] = await e2e.api.builds.tokens.list();
    return { tag: result.tag, repo: repo.repo_connection_uuid, token: token!.build_token_uuid };
  }

  async function triggerStack(name: string): Promise<E2EStack> {
    const w = await world(name);
    return e2e.stack(async () => {
      const t = new BuildTrigger("t", {
        externalScriptId: w.tag,
        repoConnectionUuid: w.repo,
        buildTokenUuid: w.token,
        kind: "production",
      });
      new TriggerEnvVars("v", { triggerUuid: t.triggerUuid, variables: { MODE: { value: "fast" } } });
      return { uuid: t.triggerUuid };
    });
  }

  const resources = (stack: E2EStack): StateResource[] =>
    JSON.parse(stack.rawState()).checkpoint.latest.resources;
  const dynamic = (stack: E2EStack): StateResource[] =>
    resources(stack).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic"));

  it("keeps a resource whose read fails with a 500, and drops it on a 404", async () => {
    const stack = await triggerStack("read-errors");
    const up = await stack.up();
    const uuid = String(up.outputs.uuid?.value);
    const fault = e2e.emulator.faults.add({ method: "GET", path: "/builds/", status: 500 });
    await assert.rejects(stack.refresh(), /500|Internal/);
    e2e.emulator.faults.remove(fault.id);
    assert.equal(dynamic(stack).length, 2, "both resources are still in state");
    await stack.preview({ expectNoChanges: true });

    await e2e.api.builds.triggers.delete({ triggerUuid: uuid });
    const refresh = await stack.refresh();
    assert.equal(refresh.summary.resourceChanges?.delete, 2, JSON.stringify(refresh.summary.resourceChanges));
    assert.equal(dynamic(stack).length, 0);
  });

  it("refuses at preview a plan whose triggers take one slot twice, before anything is made", async () => {
    const w = await world("two-prods");
    const stack = await e2e.stack(async () => {
      for (const name of ["a", "b"])
        new BuildTrigger(name, {
          externalScriptId: w.tag,
          repoConnectionUuid: w.repo,
          buildTokenUuid: w.token,
          kind: "production",
          triggerName: name,
        });
    });
    // `pulumi up` previews first (unless --skip-preview): this refusal stops it before any create.
    await assert.rejects(
      stack.preview(),
      /another BuildTrigger of this program also takes the production trigger/,
    );
    assert.deepEqual(await e2e.api.builds.triggers.list({ scriptTag: w.tag }), [], "nothing was made");
  });

  it("stores one provider object per kind", async () => {
    const stack = await triggerStack("one-provider");
    await stack.up();
    const byKind = new Map<string, Set<unknown>>();
    for (const r of dynamic(stack)) {
      const set = byKind.get(r.type) ?? new Set();
      set.add(r.inputs?.__provider);
      byKind.set(r.type, set);
    }
    assert.deepEqual(
      [...byKind.values()].map((s) => s.size),
      [1, 1],
    );
    await stack.destroy();
  });

  it("refreshes and destroys a state that 0.1.x wrote", async () => {
    const legacy: { providers: Record<string, string> } = JSON.parse(
      readFileSync(join(__dirname, "..", "fixtures", "provider-0.1.x.json"), "utf8"),
    );
    const stack = await triggerStack("legacy");
    const up = await stack.up();
    const uuid = String(up.outputs.uuid?.value);
    const exported = await stack.stack.exportStack();
    for (const r of exported.deployment.resources as StateResource[]) {
      const kind = r.type.split(":").at(-1) ?? "";
      const old = legacy.providers[kind];
      if (!old) continue;
      for (const where of [r.inputs, r.outputs]) if (where) where.__provider = old;
      // 0.1.x kept plain and secret variables in two maps.
      if (kind === "TriggerEnvVars")
        for (const where of [r.inputs, r.outputs])
          if (where) {
            delete where.variables;
            where.plainVariables = { MODE: "fast" };
            where.secretVariables = {};
          }
    }
    await stack.stack.importStack(exported);
    assert.ok(stack.rawState().includes("openSession"), "the state now holds the 0.1.x provider");
    await stack.refresh();
    await e2e.api.builds.environmentVariables.upsert(
      { triggerUuid: uuid },
      { MODE: { value: "slow", is_secret: false } },
    );
    const drift = await stack.refresh();
    assert.equal(drift.summary.resourceChanges?.update, 1, JSON.stringify(drift.summary.resourceChanges));
    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
    assert.deepEqual(
      await e2e.api.builds.environmentVariables.list({ triggerUuid: uuid }).catch(() => "gone"),
      "gone",
    );
  });
});
