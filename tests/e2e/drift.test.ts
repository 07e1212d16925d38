/**
 * `account-api drift --stack S --cwd DIR` on the real engine: a refresh preview through the engine,
 * no export and no decryption. After out-of-band changes to a trigger, its env vars and a
 * registration it exits 2 and names each property with old and new values, and its Markdown is a
 * table; after `up` it exits 0. A lock changed outside (which `up` cannot restore) is said so, and
 * `refresh` accepts it.
 */
import { strict as assert } from "node:assert";
import { editTriggerOutOfBand } from "../helpers/builds";
import { readMarkdown } from "../helpers/markdown";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildCli } from "../../cli/main";
import type { DriftReport, ResourceDrift } from "../../provider/drift";
import { BuildTrigger, DomainRegistration, TriggerEnvVars } from "../../provider";
import { useE2E, type E2EStack } from "./harness";

const SECRET = "drift-secret-value-1234";

describe("account-api drift through the engine (real engine)", function () {
  this.timeout(180_000);
  const e2e = useE2E("drift");
  let scratch = "";

  before(() => {
    scratch = mkdtempSync(join(tmpdir(), "drift-md-"));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  async function drift(
    stack: E2EStack,
    extra: string[] = [],
    withText = true,
  ): Promise<{ report: DriftReport; text: string; exitCode: number; out: string; err: string }> {
    const run = async (json: boolean) => {
      const out: string[] = [];
      const err: string[] = [];
      let exitCode = -1;
      const cli = buildCli({
        out: (t) => out.push(t),
        err: (t) => err.push(t),
        // The user's environment: the backend, passphrase and PATH of the stack; no API credentials,
        // since the engine runs the provider with the stack's own (secret) configuration.
        env: { ...stack.stack.workspace.envVars },
        isTTY: false,
        setExitCode: (c) => {
          exitCode = c;
        },
      });
      const args = ["drift", "--stack", stack.name, "--cwd", stack.stack.workspace.workDir, ...extra];
      await cli.parseAsync(["node", "account-api", ...args, ...(json ? ["--json"] : [])]);
      return { out: out.join(""), err: err.join(""), exitCode };
    };
    const json = await run(true);
    // The text form is one more engine run: only where the test reads it.
    const text = withText ? await run(false) : { out: "", err: "", exitCode: json.exitCode };
    assert.equal(text.exitCode, json.exitCode);
    return {
      report: JSON.parse(json.out) as DriftReport,
      text: text.out,
      exitCode: json.exitCode,
      out: json.out + text.out,
      err: json.err + text.err,
    };
  }

  const byName = (r: DriftReport): Record<string, ResourceDrift> =>
    Object.fromEntries(r.resources.map((x) => [x.name, x]));
  const change = (r: ResourceDrift | undefined, path: string) => r?.changes.find((c) => c.path === path);

  it("exits 2 naming each changed property with old and new values, 0 after up; a lock is refreshed", async () => {
    const script = await e2e.api.builds.scripts.upload({ scriptName: "drift-shop" });
    const repo = await e2e.api.builds.repos.connections.upsert(
      {},
      {
        provider_type: "github",
        provider_account_id: "acme",
        provider_account_name: "Acme",
        repo_id: "drift-shop",
        repo_name: "drift-shop",
      },
    );
    const [token] = await e2e.api.builds.tokens.list();
    const stack = await e2e.stack(async () => {
      new DomainRegistration("site", { domainName: "drift-watch.com", autoRenew: true });
      const prod = new BuildTrigger("prod", {
        scriptName: "drift-shop",
        repoConnectionUuid: repo.repo_connection_uuid,
        buildTokenUuid: token!.build_token_uuid,
        kind: "production",
        buildCommand: "npm run build",
      });
      new TriggerEnvVars("vars", {
        triggerUuid: prod.triggerUuid,
        variables: { MODE: { value: "fast" }, API_KEY: { value: SECRET, isSecret: true } },
      });
      return {};
    });
    await stack.up();

    const clean = await drift(stack);
    assert.equal(clean.exitCode, 0, clean.err);
    assert.match(clean.text, /no drift: 3 resources checked/);
    assert.deepEqual(clean.report.counts, {
      resources: 3,
      inSync: 3,
      drifted: 0,
      gone: 0,
      unchecked: 0,
      ignored: 0,
    });

    // Out of band: the trigger's command, one env var, the registration's auto-renew.
    const trigger = await editTriggerOutOfBand(e2e.api, script.tag);
    const res = await fetch(`${e2e.emulator.origin}/__emulator/registrar/registrations/drift-watch.com`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ auto_renew: false }),
    });
    assert.ok(res.ok, await res.text());

    const summary = join(scratch, "summary.md");
    const dirty = await drift(stack, ["--markdown", summary]);
    assert.equal(
      readFileSync(summary, "utf8").match(/^### Drift/gm)?.length,
      2,
      "one section per run, appended",
    );
    assert.equal(dirty.exitCode, 2, dirty.err);
    const r = byName(dirty.report);
    assert.equal(r.prod?.type, "account-api:BuildTrigger");
    assert.equal(r.prod?.status, "drifted");
    assert.deepEqual(change(r.prod, "buildCommand"), {
      path: "buildCommand",
      old: "npm run build",
      new: "make all",
      restorable: true,
    });
    assert.equal(r.vars?.status, "drifted");
    assert.deepEqual(
      [change(r.vars, "variables.MODE.value")?.old, change(r.vars, "variables.MODE.value")?.new],
      ["fast", "slow"],
    );
    assert.equal(r.site?.status, "drifted");
    assert.deepEqual([change(r.site, "autoRenew")?.old, change(r.site, "autoRenew")?.new], [true, false]);
    assert.deepEqual(dirty.report.counts, {
      resources: 3,
      inSync: 0,
      drifted: 3,
      gone: 0,
      unchecked: 0,
      ignored: 0,
    });
    assert.match(
      dirty.text,
      /account-api:BuildTrigger prod .*: drifted\n\s+buildCommand: "npm run build" → "make all"/,
    );
    assert.match(dirty.text, /`pulumi up --refresh` restores the declared values/);
    assert.match(dirty.text, /`pulumi refresh` accepts the remote values/);
    // Nothing secret in any output: the token and the secret variable never reach us.
    for (const text of [dirty.out, dirty.err, readFileSync(summary, "utf8")]) {
      assert.ok(!text.includes(e2e.emulator.token), "the token leaked");
      assert.ok(!text.includes(SECRET), "a secret value leaked");
    }
    const md = readFileSync(summary, "utf8");
    assert.match(
      md,
      /^\| Resource \| Status \| Property or reason \| Declared \(state\) \| Remote \(now\) \| Restored by \|$/m,
    );
    assert.match(md, /^\|---\|---\|---\|---\|---\|---\|$/m);
    // The cells as a reader sees them (rendered): values as JSON, every Markdown special escaped.
    const cells = readMarkdown(md).rows.map((row) => row.map((c) => c.text));
    assert.ok(
      cells.some(
        (row) =>
          JSON.stringify(row) ===
          JSON.stringify([
            "account-api:BuildTrigger prod",
            "drifted",
            "buildCommand",
            '"npm run build"',
            '"make all"',
            "pulumi up --refresh",
          ]),
      ),
      JSON.stringify(cells),
    );
    assert.ok(
      cells.some(
        (row) =>
          JSON.stringify(row.slice(0, 5)) ===
          JSON.stringify([
            "account-api:TriggerEnvVars vars",
            "drifted",
            "variables.MODE.value",
            '"fast"',
            '"slow"',
          ]),
      ),
      JSON.stringify(cells),
    );

    // `up` alone diffs against the stored state, which still holds the declared values: refresh first.
    await stack.stack.up({ refresh: true, onOutput: (l) => stack.output.push(l) });
    const restored = await drift(stack);
    assert.equal(restored.exitCode, 0, restored.text);
    assert.match(restored.text, /no drift: 3 resources checked/);

    // The lock: `up` cannot put it back (the API's PATCH changes auto_renew only); the report says so.
    await fetch(`${e2e.emulator.origin}/__emulator/registrar/registrations/drift-watch.com`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ locked: false }),
    });
    const locked = await drift(stack, [], false);
    assert.equal(locked.exitCode, 2);
    const lock = change(byName(locked.report).site, "locked");
    assert.equal(lock?.old, true);
    assert.equal(lock?.new, false);
    assert.equal(lock?.restorable, false);
    assert.match(lock?.note ?? "", /cannot set the transfer lock back/);
    await stack.refresh();
    assert.equal((await drift(stack, [], false)).exitCode, 0);

    // Gone: the trigger deleted outside the program.
    await e2e.api.builds.triggers.delete({ triggerUuid: trigger.trigger_uuid });
    const gone = await drift(stack, [], false);
    assert.equal(gone.exitCode, 2);
    assert.equal(byName(gone.report).prod?.status, "gone");

    await stack.refresh();
    await stack.destroy();
    const empty = await drift(stack);
    assert.equal(empty.exitCode, 0);
    assert.match(empty.text, /no resources, no drift/);
  });
});
