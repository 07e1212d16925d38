/**
 * Finishes dist after `tsc` (package.json "build"), in these steps.
 *
 * 1. Removes outputs whose source is gone. tsc never deletes, so a module that became a folder
 *    (provider/resources/x.ts → x/index.ts) left x.js beside x/, and Node resolves the stale file first:
 *    the packed package then ran the old code. Pruning in place, not wiping dist first, keeps dist
 *    usable for anything running from it meanwhile.
 *    Whole folders the build no longer compiles go too (dist/emulator, now the emulator's package).
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
 * 3. Makes the barrels (the root, `sdk` and `provider` indexes) load what they re-export on first use:
 *    see `lazyBarrel`.
 * 4. Makes dist/policy a policy pack folder `pulumi preview --policy-pack` can run (docs/policy.md):
 *    its PulumiPolicy.yaml, and a package.json, because @pulumi/policy's PolicyPack reads its version
 *    from the package.json of the folder it runs in. The version is this package's.
 * 5. Makes the package's commands (package.json `bin`) executable, as npm does when it installs them,
 *    so the engine can start `dist/provider/native/plugin.js` from a checkout too.
 */
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
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

/** The barrels `lazyBarrel` rewrites, relative to dist. */
export const LAZY_BARRELS = ["index.js", "sdk/index.js", "provider/index.js"];

const LAZY_HELPER =
  "function __lazyModule(load, names) { let mod; const m = {}; for (const n of names) " +
  "Object.defineProperty(m, n, { enumerable: true, get: () => (mod ??= load())[n] }); return m; }";

/**
 * tsc's CommonJS barrel `require`s every module it re-exports when it loads, so a program that
 * imports `SearchInstance` from the root loaded every resource class, every area's schemas and undici
 * (110-150 ms). This rewrites a barrel so each re-exported module loads when one of its names is
 * first read, in forms tsc itself emits and Node's CommonJS export detection (cjs-module-lexer, for
 * ESM importers) still reads:
 * - `var m_1 = require("./m");` whose names the barrel reads as `m_1.Name` becomes an object of
 *   getters for exactly those names, each `require`ing the module when read;
 * - `exports.ns = __importStar(require("./m"));` (`export * as ns`) becomes a getter returning the
 *   module itself (the same object as before);
 * - `__exportStar(require("./m"), exports)` and bare `require`s (the Node guard, the compile cache)
 *   stay as they are: they must run, or their names be listed, at load.
 * The declarations are untouched. A barrel that uses a module other than through its getters (code,
 * not re-exports) is refused, so the rewrite can never change what a name means.
 */
export function lazyBarrel(js: string, file: string): string {
  if (js.includes(LAZY_HELPER)) return js; // rewritten by an earlier run over the same tsc output
  let rewritten = 0;
  let out = js.replace(
    /^(var|const) (\w+) = require\(("[^"]+")\);$/gm,
    (line, decl: string, name: string, path: string) => {
      const names = new Set<string>();
      for (const use of js.replace(line, "").matchAll(new RegExp(`\\b${name}\\b(?:\\.(\\w+))?`, "g"))) {
        const member = use[1];
        if (member === undefined || !js.includes(`get: function () { return ${name}.${member}; } });`))
          throw new Error(
            `${file}: ${name} is used other than in a re-export's getter; it cannot load lazily`,
          );
        names.add(member);
      }
      rewritten++;
      return `${decl} ${name} = __lazyModule(() => require(${path}), ${JSON.stringify([...names])});`;
    },
  );
  out = out.replace(
    /^exports\.(\w+) = __importStar\(require\(("[^"]+")\)\);$/gm,
    (_line, ns: string, path: string) => {
      rewritten++;
      return `Object.defineProperty(exports, "${ns}", { enumerable: true, get: function () { return require(${path}); } });`;
    },
  );
  if (rewritten === 0)
    throw new Error(`${file}: no re-export found to load lazily; has tsc's output changed?`);
  return `${out.trimEnd()}\n${LAZY_HELPER}\n`;
}

let pruned = 0;
for (const file of outputs(dist)) {
  // The build makes no source maps (tsconfig.build.json): they would point at sources the package does
  // not ship, and took 0.85 MB of what a program installs. Maps of earlier builds go too.
  const map = file.endsWith(".js.map");
  if (!map && existsSync(join(root, relative(dist, file).replace(OUTPUT, ".ts")))) continue;
  rmSync(file);
  pruned++;
}
console.log(`[build] removed ${pruned} stale outputs (their source gone, or a source map)`);

// Whole folders the provider's build no longer compiles (the emulator and lib/ became the emulator's
// package): their outputs still have sources, so the loop above keeps them, and `npm pack` would ship them.
const compiled = new Set(
  (JSON.parse(readFileSync(join(root, "tsconfig.build.json"), "utf8")) as { include: string[] }).include,
);
for (const e of readdirSync(dist, { withFileTypes: true }))
  if (e.isDirectory() && !compiled.has(e.name) && !["node10", "plugin"].includes(e.name)) {
    rmSync(join(dist, e.name), { recursive: true });
    console.log(`[build] removed dist/${e.name}: no longer part of this package`);
  }

rmSync(out, { recursive: true, force: true });
let count = 0;
for (const file of outputs(dist).filter((f) => f.endsWith(".d.ts"))) {
  const target = join(out, relative(dist, file));
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, toNode10(readFileSync(file, "utf8")));
  count++;
}
console.log(`[build] ${count} declarations for node10 resolution in ${relative(process.cwd(), out)}`);

for (const barrel of LAZY_BARRELS) {
  const file = join(dist, barrel);
  writeFileSync(file, lazyBarrel(readFileSync(file, "utf8"), barrel));
}
console.log(`[build] ${LAZY_BARRELS.length} barrels load their modules on first use`);

const { bin, version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  bin?: Record<string, string>;
  version: string;
};

copyFileSync(join(root, "policy", "PulumiPolicy.yaml"), join(dist, "policy", "PulumiPolicy.yaml"));
const packManifest = { name: "account-api-policy", version, private: true, main: "index.js" };
writeFileSync(join(dist, "policy", "package.json"), `${JSON.stringify(packManifest, null, 2)}\n`);
console.log("[build] policy pack folder dist/policy (PulumiPolicy.yaml, package.json)");
for (const command of Object.values(bin ?? {})) chmodSync(join(root, command), 0o755);
console.log(`[build] ${Object.keys(bin ?? {}).length} commands executable`);
