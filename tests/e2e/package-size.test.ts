/**
 * What a program that only declares resources installs (issue 27): the provider's package, packed and
 * installed by npm alone into a fresh folder outside the repository, beside @pulumi/pulumi; its size
 * beyond what @pulumi/pulumi installs by itself, measured against a second folder with @pulumi/pulumi
 * only. Then the emulator's package, added by the one command the CLI names, runs from there.
 *
 * npm installs from the registry (its cache first); both folders ask for the same @pulumi/pulumi, so
 * the difference is this package and what it pulls in.
 */
import { strict as assert } from "node:assert";
import { execFile, execFileSync, spawn } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { EMULATOR_PACKAGE, REPO_ROOT, pack } from "../fixtures/template/install";

const run = promisify(execFile);

/** The budget: at most 15 MB beyond @pulumi/pulumi (decimal megabytes, the stricter reading). */
const BUDGET_BYTES = 15_000_000;

/** Bytes of every file under `dir`, links not followed (what the folder takes, as `du -sb` counts files). */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += bytesUnder(p);
    else if (e.isFile()) total += lstatSync(p).size;
  }
  return total;
}

const PULUMI_VERSION = (
  JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  }
).devDependencies["@pulumi/pulumi"]!;

async function npmInstall(folder: string, specs: string[]): Promise<void> {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "fresh-project", private: true }));
  // --ignore-scripts: install scripts would make the two folders differ by what they build, not by
  // what they install.
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", ...specs], {
    cwd: folder,
    env: { ...process.env, npm_config_update_notifier: "false" },
    maxBuffer: 16 * 1024 * 1024,
  });
}

describe("the provider's package installed alone by npm, in a fresh folder", function () {
  this.timeout(900_000);
  let dir = "";
  let provider = "";
  let emulatorTarball = "";
  let figures = { base: 0, withProvider: 0 };

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), "account-api-size-"));
    const tarball = pack(REPO_ROOT, dir);
    emulatorTarball = pack(join(REPO_ROOT, "emulator"), dir);
    provider = join(dir, "with-provider");
    const base = join(dir, "pulumi-only");
    await Promise.all([
      npmInstall(base, [`@pulumi/pulumi@${PULUMI_VERSION}`]),
      npmInstall(provider, [`@pulumi/pulumi@${PULUMI_VERSION}`, tarball]),
    ]);
    figures = {
      base: bytesUnder(join(base, "node_modules")),
      withProvider: bytesUnder(join(provider, "node_modules")),
    };
  });

  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("takes at most 15 MB beyond @pulumi/pulumi, without the emulator's dependencies", () => {
    const beyond = figures.withProvider - figures.base;
    console.log(
      `      installed: @pulumi/pulumi alone ${(figures.base / 1e6).toFixed(1)} MB; with the provider ${(figures.withProvider / 1e6).toFixed(1)} MB; beyond: ${(beyond / 1e6).toFixed(2)} MB (budget ${BUDGET_BYTES / 1e6} MB)`,
    );
    assert.ok(beyond > 0, "the provider adds something");
    assert.ok(beyond <= BUDGET_BYTES, `${beyond} bytes beyond @pulumi/pulumi`);
    const modules = readdirSync(join(provider, "node_modules"));
    for (const name of ["fastify", "turndown", "gpt-tokenizer", EMULATOR_PACKAGE])
      assert.ok(!modules.includes(name), `${name} is not installed`);
  });

  it("loads its root in a program and, without the emulator, names the one command that adds it", async () => {
    const loaded = execFileSync(
      process.execPath,
      [
        "-e",
        "const p = require('pulumi-account-api'); console.log(typeof p.BuildTrigger, typeof p.AccountApi)",
      ],
      { cwd: provider, encoding: "utf8" },
    ).trim();
    assert.equal(loaded, "function function");
    const cli = join(provider, "node_modules", ".bin", "account-api");
    const refused = await run(cli, ["emulator", "--port", "0"], { cwd: provider }).then(
      () => assert.fail("the emulator verb ran without the emulator's package"),
      (err: { code?: number; stderr?: string }) => err,
    );
    assert.equal(refused.code, 64);
    assert.match(refused.stderr ?? "", /npm install --save-dev pulumi-account-api-emulator/);
    assert.equal((refused.stderr ?? "").trim().split("\n").length, 1, "one line");
  });

  it("runs the emulator and its console once its package is added, from the same CLI", async () => {
    await run(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        "--save-dev",
        emulatorTarball,
      ],
      {
        cwd: provider,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const child = spawn(join(provider, "node_modules", ".bin", "account-api"), ["emulator", "--port", "0"], {
      cwd: provider,
      env: { PATH: process.env.PATH ?? "", HOME: dir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const banner = await new Promise<string>((done, fail) => {
        let out = "";
        child.stdout.on("data", (b: Buffer) => {
          out += b.toString();
          if (/client\/v4/.test(out)) done(out);
        });
        child.on("exit", (code) => fail(new Error(`emulator exited ${code}: ${out}`)));
      });
      const url = /(http:\/\/127\.0\.0\.1:\d+\/client\/v4)/.exec(banner)?.[1];
      assert.ok(url, banner);
      const origin = url.replace(/\/client\/v4$/, "");
      const health = await fetch(`${origin}/__emulator/health`);
      assert.equal(health.status, 200);
      // The console's browser files travel in the package (tsc copies none: the build does).
      const shell = await fetch(`${origin}/`);
      assert.equal(shell.status, 200);
      assert.match(shell.headers.get("content-type") ?? "", /text\/html/);
      const app = await fetch(`${origin}/__console/app.js`);
      assert.equal(app.status, 200, "the console's app.js is served from the installed package");
    } finally {
      child.kill("SIGTERM");
    }
  });
});
