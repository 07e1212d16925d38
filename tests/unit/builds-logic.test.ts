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
import {
  DeploymentCreateBodySchema,
  TriggerBuildBodySchema,
  productionBranchOf,
  triggerKind,
} from "../../sdk/schemas/builds";

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
