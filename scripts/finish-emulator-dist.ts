/**
 * Finishes the emulator package's build (emulator/dist, from `tsc -p tsconfig.emulator.json`): removes
 * outputs whose source is gone (tsc never deletes, and a stale module would be packed), and copies the
 * console's browser files beside the module that serves them, which finds them next to itself.
 */
import { cpSync, existsSync, readdirSync, rmSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const root = resolve(__dirname, "..");
const dist = join(root, "emulator", "dist");
const OUTPUT = /\.(d\.ts|js\.map|js)$/;
const ASSETS = join("emulator", "console", "assets");

function outputs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return p === join(dist, ASSETS) ? [] : outputs(p);
    return OUTPUT.test(p) ? [p] : [];
  });
}

let pruned = 0;
for (const file of outputs(dist)) {
  if (existsSync(join(root, relative(dist, file).replace(OUTPUT, ".ts")))) continue;
  rmSync(file);
  pruned++;
}
console.log(`[build] emulator: removed ${pruned} outputs whose source is gone`);

if (existsSync(join(root, ASSETS))) {
  rmSync(join(dist, ASSETS), { recursive: true, force: true });
  // Not the folder's tsconfig.json: it type-checks the sources and is nothing the console serves.
  cpSync(join(root, ASSETS), join(dist, ASSETS), {
    recursive: true,
    filter: (src) => !src.endsWith("tsconfig.json"),
  });
  console.log(`[build] emulator: console files copied to ${relative(root, join(dist, ASSETS))}`);
}
