/**
 * Every TypeScript snippet in the README compiles as a user's program would: against the built
 * package (`pulumi-account-api` resolves to dist through the package's own exports), under Pulumi's
 * template tsconfig (strict, commonjs, node resolution, no skipLibCheck, no esModuleInterop).
 */
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as ts from "typescript";

const ROOT = resolve(__dirname, "..", "..");

function snippets(markdown: string): string[] {
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
}

describe("README snippets", function () {
  this.timeout(120_000);
  const blocks = snippets(readFileSync(join(ROOT, "README.md"), "utf8"));

  it("has TypeScript snippets to check", () => {
    assert.ok(blocks.length >= 2, `found ${blocks.length}`);
  });

  it("compiles every snippet under the Pulumi template's tsconfig", () => {
    mkdirSync(join(ROOT, ".pulumi-test"), { recursive: true });
    const dir = mkdtempSync(join(ROOT, ".pulumi-test", "readme-"));
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
      const problems = ts
        .getPreEmitDiagnostics(program)
        .map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
      assert.deepEqual(problems, []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
