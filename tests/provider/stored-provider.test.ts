import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { programSdkFile } from "../../provider/core/program-sdk";
import { storedProvider } from "../../provider/core/stored-provider";
import { RESOURCE_KINDS, RUN_KINDS } from "../../provider/types";

const REPO_ROOT = join(__dirname, "..", "..");

/** What the engine's dynamic-provider host does with the stored string, from `dir`. */
function load(text: string, dir: string): pulumi.dynamic.ResourceProvider & { kind?: string } {
  const mod = { exports: {} as { handler?: () => pulumi.dynamic.ResourceProvider } };
  const requireFrom = (id: string): unknown => require(require.resolve(id, { paths: [dir] }));
  new Function("exports", "require", "module", text)(mod.exports, requireFrom, mod);
  return mod.exports.handler!();
}

describe("the stored provider of each kind", () => {
  for (const kind of [...RESOURCE_KINDS, ...RUN_KINDS]) {
    it(`${kind}: a small require of the package's shim, which gives the kind's provider object`, () => {
      const text = storedProvider(kind);
      assert.ok(text.length < 320, `${text.length} bytes`);
      assert.match(text, /require\("pulumi-account-api\/provider\/shims\/[a-z-]+"\)/);
      // Resolved as a program's folder resolves the package (this checkout links itself).
      const provider = load(text, REPO_ROOT);
      assert.equal(provider.kind, kind);
      for (const m of ["configure", "check", "diff", "create", "read", "update", "delete"] as const)
        assert.equal(typeof provider[m], "function", m);
    });
  }

  it("is the text the SDK's serializer wrote for an installed copy (stacks keep the same string)", () => {
    assert.equal(
      storedProvider("SearchInstance"),
      'exports.handler = __f0;\nconst provider = require("pulumi-account-api/provider/shims/search-instance");\n\nfunction __f0() {\n  return (function() {\n    with({ this: undefined, arguments: undefined }) {\n\nreturn () => provider;\n\n    }\n  }).apply(undefined, undefined).apply(this, arguments);\n}\n',
    );
  });
});

describe("the @pulumi/pulumi resources register through", () => {
  let dir = "";
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "account-api-program-sdk-"));
    const sdk = join(dir, "project", "node_modules", "@pulumi", "pulumi");
    mkdirSync(sdk, { recursive: true });
    writeFileSync(join(sdk, "package.json"), JSON.stringify({ name: "@pulumi/pulumi", main: "index.js" }));
    writeFileSync(join(sdk, "index.js"), "");
    writeFileSync(join(dir, "project", "main.js"), "");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("installed (under node_modules): the package's own, whatever the entry point", () => {
    const own = join(
      dir,
      "project",
      "node_modules",
      "pulumi-account-api",
      "dist",
      "provider",
      "core",
      "x.js",
    );
    assert.equal(programSdkFile(own, join(dir, "project", "main.js")), undefined);
  });

  it("linked (outside node_modules): the copy the program's entry point resolves", () => {
    assert.equal(
      programSdkFile("/src/checkout/dist/provider/core/x.js", join(dir, "project", "main.js")),
      join(dir, "project", "node_modules", "@pulumi", "pulumi", "index.js"),
    );
  });

  it("linked, with no entry point or one that sees no @pulumi/pulumi: the package's own", () => {
    assert.equal(programSdkFile("/src/checkout/x.js", undefined), undefined);
    assert.equal(programSdkFile("/src/checkout/x.js", join(dir, "main.js")), undefined);
  });
});
