/**
 * The per-area examples (examples/<area>) on the real engine against one emulator: each is seeded
 * (twice, to show the seed is idempotent), goes up with its expected creates and a meaningful output,
 * stays stable under a refreshing preview, and destroys. Plus a check of the CI workflow example
 * against the package's real command line.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildCli } from "../../cli/main";
import * as builds from "../../examples/builds";
import * as content from "../../examples/content";
import * as email from "../../examples/email";
import * as meetings from "../../examples/meetings";
import * as registrar from "../../examples/registrar";
import * as search from "../../examples/search";
import type { AccountApi } from "../../sdk";
import { collect } from "../../sdk/paging";
import { REPO_ROOT, useE2E, type E2EStack } from "./harness";
import { variablesOf } from "../helpers/builds";
import type { ExampleRef } from "./programs";

type SeedOf<N extends ExampleRef["example"]> = Extract<ExampleRef, { example: N }>["seeded"];

/** The harness names the project `account-api-examples`: that is the programs' config namespace. */
const cfg = (key: string) => `account-api-examples:${key}`;
const secret = (value: string) => ({ value, secret: true });

describe("per-area examples end to end (real engine)", function () {
  this.timeout(600_000);
  const e2e = useE2E("examples");
  let api: AccountApi;

  before(() => {
    api = e2e.api;
  });

  /**
   * Seeds twice (the second run must find everything and answer the same), then makes the stack.
   * Each example's operations run in a process of their own, as a user's program does: an inline
   * program in the test's process shares the SDK's runtime state with every earlier run there, and
   * once (in a loaded CI run) an `up` registered none of its resources.
   */
  async function start<N extends ExampleRef["example"]>(
    example: { seed(api: AccountApi, em: { origin: string; accountId: string }): Promise<SeedOf<N>> },
    name: N,
    config: Record<string, { value: string; secret?: boolean }> = {},
  ): Promise<{ seeded: SeedOf<N>; stack: E2EStack }> {
    const seeded = await example.seed(api, e2e.emulator);
    assert.deepEqual(await example.seed(api, e2e.emulator), seeded, "seed is idempotent");
    // TypeScript does not tie a generic name to its seed's shape; SeedOf<N> is that tie.
    const ref = { example: name, seeded } as Extract<ExampleRef, { example: N }>;
    const stack = await e2e.isolatedStack({ name: "example", args: [ref] }, { config });
    return { seeded, stack };
  }

  async function upOk(stack: E2EStack, creates: number): Promise<Record<string, unknown>> {
    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    assert.equal(up.summary.resourceChanges?.create, creates, JSON.stringify(up.summary.resourceChanges));
    return Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
  }

  async function stableThenDestroyed(stack: E2EStack): Promise<void> {
    await stack.preview({ expectNoChanges: true, refresh: true });
    const destroy = await stack.destroy();
    assert.equal(destroy.summary.result, "succeeded");
  }

  it("builds: repo connection, two triggers, variables with a secret, a production build", async () => {
    const SENTRY = "sentry-token-that-must-stay-secret-91c2";
    const { seeded, stack } = await start(builds, "builds", { [cfg("sentryAuthToken")]: secret(SENTRY) });

    const out = await upOk(stack, 5);
    assert.equal(out.buildOutcome, "success");
    assert.equal(out.buildBranch, "main");
    assert.deepEqual(out.variableKeys, ["NODE_ENV", "SENTRY_AUTH_TOKEN"]);
    assert.equal(typeof out.lastLogLine, "string");
    const vars = await variablesOf(api, String(out.productionTrigger));
    assert.deepEqual(vars.SENTRY_AUTH_TOKEN, { value: null, is_secret: true });
    assert.ok(!stack.rawState().includes(SENTRY), "the secret variable is not in the state file");

    await stableThenDestroyed(stack);
    const tag = await api.builds.scripts.resolveTag({ scriptName: seeded.scriptName });
    assert.deepEqual(await api.builds.triggers.list({ scriptTag: tag }), []);
  });

  it("email: a release note with an attachment, sent on up and never on preview", async () => {
    const outbox = async () => {
      const em = e2e.emulator;
      const res = await fetch(`${em.origin}/__emulator/email/accounts/${em.accountId}/outbox`);
      return ((await res.json()) as { result: OutboxEntry[] }).result;
    };
    const { seeded, stack } = await start(email, "email");

    const out = await upOk(stack, 1); // no resource: only the stack itself
    assert.deepEqual(out.delivered, [`team@${seeded.senderDomain}`]);
    assert.deepEqual(out.bounced, []);
    const sent = await outbox();
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.from, `deploys@${seeded.senderDomain}`);
    assert.deepEqual(
      sent[0]!.message.attachments?.map((a) => [a.filename, a.type, a.disposition]),
      [["release-notes.md", "text/markdown", "attachment"]],
    );

    await stableThenDestroyed(stack);
    assert.equal((await outbox()).length, 1, "preview and destroy sent nothing");
  });

  it("content: zone converter, a path rule and a custom-hostname metadata rule", async () => {
    const { seeded, stack } = await start(content, "content");
    const hostname = () =>
      api.content.customHostnames.get({ zoneId: seeded.zoneId, customHostnameId: seeded.customHostnameId });

    const out = await upOk(stack, 4);
    assert.equal(out.converter, "on");
    assert.equal(out.accountPagesExpression, 'starts_with(http.request.uri.path, "/account/")');
    assert.deepEqual(out.optedInHostnames, [seeded.customHostnameId]);
    assert.deepEqual((await hostname()).custom_metadata, { plan: "pro", content_converter: "enabled" });

    await stableThenDestroyed(stack);
    assert.equal((await api.content.contentConverter.get({ zoneId: seeded.zoneId })).value, "off");
    assert.deepEqual((await api.content.configRuleset.get({ zoneId: seeded.zoneId }))?.rules ?? [], []);
    assert.deepEqual((await hostname()).custom_metadata, { plan: "pro" }, "only the opt-in key is removed");
  });

  it("meetings: a recording template with storage credentials from secret config", async () => {
    const { seeded, stack } = await start(meetings, "meetings", {
      [cfg("recordingAccessKey")]: secret("AKIA-EXAMPLE-ACCESS-7d1e"),
      [cfg("recordingSecretKey")]: secret("example-secret-key-that-stays-secret-5b0a"),
    });

    const out = await upOk(stack, 2);
    assert.equal(out.status, "ACTIVE");
    assert.match(String(out.credentialsHash), /^sha256:/);
    const state = stack.rawState();
    assert.ok(!state.includes("AKIA-EXAMPLE-ACCESS-7d1e") && !state.includes("stays-secret-5b0a"));
    const meetingId = String(out.meetingId);
    const live = await api.meetings.meetings.get({ appId: seeded.appId, meetingId });
    assert.equal(live.title, "All hands");
    assert.equal(live.record_on_start, true);

    await stableThenDestroyed(stack);
    assert.equal((await api.meetings.meetings.get({ appId: seeded.appId, meetingId })).status, "INACTIVE");
  });

  it("registrar: a registration behind maxCost and a check of a sibling name", async () => {
    const { seeded, stack } = await start(registrar, "registrar");

    const out = await upOk(stack, 2);
    assert.equal(out.domain, seeded.domainName);
    assert.equal(out.status, "active");
    assert.equal(out.pricePaid, "20.88 USD"); // 2 years of .com at 10.44
    assert.equal(out.devRegistrable, true);
    assert.equal(out.devRegistrationCost, "10.18");
    assert.match(String(out.expiresAt), /^\d{4}-\d\d-\d\dT/);

    await stableThenDestroyed(stack);
    assert.ok(stack.output.some((l) => l.includes(`${seeded.domainName} stays registered`)));
    const live = await api.registrar.registrations.get({ domainName: seeded.domainName });
    assert.equal(live.status, "active");
  });

  it("search: an instance in a named namespace and a sync job on up", async () => {
    const R2_SECRET = "r2-secret-access-key-that-stays-secret-3e8f";
    const { seeded, stack } = await start(search, "search", {
      [cfg("r2AccessKeyId")]: { value: "r2-key-id-example" },
      [cfg("r2SecretAccessKey")]: secret(R2_SECRET),
    });

    const out = await upOk(stack, 2);
    assert.equal(out.instance, `${seeded.namespace}/handbook`);
    assert.equal(out.syncEndReason, "completed");
    assert.match(String(out.credentialsHash), /^sha256:/);
    assert.ok(!stack.rawState().includes(R2_SECRET), "the R2 secret is not in the state file");
    const jobs = await collect(api.search.jobs.list({ namespace: seeded.namespace, id: "handbook" }));
    assert.deepEqual(
      jobs.map((j) => j.id),
      [out.syncJobId],
    );

    await stableThenDestroyed(stack);
    assert.deepEqual(await collect(api.search.instances.list({ namespace: seeded.namespace })), []);
  });
});

interface OutboxEntry {
  from: string;
  message: { attachments?: { filename: string; type: string; disposition: string }[] };
}

describe("CI workflow example (examples/ci/github-actions.yml)", () => {
  const text = readFileSync(join(REPO_ROOT, "examples", "ci", "github-actions.yml"), "utf8");
  const lines = text.split("\n");

  /** Each step's lines (a step starts at `- ` under `steps:`), without comments. */
  function steps(): string[] {
    const start = lines.findIndex((l) => /^\s+steps:\s*$/.test(l));
    assert.ok(start > 0, "the workflow has steps");
    const indent = /^(\s*)- /.exec(lines[start + 1] ?? "")?.[1] ?? "";
    const out: string[] = [];
    for (const line of lines.slice(start + 1)) {
      if (line.trim().startsWith("#")) continue;
      if (line.startsWith(`${indent}- `)) out.push(line);
      else if (out.length > 0) out[out.length - 1] += `\n${line}`;
    }
    return out;
  }
  const stepWith = (needle: string): string => {
    const found = steps().filter((s) => s.includes(needle));
    assert.equal(found.length, 1, `exactly one step runs ${needle}`);
    return found[0]!;
  };

  it("is plain YAML with the triggers, env and steps a user needs", () => {
    assert.ok(!text.includes("\t"), "no tabs (YAML forbids them for indentation)");
    assert.match(text, /^on:\n {2}pull_request:\n {2}push:\n {4}branches: \[main\]$/m);
    for (const name of ["ACCOUNT_API_BASE_URL", "ACCOUNT_API_ACCOUNT_ID", "ACCOUNT_API_TOKEN"])
      assert.match(text, new RegExp(`^ {2}${name}: \\$\\{\\{ .+ \\}\\}$`, "m"), name);
    assert.match(text, /^ {2}PULUMI_CONFIG_PASSPHRASE: \$\{\{ secrets\.PULUMI_CONFIG_PASSPHRASE \}\}$/m);
    assert.match(text, /^ {2}ACCOUNT_API_TOKEN: \$\{\{ secrets\.ACCOUNT_API_TOKEN/m);

    assert.match(stepWith("actions/checkout@"), /uses: actions\/checkout@v\d/);
    assert.match(stepWith("actions/setup-node@"), /node-version: 24\b/);
    assert.match(stepWith("npm ci"), /run: npm ci$/m);
    const emulator = stepWith("account-api emulator");
    assert.match(emulator, /npx account-api emulator --port 8787 --state \.state\/emulator\.json .*&$/m);
    assert.match(emulator, /__emulator\/health/, "waits until the emulator answers");
    const preview = stepWith("pulumi preview");
    assert.match(preview, /run: pulumi preview --refresh\b/);
    assert.match(preview, /if: github\.event_name == 'pull_request'/);
    const up = stepWith("pulumi up");
    assert.match(up, /run: pulumi up --yes\b/);
    assert.match(up, /if: .*github\.ref == 'refs\/heads\/main'/);

    const order = ["npm ci", "account-api emulator", "pulumi preview", "pulumi up"].map((n) =>
      steps().findIndex((s) => s.includes(n)),
    );
    assert.deepEqual(
      order,
      [...order].sort((a, b) => a - b),
      "npm ci, then the emulator, then preview/up",
    );
  });

  it("calls the emulator with options the package's command line really has", () => {
    const command = buildCli().commands.find((c) => c.name() === "emulator");
    assert.ok(command, "the CLI has an emulator command");
    const options = command.options.map((o) => o.long);
    const args = /npx account-api emulator ([^>\n]*)/.exec(stepWith("account-api emulator"))?.[1] ?? "";
    const flags = args.match(/--[a-z-]+/g) ?? [];
    assert.deepEqual(flags, ["--port", "--state"]);
    for (const flag of flags) assert.ok(options.includes(flag), `the CLI knows ${flag}`);
  });
});
