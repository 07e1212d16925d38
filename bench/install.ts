/**
 * The package as a user installs it, built from one commit: `git archive` of the commit, compiled into
 * a user project's `node_modules/pulumi-account-api/dist`, its dependencies linked from this checkout
 * and `@pulumi/pulumi` copied (as npm would install it, so the SDK serializes the installed shims to a
 * `require` of their package subpath, the way a user's state stores them). Built once per commit and
 * kept under the system's temporary directory. Other engineers' uncommitted edits never leak in.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { linkDependencies } from "../tests/fixtures/template/install";
import { CACHE_DIR, REPO_ROOT } from "./paths";

export interface Installed {
  commit: string;
  /** The user project: the engine's work dir; its node_modules holds the package. */
  project: string;
  /** `node_modules/pulumi-account-api` inside the project. */
  pkg: string;
  /** The native provider plugin's launcher in the project's `node_modules/.bin`, when the commit has one. */
  plugin?: string;
}

export function resolveCommit(ref: string): string {
  return execFileSync("git", ["-C", REPO_ROOT, "rev-parse", `${ref}^{commit}`], { encoding: "utf8" }).trim();
}

export function install(ref: string, log: (line: string) => void): Installed {
  const commit = resolveCommit(ref);
  const dir = join(CACHE_DIR, commit);
  const project = join(dir, "project");
  const modules = join(project, "node_modules");
  const pkg = join(modules, "pulumi-account-api");
  const ready = join(dir, "ready");
  if (existsSync(ready)) return withPlugin({ commit, project, pkg });

  log(`building the package at ${commit.slice(0, 7)} into ${project}`);
  rmSync(dir, { recursive: true, force: true });
  const src = join(dir, "src");
  mkdirSync(src, { recursive: true });
  mkdirSync(join(modules, "@pulumi"), { recursive: true });
  execFileSync("sh", ["-c", `git -C "${REPO_ROOT}" archive ${commit} | tar -x -C "${src}"`]);
  symlinkSync(join(REPO_ROOT, "node_modules"), join(src, "node_modules"));
  mkdirSync(pkg, { recursive: true });
  cpSync(join(src, "package.json"), join(pkg, "package.json"));
  const tsc = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
  try {
    execFileSync(
      process.execPath,
      [tsc, "-p", join(src, "tsconfig.build.json"), "--outDir", join(pkg, "dist")],
      {
        stdio: "pipe",
      },
    );
  } catch (err) {
    // tsc emits despite type errors; only a missing runtime is fatal.
    if (!existsSync(join(pkg, "dist", "provider", "runtime.js"))) throw err;
    log(`  (tsc reported type errors at ${commit.slice(0, 7)}; the emitted JavaScript is used)`);
  }
  linkDependencies(modules);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "bench-project", private: true }));
  writeFileSync(ready, new Date().toISOString());
  return withPlugin({ commit, project, pkg });
}

/**
 * What npm does for the package's `bin`: a launcher for the native provider plugin in the project's
 * `node_modules/.bin`, which the engine's PATH holds. It runs the bench's own Node (22 or later): the
 * plugin's `#!/usr/bin/env node` would find whatever Node comes first on PATH.
 */
function withPlugin(installed: Installed): Installed {
  const entry = join(installed.pkg, "dist", "provider", "native", "plugin.js");
  if (!existsSync(entry)) return installed;
  const bin = join(installed.project, "node_modules", ".bin");
  const plugin = join(bin, "pulumi-resource-account-api");
  mkdirSync(bin, { recursive: true });
  writeFileSync(plugin, `#!/bin/sh\nexec "${process.execPath}" "${entry}" "$@"\n`);
  chmodSync(plugin, 0o755);
  return { ...installed, plugin };
}
