/**
 * Runs the command line in-process as a user would, with its output, exit code and environment
 * captured: the same `buildCli` the `account-api` binary runs.
 */
import { buildCli, EXIT } from "../../cli/main";
import type { EmulatorFixture } from "./emulator";

export interface CliRun {
  out: string;
  err: string;
  code: number;
  /** stdout parsed as JSON, when it is JSON. */
  json: unknown;
}

/** The environment a user of the emulator exports (its base URL, account and token). */
export function emulatorEnv(fx: EmulatorFixture): NodeJS.ProcessEnv {
  return {
    ACCOUNT_API_BASE_URL: fx.em.url,
    ACCOUNT_API_ACCOUNT_ID: fx.em.accountId,
    ACCOUNT_API_TOKEN: fx.em.token,
  };
}

export async function runCliWith(
  env: NodeJS.ProcessEnv,
  args: string[],
  o: { tty?: boolean } = {},
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  let code = -1;
  const cli = buildCli({
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env,
    isTTY: o.tty ?? false,
    setExitCode: (c) => {
      code = c;
    },
  });
  try {
    await cli.parseAsync(["node", "account-api", ...args]);
  } catch (e) {
    // commander's usage errors (exitOverride): the process would exit 64.
    code = (e as { exitCode?: number }).exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  const text = out.join("");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { out: text, err: err.join(""), code, json };
}

/** A run against the fixture's emulator; `env` adds to (or blanks) its variables. */
export function runCli(
  fx: EmulatorFixture,
  args: string[],
  o: { env?: NodeJS.ProcessEnv; tty?: boolean } = {},
): Promise<CliRun> {
  return runCliWith({ ...emulatorEnv(fx), ...o.env }, args, o);
}
