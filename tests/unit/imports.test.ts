/**
 * The module graph: no import cycle anywhere in the package, type-only imports included (a cycle of
 * types still ties the modules together), and the provider host's side (the runtime and everything it
 * loads) never loads @pulumi/pulumi or a resource class; for that one, type-only imports do not count:
 * they vanish at run time. The emulator is its own package: nothing outside emulator/ imports it (the
 * CLI loads it by name), nor loads its dependencies, and it loads none of the resources.
 */
import { strict as assert } from "node:assert";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import * as ts from "typescript";

const ROOT = resolve(__dirname, "..", "..");
const DIRS = ["provider", "sdk", "emulator", "cli", "policy"];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return p.endsWith(".ts") && !p.endsWith(".d.ts") ? [p] : [];
  });
}

/** Runtime imports of one file: module specifiers of value imports, re-exports and `require` calls. */
function runtimeImports(file: string): string[] {
  const src = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier) && !n.importClause?.isTypeOnly)
      out.push(n.moduleSpecifier.text);
    if (
      ts.isExportDeclaration(n) &&
      n.moduleSpecifier &&
      ts.isStringLiteral(n.moduleSpecifier) &&
      !n.isTypeOnly
    )
      out.push(n.moduleSpecifier.text);
    if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference)) {
      const e = n.moduleReference.expression;
      if (ts.isStringLiteral(e)) out.push(e.text);
    }
    if (ts.isCallExpression(n) && n.expression.getText() === "require") {
      const [arg] = n.arguments;
      if (arg && ts.isStringLiteral(arg)) out.push(arg.text);
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

/** Every import of one file, type-only ones included: the runtime ones and `import type`, `export type`
 * and `import("…")` types. */
function allImports(file: string): string[] {
  const src = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if (
      (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) &&
      n.moduleSpecifier &&
      ts.isStringLiteral(n.moduleSpecifier)
    )
      out.push(n.moduleSpecifier.text);
    if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal))
      out.push(n.argument.literal.text);
    ts.forEachChild(n, visit);
  };
  visit(src);
  return [...out, ...runtimeImports(file)];
}

/** A specifier resolved to a file of ours, or kept as a package name. */
function resolveSpecifier(from: string, spec: string): string {
  const self = /^pulumi-account-api(\/|$)/.test(spec);
  if (!self && !spec.startsWith(".")) return spec;
  const base = self
    ? join(ROOT, spec.replace(/^pulumi-account-api\/?/, "") || "index")
    : resolve(dirname(from), spec);
  for (const c of [`${base}.ts`, join(base, "index.ts")]) if (existsSync(c)) return c;
  return base;
}

const files = [...DIRS.flatMap((d) => sources(join(ROOT, d))), join(ROOT, "index.ts")];
const graph = new Map(files.map((f) => [f, runtimeImports(f).map((s) => resolveSpecifier(f, s))]));
const typeGraph = new Map(files.map((f) => [f, allImports(f).map((s) => resolveSpecifier(f, s))]));
const name = (f: string): string => (f.startsWith(ROOT) ? relative(ROOT, f) : f);

describe("module graph", () => {
  it("has no import cycle, type-only imports included", () => {
    const state = new Map<string, "open" | "done">();
    const cycles: string[][] = [];
    const walk = (f: string, path: string[]): void => {
      if (state.get(f) === "done") return;
      if (state.get(f) === "open") {
        cycles.push([...path.slice(path.indexOf(f)), f].map(name));
        return;
      }
      state.set(f, "open");
      for (const d of typeGraph.get(f) ?? []) if (typeGraph.has(d)) walk(d, [...path, f]);
      state.set(f, "done");
    };
    for (const f of files) walk(f, []);
    assert.deepEqual(cycles, []);
  });

  it("keeps the emulator out of the provider's package, type-only imports included (the CLI loads it by name)", () => {
    const emulator = join(ROOT, "emulator") + "/";
    const crossings = [...typeGraph]
      .filter(([f]) => !f.startsWith(emulator))
      .flatMap(([f, deps]) =>
        deps.filter((d) => d.startsWith(emulator)).map((d) => `${name(f)} → ${name(d)}`),
      );
    assert.deepEqual(crossings, []);
    assert.ok(
      typeGraph.get(join(ROOT, "emulator", "verb.ts"))?.some((d) => d.startsWith(join(ROOT, "cli") + "/")),
      "the walk sees the emulator's imports",
    );
  });

  it("never imports the emulator's folder by its bare name (its package.json would load the built copy)", () => {
    const everywhere = ["tests", "bench", "scripts", "examples", ...DIRS].flatMap((d) =>
      sources(join(ROOT, d)).filter((f) => !f.includes("/node_modules/") && !f.includes("/dist/")),
    );
    const bare = everywhere.flatMap((f) =>
      allImports(f)
        .filter(
          (s) =>
            /^(\.\.?\/)+(\.\.\/)*emulator$|^\.\.?$/.test(s) &&
            resolve(dirname(f), s) === join(ROOT, "emulator"),
        )
        .map((s) => `${name(f)}: "${s}"`),
    );
    assert.deepEqual(bare, []);
  });

  it("keeps the emulator's dependencies out of what a program installs", () => {
    // The provider's package depends on undici, zod and commander only (issue 27): a module outside
    // emulator/ that loads one of these would fail in a project without the emulator's package.
    const EMULATOR_ONLY = ["fastify", "turndown", "@mixmark-io/domino", "gpt-tokenizer"];
    const emulator = join(ROOT, "emulator") + "/";
    const reached = [...typeGraph]
      .filter(([f]) => !f.startsWith(emulator))
      .flatMap(([f, deps]) =>
        deps
          .filter((d) => EMULATOR_ONLY.some((p) => d === p || d.startsWith(`${p}/`)))
          .map((d) => `${name(f)} → ${d}`),
      );
    assert.deepEqual(reached, []);
    assert.ok(
      typeGraph.get(join(ROOT, "emulator", "markdown", "convert.ts"))?.includes("turndown"),
      "the walk sees bare imports",
    );
  });

  it("keeps the provider's layers out of the emulator (its package carries the sdk, not the resources)", () => {
    const emulator = join(ROOT, "emulator") + "/";
    const crossings = [...typeGraph]
      .filter(([f]) => f.startsWith(emulator))
      .flatMap(([f, deps]) =>
        deps
          .filter((d) => ["provider", "policy"].some((l) => d.startsWith(join(ROOT, l) + "/")))
          .map((d) => `${name(f)} → ${name(d)}`),
      );
    assert.deepEqual(crossings, []);
  });

  it("keeps @pulumi/pulumi and the resource classes out of the provider host", () => {
    const seen = new Set<string>();
    const stack = [join(ROOT, "provider", "runtime.ts")];
    while (stack.length) {
      const f = stack.pop()!;
      if (seen.has(f)) continue;
      seen.add(f);
      stack.push(...(graph.get(f) ?? []));
    }
    const forbidden = [...seen].filter(
      (f) =>
        f.startsWith("@pulumi/") ||
        /provider\/resources\/[^/]+\/index\.ts$/.test(f) ||
        f === join(ROOT, "provider", "resource.ts") ||
        f === join(ROOT, "provider", "index.ts"),
    );
    assert.deepEqual(forbidden.map(name), []);
    assert.ok(
      seen.has(join(ROOT, "provider", "resources", "build-trigger", "handler.ts")),
      "the graph walk reaches the handlers",
    );
  });
});
