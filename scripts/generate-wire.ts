/**
 * Writes sdk/generated/<area>.ts from the contract and the overlay (contract/generate/). Run by
 * `npm run build` before tsc; tests/unit/generated-fresh.test.ts fails when a file differs from what
 * this would write. `--check` writes nothing and exits 1 naming each stale file.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { formattedFiles, GENERATED_DIR } from "../contract/generate/write";

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const files = await formattedFiles();
  const stale: string[] = [];
  mkdirSync(GENERATED_DIR, { recursive: true });
  const present = new Set(readdirSync(GENERATED_DIR));
  for (const [name, text] of files) {
    const path = resolve(GENERATED_DIR, name);
    const old = present.has(name) ? readFileSync(path, "utf8") : undefined;
    if (old === text) continue;
    stale.push(name);
    if (!check) writeFileSync(path, text);
  }
  for (const name of present)
    if (!files.has(name)) {
      stale.push(name);
      if (!check) rmSync(resolve(GENERATED_DIR, name));
    }
  if (check && stale.length) {
    console.error(`sdk/generated is stale: ${stale.join(", ")} (run npm run build)`);
    process.exit(1);
  }
  if (!check && stale.length) console.log(`sdk/generated: wrote ${stale.join(", ")}`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
