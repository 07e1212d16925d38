/**
 * The plugin the engine finds by itself (issue 27): a YAML program on the native provider with the
 * plugin installed by `account-api plugin install` (the packed package's CLI, which runs `pulumi
 * plugin install resource account-api <version> --file <archive>`) into a fresh PULUMI_HOME, with
 * nothing added to the harness's PATH; then the same with the archive unpacked into the project and
 * named by Pulumi.yaml's `plugins:`. Each goes up, and back down, without the engine's
 * "using pulumi-resource-account-api from $PATH" warning. Real engine, YAML host, emulator.
 * `npm run build` first when running this file alone: the package is packed from dist.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { PLUGIN_EXECUTABLE, pluginArchivePath } from "../../provider/native/plugin-archive";
import { buildPluginArchive } from "../../scripts/build-plugin";
import { nativeProject, type NativeProject } from "./native-project";

const AMBIENT_WARNING = /using pulumi-resource-account-api from \$PATH/;

const PROGRAM = `resources:
  kb:
    type: account-api:index:SearchInstance
    properties:
      instanceId: installed-kb
      chunkSize: 256
variables:
  domain:
    fn::invoke:
      function: account-api:index:checkDomain
      arguments:
        domainName: installed-free-name.com
outputs:
  kb: \${kb.id}
  registrable: \${domain.registrable}
`;

/** Where on `path` a command of that name is, or undefined. */
function onPath(path: string, command: string): string | undefined {
  return path
    .split(delimiter)
    .filter(Boolean)
    .map((d) => join(d, command))
    .find((f) => existsSync(f));
}

/** Runs `pulumi up`, checks what it said and made, then destroys; answers up's whole output. */
async function upAndDown(p: NativeProject): Promise<string> {
  const up = await p.pulumi("up", "--yes", "--skip-preview");
  assert.ok(up.ok, `up failed:\n${up.out}`);
  assert.doesNotMatch(up.out, AMBIENT_WARNING);
  assert.equal((await p.ok("stack", "output", "kb")).trim(), "default/installed-kb");
  assert.equal((await p.ok("stack", "output", "registrable")).trim(), "true", "the invoke answered");
  assert.equal((await p.api.search.instances.get({ id: "installed-kb" })).chunk_size, 256);
  const down = await p.pulumi("destroy", "--yes", "--skip-preview");
  assert.ok(down.ok, `destroy failed:\n${down.out}`);
  assert.doesNotMatch(down.out, AMBIENT_WARNING);
  await assert.rejects(p.api.search.instances.get({ id: "installed-kb" }), /404/);
  return up.out;
}

describe("the native plugin installed where the engine looks (real engine, no PATH change)", function () {
  this.timeout(10 * 60_000);

  it("npm run build made the plugin archive the packed package ships, and makes the same bytes again", async function () {
    const { version } = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as {
      version: string;
    };
    const archive = pluginArchivePath(join(__dirname, "..", "..", "dist"), version);
    const listing = execFileSync("tar", ["-tvzf", archive], { encoding: "utf8" });
    assert.match(listing, new RegExp(`^-rwxr-xr-x 0/0 +\\d+ 1970-01-01 00:00 ${PLUGIN_EXECUTABLE}$`, "m"));
    for (const file of ["plugin.js", "field-docs.json", "package.json"])
      assert.match(listing, new RegExp(` ${file.replace(".", "\\.")}$`, "m"));
    const size = statSync(archive).size;
    console.log(`      plugin archive: ${size} bytes`);
    assert.ok(size < 2_000_000, `the archive is ${size} bytes; it should stay under 2 MB`);
    const again = join(mkdtempSync(join(tmpdir(), "plugin-again-")), "again.tar.gz");
    try {
      await buildPluginArchive(again);
      assert.ok(readFileSync(again).equals(readFileSync(archive)), "a second build gives the same bytes");
    } finally {
      rmSync(dirname(again), { recursive: true, force: true });
    }
  });

  describe("installed by `account-api plugin install` into a fresh PULUMI_HOME", function () {
    let p: NativeProject;
    before(async function () {
      this.timeout(20 * 60_000);
      p = await nativeProject("plugin-install", { pluginOnPath: false });
    });
    after(async () => {
      await p?.close();
    });

    it("installs, and a YAML program goes up and down without the ambient-plugin warning", async function () {
      const path = p.env.PATH ?? "";
      assert.equal(
        onPath(path, PLUGIN_EXECUTABLE),
        undefined,
        "no pulumi-resource-account-api on the engine's PATH",
      );
      assert.ok(!existsSync(join(p.env.PULUMI_HOME ?? "", "plugins")), "the PULUMI_HOME is fresh");
      const cli = join(p.installed, "dist", "cli", "main.js");
      const said = execFileSync(process.execPath, [cli, "plugin", "install"], {
        env: p.env,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"], // pulumi's own "installing" line stays out of the test log
      });
      const { version } = JSON.parse(readFileSync(join(p.installed, "package.json"), "utf8")) as {
        version: string;
      };
      const folder = join(p.env.PULUMI_HOME ?? "", "plugins", `resource-account-api-v${version}`);
      assert.match(said, new RegExp(`installed the account-api plugin ${version.replace(/\./g, "\\.")} in `));
      assert.ok(statSync(join(folder, PLUGIN_EXECUTABLE)).mode & 0o100, "the launcher is executable");
      assert.match(
        await p.ok("plugin", "ls"),
        new RegExp(`account-api\\s+resource\\s+${version.replace(/\./g, "\\.")}`),
      );

      p.program(PROGRAM);
      await p.initStack("dev");
      await upAndDown(p);
    });
  });

  describe("named by Pulumi.yaml's `plugins:` (a project-local plugin)", function () {
    let p: NativeProject;
    before(async function () {
      this.timeout(20 * 60_000);
      p = await nativeProject("plugin-local", { pluginOnPath: false });
    });
    after(async () => {
      await p?.close();
    });

    it("goes up and down from the unpacked archive, nothing installed in PULUMI_HOME", async function () {
      const { version } = JSON.parse(readFileSync(join(p.installed, "package.json"), "utf8")) as {
        version: string;
      };
      const folder = join(p.dir, "plugins", "account-api");
      mkdirSync(folder, { recursive: true });
      execFileSync("tar", ["-xzf", pluginArchivePath(join(p.installed, "dist"), version), "-C", folder]);
      p.program(
        `plugins:\n  providers:\n    - name: account-api\n      path: ./plugins/account-api\n${PROGRAM}`,
      );
      await p.initStack("dev");
      await upAndDown(p);
      assert.ok(!existsSync(join(p.env.PULUMI_HOME ?? "", "plugins", `resource-account-api-v${version}`)));
    });
  });
});
