/**
 * `account-api drift` on a real stack export: in sync right after `up`; after out-of-band changes to a
 * registration and a search instance it names what changed and exits 2; a deleted object is "gone".
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildCli } from "../../cli/main";
import type { DriftReport } from "../../provider/drift";
import { DomainRegistration, SearchInstance } from "../../provider";
import { useE2E } from "./harness";

describe("drift detection from a stack export (real engine)", function () {
  this.timeout(300_000);
  const e2e = useE2E("drift");

  async function drift(
    exported: unknown,
  ): Promise<{ reports: DriftReport[]; exitCode: number; err: string }> {
    const dir = mkdtempSync(join(tmpdir(), "drift-"));
    const file = join(dir, "stack.json");
    writeFileSync(file, JSON.stringify(exported));
    const out: string[] = [];
    const err: string[] = [];
    let exitCode = 0;
    try {
      const cli = buildCli({
        out: (t) => out.push(t),
        err: (t) => err.push(t),
        env: {
          ACCOUNT_API_BASE_URL: e2e.emulator.url,
          ACCOUNT_API_ACCOUNT_ID: e2e.emulator.accountId,
          ACCOUNT_API_TOKEN: e2e.emulator.token,
        },
        setExitCode: (c) => {
          exitCode = c;
        },
      });
      cli.exitOverride();
      await cli.parseAsync(["node", "account-api", "drift", "--file", file]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return { reports: JSON.parse(out.join("")) as DriftReport[], exitCode, err: err.join("") };
  }

  it("reports in-sync, then drifted fields with exit code 2, then gone", async () => {
    const stack = await e2e.stack(async () => {
      new DomainRegistration("site", { domainName: "drift-watch.com", autoRenew: true });
      new SearchInstance("kb", {
        instanceId: "drift-kb",
        syncInterval: 3600,
        storageCredentials: { accessKeyId: "AKID", secretAccessKey: "drift-secret-value" },
      });
      return {};
    });
    await stack.up();

    const clean = await drift(await stack.stack.exportStack());
    assert.equal(clean.exitCode, 0);
    assert.deepEqual(clean.reports.map((r) => [r.kind, r.status]).sort(), [
      ["DomainRegistration", "in-sync"],
      ["SearchInstance", "in-sync"],
    ]);
    // The Automation API exports with --show-secrets, so secrets are compared too; an export without
    // it carries ciphertext, which drift names as unverified instead of guessing.
    assert.deepEqual(clean.reports.find((r) => r.kind === "SearchInstance")!.unverified, []);
    const encrypted = JSON.parse(
      JSON.stringify(await stack.stack.exportStack()).replace(
        /"plaintext":"(?:[^"\\]|\\.)*"/g,
        '"ciphertext":"v1:x"',
      ),
    ) as unknown;
    const sealed = await drift(encrypted);
    assert.equal(sealed.exitCode, 0);
    assert.deepEqual(sealed.reports.find((r) => r.kind === "SearchInstance")!.unverified, [
      "storageCredentials",
    ]);

    // Out of band: the registration's lock and auto-renew, the instance's interval.
    const res = await fetch(`${e2e.emulator.origin}/__emulator/registrar/registrations/drift-watch.com`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ auto_renew: false, locked: false }),
    });
    assert.ok(res.ok, await res.text());
    await e2e.api.search.updateInstance({ id: "drift-kb", sync_interval: 7200 });

    const exported = await stack.stack.exportStack();
    const dirty = await drift(exported);
    assert.equal(dirty.exitCode, 2);
    const byKind = Object.fromEntries(dirty.reports.map((r) => [r.kind, r]));
    assert.equal(byKind.DomainRegistration?.status, "drifted");
    assert.deepEqual(byKind.DomainRegistration?.changed.sort(), ["autoRenew", "locked"]);
    assert.equal(byKind.SearchInstance?.status, "drifted");
    assert.deepEqual(byKind.SearchInstance?.changed, ["syncInterval"]);
    assert.match(dirty.err, /drift: SearchInstance default\/drift-kb: drifted \(syncInterval\)/);

    await e2e.api.search.deleteInstance({ id: "drift-kb" });
    const gone = await drift(exported);
    assert.equal(gone.reports.find((r) => r.kind === "SearchInstance")?.status, "gone");

    await stack.refresh();
    await stack.destroy();
  });
});
