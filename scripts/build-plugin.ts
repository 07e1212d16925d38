/**
 * Makes the native plugin's archive, dist/plugin/pulumi-resource-account-api-v<version>.tar.gz, which
 * `pulumi plugin install resource account-api <version> --file <archive>` (or `account-api plugin
 * install`) unpacks into $PULUMI_HOME/plugins/resource-account-api-v<version>/, where the engine finds
 * it with no PATH change (and so without its "using … from $PATH" warning). Called by `npm run build`
 * after write-schema.ts (it needs dist/provider/native/field-docs.json).
 *
 * The engine runs `pulumi-resource-account-api` from that folder, and nothing else of an npm install
 * is there: so the archive holds the plugin bundled into one file with everything it loads
 * (@pulumi/pulumi's protocol stubs, grpc-js, google-protobuf, undici, zod), beside
 * - `pulumi-resource-account-api`: a `sh` launcher running it with the `node` on PATH (the plugin
 *   itself refuses a Node older than 22, naming it), and a `.cmd` twin (the engine's name on Windows);
 * - `field-docs.json`: the schema's descriptions (loadFieldDocs reads it beside the code);
 * - `package.json`: the package's name and version, which the plugin reports (sdk/version.ts).
 * The bundle keeps the modules' lazy loading (esbuild runs a CommonJS module when it is first
 * required) and their names (errors name their class); only whitespace and syntax are minified.
 *   node -r ts-node/register/transpile-only scripts/build-plugin.ts [<out.tar.gz>]
 */
import { createRequire } from "node:module";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { build, type Plugin } from "esbuild";
import { FIELD_DOCS_FILE } from "../provider/native/field-docs";
import { PLUGIN_EXECUTABLE, pluginArchivePath } from "../provider/native/plugin-archive";
import { tarGz } from "./tar";

const root = resolve(__dirname, "..");
const dist = join(root, "dist");

/**
 * server.ts and engine-log.ts load the protocol stubs and grpc-js from @pulumi/pulumi's own folder
 * (`createRequire(require.resolve("@pulumi/pulumi/proto/…"))`), which a bundler cannot follow. Here
 * each `fromPulumi("<spec>")` becomes a plain `require` of the file that very lookup finds now, so the
 * bundle holds the same modules, sharing one protobuf runtime as before. Fails when the pattern
 * changed rather than leave a lookup that cannot work in the bundle.
 */
const fromPulumiInBundle: Plugin = {
  name: "from-pulumi",
  setup(b) {
    b.onLoad({ filter: /[\\/]provider[\\/]native[\\/][\w-]+\.js$/ }, (args) => {
      const js = readFileSync(args.path, "utf8");
      const decl = /const fromPulumi = \(0, \w+\.createRequire\)\(require\.resolve\("([^"]+)"\)\);\n/.exec(
        js,
      );
      if (!decl?.[1]) {
        if (js.includes("createRequire"))
          throw new Error(`${args.path}: a createRequire the plugin bundle does not know how to follow`);
        return undefined;
      }
      const fromPulumi = createRequire(require.resolve(decl[1], { paths: [root] }));
      const contents = js
        .replace(decl[0], "")
        .replace(
          /\bfromPulumi\("([^"]+)"\)/g,
          (_, spec: string) => `require(${JSON.stringify(fromPulumi.resolve(spec))})`,
        );
      if (/\bfromPulumi\b|createRequire/.test(contents))
        throw new Error(`${args.path}: fromPulumi is used other than as fromPulumi("<module>")`);
      return { contents, loader: "js", resolveDir: dirname(args.path) };
    });
  },
};

const LAUNCHER = `#!/bin/sh
# The Pulumi engine starts this (pulumi-resource-account-api) from the plugin's folder. It runs the
# bundled plugin with the node on PATH, which must be Node 22 or later (the plugin says so if not).
command -v node >/dev/null 2>&1 || {
  echo "pulumi-resource-account-api: needs Node.js 22 or later as \\\`node\\\` on PATH, and there is no node on PATH" >&2
  exit 1
}
exec node "\${0%/*}/plugin.js" "$@"
`;

/**
 * First in the bundle: an older Node stops here with one line, before it loads anything (the guard of
 * sdk/require-node.ts would throw from inside the bundle, and Node would print its one very long line).
 */
const NODE_CHECK =
  'if (!(Number(process.versions.node.split(".")[0]) >= 22)) { console.error(`pulumi-resource-account-api needs Node.js 22 or later as \\`node\\` on PATH; this is Node ${process.versions.node}`); process.exit(1); }';

const LAUNCHER_CMD = `@node "%~dp0plugin.js" %*\r\n`;

export async function buildPluginArchive(
  out?: string,
): Promise<{ archive: string; bytes: number; bundleBytes: number }> {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    name: string;
    version: string;
  };
  const result = await build({
    entryPoints: [join(dist, "provider", "native", "plugin.js")],
    absWorkingDir: root,
    bundle: true,
    platform: "node",
    target: "node22",
    format: "cjs",
    write: false,
    outfile: "plugin.js",
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: "none",
    // Only a source checkout without field-docs.json reaches for the compiler (loadFieldDocs).
    external: ["typescript"],
    logLevel: "warning",
    banner: { js: NODE_CHECK },
    plugins: [fromPulumiInBundle],
  });
  const bundle = result.outputFiles[0];
  if (!bundle) throw new Error("esbuild wrote no bundle");
  const bundleBytes = Buffer.from(bundle.contents);
  const archive = out ?? pluginArchivePath(dist, pkg.version);
  const manifest = { name: pkg.name, version: pkg.version, private: true };
  const bytes = tarGz([
    { name: PLUGIN_EXECUTABLE, mode: 0o755, data: Buffer.from(LAUNCHER) },
    { name: `${PLUGIN_EXECUTABLE}.cmd`, mode: 0o755, data: Buffer.from(LAUNCHER_CMD) },
    {
      name: "field-docs.json",
      mode: 0o644,
      data: readFileSync(join(dist, "provider", "native", FIELD_DOCS_FILE)),
    },
    { name: "package.json", mode: 0o644, data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
    { name: "plugin.js", mode: 0o644, data: bundleBytes },
  ]);
  mkdirSync(dirname(archive), { recursive: true });
  writeFileSync(archive, bytes);
  return { archive, bytes: bytes.length, bundleBytes: bundleBytes.length };
}

if (require.main === module) {
  buildPluginArchive(process.argv[2]).then(
    ({ archive, bytes, bundleBytes }) =>
      console.log(
        `[build-plugin] wrote ${archive} (${bytes} bytes; plugin.js ${bundleBytes} bytes before compression)`,
      ),
    (err: unknown) => {
      console.error(`[build-plugin] ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
