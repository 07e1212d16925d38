/**
 * A `runtime: yaml` project on the native provider plugin, as a user sets it up: the packed package
 * installed into a project (tests/fixtures/template/install.ts), its `bin` linked into
 * node_modules/.bin as npm links it, and that folder on PATH, where the engine finds
 * `pulumi-resource-account-api` (the engine warns `using … from $PATH`). With `pluginOnPath: false`
 * nothing is added to PATH: tests/e2e/plugin-install.test.ts installs the plugin instead. The real
 * CLI and the YAML host (scripts/provision-*.sh) run each command against an emulator; plugin
 * acquisition is off, so a missing plugin fails.
 * `npm run build` first when running such a test alone: the package is packed from dist.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { AccountApi } from "../../sdk";
import { installPacked } from "../fixtures/template/install";
import { REPO_ROOT } from "./harness";
import { cliEnv, provisionYamlHost, pulumiCli, type PulumiRun } from "./pulumi-cli";

export interface NativeProject {
  em: RunningEmulator;
  /** An sdk client of the emulator, for set-up and out-of-band changes. */
  api: AccountApi;
  /** The YAML project's folder. */
  dir: string;
  /** The installed package (<npm project>/node_modules/pulumi-account-api). */
  installed: string;
  /** The environment each `pulumi` command runs with (PULUMI_HOME, PATH, the file backend). */
  env: Record<string, string>;
  /** Writes the project's Pulumi.yaml: `name` and `runtime` first, then `body`. */
  program(body: string): void;
  /** One `pulumi` command in the project; its output goes to the test log. */
  pulumi(...args: string[]): Promise<PulumiRun>;
  /** The same, failing the test when the command fails; answers stdout. */
  ok(...args: string[]): Promise<string>;
  /**
   * A stack with the provider's settings; the token set as a secret unless `plainToken` (the
   * provider then makes it one in state).
   */
  initStack(name: string, o?: { plainToken?: boolean }): Promise<void>;
  /** The stack's checkpoint as the backend stores it. */
  rawState(): Promise<string>;
  close(): Promise<void>;
}

/** Links each command of an installed package into node_modules/.bin, as npm does. */
function linkBins(modules: string, pkg: string): string {
  const bins = join(modules, ".bin");
  mkdirSync(bins, { recursive: true });
  const { bin } = JSON.parse(readFileSync(join(modules, pkg, "package.json"), "utf8")) as {
    bin?: Record<string, string>;
  };
  for (const [command, target] of Object.entries(bin ?? {}))
    symlinkSync(join("..", pkg, target), join(bins, command));
  return bins;
}

export interface NativeProjectOptions {
  /**
   * Puts the package's `bin` folder first on PATH, where the engine finds the plugin (the default).
   * Without it, nothing is added to the harness's PATH: the plugin must be installed
   * (`account-api plugin install`) or named by the project's `plugins:`.
   */
  pluginOnPath?: boolean;
}

export async function nativeProject(name: string, o: NativeProjectOptions = {}): Promise<NativeProject> {
  provisionYamlHost();
  mkdirSync(join(REPO_ROOT, ".pulumi-test"), { recursive: true });
  const scratch = mkdtempSync(join(REPO_ROOT, ".pulumi-test", `${name}-`));
  const { project: npmProject, installed } = installPacked(scratch);
  const bins = linkBins(join(npmProject, "node_modules"), "pulumi-account-api");
  const onPath = o.pluginOnPath ?? true;
  const dir = join(scratch, "yaml");
  mkdirSync(dir);
  mkdirSync(join(scratch, "backend"));
  const em = await startEmulator({ env: {} });
  const api = new AccountApi({ baseUrl: em.url, token: em.token, accountId: em.accountId, env: {} });
  // The plugin's `#!/usr/bin/env node` runs the node beside this one (Node >= 22), not the system's.
  const env = cliEnv(
    join(scratch, "backend"),
    join(scratch, "home"),
    onPath ? [bins, dirname(process.execPath)] : [],
  );
  for (const k of Object.keys(env)) if (k.startsWith("ACCOUNT_API_")) delete env[k];
  const { run: pulumi, ok } = pulumiCli(dir, env);
  return {
    em,
    api,
    dir,
    installed,
    env,
    program: (body) => writeFileSync(join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: yaml\n${body}`),
    pulumi,
    ok,
    async initStack(stack, o = {}) {
      await ok("stack", "init", stack);
      await ok("config", "set", "account-api:baseUrl", em.url);
      await ok("config", "set", "account-api:accountId", em.accountId);
      await ok("config", "set", o.plainToken ? "--plaintext" : "--secret", "account-api:apiToken", em.token);
    },
    rawState: () => ok("stack", "export"),
    async close() {
      await api.close();
      await em.stop();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
