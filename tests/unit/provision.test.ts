/**
 * Engine provisioning fails loudly, naming what is missing and how to skip the build, when it cannot
 * work; and a clone that is not beside the shared folder reuses what an earlier setup cached. (The
 * working path runs in every `npm test`, through `npm run setup`.)
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "..", "..");
const SCRIPT = join(ROOT, "scripts", "provision-engine.sh");

function run(env: Record<string, string>): { status: number | null; stderr: string } {
  const res = spawnSync("bash", [SCRIPT], { env, encoding: "utf8", timeout: 60_000 });
  return { status: res.status, stderr: res.stderr };
}

describe("engine provisioning failures", () => {
  let cache: string;
  beforeEach(() => {
    cache = mkdtempSync(join(tmpdir(), "engine-cache-"));
  });
  afterEach(() => rmSync(cache, { recursive: true, force: true }));

  it("refuses a Node older than 22 and says how to skip the build", () => {
    // A stand-in `node` first on PATH that reports version 20.
    const shimDir = mkdtempSync(join(tmpdir(), "old-node-"));
    writeFileSync(join(shimDir, "node"), "#!/bin/sh\necho 20\n", { mode: 0o755 });
    try {
      const res = run({ PATH: `${shimDir}:/usr/bin:/bin`, HOME: cache, XDG_CACHE_HOME: cache });
      assert.notEqual(res.status, 0);
      assert.match(res.stderr, /Node >= 22 is needed, found 20/);
      assert.match(res.stderr, /official CLI/);
    } finally {
      rmSync(shimDir, { recursive: true, force: true });
    }
  });

  it("names Go as missing when no cached or installed engine exists and Go is absent", () => {
    const res = run({
      PATH: `${join(ROOT, "node_modules", ".bin")}:/usr/bin:/bin`,
      HOME: cache,
      XDG_CACHE_HOME: cache,
    });
    assert.notEqual(res.status, 0);
    assert.match(res.stderr, /Go is not installed/);
    assert.match(res.stderr, /put a `pulumi` of version 3\.\d+\.\d+ on PATH/);
  });

  it("a clone away from the shared folder reuses the cached CLI and language host, saying which it used", function () {
    this.timeout(60_000);
    // `npm test` provisions first, so this user's cache holds both; a clone elsewhere needs neither
    // Go nor the language host's source.
    const clone = mkdtempSync(join(tmpdir(), "clone-elsewhere-"));
    try {
      mkdirSync(join(clone, "scripts"));
      cpSync(SCRIPT, join(clone, "scripts", "provision-engine.sh"));
      symlinkSync(join(ROOT, "node_modules"), join(clone, "node_modules"));
      assert.ok(!existsSync(join(clone, "..", "shared")), "no shared folder beside the clone");
      const home = process.env.HOME ?? "";
      const res = spawnSync("bash", [join(clone, "scripts", "provision-engine.sh")], {
        env: {
          PATH: `${join(ROOT, "node_modules", ".bin")}:/usr/bin:/bin`,
          HOME: home,
          ...(process.env.XDG_CACHE_HOME ? { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME } : {}),
        },
        encoding: "utf8",
        timeout: 60_000,
      });
      assert.equal(res.status, 0, res.stderr);
      assert.match(res.stderr, /reusing cached build .*pulumi-account-api\/engine/);
      assert.match(res.stderr, /language host: (reusing cached build|.* \(beside the CLI\))/);
      assert.ok(existsSync(join(clone, ".engine", "bin", "pulumi")));
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });
});
