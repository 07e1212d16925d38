/**
 * The native plugin's archive and its install (issue 27): the reproducible tar writer the build uses,
 * `account-api plugin install` running `pulumi plugin install … --file <archive>` (a stand-in
 * `pulumi` records what it was asked) and saying what is missing, and the generated SDKs asking for
 * the package's version of the plugin with nothing to download. The real engine installing and
 * running it: tests/e2e/plugin-install.test.ts.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { EXIT, type VerbIo } from "../../cli/io";
import { addPluginVerb } from "../../cli/plugin-verb";
import { pluginArchiveName, pluginArchivePath } from "../../provider/native/plugin-archive";
import { PACKAGE_VERSION } from "../../sdk/version";
import { tarGz, type TarEntry } from "../../scripts/tar";

const ROOT = join(__dirname, "..", "..");

const ENTRIES: TarEntry[] = [
  { name: "pulumi-resource-x", mode: 0o755, data: Buffer.from("#!/bin/sh\necho hi\n") },
  { name: "plugin.js", mode: 0o644, data: Buffer.alloc(1300, "a") },
  { name: "empty.json", mode: 0o644, data: Buffer.alloc(0) },
];

describe("the plugin archive's tar writer", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "plugin-tar-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("writes what tar unpacks: each file's bytes and mode, owner 0, mtime 0", () => {
    const archive = join(dir, "a.tar.gz");
    writeFileSync(archive, tarGz(ENTRIES));
    const listing = execFileSync("tar", ["-tvzf", archive], { encoding: "utf8" }).trim().split("\n");
    assert.equal(listing.length, 3);
    assert.match(listing[0]!, /^-rwxr-xr-x 0\/0 +18 1970-01-01 00:00 pulumi-resource-x$/);
    assert.match(listing[1]!, /^-rw-r--r-- 0\/0 +1300 1970-01-01 00:00 plugin\.js$/);
    execFileSync("tar", ["-xzf", archive, "-C", dir]);
    for (const e of ENTRIES) {
      assert.deepEqual(readFileSync(join(dir, e.name)), e.data);
      assert.equal(statSync(join(dir, e.name)).mode & 0o777, e.mode);
    }
  });

  it("gives the same bytes for the same files (no timestamps, no owner names)", () => {
    assert.deepEqual(tarGz(ENTRIES), tarGz(ENTRIES));
  });

  it("refuses a name that is not a plain file name", () => {
    assert.throws(() => tarGz([{ name: "../x", mode: 0o644, data: Buffer.alloc(1) }]), /plain file name/);
  });
});

describe("account-api plugin install", () => {
  let dir: string;
  let dist: string;
  let record: string;
  let fakePulumi: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "plugin-install-"));
    dist = join(dir, "dist");
    record = join(dir, "args");
    fakePulumi = join(dir, "pulumi");
    writeFileSync(
      fakePulumi,
      `#!/bin/sh\necho "$@" > "${record}"\necho "[resource plugin] installing" >&2\nexit "\${FAKE_EXIT:-0}"\n`,
    );
    chmodSync(fakePulumi, 0o755);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function run(
    args: string[],
    env: NodeJS.ProcessEnv = {},
  ): Promise<{ out: string; err: string; code: number }> {
    const out: string[] = [];
    const err: string[] = [];
    let code = -1;
    const io: VerbIo = {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      env: { PATH: process.env.PATH, PULUMI_HOME: join(dir, "home"), ...env },
      setExitCode: (c) => (code = c),
    };
    const program = new Command("account-api").exitOverride();
    addPluginVerb(program, io, { distDir: dist });
    await program.parseAsync(["plugin", "install", ...args], { from: "user" });
    return { out: out.join(""), err: err.join(""), code };
  }

  it("runs `pulumi plugin install resource account-api <version> --file <archive>` and says where it went", async () => {
    const archive = pluginArchivePath(dist, PACKAGE_VERSION);
    mkdirSync(join(dist, "plugin"), { recursive: true });
    writeFileSync(archive, "archive");
    const r = await run(["--pulumi", fakePulumi]);
    assert.equal(r.code, EXIT.ok, r.err);
    assert.equal(
      readFileSync(record, "utf8").trim(),
      `plugin install resource account-api ${PACKAGE_VERSION} --file ${archive}`,
    );
    assert.match(r.err, /\[resource plugin\] installing/, "pulumi's output reaches stderr");
    assert.match(
      r.out,
      new RegExp(
        `installed the account-api plugin .* in ${join(dir, "home", "plugins", `resource-account-api-v${PACKAGE_VERSION}`)}`,
      ),
    );
    await run(["--pulumi", fakePulumi, "--reinstall"]);
    assert.match(readFileSync(record, "utf8"), /--file \S+ --reinstall$/m);
  });

  it("names the missing archive and how to make it, and runs nothing", async () => {
    const r = await run(["--pulumi", fakePulumi]);
    assert.equal(r.code, EXIT.error);
    assert.match(
      r.err,
      new RegExp(`the plugin archive .*${pluginArchiveName(PACKAGE_VERSION)} is not there: .*npm run build`),
    );
    assert.throws(() => statSync(record), /ENOENT/);
  });

  it("says when there is no pulumi to run, and when pulumi fails", async () => {
    mkdirSync(join(dist, "plugin"), { recursive: true });
    writeFileSync(pluginArchivePath(dist, PACKAGE_VERSION), "archive");
    const missing = await run(["--pulumi", join(dir, "no-such-pulumi")]);
    assert.equal(missing.code, EXIT.error);
    assert.match(
      missing.err,
      /the Pulumi CLI \(.*no-such-pulumi\) was not found: install it .* or give its path with --pulumi/,
    );
    const failed = await run(["--pulumi", fakePulumi], { FAKE_EXIT: "3" });
    assert.equal(failed.code, EXIT.error);
    assert.match(failed.err, /plugin install resource account-api .* failed \(exit 3\)/);
  });
});

describe("the generated SDKs ask for this package's plugin, and nothing to download", () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
  const sdk = (path: string): string => readFileSync(join(ROOT, "sdk-gen", path), "utf8");

  it("the schema names the version and no pluginDownloadURL", () => {
    const schema = JSON.parse(sdk("schema.json")) as Record<string, unknown>;
    assert.equal(schema.version, version);
    assert.equal("pluginDownloadURL" in schema, false);
  });

  it("each SDK's pulumi-plugin.json, and the version its resources and invokes ask for", () => {
    for (const file of [
      "python/pulumi_account_api/pulumi-plugin.json",
      "go/accountapi/pulumi-plugin.json",
      "dotnet/pulumi-plugin.json",
    ])
      assert.deepEqual(JSON.parse(sdk(file)), { resource: true, name: "account-api", version }, file);
    const python = sdk("python/pulumi_account_api/_utilities.py");
    assert.match(python, new RegExp(`def get_version\\(\\):\\n\\s+return "${version}"`));
    assert.match(python, /def get_plugin_download_url\(\):\n\s+return None/);
    const go = sdk("go/accountapi/internal/pulumiUtilities.go");
    assert.equal(go.split(`semver.MustParse("${version}")`).length - 1, 2, "resources and invokes");
    assert.match(sdk("go/accountapi/internal/pulumiVersion.go"), /pluginDownloadURL string = ""/);
    assert.equal(sdk("dotnet/version.txt").trim(), version);
    assert.doesNotMatch(sdk("dotnet/Utilities.cs"), /PluginDownloadURL = "/);
  });
});
