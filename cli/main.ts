#!/usr/bin/env node
/** The package's command line: `account-api emulator …` and friends. */
import { Command, CommanderError } from "commander";
import { PACKAGE_VERSION } from "../sdk/version";
import { addEmulatorVerb } from "./emulator-package";
import { addDriftVerb } from "./drift";
import { EXIT, type VerbIo } from "./io";
import { addRecoverVerb } from "./recover";
import { addDiscoverVerb } from "./discover";
import { addPluginVerb } from "./plugin-verb";
import { addVerbs } from "./verbs";

export type { VerbIo } from "./io";
export { EXIT } from "./io";

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
  addEmulatorVerb(program, io);
  addVerbs(program, io);
  addDriftVerb(program, io);
  addRecoverVerb(program, io);
  addDiscoverVerb(program, io);
  addPluginVerb(program, io);
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
