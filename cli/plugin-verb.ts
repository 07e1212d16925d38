/**
 * `account-api plugin install`: installs the native provider plugin shipped in this package (its
 * archive, made by `npm run build`) with the Pulumi CLI's own `pulumi plugin install resource
 * account-api <version> --file <archive>`, into $PULUMI_HOME/plugins/resource-account-api-v<version>/,
 * where the engine finds it with no PATH change. It builds and downloads nothing.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";
import type { Command } from "commander";
import { PLUGIN_NAME, pluginArchivePath } from "../provider/native/plugin-archive";
import { PACKAGE_VERSION } from "../sdk/version";
import { CliError, EXIT, action, leaf, type CommonOptions, type VerbIo } from "./io";

/** The package's dist folder: this file is dist/cli/plugin-verb.js, or cli/plugin-verb.ts in a checkout. */
function distDir(): string {
  const up = resolve(__dirname, "..");
  return basename(up) === "dist" ? up : join(up, "dist");
}

/** The archive is not in the package: a checkout that was not built, or a damaged install. */
export class PluginArchiveMissingError extends CliError {
  constructor(readonly archive: string) {
    super(
      `the plugin archive ${archive} is not there: in a source checkout run \`npm run build\` first; in an installed package, reinstall pulumi-account-api`,
    );
  }
}

/** `pulumi` could not be started. */
export class PulumiCliMissingError extends CliError {
  constructor(command: string) {
    super(
      `the Pulumi CLI (${command}) was not found: install it (https://www.pulumi.com/docs/install/) or give its path with --pulumi`,
    );
  }
}

interface PluginInstallOptions extends CommonOptions {
  pulumi: string;
  reinstall?: boolean;
}

/** Runs `command args`, its output to io as it comes; answers its exit code. */
function run(io: VerbIo, command: string, args: readonly string[]): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { env: io.env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk: Buffer) => io.err(chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => io.err(chunk.toString()));
    child.on("error", (err: NodeJS.ErrnoException) =>
      fail(err.code === "ENOENT" ? new PulumiCliMissingError(command) : err),
    );
    child.on("close", (code) => done(code ?? EXIT.error));
  });
}

/** What a test replaces: where the package's dist folder is. */
export interface PluginVerbDeps {
  distDir?: string;
}

export function addPluginVerb(program: Command, io: VerbIo, deps: PluginVerbDeps = {}): void {
  const plugin = program
    .command("plugin")
    .description(
      "the native provider plugin (pulumi-resource-account-api) for YAML, Python, Go and .NET programs",
    );
  leaf(
    plugin
      .command("install")
      .description(
        `install the plugin shipped in this package (account-api ${PACKAGE_VERSION}) where the Pulumi engine finds it, with \`pulumi plugin install resource ${PLUGIN_NAME} ${PACKAGE_VERSION} --file <archive>\`; nothing is downloaded`,
      )
      .option("--pulumi <command>", "the Pulumi CLI to run", "pulumi")
      .option("--reinstall", "replace the plugin when this version is installed already"),
  ).action(
    action(io, async (o: PluginInstallOptions) => {
      const archive = pluginArchivePath(deps.distDir ?? distDir(), PACKAGE_VERSION);
      if (!existsSync(archive)) throw new PluginArchiveMissingError(archive);
      const args = ["plugin", "install", "resource", PLUGIN_NAME, PACKAGE_VERSION, "--file", archive];
      if (o.reinstall) args.push("--reinstall");
      const code = await run(io, o.pulumi, args);
      if (code !== 0) throw new CliError(`\`${o.pulumi} ${args.join(" ")}\` failed (exit ${code})`);
      const home = io.env.PULUMI_HOME ?? join(homedir(), ".pulumi");
      const folder = join(home, "plugins", `resource-${PLUGIN_NAME}-v${PACKAGE_VERSION}`);
      return {
        result: { name: PLUGIN_NAME, version: PACKAGE_VERSION, archive, folder },
        text: `installed the ${PLUGIN_NAME} plugin ${PACKAGE_VERSION} in ${folder}: the engine finds it there, with no PATH change (it runs with the node on PATH, Node 22 or later)\n`,
      };
    }),
  );
}
