/**
 * `account-api discover` on the real engine: an emulator holding objects of every kind made
 * with the sdk outside any program, two of them managed by a stack. discover lists every one with
 * the right managed flag; the program it writes, in TypeScript and in YAML, adopts every unmanaged
 * one with no object created (the emulator's objects counted before and after) and a refreshed
 * preview expecting no changes passes. `npm run build` first when run alone: the YAML program runs
 * the native plugin from dist.
 */
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import type { DiscoverResult } from "../../cli/discover";
import { listAccount } from "../../provider/discovery/list";
import { RepoConnection, SearchInstance } from "../../provider";
import { productionTriggerBody, seedBuildWorld } from "../helpers/builds";
import { runCliWith } from "../helpers/cli";
import { REPO_ROOT, useE2E } from "./harness";
import { cliEnv, provisionYamlHost, pulumiCli } from "./pulumi-cli";

const KINDS = [
  "BuildTrigger",
  "ConfigRule",
  "DomainRegistration",
  "MeetingApp",
  "MeetingTemplate",
  "RepoConnection",
  "SearchInstance",
  "SearchNamespace",
  "SearchToken",
  "SendingDomain",
  "TriggerEnvVars",
  "ZoneContentConverter",
];

describe("account-api discover and the adopting program (real engine)", function () {
  this.timeout(600_000);
  const e2e = useE2E("discover");
  let scratch = "";
  let zoneId = "";
  let managedRepo = "";

  before(async function () {
    this.timeout(120_000);
    provisionYamlHost();
    scratch = mkdtempSync(join(REPO_ROOT, ".pulumi-test", "discover-programs-"));
    const api = e2e.api;
    const trigger = await api.builds.triggers.create({}, productionTriggerBody(await seedBuildWorld(e2e)));
    await api.builds.environmentVariables.upsert(
      { triggerUuid: trigger.trigger_uuid },
      { MODE: { value: "prod", is_secret: false }, API_KEY: { value: "hidden", is_secret: true } },
    );
    const zone = await api.content.zones.create({}, { name: "adopt.example" });
    zoneId = zone.id;
    await api.content.contentConverter.set({ zoneId }, { value: "on" });
    await api.content.configRuleset.put(
      { zoneId },
      {
        rules: [
          {
            action: "set_config",
            expression: 'http.host eq "docs.adopt.example"',
            action_parameters: { content_converter: true },
            description: "docs",
          },
        ],
      },
    );
    // An app made through the API: discovery finds it, and its meeting, with no --app.
    const app = await api.meetings.apps.create({}, { name: "adopt-app" });
    await api.meetings.meetings.create({ appId: app.id! }, { title: "standup", persist_chat: true });
    await api.registrar.registrations.create({}, { domain_name: "adopt-me.com", auto_renew: true });
    await api.search.instances.create({}, { id: "handmade", chunk_size: 300 });
    await api.search.tokens.create({}, { name: "handmade-token", cf_api_id: "key-id", cf_api_key: "hidden" });
    await api.search.namespaces.create({}, { name: "handmade-ns", description: "made by hand" });
    await api.email.subdomains.create({ zoneId }, { name: "mail.adopt.example" });

    // Managed by a stack: a repository connection and a search instance.
    const managed = await e2e.stack(async () => {
      new RepoConnection("managed-repo", {
        providerType: "github",
        providerAccountId: "acme",
        providerAccountName: "Acme",
        repoId: "managed",
        repoName: "managed",
      });
      new SearchInstance("managed-kb", { instanceId: "managed-kb" });
    });
    await managed.up();
    managedStack = {
      name: managed.name,
      cwd: managed.stack.workspace.workDir,
      env: managed.stack.workspace.envVars,
    };
    managedRepo = (await e2e.api.builds.repos.connections.list()).find(
      (c) => c.repo_id === "managed",
    )!.repo_connection_uuid;
  });
  after(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  let managedStack: { name: string; cwd: string; env: Record<string, string> } = {
    name: "",
    cwd: "",
    env: {},
  };

  async function discover(...args: string[]): Promise<{ result: DiscoverResult }> {
    const env = {
      ...managedStack.env,
      ACCOUNT_API_BASE_URL: e2e.emulator.url,
      ACCOUNT_API_ACCOUNT_ID: e2e.emulator.accountId,
      ACCOUNT_API_TOKEN: e2e.emulator.token,
    };
    const run = await runCliWith(env, ["discover", "--json", ...args]);
    assert.equal(run.code, 0, `discover failed: ${run.err}${run.out}`);
    return { result: run.json as DiscoverResult };
  }

  const countObjects = async (): Promise<number> => (await listAccount(e2e.api)).length;

  it("lists every object of every kind, each with whether the stack manages it", async () => {
    const { result } = await discover("--stack", managedStack.name, "--cwd", managedStack.cwd);
    assert.equal(result.schemaVersion, 1);
    assert.equal(result.stack, managedStack.name);
    assert.deepEqual(Object.keys(result.counts.byKind).sort(), KINDS);
    assert.deepEqual(result.gaps, [], "every kind is listed, every app's meetings with no --app");
    const managed = result.objects.filter((o) => o.managed).map((o) => `${o.kind} ${o.resourceId}`);
    assert.deepEqual(managed.sort(), [`RepoConnection ${managedRepo}`, "SearchInstance default/managed-kb"]);
    const unmanaged: string[] = result.objects.filter((o) => o.managed === false).map((o) => o.kind);
    // At least one of each kind: the emulator's own seeded objects may add more.
    for (const kind of KINDS) assert.ok(unmanaged.includes(kind), `an unmanaged ${kind} is listed`);
    assert.equal(result.counts.managed, 2);
    assert.equal(result.counts.total, result.objects.length);
  });

  /** Writes the program, runs `up` and a refreshed preview, and checks no object was created. */
  async function adopt(language: "typescript" | "yaml"): Promise<void> {
    const dir = join(scratch, language);
    const importFile = join(scratch, `${language}-import.json`);
    const before = await countObjects();
    const { result } = await discover(
      "--stack",
      managedStack.name,
      "--cwd",
      managedStack.cwd,
      "--write-program",
      dir,
      "--language",
      language,
      "--import-file",
      importFile,
      "--project",
      `adopt-${language}`,
    );
    const written = result.written!;
    assert.equal(written.resources, result.counts.unmanaged);
    // The secrets read cannot give back: the build variable's value and the search token's key.
    const abouts = written.placeholders.map((p) => p.about);
    assert.equal(new Set(written.placeholders.map((p) => p.key)).size, 2, abouts.join("; "));
    assert.ok(abouts.some((a) => /API_KEY/.test(a)));
    assert.ok(abouts.some((a) => /search token .* \(cf_api_key/.test(a)));
    const imports = JSON.parse(readFileSync(importFile, "utf8")) as { resources: { type: string }[] };
    assert.equal(imports.resources.length, result.counts.unmanaged);
    assert.ok(imports.resources.every((r) => r.type.startsWith("account-api:index:")));

    // The native plugin from dist, on PATH as npm links a package's bin; the node beside this one.
    const bins = join(scratch, `${language}-bin`);
    mkdirSync(bins, { recursive: true });
    symlinkSync(
      join(REPO_ROOT, "dist", "provider", "native", "plugin.js"),
      join(bins, "pulumi-resource-account-api"),
    );
    const env = cliEnv(join(scratch, `${language}-backend`), join(scratch, `${language}-home`), [
      bins,
      dirname(process.execPath),
    ]);
    for (const k of Object.keys(env)) if (k.startsWith("ACCOUNT_API_")) delete env[k];
    mkdirSync(join(scratch, `${language}-backend`), { recursive: true });
    const { ok } = pulumiCli(dir, env);
    await ok("stack", "init", "adopt");
    await ok("config", "set", "account-api:baseUrl", e2e.emulator.url);
    await ok("config", "set", "account-api:accountId", e2e.emulator.accountId);
    await ok("config", "set", "--secret", "account-api:apiToken", e2e.emulator.token);
    for (const p of written.placeholders) await ok("config", "set", "--secret", p.key, "hidden");
    await ok("up", "--yes", "--skip-preview");
    assert.equal(await countObjects(), before, "no object was created");
    await ok("preview", "--refresh", "--expect-no-changes");

    // Now every object is managed by one of the stacks: the adopting one reads as the others do.
    const after = await discover("--stack", managedStack.name, "--cwd", managedStack.cwd);
    assert.equal(after.result.counts.total, before);

    // The nightly drift run of the adopting stack: no drift, and what it leaves unmanaged is exactly
    // what the other stack manages (the two stacks together cover the account).
    const drift = await runCliWith({ ...env, ...accountEnv() }, [
      "drift",
      "--stack",
      "adopt",
      "--cwd",
      dir,
      "--unmanaged",
      "--json",
    ]);
    const report = drift.json as DriftJson;
    assert.equal(drift.code, 0, `drift found drift or failed: ${drift.err}${drift.out}`);
    assert.equal(report.counts.drifted, 0);
    assert.equal(report.counts.gone, 0);
    assert.equal(report.counts.resources, written.resources);
    assert.deepEqual(
      report.unmanaged!.objects.map((o) => o.kind).sort(),
      ["RepoConnection", "SearchInstance"],
      "only the other stack's objects are unmanaged by this one",
    );
    assert.equal(report.unmanaged!.overall.managed, report.unmanaged!.overall.total - 2);
  }

  /** `account-api drift --json`'s fields this test reads (docs/drift.md, schemaVersion 1). */
  interface DriftJson {
    counts: { resources: number; drifted: number; gone: number };
    unmanaged?: { objects: { kind: string }[]; overall: { managed: number; total: number } };
  }

  const accountEnv = (): Record<string, string> => ({
    ACCOUNT_API_BASE_URL: e2e.emulator.url,
    ACCOUNT_API_ACCOUNT_ID: e2e.emulator.accountId,
    ACCOUNT_API_TOKEN: e2e.emulator.token,
  });

  it("writes a TypeScript program that adopts every unmanaged object, creating none", async () => {
    await adopt("typescript");
  });

  it("writes a YAML program that adopts every unmanaged object, creating none", async () => {
    await adopt("yaml");
  });
});
