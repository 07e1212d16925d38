/**
 * The SDK generator (tools/codegen, built once per user by scripts/build-codegen.sh, reused after)
 * turns the fixture schema of docs/sdk-gen.md into Python, Go and .NET SDKs: the same bytes on every
 * run, Python that compiles, installs and imports against pulumi 3.259.0, Go that builds against sdk/v3
 * 3.259.0, and a --check that names the files a schema change makes stale.
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { GO_MODULE, PULUMI_VERSION, goBuild, ok, pythonProbe, run, text, tree } from "../helpers/codegen";

const ROOT = resolve(__dirname, "..", "..");
const FIXTURE = join(ROOT, "tests", "fixtures", "codegen", "schema.json");
const GEN_SDK = join(ROOT, "scripts", "gen-sdk.sh");
const HAS_DOTNET = spawnSync("bash", ["-c", "command -v dotnet"], { encoding: "utf8" }).status === 0;

describe("SDK generation from a Pulumi schema (tools/codegen)", function () {
  let work: string;
  let first: string;

  before(function () {
    // A cold build of the tool takes minutes on 2 cores; a warm one a few milliseconds.
    this.timeout(30 * 60_000);
    work = mkdtempSync(join(tmpdir(), "codegen-"));
    first = join(work, "first");
    ok(run("bash", [GEN_SDK, "--schema", FIXTURE, "--out", first], { timeout: 30 * 60_000 }), "gen-sdk.sh");
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it("generates the same bytes from the same schema a second time", function () {
    this.timeout(60_000);
    const second = join(work, "second");
    ok(run("bash", [GEN_SDK, "--schema", FIXTURE, "--out", second]), "gen-sdk.sh (second run)");
    const a = tree(first);
    const b = tree(second);
    assert.deepEqual([...b.keys()].sort(), [...a.keys()].sort());
    for (const [path, bytes] of a) assert.ok(bytes.equals(b.get(path)!), `${path} differs between two runs`);
    for (const lang of ["python", "go", "dotnet"]) {
      assert.ok([...a.keys()].filter((p) => p.startsWith(`${lang}/`)).length >= 10, `${lang}: too few files`);
    }
    assert.ok(a.get("schema.json")!.equals(readFileSync(FIXTURE)), "the schema is kept beside the SDKs");
  });

  it("carries the resource's replaceOnChanges, secret, enum and output, the function and the config into each language", () => {
    const py = text(first, "python/pulumi_account_api/search_instance.py");
    assert.match(py, /replace_on_changes=\["name"\]/);
    assert.match(py, /additional_secret_outputs=\["adminKey"\]/);
    assert.match(py, /def endpoint\(self\)/);
    assert.match(text(first, "python/pulumi_account_api/_enums.py"), /PREMIUM = "premium"/);
    assert.match(
      text(first, "python/pulumi_account_api/get_search_instance_stats.py"),
      /'account-api:index:getSearchInstanceStats'/,
    );
    assert.match(text(first, "python/pulumi_account_api/config/vars.py"), /def api_token\(self\)/);

    const go = text(first, "go/accountapi/searchInstance.go");
    assert.match(go, /pulumi\.ReplaceOnChanges\(\[\]string\{\s*"name",\s*\}\)/);
    assert.match(go, /args\.AdminKey = pulumi\.ToSecret\(args\.AdminKey\)/);
    assert.match(go, /Endpoint pulumi\.StringOutput/);
    assert.match(text(first, "go/go.mod"), new RegExp(`^module ${GO_MODULE.replace(/\./g, "\\.")}$`, "m"));
    assert.match(text(first, "go/accountapi/getSearchInstanceStats.go"), /func GetSearchInstanceStats\(/);
    assert.match(text(first, "go/accountapi/config/config.go"), /func GetApiToken\(/);

    const cs = text(first, "dotnet/SearchInstance.cs");
    assert.match(cs, /ReplaceOnChanges =\s*\{\s*"name",/);
    assert.match(cs, /AdditionalSecretOutputs =\s*\{\s*"adminKey",/);
    assert.match(text(first, "dotnet/Enums.cs"), /Premium \{ get; \} = new SearchTier\("premium"\)/);
    assert.match(text(first, "dotnet/Pulumi.AccountApi.csproj"), /<Version>0\.1\.0<\/Version>/);
    // The logo the .NET package needs came from the tool's own loopback server, not the network.
    assert.ok(
      readFileSync(join(first, "dotnet", "logo.png"))
        .subarray(1, 4)
        .equals(Buffer.from("PNG")),
    );
  });

  it("--check passes on a fresh tree, then exits 1 naming a stale, a missing and an extra file", function () {
    this.timeout(60_000);
    ok(run("bash", [GEN_SDK, "--out", first, "--check"]), "--check on a fresh tree");
    const copy = join(work, "edited");
    cpSync(first, copy, { recursive: true });
    appendFileSync(join(copy, "go", "accountapi", "doc.go"), "// edited\n");
    unlinkSync(join(copy, "dotnet", "Enums.cs"));
    writeFileSync(join(copy, "python", "pulumi_account_api", "old.py"), "x = 1\n");
    const res = run("bash", [GEN_SDK, "--out", copy, "--check"]);
    assert.equal(res.status, 1, res.stderr);
    assert.deepEqual(res.stdout.trim().split("\n").sort(), [
      `extra:   ${join(copy, "python", "pulumi_account_api", "old.py")}`,
      `missing: ${join(copy, "dotnet", "Enums.cs")}`,
      `stale:   ${join(copy, "go", "accountapi", "doc.go")}`,
    ]);
    assert.match(res.stderr, /are stale for .*: run {2}bash scripts\/gen-sdk\.sh/);

    // A schema edit makes the kept schema and what it generates stale.
    const edited = join(work, "schema-0.2.0.json");
    writeFileSync(
      edited,
      text(ROOT, relative(ROOT, FIXTURE)).replace('"version": "0.1.0"', '"version": "0.2.0"'),
    );
    const bumped = run("bash", [GEN_SDK, "--schema", edited, "--out", first, "--check"]);
    assert.equal(bumped.status, 1, bumped.stderr);
    assert.match(bumped.stdout, /stale: {3}.*\/python\/pyproject\.toml/);
    assert.match(bumped.stdout, /stale: {3}.*\/dotnet\/version\.txt/);
    assert.match(bumped.stdout, /stale: {3}.*\/schema\.json/);
  });

  it("refuses a logoUrl that is not loopback (the .NET generator would download it) and writes nothing", () => {
    const schema = JSON.parse(readFileSync(FIXTURE, "utf8")) as Record<string, unknown>;
    const path = join(work, "logo-schema.json");
    writeFileSync(path, JSON.stringify({ ...schema, logoUrl: "https://example.com/logo.png" }));
    const out = join(work, "logo-out");
    const res = run("bash", [GEN_SDK, "--schema", path, "--out", out]);
    assert.equal(res.status, 2);
    assert.match(res.stderr, /logoUrl "https:\/\/example\.com\/logo\.png" is not a loopback http\(s\) URL/);
    assert.equal(existsSync(out), false);
  });

  it("refuses a schema that does not bind, listing each diagnostic with its place, and writes nothing", () => {
    const schema = JSON.parse(readFileSync(FIXTURE, "utf8")) as {
      resources: Record<string, { inputProperties: Record<string, unknown> }>;
    };
    schema.resources["account-api:index:SearchInstance"]!.inputProperties.shards = { type: "strin" };
    const path = join(work, "bad-schema.json");
    writeFileSync(path, JSON.stringify(schema));
    const out = join(work, "bad-out");
    const res = run("bash", [GEN_SDK, "--schema", path, "--out", out, "--lang", "python"]);
    assert.equal(res.status, 2);
    assert.match(res.stderr, /the schema does not bind \(\d+ diagnostics\)/);
    assert.match(
      res.stderr,
      /#\/resources\/account-api:index:SearchInstance\/inputProperties\/shards\/type: value must be one of "boolean", "integer", "number", "string"/,
    );
    assert.equal(existsSync(out), false);
  });

  it(`the Python SDK compiles (py_compile on every file), installs and imports with pulumi ${PULUMI_VERSION}`, function () {
    this.timeout(15 * 60_000);
    const probe = [
      "import pulumi_account_api as a",
      "assert a.SearchTier.PREMIUM.value == 'premium'",
      "assert callable(a.get_search_instance_stats_output)",
      "assert a.SearchInstanceArgs(name='docs', tier=a.SearchTier.BASIC, replicas=2).name == 'docs'",
      "from pulumi_account_api import config",
      "import pulumi_account_api.provider as p",
      "print(a.SearchInstance.__name__, p.Provider.__name__)",
    ].join("\n");
    const out = pythonProbe(work, join(first, "python"), probe);
    assert.equal(out.trim(), "SearchInstance Provider");
  });

  it(`the Go SDK builds in a module that requires github.com/pulumi/pulumi/sdk/v3 v${PULUMI_VERSION}`, function () {
    this.timeout(20 * 60_000);
    goBuild(
      work,
      join(first, "go"),
      `package main

import (
	"${GO_MODULE}/accountapi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		search, err := accountapi.NewSearchInstance(ctx, "search", &accountapi.SearchInstanceArgs{
			Name:            pulumi.String("docs"),
			Tier:            accountapi.SearchTierPremium,
			Replicas:        pulumi.Int(2),
			MaxResultWindow: pulumi.Float64(10000),
			TypoTolerance:   pulumi.Bool(true),
			AdminKey:        pulumi.String("key"),
		})
		if err != nil {
			return err
		}
		stats := accountapi.GetSearchInstanceStatsOutput(ctx, accountapi.GetSearchInstanceStatsOutputArgs{
			InstanceId: search.ID().ToStringOutput(),
		})
		ctx.Export("endpoint", search.Endpoint)
		ctx.Export("documents", stats.DocumentCount())
		return nil
	})
}
`,
    );
  });

  if (HAS_DOTNET) {
    it("the .NET SDK builds with the installed dotnet SDK", function () {
      this.timeout(20 * 60_000);
      ok(run("dotnet", ["build"], { cwd: join(first, "dotnet"), timeout: 20 * 60_000 }), "dotnet build");
    });
  } else {
    it(".NET: no dotnet SDK is installed here, so this asserts the files were written, not that they compile", () => {
      const files = tree(join(first, "dotnet"));
      for (const path of [
        "Pulumi.AccountApi.csproj",
        "SearchInstance.cs",
        "GetSearchInstanceStats.cs",
        "Provider.cs",
        "Enums.cs",
        "Config/Config.cs",
        "Utilities.cs",
        "logo.png",
        "pulumi-plugin.json",
        "version.txt",
      ]) {
        assert.ok((files.get(path)?.length ?? 0) > 0, `${path} is missing or empty`);
      }
      assert.equal(text(first, "dotnet/version.txt"), "0.1.0");
    });
  }
});
