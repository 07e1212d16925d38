/**
 * `account-api drift`: the command's flags and files. The check itself (the engine's refresh
 * preview, the unmanaged listing, the ignore file) and every format are provider/drift's: this
 * parses and checks the flags, finds the user's stack, and writes the report where the flags say.
 * The user's PULUMI_* environment (backend, passphrase, access token) applies as it does to
 * `pulumi` itself.
 */
import { accessSync, appendFileSync, constants, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, delimiter, dirname, join, relative, resolve, sep } from "node:path";
import type { Command } from "commander";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import {
  DriftIgnoreError,
  IGNORE_FILE,
  PulumiNotFoundError,
  parseIgnoreFile,
  render,
  runDriftCheck,
  verdict,
} from "../provider/drift";
import { PACKAGE_VERSION } from "../sdk/version";
import {
  UsageError,
  action,
  checkFolderArg,
  clientFor,
  collect,
  leaf,
  progressFor,
  type CommonOptions,
  type VerbIo,
} from "./io";

export interface DriftOptions extends CommonOptions {
  stack?: string;
  cwd?: string;
  markdown?: string;
  sarif?: string;
  junit?: string;
  ignoreFile?: string;
  unmanaged?: boolean;
  zone?: string[];
  app?: string[];
  failOn?: string[];
}

/** What `--fail-on` takes besides drift, which always fails. */
const FAIL_ON = ["unmanaged"] as const;

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The `pulumi` CLI on the user's PATH (io.env's, which is the process's in a real run). The Automation
 * API runs `<root>/bin/pulumi` and puts that folder first for plugins; a CLI in another folder is run
 * by name from PATH.
 */
async function pulumiCommand(env: NodeJS.ProcessEnv): Promise<PulumiCommand> {
  const dir = (env.PATH ?? "")
    .split(delimiter)
    .filter(Boolean)
    .find((d) => executable(join(d, "pulumi")));
  if (dir === undefined) throw new PulumiNotFoundError();
  const root = basename(resolve(dir)) === "bin" ? { root: dirname(resolve(dir)) } : {};
  return PulumiCommand.get({ ...root, skipVersionCheck: true });
}

/** The user's stack: --stack, else $PULUMI_STACK, else the project's selected stack. */
export async function selectUserStack(io: VerbIo, o: DriftOptions): Promise<Stack> {
  const workDir = resolve(o.cwd ?? process.cwd());
  const envVars: Record<string, string> = Object.fromEntries(
    Object.entries(io.env).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
  // The engine's provider reads the environment: --insecure-http reaches it as the variable.
  if (o.insecureHttp) envVars.ACCOUNT_API_INSECURE_HTTP = "1";
  const ws = await LocalWorkspace.create({ workDir, envVars, pulumiCommand: await pulumiCommand(io.env) });
  const name = o.stack ?? io.env.PULUMI_STACK ?? (await ws.stack())?.name;
  if (!name) throw new Error(`no stack selected in ${workDir}: pass --stack`);
  return LocalWorkspace.selectStack(
    { stackName: name, workDir },
    { envVars, pulumiCommand: ws.pulumiCommand },
  );
}

/** A report file (`--markdown`, `--sarif`, `--junit`): not a folder, and in a folder that exists. */
function checkOutputFile(option: string, file: string | undefined): void {
  if (file === undefined) return;
  const target = statSync(file, { throwIfNoEntry: false });
  if (target?.isDirectory()) throw new UsageError(`${option} ${file}: is a folder, not a file`);
  const folder = dirname(resolve(file));
  if (!target && !statSync(folder, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`${option} ${file}: its folder ${folder} does not exist`);
}

/** Paths and values are checked before the engine runs: bad input is exit 64. */
function checkOptions(o: DriftOptions): void {
  if (o.cwd !== undefined) checkFolderArg("--cwd", o.cwd);
  checkOutputFile("--markdown", o.markdown);
  checkOutputFile("--sarif", o.sarif);
  checkOutputFile("--junit", o.junit);
  for (const f of o.failOn ?? [])
    if (!FAIL_ON.some((x) => x === f))
      throw new UsageError(`--fail-on ${f}: must be one of ${FAIL_ON.join(", ")} (drift always fails)`);
}

/** The ignore file's entries: `--ignore-file`, else `.account-api-driftignore` in the project's folder if any. */
function ignoreEntries(o: DriftOptions) {
  const file = o.ignoreFile ?? join(resolve(o.cwd ?? process.cwd()), IGNORE_FILE);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if (o.ignoreFile === undefined) return [];
    throw new UsageError(
      `--ignore-file ${o.ignoreFile}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  try {
    return parseIgnoreFile(text, o.ignoreFile ?? IGNORE_FILE);
  } catch (err) {
    throw err instanceof DriftIgnoreError ? new UsageError(err.message) : err;
  }
}

/** The project's Pulumi.yaml as a path from the folder the command runs in (the repository, in CI). */
function projectFile(o: DriftOptions): string {
  const file = relative(process.cwd(), join(resolve(o.cwd ?? process.cwd()), "Pulumi.yaml"));
  return file.split(sep).join("/");
}

export function addDriftVerb(root: Command, io: VerbIo): void {
  leaf(
    root
      .command("drift")
      .description(
        "refresh preview of a stack through the engine: what changed outside the program (exit 0 none, 2 drift, 1 error)",
      )
      .option("--stack <name>", "the stack (default: $PULUMI_STACK, else the selected stack)")
      .option("--cwd <dir>", "the Pulumi project's folder (default: the current one)")
      .option("--markdown <file>", "append a Markdown table to this file (e.g. $GITHUB_STEP_SUMMARY)")
      .option("--sarif <file>", "write the report as SARIF 2.1.0 (one result per drifted property)")
      .option("--junit <file>", "write the report as JUnit XML (one test case per resource)")
      .option("--ignore-file <file>", `accepted drift (default: ${IGNORE_FILE} in the project's folder)`)
      .option(
        "--unmanaged",
        "also list the account's objects the stack does not manage, with coverage per kind",
      )
      .option(
        "--zone <zone>",
        "with --unmanaged: a zone (id or name) to look in; repeatable (default: every zone)",
        collect,
      )
      .option(
        "--app <appId>",
        "with --unmanaged: only this realtime app (repeatable; default: every app)",
        collect,
      )
      .option("--fail-on <what>", "also fail (exit 2) on: unmanaged (implies --unmanaged)", collect),
  ).action(
    action(io, async (o: DriftOptions) => {
      checkOptions(o);
      const ignores = ignoreEntries(o);
      const failOn = (o.failOn ?? []).includes("unmanaged");
      // Missing API configuration is bad input, said before the engine runs.
      const api = o.unmanaged || failOn ? clientFor(io, o) : undefined;
      const unmanaged = api && { api, failOn, ...(o.zone ? { zones: o.zone } : {}), apps: o.app };
      const report = await runDriftCheck({
        selectStack: () => selectUserStack(io, o),
        stackName: o.stack ?? io.env.PULUMI_STACK ?? "",
        ignores,
        ...(unmanaged ? { unmanaged } : {}),
        progress: progressFor(io, o),
      }).finally(() => api?.close());
      if (o.markdown) appendFileSync(o.markdown, render(report, "markdown"));
      if (o.sarif)
        writeFileSync(
          o.sarif,
          render(report, "sarif", { projectFile: projectFile(o), version: PACKAGE_VERSION }),
        );
      if (o.junit) writeFileSync(o.junit, render(report, "junit"));
      // The report goes to stdout (or the summary); the failure is also the usual line on stderr.
      if (report.exitCode === 1) io.err(`error: ${verdict(report)}\n`);
      return { result: report, text: render(report, "text"), exitCode: report.exitCode };
    }),
  );
}
