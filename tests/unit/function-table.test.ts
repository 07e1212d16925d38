/**
 * The functions table (provider/functions/table.ts): it lists every function the package exports,
 * its parameters refuse bad input naming the field, the invokes are the functions without a remote
 * effect, and an entry's `run` works against the emulator and gives what its result type says.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import * as pkg from "../../provider";
import { ExtensionSchema } from "../../provider/functions/results";
import { FUNCTIONS, INVOKES, functionNamed } from "../../provider/functions/table";
import { useEmulator } from "../helpers/emulator";

const UUID = "0d4c8a57-6b2e-4f0a-9c1d-3e5f7a9b1c2d";
/** Exported under a second name; the table lists the function once, under its first. */
const ALIASES = new Set(["waitForSyncJob"]);

describe("functions table", () => {
  it("lists every function the package exports, once, and nothing else", () => {
    const exported = Object.entries(pkg)
      .filter(([name, v]) => typeof v === "function" && /^[a-z]/.test(name) && !ALIASES.has(name))
      .map(([name]) => name)
      .sort();
    const listed = FUNCTIONS.map((f) => f.name).sort();
    assert.deepEqual(listed, exported);
    assert.equal(new Set(listed).size, listed.length);
  });

  it("offers as invokes exactly the functions that change nothing remote", () => {
    assert.deepEqual(INVOKES.map((f) => f.name).sort(), [
      "buildLogs",
      "buildTokens",
      "checkDomain",
      "getSearchInstanceStats",
      "listApps",
      "listExtensions",
      "quoteDomain",
      "searchDomains",
      "waitForBuild",
      "waitForJob",
    ]);
    const instead = Object.fromEntries(
      FUNCTIONS.filter((f) => f.sideEffect).map((f) => [f.name, f.sideEffect?.instead]),
    );
    assert.deepEqual(instead, {
      triggerBuild: "BuildRun",
      cancelBuild: "BuildRun",
      redeployActiveDeployment: "BuildRun",
      purgeBuildCache: "BuildRun",
      sendEmail: "EmailSend",
      triggerSyncJob: "SyncJobRun",
    });
  });

  it("loads no sdk module until a function's parameters are read or it runs", function () {
    this.timeout(60_000);
    // A fresh Node: this process has loaded the sdk already.
    const script = [
      'const t = require("./provider/functions/table");',
      'const names = t.INVOKES.map((f) => f.name).concat(t.functionNamed("checkDomain").name);',
      "const sdk = () => Object.keys(require.cache).filter((f) => /[\\/]sdk[\\/]/.test(f)).length;",
      "const before = sdk();",
      't.functionNamed("checkDomain").params;',
      "console.log(JSON.stringify({ names: names.length, before, after: sdk() }));",
    ].join("\n");
    const out = execFileSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], {
      cwd: resolve(__dirname, "..", ".."),
      encoding: "utf8",
    });
    const seen = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as {
      names: number;
      before: number;
      after: number;
    };
    assert.equal(seen.names, INVOKES.length + 1);
    assert.equal(seen.before, 0, "the table loaded sdk modules");
    assert.ok(seen.after > 0, "reading the parameters loads the sdk's schemas");
  });

  it("finds an entry by its own name only", () => {
    assert.equal(functionNamed("checkDomain")?.name, "checkDomain");
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty", "waitForSyncJob", ""])
      assert.equal(functionNamed(name), undefined, name);
  });

  it("every entry has a description, and a strict object of parameters", () => {
    for (const f of FUNCTIONS) {
      assert.ok(f.description.length > 10, f.name);
      const extra = f.params.safeParse({ notAField: 1 });
      assert.ok(!extra.success, f.name);
      assert.ok(
        extra.error.issues.some((i) => i.code === "unrecognized_keys" && i.keys.includes("notAField")),
        `${f.name}: ${extra.error.message}`,
      );
    }
  });

  /** [function, parameters, the field the refusal names, its rule]. */
  const BAD: [string, Record<string, unknown>, string, RegExp][] = [
    ["triggerBuild", { triggerUuid: "nope", branch: "main" }, "triggerUuid", /UUID/],
    ["triggerBuild", { triggerUuid: UUID, branch: "" }, "branch", /empty/],
    ["triggerBuild", { triggerUuid: UUID, deadlineMs: -1 }, "deadlineMs", /positive/],
    ["waitForBuild", { buildUuid: 42 }, "buildUuid", /string/],
    ["buildLogs", { buildUuid: UUID, accountId: "a".repeat(33) }, "accountId", /32/],
    ["redeployActiveDeployment", { scriptName: "" }, "scriptName", /empty/],
    ["buildTokens", { accountId: "" }, "accountId", /empty/],
    ["sendEmail", { from: "nope", to: "a@b.co", subject: "s", text: "t" }, "from", /email address/],
    [
      "sendEmail",
      {
        from: "a@b.co",
        to: "a@b.co",
        subject: "s",
        attachments: [{ content: "", filename: "f", type: "x", disposition: "attached" }],
      },
      "attachments.0.type",
      /media type/,
    ],
    ["checkDomain", { domainName: "" }, "domainName", /empty/],
    ["searchDomains", { query: "shop", limit: 0 }, "limit", /between 1 and/],
    ["quoteDomain", { domainName: "a.com", years: 11 }, "years", /between 1 and 10/],
    ["listExtensions", { accountId: "a".repeat(33) }, "accountId", /32/],
    ["triggerSyncJob", { instanceId: "BAD!" }, "instanceId", /lowercase|letters/],
    ["waitForJob", { instanceId: "kb" }, "jobId", /required/],
    ["getSearchInstanceStats", { instanceId: "kb", namespace: "" }, "namespace", /empty/],
    ["listApps", { accountId: "x".repeat(33) }, "accountId", /32/],
    ["listApps", { appId: "a" }, "", /appId/],
  ];
  for (const [name, params, field, rule] of BAD)
    it(`${name} refuses ${JSON.stringify(params)} naming ${field}`, () => {
      const f = functionNamed(name);
      assert.ok(f, name);
      const r = f.params.safeParse(params);
      assert.ok(!r.success, "accepted");
      const issue = r.error.issues.find((i) => i.path.join(".") === field);
      assert.ok(issue, `no issue at ${field}: ${JSON.stringify(r.error.issues)}`);
      assert.match(issue.message, rule);
    });

  describe("run, against the emulator", () => {
    const fx = useEmulator();

    it("getSearchInstanceStats reads an instance's counts, in the shape its result type says", async () => {
      await fx.api.search.instances.create({}, { id: "kb" });
      const f = functionNamed("getSearchInstanceStats");
      assert.ok(f && !f.sideEffect);
      const params = f.params.parse({ instanceId: "kb" });
      const out = f.result.parse(await f.run(fx.api, params));
      assert.deepEqual(out, { queued: 0, running: 0, completed: 0, error: 0, lastActivity: null });
    });

    it("listExtensions lists every supported extension by name, without a price, in the shape its result type says", async () => {
      const f = functionNamed("listExtensions");
      assert.ok(f && !f.sideEffect);
      const out = f.result.parse(await f.run(fx.api, f.params.parse({})));
      assert.deepEqual(out, [
        { name: "ai", tld: "ai" },
        { name: "com", tld: "com" },
        { name: "dev", tld: "dev" },
        { name: "eu", tld: "eu" },
        { name: "io", tld: "io" },
        { name: "net", tld: "net" },
        { name: "org", tld: "org" },
        { name: "xyz", tld: "xyz" },
      ]);
    });

    it("listExtensions with pricedFor prices each extension for that label by the registrar's check", async () => {
      const f = functionNamed("listExtensions");
      assert.ok(f);
      const out = ExtensionSchema.array().parse(
        f.result.parse(await f.run(fx.api, f.params.parse({ pricedFor: "Fresh" }))),
      );
      assert.equal(out.length, 8);
      const org = out.find((e) => e.name === "org");
      assert.deepEqual(org, {
        name: "org",
        tld: "org",
        registrable: true,
        pricing: { currency: "USD", registrationCost: "7.50", renewalCost: "10.11" },
      });
      assert.throws(() => f.params.parse({ pricedFor: "two.labels" }), /one label/);
    });

    it("listApps lists every app of the account, in the shape its result type says", async () => {
      const made = await fx.api.meetings.apps.create({}, { name: "support" });
      const f = functionNamed("listApps");
      assert.ok(f && !f.sideEffect);
      const out = f.result.parse(await f.run(fx.api, f.params.parse({})));
      assert.deepEqual(out, [{ id: made.id, name: "support", createdAt: made.created_at }]);
    });

    it("quoteDomain quotes a multi-year registration, in the shape its result type says", async () => {
      const f = functionNamed("quoteDomain");
      assert.ok(f);
      const out = f.result.parse(await f.run(fx.api, f.params.parse({ domainName: "fresh.org", years: 2 })));
      assert.deepEqual(out, {
        domainName: "fresh.org",
        years: 2,
        currency: "USD",
        registrationCost: "7.50",
        renewalCost: "10.11",
        total: "17.61",
      });
    });
  });
});
