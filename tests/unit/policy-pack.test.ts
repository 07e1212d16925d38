/**
 * The policy pack's rules (policy/): each rule on the inputs the engine hands an analyzer, through the
 * policies' own `validateResource` (the type filter, the config, the messages), for both type tokens
 * (a TypeScript program's dynamic resources and the native plugin's); and the pack's dependency kept
 * off the provider's runtime path.
 */
import { strict as assert } from "node:assert";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { PolicyResourceOptions, ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";
import {
  POLICY_NAMES,
  accountApiPolicies,
  kindOfType,
  plainCredentialVariable,
  productionEveryBranch,
  registrationPriceGuard,
  sftpRecordingPassword,
} from "../../policy/policies";
import { productionOnEveryBranch } from "../../policy/rules";
import { compileAsTemplate, tsSnippets } from "../helpers/template-compile";

const ROOT = resolve(__dirname, "..", "..");
const DYNAMIC = (kind: string): string => `pulumi-nodejs:dynamic/account-api:${kind}`;
const NATIVE = (kind: string): string => `account-api:index:${kind}`;

/** What the engine hands `validateResource` for one resource, as @pulumi/policy builds it. */
function argsFor(
  type: string,
  name: string,
  props: Record<string, unknown>,
  config: object = {},
): ResourceValidationArgs {
  return {
    type,
    name,
    props,
    urn: `urn:pulumi:dev::proj::${type}::${name}`,
    opts: {} as PolicyResourceOptions,
    stackTags: new Map(),
    isType: () => false,
    asType: () => undefined,
    getConfig: <T extends object>() => config as T,
    notApplicable: () => {
      throw new Error("not applicable");
    },
  };
}

/** The violations one policy reports for one resource. */
async function violations(
  policy: ResourceValidationPolicy,
  type: string,
  name: string,
  props: Record<string, unknown>,
  config?: object,
): Promise<string[]> {
  const found: string[] = [];
  const validations = [policy.validateResource ?? []].flat();
  for (const v of validations) await v(argsFor(type, name, props, config), (m) => found.push(m));
  return found;
}

describe("policy pack rules", () => {
  it("has the four rules, each with its enforcement level", () => {
    assert.deepEqual(
      accountApiPolicies.map((p) => [p.name, p.enforcementLevel]),
      [
        [POLICY_NAMES.priceGuard, "mandatory"],
        [POLICY_NAMES.plainCredential, "mandatory"],
        [POLICY_NAMES.productionEveryBranch, "advisory"],
        [POLICY_NAMES.sftpPassword, "advisory"],
      ],
    );
  });

  it("knows this package's kinds in both type tokens, and nothing else", () => {
    assert.equal(kindOfType(DYNAMIC("DomainRegistration")), "DomainRegistration");
    assert.equal(kindOfType(NATIVE("TriggerEnvVars")), "TriggerEnvVars");
    assert.equal(kindOfType("pulumi-nodejs:dynamic:Resource"), undefined);
    assert.equal(kindOfType("aws:s3/bucket:Bucket"), undefined);
    assert.equal(kindOfType("pulumi:providers:account-api"), undefined);
  });

  describe(POLICY_NAMES.priceGuard, () => {
    const unguarded = { domainName: "acme.dev", years: 1 };
    for (const [form, type] of [
      ["dynamic", DYNAMIC("DomainRegistration")],
      ["native", NATIVE("DomainRegistration")],
    ])
      it(`refuses a registration without maxCost (${form}), naming the resource and the field`, async () => {
        const found = await violations(registrationPriceGuard, type, "site", unguarded);
        assert.equal(found.length, 1);
        assert.match(found[0], /^DomainRegistration "site" \(acme\.dev\) has no maxCost/);
      });

    it("passes a registration with maxCost, and an adoption (importId registers nothing)", async () => {
      const guarded = { ...unguarded, maxCost: { amount: "25.00", currency: "USD" } };
      assert.deepEqual(
        await violations(registrationPriceGuard, NATIVE("DomainRegistration"), "a", guarded),
        [],
      );
      const adopted = { ...unguarded, importId: "acme.dev" };
      assert.deepEqual(
        await violations(registrationPriceGuard, NATIVE("DomainRegistration"), "b", adopted),
        [],
      );
    });

    it("leaves other kinds alone", async () => {
      assert.deepEqual(
        await violations(registrationPriceGuard, NATIVE("SearchInstance"), "kb", unguarded),
        [],
      );
    });
  });

  describe(POLICY_NAMES.plainCredential, () => {
    const variables = {
      NODE_VERSION: { value: "22", isSecret: false },
      DEPLOY_KEY: { value: "k", isSecret: true },
      NPM_TOKEN: { value: "t", isSecret: false },
      db_password: { value: "p" },
      SIGNING_SECRET: { value: "s", isSecret: false },
      API_KEYS: { value: "not a suffix match" },
    };

    it("names each credential-like variable left plain, in order, for both tokens", async () => {
      for (const type of [DYNAMIC("TriggerEnvVars"), NATIVE("TriggerEnvVars")]) {
        const found = await violations(plainCredentialVariable, type, "vars", { variables });
        assert.deepEqual(
          found.map((m) => m.replace(/ looks like.*/, "")),
          [
            'TriggerEnvVars "vars": variables.NPM_TOKEN',
            'TriggerEnvVars "vars": variables.SIGNING_SECRET',
            'TriggerEnvVars "vars": variables.db_password',
          ],
        );
        assert.match(found[0], /set isSecret: true/);
      }
    });

    it("passes when every such variable is secret, or there are none", async () => {
      const safe = { DEPLOY_KEY: { value: "k", isSecret: true }, NODE_VERSION: { value: "22" } };
      assert.deepEqual(
        await violations(plainCredentialVariable, NATIVE("TriggerEnvVars"), "v", { variables: safe }),
        [],
      );
      assert.deepEqual(await violations(plainCredentialVariable, NATIVE("TriggerEnvVars"), "v", {}), []);
    });

    it("takes the name endings from the pack's config", async () => {
      const found = await violations(
        plainCredentialVariable,
        NATIVE("TriggerEnvVars"),
        "vars",
        { variables: { NPM_TOKEN: { value: "t" }, SENTRY_DSN: { value: "d" } } },
        { suffixes: ["_DSN"] },
      );
      assert.deepEqual(
        found.map((m) => m.replace(/ looks like.*/, "")),
        ['TriggerEnvVars "vars": variables.SENTRY_DSN'],
      );
    });
  });

  describe(POLICY_NAMES.productionEveryBranch, () => {
    const type = DYNAMIC("BuildTrigger");
    const cases: [string, Record<string, unknown>, boolean][] = [
      ["production without branchIncludes", { kind: "production" }, true],
      ["production with an empty list", { kind: "production", branchIncludes: [] }, true],
      ["production on '*'", { kind: "production", branchIncludes: ["*"] }, true],
      ["production on '**'", { kind: "production", branchIncludes: ["main", "**"] }, true],
      [
        "a '*' trigger whose command deploys",
        { branchIncludes: ["*"], deployCommand: "npx wrangler deploy" },
        true,
      ],
      ["production on main", { kind: "production", branchIncludes: ["main"] }, false],
      ["production on release/*", { kind: "production", branchIncludes: ["release/*"] }, false],
      [
        "preview on '*'",
        { kind: "preview", branchIncludes: ["*"], deployCommand: "npx wrangler versions upload" },
        false,
      ],
    ];
    for (const [what, props, violates] of cases)
      it(`${violates ? "warns on" : "passes"} ${what}`, async () => {
        const found = await violations(productionEveryBranch, type, "prod", props);
        assert.equal(found.length, violates ? 1 : 0, found.join("\n"));
        if (violates) assert.match(found[0], /^BuildTrigger "prod" deploys production from every branch/);
      });

    it("says what it found", () => {
      assert.match(
        productionOnEveryBranch({ name: "p", props: { kind: "production" } })[0],
        /\(no branchIncludes\)/,
      );
    });
  });

  describe(POLICY_NAMES.sftpPassword, () => {
    const type = NATIVE("MeetingTemplate");
    const sftp = (storage: Record<string, unknown>) => ({
      appId: "demo-app",
      recordingConfig: {
        storageConfig: { type: "sftp", host: "files.example.com", username: "rec", ...storage },
      },
    });

    it("warns on SFTP with a password, or with authMethod PASSWORD", async () => {
      for (const storage of [{ password: "hunter2" }, { authMethod: "PASSWORD" }]) {
        const found = await violations(sftpRecordingPassword, type, "standup", sftp(storage));
        assert.equal(found.length, 1);
        assert.match(found[0], /^MeetingTemplate "standup" stores recordings over SFTP with a password/);
      }
    });

    it("passes key auth, other storage, and no recording config", async () => {
      const ok = [
        sftp({ authMethod: "KEY", privateKey: "-----BEGIN…" }),
        { recordingConfig: { storageConfig: { type: "aws", secret: "s", accessKey: "a" } } },
        { appId: "demo-app" },
      ];
      for (const props of ok) assert.deepEqual(await violations(sftpRecordingPassword, type, "m", props), []);
    });
  });

  it("keeps @pulumi/policy off the provider's runtime path", function () {
    this.timeout(60_000);
    // A program of the package (the root, the provider, the policies module a team's pack imports)
    // loads nothing of @pulumi/policy; only the pack entry does.
    const probe = [
      'require("./index.ts"); require("./provider/index.ts"); require("./policy/policies.ts");',
      'const loaded = Object.keys(require.cache).filter((f) => f.includes("@pulumi/policy"));',
      "process.stdout.write(JSON.stringify(loaded));",
    ].join("\n");
    const out = execFileSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", probe], {
      cwd: ROOT,
      encoding: "utf8",
    });
    assert.deepEqual(JSON.parse(out), []);
    const entry = readFileSync(join(ROOT, "policy", "index.ts"), "utf8");
    assert.match(entry, /require\("@pulumi\/policy"\)/);
  });

  it("compiles docs/policy.md's team pack against the built package, as a user's project would", function () {
    this.timeout(120_000);
    // Pulumi's template tsconfig (node10 resolution: `pulumi-account-api/policy` through typesVersions).
    // @pulumi/policy 1.21.0's own index.d.ts re-exports two names its proxy.d.ts does not declare
    // (the docs say to set skipLibCheck in a pack's tsconfig); everything else is checked.
    const blocks = tsSnippets(readFileSync(join(ROOT, "docs", "policy.md"), "utf8"));
    assert.equal(blocks.length, 1);
    const problems = compileAsTemplate(blocks, (file) => file.includes("/node_modules/@pulumi/policy/"));
    assert.deepEqual(problems, []);
  });

  it("says the one command that adds @pulumi/policy when the pack runs without it", function () {
    this.timeout(60_000);
    // The built pack copied where no node_modules is above it: it needs nothing of this package but
    // its own folder, and stops with the typed error before any policy runs.
    const dir = mkdtempSync(join(tmpdir(), "policy-pack-"));
    try {
      cpSync(join(ROOT, "dist", "policy"), dir, { recursive: true });
      const res = spawnSync(process.execPath, ["-e", `require(${JSON.stringify(dir)})`], {
        cwd: dir,
        encoding: "utf8",
      });
      assert.notEqual(res.status, 0);
      assert.match(res.stderr, /PolicyDependencyMissingError/);
      assert.match(res.stderr, /npm install --save-dev @pulumi\/policy@\^1\.21\.0/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
