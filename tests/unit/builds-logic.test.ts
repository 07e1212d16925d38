import { strict as assert } from "node:assert";
import type { BuildRecord, TriggerRecord } from "../../emulator/builds/model";
import { MultipartError, boundaryOf, buildMultipart, parseMultipart } from "../../emulator/builds/multipart";
import { plannedOutcome, uuidFrom, versionIdOf, viewBuild } from "../../emulator/builds/timeline";
import { withBuildHint } from "../../sdk/builds";
import {
  AuthenticationError,
  NotFoundError,
  PermissionDeniedError,
  errorFromResponse,
} from "../../sdk/errors";
import { accountLimits, buildMinutesUsed, nextMonthStart, workerNameOf } from "../../emulator/builds/limits";
import { tagFilter } from "../../emulator/builds/state";
import {
  DeployHookBodySchema,
  DeploymentCreateBodySchema,
  EnvVarsPatchBodySchema,
  RepoConnectionBodySchema,
  TriggerBuildBodySchema,
  TriggerCreateBodySchema,
  productionBranchOf,
  triggerKind,
} from "../../sdk/schemas/builds";
import { describeIssues } from "../../sdk/validate";
import { productionTriggerBody } from "../helpers/builds";

const T0 = Date.parse("2026-01-01T00:00:00Z");

function trigger(over: Partial<TriggerRecord> = {}): TriggerRecord {
  return {
    trigger_uuid: "00000000-0000-4000-8000-000000000001",
    trigger_name: "prod",
    external_script_id: "00000000-0000-4000-8000-000000000002",
    repo_connection_uuid: "00000000-0000-4000-8000-000000000003",
    build_token_uuid: "00000000-0000-4000-8000-000000000004",
    build_command: "npm run build",
    deploy_command: "npx wrangler deploy",
    root_directory: "/",
    branch_includes: ["main"],
    branch_excludes: [],
    path_includes: ["*"],
    path_excludes: [],
    build_caching_enabled: true,
    environment_variables: {},
    created_on: T0,
    modified_on: T0,
    ...over,
  };
}

function build(over: Partial<BuildRecord> = {}): BuildRecord {
  return {
    build_uuid: "00000000-0000-4000-8000-0000000000bb",
    seq: 1,
    script_tag: "00000000-0000-4000-8000-000000000002",
    script_name: "shop",
    kind: "production",
    trigger: trigger(),
    repo: null,
    build_token_name: null,
    branch: "main",
    commit_hash: "abcdef0",
    commit_message: "m",
    author: "a",
    created_on: T0,
    cache_restored: false,
    ...over,
  };
}

describe("builds: timeline", () => {
  const table: [number, string, string | null][] = [
    [0, "queued", null],
    [1999, "queued", null],
    [2000, "initializing", null],
    [4999, "initializing", null],
    [5000, "running", null],
    [13_999, "running", null],
    [14_000, "stopped", "success"],
    [999_999, "stopped", "success"],
  ];
  for (const [at, status, outcome] of table) {
    it(`is ${status} at +${at} ms`, () => {
      const v = viewBuild(build(), T0 + at);
      assert.equal(v.status, status);
      assert.equal(v.outcome, outcome);
    });
  }

  it("writes log lines one per second and never shows a line before its time", () => {
    const v = viewBuild(build(), T0 + 6000);
    assert.deepEqual(
      v.lines.map((l) => l.at - T0),
      [2000, 3000, 5000, 6000],
    );
  });

  it("a cancel while queued stops the build with no initializing or running time", () => {
    const v = viewBuild(build({ cancelled_on: T0 + 1000 }), T0 + 50_000);
    assert.equal(v.status, "stopped");
    assert.equal(v.outcome, "cancelled");
    assert.equal(v.initializingOn, null);
    assert.equal(v.runningOn, null);
    assert.equal(v.stoppedOn, T0 + 1000);
    assert.deepEqual(
      v.lines.map((l) => l.text),
      ["Build cancelled"],
    );
  });

  it("a cancel while running keeps the earlier lines and the running time", () => {
    const v = viewBuild(build({ cancelled_on: T0 + 6500 }), T0 + 50_000);
    assert.equal(v.runningOn, T0 + 5000);
    assert.equal(v.lines.at(-1)!.text, "Build cancelled");
    assert.equal(v.lines.length, 5);
  });

  it('fails when the branch or the commit contains "fail", case-insensitively', () => {
    assert.equal(plannedOutcome({ branch: "main", commit_hash: "abc" }), "success");
    assert.equal(plannedOutcome({ branch: "FAIL-1", commit_hash: "abc" }), "fail");
    assert.equal(plannedOutcome({ branch: "main", commit_hash: "0failed" }), "fail");
    const v = viewBuild(build({ branch: "will-fail" }), T0 + 60_000);
    assert.equal(v.outcome, "fail");
    assert.equal(v.stoppedOn, T0 + 10_000);
  });

  it("derives the same UUID-shaped ids from the same seed", () => {
    assert.equal(uuidFrom("x"), uuidFrom("x"));
    assert.notEqual(uuidFrom("x"), uuidFrom("y"));
    assert.match(versionIdOf(build()), /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("masks secrets in the environment line of the log", () => {
    const b = build({
      trigger: trigger({
        environment_variables: { A: { value: "1", is_secret: false }, S: { value: "pw", is_secret: true } },
      }),
    });
    const line = viewBuild(b, T0 + 60_000).lines.find((l) => l.text.startsWith("Build environment"));
    assert.equal(line?.text, "Build environment variables: A=1, S=********");
  });
});

describe("builds: schemas", () => {
  it("classifies a trigger by wildcards in branch_includes", () => {
    assert.equal(triggerKind({ branch_includes: ["main"] }), "production");
    assert.equal(triggerKind({ branch_includes: ["main", "release"] }), "production");
    assert.equal(triggerKind({ branch_includes: ["*"] }), "preview");
    assert.equal(triggerKind({ branch_includes: ["feature/*"] }), "preview");
    assert.equal(productionBranchOf({ branch_includes: ["*", "main"] }), "main");
    assert.equal(productionBranchOf({ branch_includes: ["*"] }), undefined);
  });

  it("needs a branch or a commit to start a build, and refuses unknown fields", () => {
    assert.ok(TriggerBuildBodySchema.safeParse({ branch: "main" }).success);
    assert.ok(TriggerBuildBodySchema.safeParse({ commit_hash: "abc" }).success);
    const none = TriggerBuildBodySchema.safeParse({});
    assert.equal(none.error?.issues[0]?.message, "at least one of branch and commit_hash is required");
    assert.equal(TriggerBuildBodySchema.safeParse({ branch: "x", commit: "y" }).success, false);
  });

  it("needs deployment percentages that add up to 100 over distinct versions", () => {
    const v = "00000000-0000-4000-8000-000000000001";
    const w = "00000000-0000-4000-8000-000000000002";
    const ok = (versions: { version_id: string; percentage: number }[]) =>
      DeploymentCreateBodySchema.safeParse({ strategy: "percentage", versions });
    assert.ok(ok([{ version_id: v, percentage: 100 }]).success);
    assert.ok(
      ok([
        { version_id: v, percentage: 40 },
        { version_id: w, percentage: 60 },
      ]).success,
    );
    assert.equal(
      ok([
        { version_id: v, percentage: 50 },
        { version_id: v, percentage: 50 },
      ]).error?.issues[0]?.message,
      "must not name the same version twice",
    );
    assert.equal(
      ok([{ version_id: v, percentage: 99 }]).error?.issues[0]?.message,
      "percentages must add up to 100",
    );
  });
});

describe("builds: the contract's limits in the request schemas", () => {
  const V = "00000000-0000-4000-8000-000000000009";
  const rules = (schema: { safeParse(v: unknown): { error?: import("zod").ZodError } }, v: unknown) => {
    const error = schema.safeParse(v).error;
    return error ? describeIssues(error).map((i) => `${i.field}: ${i.rule}`) : [];
  };
  /** A deployment of two versions, the first at `first` percent. */
  const split = (first: number) => ({
    strategy: "percentage",
    versions: [
      { version_id: V, percentage: first },
      { version_id: "00000000-0000-4000-8000-000000000008", percentage: 100 - first },
    ],
  });
  const table: [string, Parameters<typeof rules>[0], unknown, string[]][] = [
    [
      "a deploy hook's name of 58",
      DeployHookBodySchema,
      { deploy_hook_name: "x".repeat(58), branch: "m" },
      [],
    ],
    [
      "a deploy hook's name of 59",
      DeployHookBodySchema,
      { deploy_hook_name: "x".repeat(59), branch: "m" },
      ["deploy_hook_name: must be at most 58 characters"],
    ],
    ["a percentage of 0.01", DeploymentCreateBodySchema, split(0.01), []],
    [
      "a percentage under 0.01",
      DeploymentCreateBodySchema,
      split(0.001),
      ["versions.0.percentage: must be between 0.01 and 100"],
    ],
    [
      "a deployment message of 1001 characters",
      DeploymentCreateBodySchema,
      {
        strategy: "percentage",
        versions: [{ version_id: V, percentage: 100 }],
        annotations: { "workers/message": "x".repeat(1001) },
      },
      ["annotations.workers/message: must be at most 1000 characters"],
    ],
    [
      "a read-only annotation",
      DeploymentCreateBodySchema,
      {
        strategy: "percentage",
        versions: [{ version_id: V, percentage: 100 }],
        annotations: { "workers/triggered_by": "me" },
      },
      ["annotations.workers/triggered_by: is not a known field"],
    ],
    [
      "a provider other than github",
      RepoConnectionBodySchema,
      {
        provider_type: "gitlab",
        provider_account_id: "a",
        provider_account_name: "A",
        repo_id: "1",
        repo_name: "r",
      },
      ["provider_type: must be one of github"],
    ],
    ["a variable without a value (kept)", EnvVarsPatchBodySchema, { A: { is_secret: true } }, []],
    [
      "a variable with a null value (kept)",
      EnvVarsPatchBodySchema,
      { A: { value: null, is_secret: false } },
      [],
    ],
    [
      "a variable without is_secret",
      EnvVarsPatchBodySchema,
      { A: { value: "a" } },
      ["A.is_secret: is required"],
    ],
    [
      "three seed files",
      TriggerBuildBodySchema,
      {
        branch: "main",
        seed_repo: {
          provider: "github",
          owner: "o",
          repository: "r",
          branch: "main",
          path: "/",
          files: [1, 2, 3].map((n) => ({ filename: `${n}`, content: "" })),
        },
      },
      ["seed_repo.files: must have at most 2 entries"],
    ],
  ];
  for (const [label, schema, value, expected] of table) {
    it(`${expected.length ? "refuses" : "takes"} ${label}`, () => {
      assert.deepEqual(rules(schema, value), expected);
    });
  }

  it("fills the contract's default for caching (false) and the sdk's for the pattern lists, not nested ones", () => {
    const body = TriggerCreateBodySchema.parse(productionTriggerBody({ tag: V, repo: V, token: V }));
    assert.deepEqual(
      [body.build_caching_enabled, body.branch_excludes, body.path_includes, body.path_excludes],
      [false, [], ["*"], []],
    );
    assert.equal(
      TriggerBuildBodySchema.parse({
        branch: "b",
        seed_repo: {
          provider: "github",
          owner: "o",
          repository: "r",
          branch: "b",
          path: "/",
          files: [{ filename: "f", content: "" }],
        },
      }).seed_repo?.files?.[0]?.isBase64,
      undefined,
      "a seed file's isBase64 is the service's to default (false, contract)",
    );
  });
});

describe("builds: limits, autofill and the scripts' tags", () => {
  const build = (created: number, over: Partial<BuildRecord> = {}): BuildRecord => ({
    build_uuid: `00000000-0000-4000-8000-${String(created).padStart(12, "0").slice(-12)}`,
    seq: created,
    script_tag: "t",
    script_name: "s",
    kind: "production",
    trigger: trigger(),
    repo: null,
    build_token_name: null,
    branch: "main",
    commit_hash: "abc",
    commit_message: "m",
    author: "a",
    created_on: created,
    cache_restored: false,
    ...over,
  });

  it("refreshes at the first of the next month, across a year's end", () => {
    assert.equal(
      new Date(nextMonthStart(Date.parse("2026-12-31T23:59:59Z"))).toISOString(),
      "2027-01-01T00:00:00.000Z",
    );
  });

  it("counts this month's builds, each rounded up to a minute, a running one up to now", () => {
    const now = Date.parse("2026-03-10T00:00:00Z");
    const lastMonth = build(Date.parse("2026-02-28T23:00:00Z"));
    const done = build(now - 60_000); // 14 s: one minute
    const running = build(now - 3_000, { cancelled_on: undefined }); // still running: one minute so far
    assert.equal(buildMinutesUsed([lastMonth, done, running], now), 2);
    assert.deepEqual(accountLimits([lastMonth, done, running], now, 2), {
      build_minutes_refresh_on: "2026-04-01T00:00:00.000Z",
      has_reached_build_minutes_limit: true,
    });
    assert.equal(accountLimits([done], now, 2).has_reached_build_minutes_limit, false);
  });

  it("names a Worker after its repository", () => {
    assert.deepEqual(["My Shop", "--api_v2--", "!!!"].map(workerNameOf), ["my-shop", "api-v2", "worker"]);
  });

  it("filters scripts on their tags: present, :yes, :no, all at once", () => {
    const s = (tags?: string[]) => ({
      name: "n",
      tag: "t",
      created_on: 0,
      modified_on: 0,
      versions: [],
      deployments: [],
      ...(tags ? { tags } : {}),
    });
    const keep = (q: string | undefined, tags?: string[]) => tagFilter(q)(s(tags));
    assert.deepEqual(
      [
        keep(undefined),
        keep("a"),
        keep("a", ["a"]),
        keep("a:yes", ["a"]),
        keep("a:no", ["a"]),
        keep("a:no"),
        keep("a,b:no", ["a", "b"]),
      ],
      [true, false, true, true, false, true, false],
    );
  });
});

describe("builds: multipart", () => {
  it("round-trips parts with names, file names and content types", () => {
    const { body, contentType } = buildMultipart(
      [
        { name: "metadata", body: Buffer.from('{"main_module":"a.js"}') },
        {
          name: "a.js",
          filename: "a.js",
          contentType: "application/javascript+module",
          body: Buffer.from("x\r\ny"),
        },
      ],
      "XYZ",
    );
    const parts = parseMultipart(body, boundaryOf(contentType));
    assert.deepEqual(
      parts.map((p) => [p.name, p.filename, p.contentType, p.body.toString()]),
      [
        ["metadata", undefined, undefined, '{"main_module":"a.js"}'],
        ["a.js", "a.js", "application/javascript+module", "x\r\ny"],
      ],
    );
  });

  it("refuses a missing boundary and an unterminated body", () => {
    assert.throws(() => boundaryOf("multipart/form-data"), MultipartError);
    assert.throws(
      () => parseMultipart(Buffer.from("--B\r\nContent-Disposition: form-data; name=a\r\n\r\nx"), "B"),
      MultipartError,
    );
  });
});

describe("builds: error hints", () => {
  const base = { method: "GET", path: "/accounts/a/builds/workers/x/triggers" };

  it("explains user scope on Invalid token, keeping the class and code", () => {
    const e = withBuildHint(
      errorFromResponse({ ...base, status: 401, errors: [{ code: 12006, message: "Invalid token" }] }),
      "build",
    );
    assert.ok(e instanceof AuthenticationError);
    assert.equal(e.apiCode, 12006);
    assert.match(e.message, /user-scoped/);
  });

  it("explains tag vs name on a 404 of a script path, both ways", () => {
    const nf = errorFromResponse({
      ...base,
      status: 404,
      errors: [{ code: 12000, message: "Resource not found" }],
    });
    const tag = withBuildHint(nf, "script-tag");
    assert.ok(tag instanceof NotFoundError);
    assert.match(tag.message, /take the script's tag/);
    assert.match((withBuildHint(nf, "script-name") as Error).message, /take the script's name/);
    assert.equal(withBuildHint(nf, "build"), nf);
  });

  it("leaves other errors alone", () => {
    const e = errorFromResponse({ ...base, status: 403, errors: [{ code: 12008, message: "Forbidden" }] });
    assert.equal(withBuildHint(e, "script-tag"), e);
    assert.ok(e instanceof PermissionDeniedError);
    const plain = new Error("x");
    assert.equal(withBuildHint(plain, "build"), plain);
  });
});
