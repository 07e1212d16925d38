/**
 * The committed SDKs (sdk-gen/) are what today's descriptions generate: sdk-gen/schema.json is the
 * schema the descriptions give (scripts/write-schema.ts --check), and every generated file is what
 * that schema gives (scripts/gen-sdk.sh --check). The generated Python compiles, installs and imports
 * with pulumi 3.259.0, and the generated Go builds and vets against sdk/v3 3.259.0, resources and
 * invokes both used by a program.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { GO_MODULE, PULUMI_VERSION, goBuild, pythonProbe, run } from "../helpers/codegen";

const ROOT = resolve(__dirname, "..", "..");
const SDK_GEN = join(ROOT, "sdk-gen");
const REGENERATE = "npm run build && bash scripts/gen-sdk.sh --schema dist/schema.json";

describe("sdk-gen/: the committed SDKs are fresh and compile", function () {
  let work: string;
  before(() => {
    work = mkdtempSync(join(tmpdir(), "sdk-gen-fresh-"));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it("sdk-gen/schema.json is the schema the resource descriptions give (write-schema --check)", function () {
    this.timeout(60_000);
    const res = run(
      "node",
      ["-r", "ts-node/register/transpile-only", join(ROOT, "scripts", "write-schema.ts"), "--check"],
      {
        cwd: ROOT,
      },
    );
    assert.equal(
      res.status,
      0,
      `sdk-gen/ is stale: run  ${REGENERATE}  and commit it\n${res.stdout}${res.stderr}`,
    );
  });

  it("every file under sdk-gen/ is what that schema generates (gen-sdk.sh --check)", function () {
    // A cold build of the generator takes minutes on 2 cores; a warm one a few milliseconds.
    this.timeout(30 * 60_000);
    const res = run("bash", [join(ROOT, "scripts", "gen-sdk.sh"), "--out", SDK_GEN, "--check"], {
      timeout: 30 * 60_000,
    });
    assert.equal(
      res.status,
      0,
      `sdk-gen/ is stale: run  ${REGENERATE}  and commit it\n${res.stdout}${res.stderr}`,
    );
  });

  it(`the Python SDK compiles, installs and imports with pulumi ${PULUMI_VERSION}: resources, runs and invokes`, function () {
    this.timeout(15 * 60_000);
    const probe = [
      "import pulumi_account_api as a",
      "assert a.SearchInstanceType.WEB_CRAWLER.value == 'web-crawler'",
      "args = a.SearchInstanceArgs(instance_id='kb', type=a.SearchInstanceType.R2, chunk_size=512)",
      "assert args.instance_id == 'kb' and args.chunk_size == 512",
      "assert a.EmailSendArgs(from_='ops@example.com', to=['a@example.org'], subject='hi').subject == 'hi'",
      "for f in ('check_domain', 'quote_domain', 'search_domains', 'build_tokens', 'build_logs', 'wait_for_build', 'wait_for_job', 'get_search_instance_stats'):",
      "    assert callable(getattr(a, f)) and callable(getattr(a, f + '_output')), f",
      "for f in ('trigger_build', 'send_email', 'trigger_sync_job', 'cancel_build'):",
      "    assert not hasattr(a, f), f + ' changes something remote: not an invoke'",
      "from pulumi_account_api import config",
      "import pulumi_account_api.provider as p",
      "print(' '.join(c.__name__ for c in (a.BuildTrigger, a.SearchInstance, a.BuildRun, a.EmailSend, a.SyncJobRun, p.Provider)))",
    ].join("\n");
    const out = pythonProbe(work, join(SDK_GEN, "python"), probe);
    assert.equal(out.trim(), "BuildTrigger SearchInstance BuildRun EmailSend SyncJobRun Provider");
  });

  it(`the Go SDK builds and vets against sdk/v3 v${PULUMI_VERSION}, with a program using a resource, a run and invokes`, function () {
    this.timeout(20 * 60_000);
    goBuild(
      work,
      join(SDK_GEN, "go"),
      `package main

import (
	"${GO_MODULE}/accountapi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		kb, err := accountapi.NewSearchInstance(ctx, "kb", &accountapi.SearchInstanceArgs{
			InstanceId: pulumi.String("kb"),
			Type:       accountapi.SearchInstanceTypeR2,
			ChunkSize:  pulumi.Int(512),
			StorageCredentials: &accountapi.SearchInstanceStorageCredentialsArgs{
				AccessKeyId:     pulumi.String("id"),
				SecretAccessKey: pulumi.String("secret"),
			},
		})
		if err != nil {
			return err
		}
		if _, err := accountapi.NewEmailSend(ctx, "note", &accountapi.EmailSendArgs{
			From:     pulumi.String("ops@example.com"),
			To:       pulumi.String("dev@example.org"),
			Subject:  pulumi.String("kb is up"),
			Text:     kb.Status,
			Triggers: pulumi.Array{kb.ModifiedAt},
		}); err != nil {
			return err
		}
		domain := accountapi.CheckDomainOutput(ctx, accountapi.CheckDomainOutputArgs{DomainName: pulumi.String("example.com")})
		tokens := accountapi.BuildTokensOutput(ctx, accountapi.BuildTokensOutputArgs{})
		ctx.Export("registrable", domain.Registrable())
		ctx.Export("tokens", tokens)
		return nil
	})
}
`,
    );
  });
});
