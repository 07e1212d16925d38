/**
 * A stack made by the previous release goes up with this one without a replace. The fixture
 * (tests/fixtures/release-0.1.0) is what release 0.1.0 (commit ef6c55d) left: the engine's export of a
 * stack of all eight kinds, made with that release's input names (`recordingConfig.mediaBucketConfig`,
 * contacts as `firstName`/`address`/`zip`), and the emulator's state holding the objects it made. This
 * release imports the stack, runs today's equivalent program (`realtimekitBucketConfig`, contacts in
 * the contract's shape) and must create, replace and delete nothing, then preview clean and destroy.
 */
import { strict as assert } from "node:assert";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { LocalWorkspace, PulumiCommand, type Deployment, type Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import {
  BuildTrigger,
  ConfigRule,
  DomainRegistration,
  MeetingTemplate,
  RepoConnection,
  SearchInstance,
  TriggerEnvVars,
  ZoneContentConverter,
} from "../../provider";
import { AccountApi } from "../../sdk";
import { REPO_ROOT, engineEnv } from "./harness";

const FIXTURE = join(REPO_ROOT, "tests", "fixtures", "release-0.1.0");
const PROJECT = "account-api-upgrade";

/** The fixture's program, in today's names. */
function todaysProgram(buildTokenUuid: string, zoneId: string) {
  return async () => {
    const cfg = new pulumi.Config();
    const repo = new RepoConnection("repo", {
      providerType: "github",
      providerAccountId: "acme",
      providerAccountName: "Acme",
      repoId: "77",
      repoName: "shop",
    });
    const prod = new BuildTrigger("prod", {
      scriptName: "shop",
      kind: "production",
      repoConnectionUuid: repo.repoConnectionUuid,
      buildTokenUuid,
      buildCommand: "npm run build",
      branchIncludes: ["main"],
    });
    new TriggerEnvVars("vars", {
      triggerUuid: prod.triggerUuid,
      variables: {
        NODE_ENV: { value: "production" },
        API_KEY: { value: cfg.requireSecret("apiKey"), isSecret: true },
      },
    });
    new ZoneContentConverter("converter", { zoneId });
    new ConfigRule("docs", { zoneId, pathPrefix: "/docs/", description: "docs as markdown" });
    new MeetingTemplate("standup", {
      appId: "upgrade-app",
      title: "Stand-up",
      recordOnStart: false,
      recordingConfig: { maxSeconds: 3600, realtimekitBucketConfig: { enabled: false } },
    });
    new DomainRegistration("site", {
      domainName: "upgrade-site.com",
      years: 1,
      maxCost: { amount: "20.00", currency: "USD" },
      autoRenew: true,
      contacts: {
        registrant: {
          email: "ada@example.com",
          phone: "+1.5555550100",
          postalInfo: {
            name: "Ada Lovelace",
            organization: "Acme",
            address: {
              street: "1 Main Street",
              city: "Springfield",
              state: "IL",
              postalCode: "62701",
              countryCode: "US",
            },
          },
        },
      },
    });
    new SearchInstance("kb", {
      instanceId: "kb",
      type: "web-crawler",
      source: "https://upgrade.example.com/docs/",
    });
  };
}

describe("upgrade: a stack of release 0.1.0 goes up with this release without a replace", function () {
  this.timeout(600_000);
  let scratch = "";
  let em: RunningEmulator;
  let api: AccountApi;
  let stack: Stack;
  const output: string[] = [];
  const onOutput = (line: string): void => {
    output.push(line);
    process.stdout.write(line);
  };

  before(async () => {
    mkdirSync(join(REPO_ROOT, ".pulumi-test"), { recursive: true });
    scratch = mkdtempSync(join(REPO_ROOT, ".pulumi-test", "upgrade-"));
    copyFileSync(join(FIXTURE, "emulator.json"), join(scratch, "emulator.json"));
    const exported = JSON.parse(readFileSync(join(FIXTURE, "stack.json"), "utf8")) as Deployment;
    // A refresh reads with the configuration stored with the provider, as the engine does for any
    // stack: the emulator answers where the release's did. The state file keeps its account and token.
    const stored = JSON.stringify(exported).match(
      /"account-api:baseUrl":"http:\/\/127\.0\.0\.1:(\d+)\/client\/v4"/,
    );
    assert.ok(stored?.[1], "the fixture's provider holds its base URL");
    em = await startEmulator({ env: {}, stateFile: join(scratch, "emulator.json"), port: Number(stored[1]) });
    assert.equal(em.accountId, "upgrade-acct");
    api = new AccountApi({ baseUrl: em.url, token: em.token, accountId: em.accountId, env: {} });
    const [token] = await api.builds.tokens.list();
    const zone = await api.content.zones.find({}, { name: "upgrade.example.com" });
    assert.ok(token && zone, "the fixture's emulator state holds the build token and the zone");
    const workDir = join(scratch, "work");
    mkdirSync(workDir);
    mkdirSync(join(scratch, "backend"));
    stack = await LocalWorkspace.createStack(
      { stackName: "old", projectName: PROJECT, program: todaysProgram(token.build_token_uuid, zone.id) },
      {
        workDir,
        pulumiCommand: await PulumiCommand.get({ root: join(REPO_ROOT, ".engine"), skipVersionCheck: true }),
        // The fixture's secrets are encrypted with this passphrase.
        envVars: {
          ...engineEnv(join(scratch, "backend"), join(scratch, "home")),
          PULUMI_CONFIG_PASSPHRASE: "upgrade",
        },
        projectSettings: { name: PROJECT, runtime: "nodejs" },
      },
    );
    await stack.setAllConfig({
      "account-api:baseUrl": { value: em.url },
      "account-api:accountId": { value: em.accountId },
      "account-api:apiToken": { value: em.token, secret: true },
      [`${PROJECT}:apiKey`]: { value: "upgrade-secret-key", secret: true },
    });
    await stack.importStack(exported);
  });

  after(async () => {
    await api?.close();
    await em?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("previews and goes up with no create, replace or delete, then stays clean and destroys", async () => {
    const preview = await stack.preview({ onOutput, refresh: true });
    const planned = { ...preview.changeSummary };
    for (const op of ["create", "replace", "create-replacement", "delete-replaced", "delete"])
      assert.equal(
        planned[op as keyof typeof planned] ?? 0,
        0,
        `${op} in the preview: ${JSON.stringify(planned)}`,
      );

    const up = await stack.up({ onOutput, refresh: true });
    const changes = { ...up.summary.resourceChanges };
    for (const op of ["create", "replace", "create-replacement", "delete-replaced", "delete"])
      assert.equal(
        changes[op as keyof typeof changes] ?? 0,
        0,
        `${op} in the up: ${JSON.stringify(changes)}`,
      );
    console.log(`      [figure] upgrade up: ${JSON.stringify(changes)}`);

    await stack.preview({ onOutput, expectNoChanges: true, refresh: true });
    const destroy = await stack.destroy({ onOutput });
    assert.equal(destroy.summary.result, "succeeded");
  });
});
