#!/usr/bin/env node
/**
 * `pulumi-resource-account-api`: the native provider plugin (the package.json `bin`). The engine
 * starts it, reads the port it prints, and speaks the ResourceProvider protocol to it. It loads as
 * little as it can before answering: each kind's handler, its area's client and undici load on the
 * first call that needs them (registry.ts), and Node's compile cache keeps their compiled code.
 */
// First: the compile cache covers only what loads after it; then the guard for Node older than 22.
import "../../sdk/compile-cache";
import "../../sdk/require-node";
import { engineAddressOf, engineLog } from "./engine-log";
import { NativeProvider } from "./provider";
import { serve } from "./server";

async function main(): Promise<void> {
  const { version }: { version: string } = require("pulumi-account-api/package.json");
  const log = engineLog(engineAddressOf(process.argv.slice(2)));
  const { port } = await serve(new NativeProvider({ version, log }));
  // The engine reads the port from the first line of stdout.
  process.stdout.write(`${port}\n`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
