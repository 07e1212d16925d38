/**
 * What every verb shares: where output goes, the exit codes, errors as typed classes, progress on
 * stderr, and the client built from the sdk's own configuration (environment and flags).
 */
import { constants, statSync } from "node:fs";
import { open, stat, type FileHandle } from "node:fs/promises";
import { Command, InvalidArgumentError } from "commander";
import {
  AccountApi,
  ConfigurationError,
  DeadlineExceededError,
  NotFoundError,
  ValidationError,
} from "../sdk";
import { terminalText } from "../sdk/terminal-text";
import { errorLine } from "../sdk/error-line";
import { visible } from "../sdk/terminal-text";
import { inCliWords } from "./config-errors";

export { errorLine };

/** The documented exit codes (docs/cli.md). */
export const EXIT = {
  /** Done, and the outcome is the one asked for. */
  ok: 0,
  /** The command could not do its job: API or network error, the engine failed, a check failed. */
  error: 1,
  /** `drift`: something changed outside the program. */
  drift: 2,
  /** Done, but the outcome is not a success: a build or job failed, a recipient bounced, a domain is not registrable, a page was not converted. */
  unsuccessful: 3,
  /** A wait passed its deadline; what it waited on may still finish. */
  deadline: 4,
  /** Bad arguments or input, or missing configuration: nothing was sent. */
  usage: 64,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface VerbIo {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Whether stderr is a terminal: progress is shown only then (default: process.stderr.isTTY). */
  isTTY?: boolean;
  /** Reads standard input. */
  stdin?: () => Promise<string>;
  /** Sets the process's exit code (default: process.exitCode). */
  setExitCode?: (code: number) => void;
}

/** An error the command line reports as it is, with its exit code. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  constructor(message: string, exitCode: ExitCode = EXIT.error, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.exitCode = exitCode;
  }
}

/** A 404 on something a verb was given: names it (`trigger 1234…`), the API's answer after it. */
export class NotFoundCliError extends CliError {
  readonly subject: string;
  constructor(subject: string, cause: NotFoundError) {
    super(`${subject}: not found (${cause.message})`, EXIT.error, { cause });
    this.subject = subject;
  }
}

/** Bad arguments or input found before anything was sent. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT.usage);
  }
}

/** The exit code an error means. */
export function exitCodeOf(err: unknown): ExitCode {
  if (err instanceof CliError) return err.exitCode;
  if (err instanceof ValidationError || err instanceof ConfigurationError) return EXIT.usage;
  if (err instanceof DeadlineExceededError) return EXIT.deadline;
  return EXIT.error;
}

/** Options every verb takes. */
export interface CommonOptions {
  json?: boolean;
  quiet?: boolean;
  baseUrl?: string;
  accountId?: string;
  /** Plain http to a host other than loopback, the token in clear: refused unless given. */
  insecureHttp?: boolean;
}

/** What a verb hands back: its result, how a human reads it, and the exit code it means. */
export interface Outcome<T = unknown> {
  result: T;
  /** The human form (without --json). Default: the JSON. */
  text?: string;
  exitCode?: ExitCode;
}

/** Progress while a verb waits: stderr, only on a terminal and without --quiet. */
export type Progress = (line: string) => void;

/** Progress lines quote what the service answered (a build's status): shown inert, one line each. */
export function progressFor(io: VerbIo, o: CommonOptions): Progress {
  const shown = !o.quiet && (io.isTTY ?? process.stderr.isTTY === true);
  return shown ? (line) => io.err(`${terminalText(line)}\n`) : () => undefined;
}

/** The sdk's client from flags, then the environment (ACCOUNT_API_*); the token never is a flag. */
export function clientFor(io: VerbIo, o: CommonOptions): AccountApi {
  // An empty flag is a script's unset variable (`--base-url "$URL"`): taken as absent, it would send
  // the token to the environment's base URL or the public service's, not where the script meant.
  for (const [flag, value] of [
    ["--base-url", o.baseUrl],
    ["--account-id", o.accountId],
  ] as const)
    if (value !== undefined && value.trim() === "")
      throw new UsageError(`${flag}: empty; leave the flag out to use the environment's value`);
  try {
    return new AccountApi({
      ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}),
      ...(o.accountId ? { accountId: o.accountId } : {}),
      ...(o.insecureHttp ? { insecureHttp: true } : {}),
      env: io.env,
      userAgentSuffix: "account-api-cli",
    });
  } catch (err) {
    throw err instanceof ConfigurationError ? inCliWords(err) : err;
  }
}

export function setExit(io: VerbIo, code: number): void {
  (io.setExitCode ?? ((c: number) => (process.exitCode = c)))(code);
}

/** Adds `--json` and `--quiet` to a leaf command. */
export function leaf(cmd: Command): Command {
  return cmd
    .option("--json", "print the result as JSON on stdout")
    .option("-q, --quiet", "no progress on stderr");
}

/**
 * The action of a verb: parses nothing itself (commander did), runs `body`, prints the outcome as
 * text or JSON, and turns any error into a message on stderr (and `{ error }` with --json) and its
 * exit code. Never rejects, so one failing verb in a script does not print a stack trace.
 */
export function action<O extends CommonOptions, A extends unknown[]>(
  io: VerbIo,
  body: (o: O, ...args: A) => Promise<Outcome>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    // commander passes (...positionals, options, command).
    const cmd = args[args.length - 1] as Command;
    const o = cmd.optsWithGlobals<O>();
    try {
      const outcome = await body(o, ...(args.slice(0, -2) as A));
      io.out(o.json || outcome.text === undefined ? `${jsonForTerminal(outcome.result)}\n` : outcome.text);
      setExit(io, outcome.exitCode ?? EXIT.ok);
    } catch (err) {
      const code = exitCodeOf(err);
      // Our own messages quote values exactly (a line break in a name is shown as `\n` below);
      // anything else may quote another process's output, made one line without its stack frames.
      const message = err instanceof CliError ? err.message || err.name : errorLine(err);
      // The message quotes what a server sent (its errors, a request id: any byte a header may
      // hold), so the terminal gets it inert; the JSON below holds it exactly, as data.
      io.err(`error: ${terminalText(message)}\n`);
      if (o.json) {
        const name = err instanceof Error ? err.name : "Error";
        io.out(`${jsonForTerminal({ error: { name, message, exitCode: code } })}\n`);
      }
      setExit(io, code);
    }
  };
}

/**
 * `--json` output: JSON escapes C0 controls and lone surrogates itself; the rest a terminal acts on
 * (DEL, C1, line separators, bidi) is escaped too, line by line so the layout's own line breaks stay.
 * It parses to the same values.
 */
export function jsonForTerminal(value: unknown): string {
  return (JSON.stringify(value, null, 2) ?? "null").split("\n").map(visible).join("\n");
}

/** The 404 an error is, or wraps (a verb's NotFoundCliError, an sdk error's cause). */
function notFoundIn(err: unknown): NotFoundError | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e instanceof Error; depth++) {
    if (e instanceof NotFoundError) return e;
    e = e.cause;
  }
  return undefined;
}

/**
 * Every route of the API starts at `/client/v4`: a base URL without it gets 404 for everything, which
 * reads as "not found" though nothing was looked up. Said when the path does not end so.
 */
export function baseUrlHint(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  const path = url.pathname.replace(/\/+$/, "");
  if (path.endsWith("/client/v4")) return undefined;
  return (
    `the base URL ${url.origin}${path} does not end in /client/v4, where the API's routes start: ` +
    `try ${url.origin}${path}/client/v4 (--base-url or ACCOUNT_API_BASE_URL)`
  );
}

/** Runs `body` with a client that is closed afterwards; a 404 says when the base URL is the cause. */
export async function withClient<T>(
  io: VerbIo,
  o: CommonOptions,
  body: (api: AccountApi) => Promise<T>,
): Promise<T> {
  const api = clientFor(io, o);
  try {
    return await body(api);
  } catch (err) {
    // The account id is resolved at the call that needs it.
    if (err instanceof ConfigurationError) throw inCliWords(err);
    const notFound = notFoundIn(err);
    const hint = notFound && baseUrlHint(api.client.baseUrl);
    // The subject a verb named was never looked up: the route itself is missing.
    if (notFound && hint) throw new CliError(`${notFound.message}. ${hint}`, EXIT.error, { cause: err });
    throw err;
  } finally {
    await api.close();
  }
}

/** Awaits a call about `subject` (`trigger 1234…`), so that its 404 names what was not found. */
export async function lookingFor<T>(subject: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof NotFoundError) throw new NotFoundCliError(subject, err);
    throw err;
  }
}

/** Why a file could not be read, in a user's words. */
function unreadable(err: unknown): string {
  const code = err instanceof Error && "code" in err ? err.code : undefined;
  switch (code) {
    case "ENOENT":
      return "no such file";
    case "EISDIR":
      return "is a folder, not a file";
    case "EACCES":
    case "EPERM":
      return "cannot read it (permission denied)";
    default:
      return `cannot read it (${errorLine(err)})`;
  }
}

/** The largest file an argument takes, and the rule it would break in the user's words. */
export interface FileLimit {
  bytes: number;
  /** Completes "<n> bytes, over …": `the 5 MiB (5242880 bytes) an email may be as sent`. */
  over: string;
}

/** Why a file of this kind is not one a verb reads (a folder, a device, a pipe), or undefined. */
function notAFile(st: { isFile(): boolean; isDirectory(): boolean }): string | undefined {
  if (st.isDirectory()) return "is a folder, not a file";
  if (!st.isFile()) return "is not a regular file (a device, a pipe or a socket)";
  return undefined;
}

/**
 * The size of a file a verb was given, from stat, before anything reads it: a missing file, a folder
 * or a device is bad input (exit 64) naming the argument. `hint` follows the reason.
 */
export async function statFileArg(argument: string, file: string, hint = ""): Promise<number> {
  let st: Awaited<ReturnType<typeof stat>>;
  try {
    st = await stat(file);
  } catch (err) {
    throw new UsageError(`${argument} ${file}: ${unreadable(err)}${hint}`);
  }
  const why = notAFile(st);
  if (why) throw new UsageError(`${argument} ${file}: ${why}`);
  return st.size;
}

/**
 * Reads a file a verb was given (`--attach F`, `markdown F`), never more than `limit`: its size is
 * checked with stat on the open file before a byte is read, and the read stops past the limit should
 * it grow meanwhile. A file that cannot be read, is not a regular file or is too large is bad input
 * (exit 64) naming the argument, before anything is sent.
 */
export async function readFileArg(
  argument: string,
  file: string,
  limit: FileLimit,
  hint = "",
): Promise<Buffer> {
  const bad = (why: string): UsageError => new UsageError(`${argument} ${file}: ${why}`);
  const over = (size: number): UsageError => bad(`${size} bytes, over ${limit.over}`);
  let handle: FileHandle;
  try {
    // Non-blocking: a named pipe opens at once (instead of waiting for a writer), and is refused below.
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw bad(`${unreadable(err)}${hint}`);
  }
  try {
    const st = await handle.stat();
    const why = notAFile(st);
    if (why) throw bad(why);
    if (st.size > limit.bytes) throw over(st.size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, limit.bytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > limit.bytes) throw over(total);
    }
    return Buffer.concat(chunks, total);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw bad(unreadable(err));
  } finally {
    await handle.close();
  }
}

/** Digits only: `Number` would also take `0x10`, `1e3`, ` 5 ` and round what is past 2^53. */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n <= 0)
    throw new InvalidArgumentError("must be a positive integer");
  return n;
}

/** Collects a repeatable option into a list. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** A folder a verb was given (`--cwd DIR`): one that does not exist, or a file, is bad input (exit 64). */
export function checkFolderArg(option: string, dir: string): void {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(dir, { throwIfNoEntry: false });
  } catch {
    // ENOTDIR (a path through a file), ELOOP, EACCES: no folder this verb can use.
    st = undefined;
  }
  if (!st) throw new UsageError(`${option} ${dir}: no such folder`);
  if (!st.isDirectory()) throw new UsageError(`${option} ${dir}: is a file, not a folder`);
}
