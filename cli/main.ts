#!/usr/bin/env node
/** The package's command line: `account-api emulator …` and friends. */
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { PACKAGE_VERSION } from "../sdk/version";
import type { RateLimit } from "../emulator/rate-limit";
import { SEEDS, seedDemo, type SeedName } from "../emulator/seed";
import { startEmulator } from "../emulator/server";
import { addDriftVerb } from "./drift";
import { EXIT, type VerbIo } from "./io";
import { addRecoverVerb } from "./recover";
import { addDiscoverVerb } from "./discover";
import { addVerbs } from "./verbs";

export type { VerbIo } from "./io";
export { EXIT } from "./io";

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

export function buildCli(
  io: VerbIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), env: process.env },
): Command {
  const program = new Command("account-api")
    .version(PACKAGE_VERSION)
    .description("pulumi-account-api command line")
    // Set before any subcommand exists, so every one inherits them: commander's usage errors throw
    // (a CommanderError, exit 64 in a process) instead of exiting, and its messages go to io.
    .exitOverride()
    .configureOutput({ writeOut: (t) => io.out(t), writeErr: (t) => io.err(t) });
  program
    .command("emulator")
    .description("run the local, stateful emulator of the whole API")
    .option("--port <n>", "port to listen on (0 picks a free one)", port, 8787)
    .option("--host <address>", "address to bind (loopback by default)", "127.0.0.1")
    .option("--state <file>", "JSON file to load the state from and save it to")
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
    .action(
      async (opts: {
        port: number;
        host: string;
        state?: string;
        rateLimit?: RateLimit;
        seed?: SeedName;
      }) => {
        const em = await startEmulator({
          port: opts.port,
          host: opts.host,
          ...(opts.state ? { stateFile: opts.state } : {}),
          ...(opts.rateLimit ? { rateLimit: opts.rateLimit } : {}),
        });
        const seeded = opts.seed ? await seedDemo(em) : undefined;
        const given = Boolean(process.env.ACCOUNT_API_TOKEN && process.env.ACCOUNT_API_ACCOUNT_ID);
        console.log(`emulator listening: ${em.url}`);
        console.log(`control API:        ${em.origin}/__emulator`);
        console.log(`account id:         ${em.accountId}`);
        const limit = em.rateLimit.get();
        if (limit)
          console.log(`rate limit:         ${limit.requests} per ${limit.windowMs / 1000} s per token`);
        if (seeded)
          console.log(
            `seeded (${opts.seed}):      script ${seeded.scriptName}, zone ${seeded.zoneName} (${seeded.zoneId}), sender domain ${seeded.senderDomain}, build token ${seeded.buildTokenUuid}`,
          );
        if (given) {
          console.log("token:              from ACCOUNT_API_TOKEN");
        } else {
          console.log(
            `token:              ${em.token}${opts.state ? ` (kept in ${opts.state})` : " (generated)"}`,
          );
          console.log(
            `\nexport ACCOUNT_API_BASE_URL=${em.url} ACCOUNT_API_ACCOUNT_ID=${em.accountId} ACCOUNT_API_TOKEN=${em.token}`,
          );
          console.log(
            `# or, for one stack: pulumi config set account-api:baseUrl ${em.url} && pulumi config set account-api:accountId ${em.accountId} && pulumi config set --secret account-api:apiToken ${em.token}`,
          );
        }
        const stop = async (): Promise<void> => {
          await em.stop();
          process.exit(0);
        };
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      },
    );
  addVerbs(program, io);
  addDriftVerb(program, io);
  addRecoverVerb(program, io);
  addDiscoverVerb(program, io);
  return program;
}

if (require.main === module) {
  // Verbs report their own errors and exit codes; what reaches here is commander's usage errors
  // (already printed) or help and version (exit code 0).
  buildCli()
    .parseAsync(process.argv)
    .catch((err: unknown) => {
      if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.usage);
      console.error(err instanceof Error ? err.message : String(err));
      process.exit(EXIT.error);
    });
}
