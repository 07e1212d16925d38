/**
 * The packed package in a project laid out as Pulumi's TypeScript template lays one out
 * (tests/fixtures/template/project: Pulumi.yaml, index.ts, package.json, the template's tsconfig), the
 * way its users meet it: `tsc` under the template's own settings (module commonjs, moduleResolution
 * node, strict, no skipLibCheck, no esModuleInterop) and under node16, nodenext and bundler; the root and
 * every documented subpath from CommonJS and from an ESM program; and a clear refusal on Node < 22.
 * The project lives outside the checkout, so nothing resolves from this repository by accident.
 */
import { strict as assert } from "node:assert";
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  installPacked,
  REPO_ROOT,
  TEMPLATE_PROJECT,
  type InstalledProject,
} from "../fixtures/template/install";

const TSC = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
/**
 * [module, moduleResolution] beside the template's own commonjs/node. nodenext resolves a CommonJS
 * program's imports exactly as node16 does (both read `exports` with the require condition), so it adds
 * time, not coverage.
 */
const RESOLUTIONS = [
  ["node16", "node16"],
  ["esnext", "bundler"],
] as const;

/** Root names and each subpath, used in types and values (typechecked, not run). */
const SUBPATHS_TS = `
import { BuildTrigger, RepoConnection, TriggerEnvVars, triggerBuild, AccountApi, SearchInstance, provider, sdk } from "pulumi-account-api";
import type { BuildTriggerArgs, TriggerEnvVarInput, Registration } from "pulumi-account-api";
import * as resources from "pulumi-account-api/provider";
import * as client from "pulumi-account-api/sdk";
export const classes = [BuildTrigger, RepoConnection, TriggerEnvVars, resources.BuildTrigger, provider.BuildTrigger];
export const kb: typeof SearchInstance = resources.SearchInstance;
export const fn: typeof triggerBuild = resources.triggerBuild;
export const api: typeof AccountApi = client.AccountApi;
export type Types = [BuildTriggerArgs, TriggerEnvVarInput, Registration, sdk.SearchInstance, client.SearchInstance];
`;
const EMULATOR_TS = `import { startEmulator } from "pulumi-account-api-emulator";\nexport const start: typeof startEmulator = startEmulator;\n`;

/** Runs the root and every subpath on the installed copy, against the emulator it ships. */
const ESM_MJS = `
import { BuildTrigger, triggerBuild, AccountApi, SearchInstance, provider, sdk } from "pulumi-account-api";
import { RepoConnection } from "pulumi-account-api/provider";
import { AccountApi as Client } from "pulumi-account-api/sdk";
import { startEmulator } from "pulumi-account-api-emulator";
const em = await startEmulator({ env: {} });
const api = new Client({ baseUrl: em.url, token: em.token, accountId: em.accountId, env: {} });
const tokens = await api.builds.tokens.list();
await api.close();
await em.stop();
console.log(JSON.stringify({
  root: [BuildTrigger, triggerBuild, AccountApi, SearchInstance].map((v) => typeof v),
  same: RepoConnection === provider.RepoConnection && Client === AccountApi && sdk.AccountApi === Client,
  tokens: tokens.length,
}));
`;

describe("the packed package in a Pulumi template project (tsc, CommonJS, ESM, Node < 22)", function () {
  this.timeout(180_000);
  let dir = "";
  let p: InstalledProject;

  /** tsc on the project with the template's tsconfig plus `extra`: its output, "" when clean. */
  function tsc(config: string, files: string[], extra: Record<string, unknown> = {}): Promise<string> {
    writeFileSync(
      join(p.project, config),
      JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { noEmit: true, ...extra }, files }),
    );
    return new Promise((done, fail) => {
      execFile(
        process.execPath,
        [TSC, "-p", config, "--pretty", "false"],
        { cwd: p.project },
        (err, stdout, stderr) =>
          err && typeof err.code !== "number" ? fail(err) : done(`${stdout}${stderr}`.trim()),
      );
    });
  }
  // Each check is a whole-program tsc (@pulumi/pulumi's declarations dominate): they start together in
  // `before` and each test awaits its own, which keeps the file well inside its time budget.
  const checks = new Map<string, Promise<string>>();

  before(function () {
    const started = Date.now();
    dir = mkdtempSync(join(tmpdir(), "account-api-template-"));
    p = installPacked(dir, TEMPLATE_PROJECT, { emulator: true });
    writeFileSync(join(p.project, "subpaths.ts"), SUBPATHS_TS);
    writeFileSync(join(p.project, "emulator.ts"), EMULATOR_TS);
    writeFileSync(join(p.project, "esm.mjs"), ESM_MJS);
    checks.set("node", tsc("tsconfig.node.json", ["index.ts", "subpaths.ts"]));
    for (const [module, moduleResolution] of RESOLUTIONS)
      checks.set(
        moduleResolution,
        tsc(`tsconfig.${moduleResolution}.json`, ["index.ts", "subpaths.ts", "emulator.ts"], {
          module,
          moduleResolution,
        }),
      );
    checks.set("node-emulator", tsc("tsconfig.node-emulator.json", ["emulator.ts"], { skipLibCheck: true }));
    console.log(`      packed and installed in ${Date.now() - started} ms`);
  });

  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("is laid out as the template: Pulumi.yaml, index.ts, package.json, its tsconfig", () => {
    const tsconfig = JSON.parse(readFileSync(join(p.project, "tsconfig.json"), "utf8")) as {
      compilerOptions: Record<string, unknown>;
    };
    assert.equal(tsconfig.compilerOptions.module, "commonjs");
    assert.equal(tsconfig.compilerOptions.moduleResolution, "node");
    assert.equal(tsconfig.compilerOptions.skipLibCheck, undefined);
    assert.equal(tsconfig.compilerOptions.esModuleInterop, undefined);
    for (const f of ["Pulumi.yaml", "index.ts", "package.json"]) assert.ok(existsSync(join(p.project, f)), f);
    assert.ok(existsSync(join(p.installed, "dist", "node10", "index.d.ts")), "node10 declarations shipped");
  });

  it("typechecks under the template's tsconfig (node resolution, no skipLibCheck, no esModuleInterop)", async () => {
    assert.equal(await checks.get("node"), "");
  });

  for (const [, moduleResolution] of RESOLUTIONS) {
    it(`typechecks the program, every subpath and the emulator under moduleResolution ${moduleResolution}`, async () => {
      assert.equal(await checks.get(moduleResolution), "");
    });
  }

  it("resolves the emulator subpath under node resolution too (its server types need skipLibCheck there)", async () => {
    // fastify's logger (pino) default-imports an `export =` module: that is fastify's, and only under
    // node resolution without esModuleInterop; the subpath itself resolves (no TS2307).
    assert.equal(await checks.get("node-emulator"), "");
  });

  it("runs from CommonJS (root and subpaths) and from an ESM program against the shipped emulator", () => {
    const cjs = execFileSync(
      process.execPath,
      [
        "-e",
        `const root = require("pulumi-account-api");
         const names = ["BuildTrigger", "TriggerEnvVars", "RepoConnection", "triggerBuild", "AccountApi", "provider", "sdk"];
         console.log(JSON.stringify({
           missing: names.filter((n) => root[n] === undefined),
           searchInstanceIsResource: root.SearchInstance === require("pulumi-account-api/provider").SearchInstance,
           noEmulatorAtRoot: root.startEmulator === undefined,
           runtime: typeof require("pulumi-account-api/provider/runtime"),
         }));`,
      ],
      { cwd: p.project, encoding: "utf8" },
    );
    assert.deepEqual(JSON.parse(cjs), {
      missing: [],
      searchInstanceIsResource: true,
      noEmulatorAtRoot: true,
      runtime: "object",
    });
    const esm = execFileSync(process.execPath, ["esm.mjs"], { cwd: p.project, encoding: "utf8" });
    const out = JSON.parse(esm.trim().split("\n").pop() ?? "{}") as {
      root: string[];
      same: boolean;
      tokens: number;
    };
    assert.deepEqual(out.root, ["function", "function", "function", "function"]);
    assert.equal(out.same, true);
    assert.ok(out.tokens >= 1, esm);
  });

  it("on Node older than 22, fails at import with a message that says Node 22 or later is needed", function () {
    const old = "/usr/bin/node";
    const version = existsSync(old) ? execFileSync(old, ["--version"], { encoding: "utf8" }).trim() : "";
    if (!version || Number(version.slice(1).split(".")[0]) >= 22) this.skip();
    for (const args of [
      ["-e", 'require("pulumi-account-api")'],
      ["-e", 'require("pulumi-account-api/provider")'],
      ["-e", 'require("pulumi-account-api/sdk")'],
      ["--input-type=module", "-e", 'import "pulumi-account-api";'],
    ]) {
      const r = spawnSync(old, args, { cwd: p.project, encoding: "utf8" });
      assert.notEqual(r.status, 0, args.join(" "));
      assert.match(r.stderr, /pulumi-account-api needs Node 22 or later; this is Node 2\d\./, r.stderr);
      assert.doesNotMatch(r.stderr, /undici/, "the guard runs before undici loads");
    }
  });
});
