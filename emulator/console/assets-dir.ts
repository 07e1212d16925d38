/**
 * Where the console's browser files are: beside this module, from the sources and from the emulator
 * package's build alike (scripts/finish-emulator-dist.ts copies them next to the built module, since tsc
 * copies no static files). The only place that knows it; everything else asks it.
 */
import { join } from "node:path";

export function consoleAssetsDir(): string {
  return join(__dirname, "assets");
}
