/**
 * `account-api drift`: a refresh preview of the user's stack through the engine (the Automation
 * API's `previewRefresh`, i.e. `pulumi refresh --preview-only`), read from the engine's event
 * stream. The engine decrypts what it needs inside itself and masks secrets in its events; no
 * command of ours decrypts the state, and the token is never printed. The user's PULUMI_*
 * environment (backend, passphrase, access token) applies as it does to `pulumi` itself.
 */
import { accessSync, appendFileSync, constants, statSync } from "node:fs";
import { basename, delimiter, dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { LocalWorkspace, PulumiCommand, type EngineEvent, type Stack } from "@pulumi/pulumi/automation";
import {
  displayType,
  driftFromEvents,
  renderMarkdown,
  renderText,
  verdict,
  type DriftReport,
} from "../provider/drift";
import {
  UsageError,
  action,
  checkFolderArg,
  errorLine,
  leaf,
  progressFor,
  type CommonOptions,
  type Progress,
  type VerbIo,
} from "./io";

export interface DriftOptions extends CommonOptions {
  stack?: string;
  cwd?: string;
  markdown?: string;
}

const INSTALL_PULUMI =
  "the `pulumi` CLI was not found on PATH: install it (https://www.pulumi.com/docs/iac/download-install/) or add its folder to PATH";

/**
 * The engine's own message on failure, without the Automation API's wrapping (`code:`, `stderr:`)
 * or its echo of the command line (`Command failed with exit code 1: pulumi refresh …`).
 */
export function engineError(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  if (/spawn \S*pulumi ENOENT/.test(text)) return INSTALL_PULUMI;
  const stderr = /stderr: ([\s\S]*?)(?:\n\s*err\?:|$)/.exec(text)?.[1]?.trim();
  const lines = (stderr || text)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !/^(code|stdout|stderr):/.test(l) && !/^Command failed with /.test(l))
    .map((l) => l.replace(/^error: /, ""));
  // The token never reaches us, but an engine message might quote configuration: keep it short.
  return errorLine(lines.slice(0, 6).join("\n")) || errorLine(text);
}

/** Runs the refresh preview of one stack and reports drift; never throws for an engine failure. */
export async function stackDrift(stack: Stack, progress: Progress = () => undefined): Promise<DriftReport> {
  const events: EngineEvent[] = [];
  const onEvent = (e: EngineEvent): void => {
    events.push(e);
    const done = e.resOutputsEvent?.metadata;
    if (done && done.old?.custom)
      progress(`checked ${displayType(done.type)} ${done.urn.split("::").pop() ?? ""}`);
  };
  try {
    await stack.previewRefresh({ onEvent });
    return driftFromEvents(stack.name, events);
  } catch (err) {
    return driftFromEvents(stack.name, events, engineError(err));
  }
}

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
  if (dir === undefined) throw new Error(INSTALL_PULUMI);
  const root = basename(resolve(dir)) === "bin" ? { root: dirname(resolve(dir)) } : {};
  return PulumiCommand.get({ ...root, skipVersionCheck: true });
}

/** The user's stack: --stack, else $PULUMI_STACK, else the project's selected stack. */
export async function selectUserStack(io: VerbIo, o: DriftOptions): Promise<Stack> {
  const workDir = resolve(o.cwd ?? process.cwd());
  const envVars = Object.fromEntries(
    Object.entries(io.env).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
  const ws = await LocalWorkspace.create({ workDir, envVars, pulumiCommand: await pulumiCommand(io.env) });
  const name = o.stack ?? io.env.PULUMI_STACK ?? (await ws.stack())?.name;
  if (!name) throw new Error(`no stack selected in ${workDir}: pass --stack`);
  return LocalWorkspace.selectStack(
    { stackName: name, workDir },
    { envVars, pulumiCommand: ws.pulumiCommand },
  );
}

/** `--markdown FILE` and `--cwd DIR` are checked before the engine runs: bad input is exit 64. */
function checkPaths(o: DriftOptions): void {
  if (o.cwd !== undefined) checkFolderArg("--cwd", o.cwd);
  if (o.markdown !== undefined) {
    const target = statSync(o.markdown, { throwIfNoEntry: false });
    if (target?.isDirectory()) throw new UsageError(`--markdown ${o.markdown}: is a folder, not a file`);
    const folder = dirname(resolve(o.markdown));
    if (!target && !statSync(folder, { throwIfNoEntry: false })?.isDirectory())
      throw new UsageError(`--markdown ${o.markdown}: its folder ${folder} does not exist`);
  }
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
      .option("--markdown <file>", "append a Markdown table to this file (e.g. $GITHUB_STEP_SUMMARY)"),
  ).action(
    action(io, async (o: DriftOptions) => {
      checkPaths(o);
      const progress = progressFor(io, o);
      let report: DriftReport;
      try {
        const stack = await selectUserStack(io, o);
        progress(`refresh preview of stack ${stack.name}…`);
        report = await stackDrift(stack, progress);
      } catch (err) {
        report = driftFromEvents(o.stack ?? io.env.PULUMI_STACK ?? "", [], engineError(err));
      }
      if (o.markdown) appendFileSync(o.markdown, renderMarkdown(report));
      // The report goes to stdout (or the summary); the failure is also the usual line on stderr.
      if (report.exitCode === 1) io.err(`error: ${verdict(report)}\n`);
      return { result: report, text: renderText(report), exitCode: report.exitCode };
    }),
  );
}
