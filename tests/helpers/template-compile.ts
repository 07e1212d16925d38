/**
 * TypeScript snippets from the docs compiled as a user's program would be: against the built package
 * (`pulumi-account-api` resolves to dist through the package's own exports and typesVersions), under
 * Pulumi's template tsconfig (strict, commonjs, node resolution, no skipLibCheck, no esModuleInterop).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as ts from "typescript";

const ROOT = resolve(__dirname, "..", "..");

/** The ```ts blocks of a Markdown text, in order. */
export function tsSnippets(markdown: string): string[] {
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
}

/** Compiles each snippet as a file of one program; answers the problems, `file: message`. */
export function compileAsTemplate(
  blocks: readonly string[],
  ignore: (file: string) => boolean = () => false,
): string[] {
  mkdirSync(join(ROOT, ".pulumi-test"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, ".pulumi-test", "snippets-"));
  try {
    const files = blocks.map((code, i) => {
      const file = join(dir, `snippet-${i}.ts`);
      writeFileSync(file, code);
      return file;
    });
    const program = ts.createProgram(files, {
      strict: true,
      target: ts.ScriptTarget.ES2020,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      noEmit: true,
      types: [],
    });
    return ts
      .getPreEmitDiagnostics(program)
      .filter((d) => !ignore(d.file?.fileName ?? ""))
      .map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
