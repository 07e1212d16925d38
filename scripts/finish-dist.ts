/**
 * Finishes dist after `tsc` (package.json "build"), in two steps.
 *
 * 1. Removes outputs whose source is gone. tsc never deletes, so a module that became a folder
 *    (provider/resources/x.ts → x/index.ts) left x.js beside x/, and Node resolves the stale file first:
 *    the packed package then ran the old code. Pruning in place, not wiping dist first, keeps dist
 *    usable for anything running from it meanwhile.
 * 2. Writes dist/node10/: a copy of the published declarations for TypeScript's `node` (node10) module
 * resolution, which Pulumi's project template uses and which reads `typesVersions` (package.json),
 * not `exports`.
 *
 * Why a copy: under that resolution `"zod"` resolves to zod's CommonJS-flavoured declarations
 * (`index.d.cts`), whose locale files are `export =` modules re-exported as defaults. A program without
 * `esModuleInterop` (the template sets neither it nor `skipLibCheck`) then fails with TS1259 in
 * zod's own files. zod's ESM-flavoured declarations (`index.d.ts`, `export default` locales) describe
 * the same API and compile there, and node10 reaches them by file path (`zod/index.js`). That path is
 * not in zod's `exports`, so the node16/bundler declarations in dist/ keep the plain `"zod"`.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(__dirname, "..");
const dist = join(root, "dist");
const out = join(dist, "node10");
const OUTPUT = /\.(d\.ts|js\.map|js)$/;

/** Every tsc output under dist (outside dist/node10). */
function outputs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return p === out ? [] : outputs(p);
    return OUTPUT.test(p) ? [p] : [];
  });
}

/** `"zod"` → `"zod/index.js"`, `"zod/v4/core"` → `"zod/v4/core/index.js"`, in imports and import types. */
export function toNode10(text: string): string {
  return text.replace(/((?:from |import\()\s*)"zod((?:\/[\w-]+)*)"/g, '$1"zod$2/index.js"');
}

let pruned = 0;
for (const file of outputs(dist)) {
  if (existsSync(join(root, relative(dist, file).replace(OUTPUT, ".ts")))) continue;
  rmSync(file);
  pruned++;
}
console.log(`[build] removed ${pruned} outputs whose source is gone`);

rmSync(out, { recursive: true, force: true });
let count = 0;
for (const file of outputs(dist).filter((f) => f.endsWith(".d.ts"))) {
  const target = join(out, relative(dist, file));
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, toNode10(readFileSync(file, "utf8")));
  count++;
}
console.log(`[build] ${count} declarations for node10 resolution in ${relative(process.cwd(), out)}`);
