/**
 * Imperative verbs for CI and scripts, on the sdk. The client comes from the sdk's configuration:
 * ACCOUNT_API_BASE_URL, ACCOUNT_API_ACCOUNT_ID, ACCOUNT_API_TOKEN, or --base-url/--account-id; the
 * token is never a flag, so it shows in no process listing or shell history. Every verb prints text
 * (or JSON with --json) on stdout, progress on stderr while it waits, and exits with the codes of
 * io.ts (docs/cli.md). One module per area; the order here is the order of the help.
 */
import type { Command } from "commander";
import type { VerbIo } from "../io";
import { addBuildVerbs } from "./builds";
import { addDomainVerbs } from "./domains";
import { addEmailVerb } from "./email";
import { addMarkdownVerb } from "./markdown";
import { addJobVerbs } from "./search-jobs";

export function addVerbs(root: Command, io: VerbIo): void {
  root
    .option("--base-url <url>", "API root ending in /client/v4 (default: ACCOUNT_API_BASE_URL)")
    .option("--account-id <id>", "account id (default: ACCOUNT_API_ACCOUNT_ID)")
    .option(
      "--insecure-http",
      "allow a plain http:// base URL to a host other than loopback, the token in clear (default: ACCOUNT_API_INSECURE_HTTP)",
    );
  addBuildVerbs(root, io);
  addJobVerbs(root, io);
  addDomainVerbs(root, io);
  addEmailVerb(root, io);
  addMarkdownVerb(root, io);
}
