/**
 * The package in every install layout (tests/fixtures/layouts/install.ts): npm, an npm workspace with
 * `@pulumi/pulumi` hoisted to its root, a pnpm workspace without hoisting, yarn classic, yarn Berry
 * (node-modules linker), and `npm link` of this checkout. In each, a user's Automation API driver in the program's folder
 * (tests/fixtures/layouts/program.cjs) runs up, refresh (no changes expected) and destroy on the real
 * engine against the emulator, and the state's `__provider` is a small `require` of the installed
 * package. One packed tarball and one set of caches serve every layout; the projects live outside the
 * checkout, so nothing resolves from this repository by accident.
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import {
  installer,
  npmLink,
  npmProject,
  npmWorkspace,
  pnpmWorkspace,
  REPO_ROOT,
  yarnBerryProject,
  yarnProject,
  type InstalledLayout,
  type Installer,
} from "../fixtures/layouts/install";
import { engineEnv } from "./harness";

const PROGRAM = join(REPO_ROOT, "tests", "fixtures", "layouts", "program.cjs");

interface ProgramResult {
  id: string;
  up: Record<string, number>;
  refresh: Record<string, number>;
  destroy: Record<string, number>;
  providers: { kind: string; text: string }[];
  resolved: { sdk: string | null; pkg: string | null; shim: string | null; pkgFromSdk: string | null };
}

interface LayoutCase {
  name: string;
  install(dir: string, i: Installer): InstalledLayout;
  /** What makes this layout this layout, checked on the driver's view of it. */
  check(r: ProgramResult, dir: string): void;
}

const within = (file: string | null, dir: string): boolean =>
  !!file && file.startsWith(realpathSync(dir) + sep);

const LAYOUTS: LayoutCase[] = [
  {
    name: "npm",
    install: npmProject,
    check: (r, dir) => assert.ok(within(r.resolved.pkgFromSdk, dir), "the SDK sees the installed package"),
  },
  {
    name: "npm workspace, @pulumi/pulumi hoisted to its root, the program in a member",
    install: npmWorkspace,
    check: (r, dir) => {
      assert.ok(within(r.resolved.sdk, join(dir, "node_modules")), `SDK at the root: ${r.resolved.sdk}`);
      assert.ok(!within(r.resolved.sdk, join(dir, "packages")), "no SDK in the member");
    },
  },
  {
    name: "pnpm workspace without hoisting (the SDK cannot see the package)",
    install: pnpmWorkspace,
    check: (r, dir) => {
      assert.ok(
        within(r.resolved.sdk, join(dir, "node_modules", ".pnpm")),
        `SDK in the store: ${r.resolved.sdk}`,
      );
      // The layout where the SDK's serializer stored `pulumi-account-api/dist/provider/shims/<kind>.js`.
      assert.equal(r.resolved.pkgFromSdk, null);
    },
  },
  {
    name: "yarn classic",
    install: yarnProject,
    check: (r, dir) => assert.ok(within(r.resolved.pkg, join(dir, "node_modules")), `${r.resolved.pkg}`),
  },
  {
    name: "yarn Berry, nodeLinker: node-modules",
    install: yarnBerryProject,
    check: (r, dir) => assert.ok(within(r.resolved.pkg, join(dir, "node_modules")), `${r.resolved.pkg}`),
  },
  {
    name: "npm link of this checkout (which has its own @pulumi/pulumi)",
    install: npmLink,
    check: (r, dir) => {
      assert.equal(r.resolved.pkg, join(REPO_ROOT, "dist", "index.js"), "the checkout's build");
      assert.equal(r.resolved.shim, join(REPO_ROOT, "dist", "provider", "shims", "search-instance.js"));
      assert.ok(within(r.resolved.sdk, dir), `the program's own SDK: ${r.resolved.sdk}`);
    },
  },
];

describe("the packed package in every install layout (npm, workspace, pnpm, yarn, Berry, npm link; real engine)", function () {
  this.timeout(600_000);
  let dir = "";
  let em: RunningEmulator;
  let i: Installer;
  let env: Record<string, string>;

  before(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "account-api-layouts-")));
    env = {
      ...(process.env as Record<string, string>),
      ...engineEnv(join(dir, "backend"), join(dir, "home")),
    };
    i = installer(dir, env);
    em = await startEmulator({ env: {} });
    mkdirSync(join(dir, "backend"), { recursive: true });
  });

  after(async () => {
    await em?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the driver in the program's folder; its engine output goes to the test log. */
  function runProgram(program: string, stack: string, instanceId: string): Promise<ProgramResult> {
    copyFileSync(PROGRAM, join(program, "program.cjs"));
    const arg = JSON.stringify({
      stack,
      instanceId,
      backend: join(dir, "backend"),
      engineRoot: join(REPO_ROOT, ".engine"),
      envVars: {
        ...engineEnv(join(dir, "backend"), join(dir, "home")),
        ACCOUNT_API_BASE_URL: em.url,
        ACCOUNT_API_ACCOUNT_ID: em.accountId,
        ACCOUNT_API_TOKEN: em.token,
      },
    });
    return new Promise((done, fail) => {
      const child = execFile(
        process.execPath,
        ["program.cjs", arg],
        { cwd: program, env, maxBuffer: 64 << 20 },
        (err, stdout) => {
          const line = stdout.split("\n").find((l) => l.startsWith("RESULT "));
          if (err || !line) fail(err ?? new Error(`the program printed no result:\n${stdout}`));
          else done(JSON.parse(line.slice("RESULT ".length)) as ProgramResult);
        },
      );
      child.stderr?.pipe(process.stdout);
    });
  }

  LAYOUTS.forEach((layout, n) => {
    it(layout.name, async () => {
      const started = Date.now();
      const where = join(dir, `layout-${n}`);
      mkdirSync(where, { recursive: true });
      const installed = layout.install(where, i);
      const installedIn = Date.now() - started;
      const instanceId = `layout-${n}`;
      const r = await runProgram(installed.program, `layout-${n}`, instanceId);

      assert.equal(r.id, `default/${instanceId}`);
      assert.deepEqual(r.up, { create: 3 });
      assert.deepEqual(r.refresh, { same: 3 });
      assert.deepEqual(r.destroy, { delete: 3 });
      // What the engine's provider host runs: the installed package's shim, by a small require.
      assert.deepEqual(r.providers.map((p) => p.kind).sort(), ["RepoConnection", "SearchInstance"]);
      for (const p of r.providers) {
        const file = p.kind.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase();
        assert.ok(p.text.includes(`require("pulumi-account-api/provider/shims/${file}")`), p.text);
        assert.ok(p.text.length < 320, `${p.kind}: __provider is ${p.text.length} bytes`);
      }
      assert.equal(realpathSync(installed.installed), realpathSync(join(r.resolved.pkg ?? "", "..", "..")));
      layout.check(r, where);
      const left = await fetch(`${em.url}/accounts/${em.accountId}/ai-search/instances/${instanceId}`, {
        headers: { authorization: `Bearer ${em.token}` },
      });
      assert.equal(left.status, 404, "destroy deleted the instance");
      console.log(`      installed in ${installedIn} ms, ran in ${Date.now() - started - installedIn} ms`);
    });
  });
});
