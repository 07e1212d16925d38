/**
 * `account-api emulator` (this package's part of the provider package's CLI, which loads it when installed):
 * starts the local emulator and prints where it is and how to use it.
 * A token from the environment is never printed: the banner says which variable it came from. A
 * token the emulator generated is no credential anywhere else and is printed once, when it is made;
 * a restart with `--state` says where it is kept instead.
 */
import { type Command, InvalidArgumentError } from "commander";
import { EXIT, collect, setExit, type VerbIo } from "../cli/io";
import { terminalText } from "../sdk/terminal-text";
import type { RateLimit } from "./rate-limit";
import { SEEDS, type SeedName } from "./seed-names";
import type { RunningEmulator } from "./server";
import { isLoopbackName, isWildcardAddress } from "./trust";

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError("must be an integer from 0 to 65535");
  return n;
}

/** `--rate-limit 1200/300`: requests per window of that many seconds. */
function rateLimit(value: string): RateLimit {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  const requests = Number(m?.[1]);
  const seconds = Number(m?.[2]);
  if (!m || !Number.isSafeInteger(requests) || requests < 1 || !Number.isSafeInteger(seconds) || seconds < 1)
    throw new InvalidArgumentError(
      "must be <requests>/<seconds>, two whole numbers of at least 1 (the service's is 1200/300)",
    );
  return { requests, windowMs: seconds * 1000 };
}

function seedName(value: string): SeedName {
  const name = SEEDS.find((s) => s === value);
  if (!name) throw new InvalidArgumentError(`must be one of: ${SEEDS.join(", ")}`);
  return name;
}

/** `--allow-host NAME`: a host name (no scheme, port or path), for the control API's Host check. */
function hostNameArg(value: string, previous: string[] = []): string[] {
  if (!/^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)$/.test(value))
    throw new InvalidArgumentError("must be a host name or address, without a scheme, port or path");
  return collect(value, previous);
}

interface EmulatorOptions {
  port: number;
  host: string;
  state?: string;
  rateLimit?: RateLimit;
  seed?: SeedName;
  allowHost?: string[];
}

/** Why listening on `host` opens more than this machine, or undefined on loopback. */
export function bindWarning(host: string, allowHosts: readonly string[]): string | undefined {
  if (isLoopbackName(host)) return undefined;
  const control = isWildcardAddress(host)
    ? allowHosts.length > 0
      ? `the control API (no token needed) answers requests naming a loopback host or ${allowHosts.join(", ")}`
      : "the control API (no token needed) answers only requests naming a loopback host"
    : `so does the control API, which needs no token (requests naming ${host})`;
  return `warning: listening on ${host}, not loopback: other machines can reach the API (with the token) and the markdown edge; ${control}\n`;
}

function tokenLine(em: RunningEmulator, o: EmulatorOptions): string {
  if (em.tokenOrigin === "given") return "from ACCOUNT_API_TOKEN (accepted; never stored or printed)";
  if (em.tokenOrigin === "kept")
    return `kept in ${o.state ?? "the state file"} (printed when it was generated; see its "tokens")`;
  return `${em.token}${o.state ? ` (generated; kept in ${o.state}, printed only this once)` : " (generated)"}`;
}

function banner(em: RunningEmulator, o: EmulatorOptions, seeded?: string): string {
  const lines = [
    `emulator listening: ${em.url}`,
    `control API:        ${em.origin}/__emulator`,
    `console:            ${em.origin}/`,
    `account id:         ${em.accountId}`,
  ];
  const limit = em.rateLimit.get();
  if (limit) lines.push(`rate limit:         ${limit.requests} per ${limit.windowMs / 1000} s per token`);
  if (seeded) lines.push(`seeded (${o.seed}):      ${seeded}`);
  lines.push(`token:              ${tokenLine(em, o)}`);
  // The token goes in these lines only when this start made it.
  const printed = em.tokenOrigin === "generated";
  lines.push(
    "",
    `export ACCOUNT_API_BASE_URL=${em.url} ACCOUNT_API_ACCOUNT_ID=${em.accountId}${printed ? ` ACCOUNT_API_TOKEN=${em.token}` : ""}`,
    `# or, for one stack: pulumi config set account-api:baseUrl ${em.url} && pulumi config set account-api:accountId ${em.accountId}${printed ? ` && pulumi config set --secret account-api:apiToken ${em.token}` : ""}`,
  );
  return `${lines.map(terminalText).join("\n")}\n`;
}

export function addEmulatorVerb(program: Command, io: VerbIo): void {
  program
    .command("emulator")
    .description("run the local, stateful emulator of the whole API")
    .option("--port <n>", "port to listen on (0 picks a free one)", port, 8787)
    .option("--host <address>", "address to bind (loopback by default; another one warns)", "127.0.0.1")
    .option("--state <file>", "JSON file to load the state from and save it to (mode 0600)")
    .option(
      "--allow-host <name>",
      "another Host name the control API answers to, besides loopback and the bound address (repeatable)",
      hostNameArg,
    )
    .option(
      "--rate-limit <requests>/<seconds>",
      "answer 429 (code 971) past this many requests per window per token; off by default",
      rateLimit,
    )
    .option(
      "--seed <name>",
      `make what a new account's dashboard would hold (${SEEDS.join(", ")}: the script shop, the zone example.com, example.com verified for sending); idempotent`,
      seedName,
    )
    .action(async (o: EmulatorOptions) => {
      const env = io.env;
      if (env.ACCOUNT_API_TOKEN && !env.ACCOUNT_API_ACCOUNT_ID)
        io.err(
          "warning: ACCOUNT_API_TOKEN is set but ACCOUNT_API_ACCOUNT_ID is not: the emulator makes its own account and token (set both to use yours)\n",
        );
      // Loaded here, not above: the provider's CLI loads this module to list the verb, and every other
      // verb would otherwise pay for the server (fastify) and the areas.
      const { startEmulator } = require("./server") as typeof import("./server");
      const { StateFileError } = require("./store") as typeof import("./store");
      let em: RunningEmulator;
      try {
        em = await startEmulator({
          port: o.port,
          host: o.host,
          env,
          ...(o.allowHost ? { allowHosts: o.allowHost } : {}),
          ...(o.state ? { stateFile: o.state } : {}),
          ...(o.rateLimit ? { rateLimit: o.rateLimit } : {}),
        });
      } catch (err) {
        // A state file that cannot be used is bad input: nothing was started.
        if (!(err instanceof StateFileError)) throw err;
        io.err(`error: ${terminalText(err.message)}\n`);
        setExit(io, EXIT.usage);
        return;
      }
      if (env.ACCOUNT_API_TOKEN && env.ACCOUNT_API_ACCOUNT_ID && env.ACCOUNT_API_ACCOUNT_ID !== em.accountId)
        io.err(
          terminalText(
            `warning: ACCOUNT_API_ACCOUNT_ID is ${env.ACCOUNT_API_ACCOUNT_ID}, but ${o.state ?? "the state file"} holds the account ${em.accountId}: the token is accepted for that account only`,
          ) + "\n",
        );
      const warning = bindWarning(o.host, o.allowHost ?? []);
      if (warning) io.err(terminalText(warning.trimEnd()) + "\n");
      const seeded = o.seed ? await (require("./seed") as typeof import("./seed")).seedDemo(em) : undefined;
      io.out(
        banner(
          em,
          o,
          seeded &&
            `script ${seeded.scriptName}, zone ${seeded.zoneName} (${seeded.zoneId}), sender domain ${seeded.senderDomain}, build token ${seeded.buildTokenUuid}`,
        ),
      );
      const stop = async (): Promise<void> => {
        await em.stop();
        process.exit(0);
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}
