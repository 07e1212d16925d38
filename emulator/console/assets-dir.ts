/**
 * Where the console's browser files are. The only place that knows it: the bundle the emulator's
 * package ships repoints this one function (issue 28's packaging note), everything else asks it.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

export function consoleAssetsDir(): string {
  // Beside this module when run from source (ts-node); from dist/emulator/console the sources are
  // three folders up, since tsc copies no static files.
  const beside = join(__dirname, "assets");
  if (existsSync(beside)) return beside;
  return resolve(__dirname, "..", "..", "..", "emulator", "console", "assets");
}
