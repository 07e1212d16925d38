/**
 * The package as a user gets it: `npm pack`, unpacked into a fresh project's node_modules (its
 * dependencies linked from ours, so no network), then a program that imports the INSTALLED package
 * goes up on the real engine. The engine's provider process loads the installed runtime
 * (`pulumi-account-api/provider/runtime` from the project's node_modules), not this checkout.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { engineEnv, REPO_ROOT } from "./harness";
import { startEmulator, type RunningEmulator } from "../../emulator/server";

describe("the packed package in a user's project (real engine)", function () {
  this.timeout(300_000);
  let dir = "";
  let em: RunningEmulator;

  before(async () => {
    mkdirSync(join(REPO_ROOT, ".pulumi-test"), { recursive: true });
    dir = mkdtempSync(join(REPO_ROOT, ".pulumi-test", "package-"));
    const project = join(dir, "project");
    const modules = join(project, "node_modules");
    mkdirSync(join(modules, "@pulumi"), { recursive: true });
    // A user's project: the tarball unpacked as the package; its dependencies (and @pulumi/pulumi, the
    // peer) linked from this checkout's node_modules instead of downloaded.
    const tarball = execFileSync("npm", ["pack", REPO_ROOT, "--silent", "--pack-destination", dir], {
      encoding: "utf8",
    })
      .trim()
      .split("\n")
      .pop()!;
    execFileSync("tar", ["xzf", join(dir, tarball), "-C", dir]);
    execFileSync("mv", [join(dir, "package"), join(modules, "pulumi-account-api")]);
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    for (const name of Object.keys(pkg.dependencies)) {
      mkdirSync(join(modules, name, ".."), { recursive: true });
      symlinkSync(join(REPO_ROOT, "node_modules", name), join(modules, name));
    }
    for (const name of readdirSync(join(REPO_ROOT, "node_modules", "@pulumi"))) {
      symlinkSync(join(REPO_ROOT, "node_modules", "@pulumi", name), join(modules, "@pulumi", name));
    }
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user-project", private: true }));
    em = await startEmulator({ env: {} });
  });

  after(async () => {
    await em?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("ships dist, docs and typed entry points, and its resources run from the installed copy", async () => {
    const installed = join(dir, "project", "node_modules", "pulumi-account-api");
    const files = new Set(readdirSync(join(installed, "dist")));
    for (const f of ["index.js", "index.d.ts", "sdk", "provider", "emulator", "cli"])
      assert.ok(files.has(f), f);
    assert.ok(readdirSync(join(installed, "docs")).includes("resources.md"));
    const cliVersion = execFileSync(
      process.execPath,
      [join(installed, "dist", "cli", "main.js"), "--version"],
      {
        encoding: "utf8",
      },
    ).trim();
    assert.equal(
      cliVersion,
      (JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as { version: string }).version,
    );

    // The program imports the installed package, as a user's program would.
    const { provider } = require(installed) as typeof import("../../index");
    const project = join(dir, "project");
    mkdirSync(join(dir, "backend"), { recursive: true });
    const stack = await LocalWorkspace.createStack(
      {
        stackName: "user",
        projectName: "user-project",
        program: async () => {
          const kb = new provider.SearchInstance("kb", { instanceId: "from-package", syncInterval: 3600 });
          return { id: kb.id };
        },
      },
      {
        workDir: project,
        pulumiCommand: await PulumiCommand.get({ root: join(REPO_ROOT, ".engine"), skipVersionCheck: true }),
        envVars: {
          ...engineEnv(join(dir, "backend"), join(dir, "home")),
          ACCOUNT_API_BASE_URL: em.url,
          ACCOUNT_API_ACCOUNT_ID: em.accountId,
          ACCOUNT_API_TOKEN: em.token,
        },
        projectSettings: {
          name: "user-project",
          runtime: "nodejs",
          backend: { url: `file://${join(dir, "backend")}` },
        },
      },
    );
    const onOutput = (line: string): void => void process.stdout.write(line);
    const up = await stack.up({ onOutput });
    assert.equal(up.outputs.id?.value, "default/from-package");
    // The serialized provider in state points at the package by name, so the installed copy is what runs.
    const state = JSON.stringify((await stack.exportStack()).deployment);
    assert.ok(state.includes("pulumi-account-api/provider/runtime"));
    assert.ok(!state.includes(em.token), "the token came from the environment and is not in state");
    await stack.preview({ expectNoChanges: true, refresh: true, onOutput });
    await stack.destroy({ onOutput });
    const left = await fetch(`${em.url}/accounts/${em.accountId}/ai-search/instances/from-package`, {
      headers: { authorization: `Bearer ${em.token}` },
    });
    assert.equal(left.status, 404);
  });
});
