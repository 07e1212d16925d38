/**
 * The package as a user gets it: `npm pack`, unpacked into a fresh project's node_modules (its
 * dependencies linked from ours, so no network; see tests/fixtures/template/install.ts), then a program that imports the INSTALLED package
 * goes up on the real engine. The engine's provider process loads the installed runtime
 * (`pulumi-account-api/provider/runtime` from the project's node_modules), not this checkout.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as automation from "@pulumi/pulumi/automation";
import { engineEnv, REPO_ROOT } from "./harness";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { installPacked } from "../fixtures/template/install";

describe("the packed package in a user's project (real engine)", function () {
  this.timeout(300_000);
  let dir = "";
  let em: RunningEmulator;

  before(async () => {
    mkdirSync(join(REPO_ROOT, ".pulumi-test"), { recursive: true });
    dir = mkdtempSync(join(REPO_ROOT, ".pulumi-test", "package-"));
    const { project } = installPacked(dir);
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
    for (const f of ["index.js", "index.d.ts", "sdk", "provider", "cli", "policy", "plugin"])
      assert.ok(files.has(f), f);
    // The emulator (a web server, an HTML parser, a tokenizer) is its own package (issue 27).
    for (const f of ["emulator", "lib"]) assert.ok(!files.has(f), `dist/${f} is not shipped`);
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
    // One copy of the SDK drives and registers: the project's, as in a user's process.
    const { LocalWorkspace, PulumiCommand }: typeof automation = require(
      join(project, "node_modules", "@pulumi", "pulumi", "automation"),
    );
    const stack = await LocalWorkspace.createStack(
      {
        stackName: "user",
        projectName: "user-project",
        program: async () => {
          const kb = new provider.SearchInstance("kb", { instanceId: "from-package", syncInterval: 3600 });
          for (const repo of ["a", "b"])
            new provider.RepoConnection(repo, {
              providerType: "github",
              providerAccountId: "acme",
              providerAccountName: "Acme",
              repoId: repo,
              repoName: repo,
            });
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
    // The serialized provider in state is a `require` of the installed package's shim for the kind:
    // small, one per kind, and what runs is the installed copy.
    const deployment = (await stack.exportStack()).deployment;
    const state = JSON.stringify(deployment);
    const providers = (deployment.resources as { type: string; inputs?: { __provider?: string } }[])
      .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic"))
      .map((r) => ({ kind: r.type.split(":").at(-1), text: r.inputs?.__provider ?? "" }));
    assert.equal(providers.length, 3);
    for (const p of providers) {
      assert.ok(p.text.length <= 512, `${p.kind}: __provider is ${p.text.length} bytes`);
      assert.ok(p.text.includes("pulumi-account-api/provider/shims/"), p.text);
    }
    assert.equal(new Set(providers.map((p) => p.text)).size, 2, "one provider object per kind");
    console.log(
      `installed __provider: ${providers.map((p) => `${p.kind} ${p.text.length} bytes`).join(", ")}`,
    );
    assert.ok(!state.includes(em.token), "the token came from the environment and is not in state");
    await stack.preview({ expectNoChanges: true, refresh: true, onOutput });
    await stack.destroy({ onOutput });
    const left = await fetch(`${em.url}/accounts/${em.accountId}/ai-search/instances/from-package`, {
      headers: { authorization: `Bearer ${em.token}` },
    });
    assert.equal(left.status, 404);
  });
});
