/**
 * Every TypeScript snippet in the README compiles as a user's program would: against the built
 * package (`pulumi-account-api` resolves to dist through the package's own exports), under Pulumi's
 * template tsconfig (strict, commonjs, node resolution, no skipLibCheck, no esModuleInterop).
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { compileAsTemplate, tsSnippets } from "../helpers/template-compile";

const ROOT = resolve(__dirname, "..", "..");

describe("README snippets", function () {
  this.timeout(120_000);
  const blocks = tsSnippets(readFileSync(join(ROOT, "README.md"), "utf8"));

  it("has TypeScript snippets to check", () => {
    assert.ok(blocks.length >= 2, `found ${blocks.length}`);
  });

  it("compiles every snippet under the Pulumi template's tsconfig", () => {
    assert.deepEqual(compileAsTemplate(blocks), []);
  });
});
