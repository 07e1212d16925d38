/** `account-api recover`: the pure steps (a file backend's repair, the pending creates) and the verb's usage. */
import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EXIT } from "../../cli/main";
import { pendingCreates, repairFileBackend } from "../../cli/recover";
import { runCliWith } from "../helpers/cli";

describe("account-api recover", () => {
  it("repairs what a kill leaves in a file backend: a 0-byte .attrs, a broken checkpoint", () => {
    const dir = mkdtempSync(join(tmpdir(), "recover-"));
    try {
      const stacks = join(dir, ".pulumi", "stacks", "proj");
      mkdirSync(stacks, { recursive: true });
      writeFileSync(join(stacks, "dev.json.attrs"), "");
      writeFileSync(join(stacks, "dev.json"), "");
      writeFileSync(join(stacks, "dev.json.bak"), '{"version":3}');
      writeFileSync(join(stacks, "ok.json"), '{"version":3}');
      const repaired = repairFileBackend(dir)
        .map((f) => f.slice(stacks.length + 1))
        .sort();
      assert.deepEqual(repaired, ["dev.json", "dev.json.attrs"]);
      assert.equal(existsSync(join(stacks, "dev.json.attrs")), false);
      assert.equal(readFileSync(join(stacks, "dev.json"), "utf8"), '{"version":3}');
      assert.deepEqual(repairFileBackend(dir), [], "a second run finds nothing to repair");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("finds the pending creates of our kinds only, without the stored provider", () => {
    const exported = {
      deployment: {
        pending_operations: [
          {
            type: "creating",
            resource: {
              urn: "urn:pulumi:s::p::pulumi-nodejs:dynamic/account-api:BuildTrigger::prod",
              type: "pulumi-nodejs:dynamic/account-api:BuildTrigger",
              inputs: { __provider: "code", kind: "production" },
            },
          },
          {
            type: "updating",
            resource: { urn: "u", type: "pulumi-nodejs:dynamic/account-api:RepoConnection" },
          },
          { type: "creating", resource: { urn: "v", type: "aws:s3/bucket:Bucket", inputs: {} } },
        ],
      },
    };
    assert.deepEqual(pendingCreates(exported), [
      {
        kind: "BuildTrigger",
        urn: "urn:pulumi:s::p::pulumi-nodejs:dynamic/account-api:BuildTrigger::prod",
        inputs: { kind: "production" },
      },
    ]);
    assert.deepEqual(pendingCreates({ deployment: {} }), []);
    assert.deepEqual(pendingCreates("not an export"), []);
  });

  it("needs a stack and an existing --cwd, and says so before running anything (exit 64)", async () => {
    const none = await runCliWith({}, ["recover", "--quiet"]);
    assert.match(none.err, /--stack: required/);
    assert.equal(none.out, "");
    assert.equal(none.code, EXIT.usage);
    const cwd = await runCliWith({ PULUMI_STACK: "dev" }, ["recover", "--cwd", "/nonexistent/project"]);
    assert.equal(cwd.code, EXIT.usage);
    assert.match(cwd.err, /^error: --cwd \/nonexistent\/project: no such folder\n$/);
  });
});
