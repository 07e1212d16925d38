/**
 * The done-when of "one model of the API": one field's type changed in a copy of the contract
 * reaches, after a rebuild of the generated schemas and nothing else, the sdk's request check, the
 * emulator's answer, the resource's input type and check, and the native schema. The copy is the
 * project's sources in a temporary folder (node_modules linked); the field is the search instance's
 * `ai_gateway_id`, a nullable string in the contract, made an integer of 1 to 99.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");
const COPIED = [
  "sdk",
  "provider",
  "emulator",
  "cli",
  "contract",
  "scripts",
  "tests/helpers",
  "index.ts",
  "package.json",
  "tsconfig.json",
  ".prettierrc.json",
];
const NODE = process.execPath;

/** Every `ai_gateway_id` of every operation, request and answer alike, as `replacement`. */
function retype(value: unknown, replacement: object): unknown {
  if (Array.isArray(value)) return value.map((v) => retype(v, replacement));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === "ai_gateway_id" ? replacement : retype(v, replacement)]),
  );
}

function run(cwd: string, args: string[]): string {
  return execFileSync(NODE, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ACCOUNT_API_TOKEN: "", ACCOUNT_API_BASE_URL: "" },
  });
}

interface Probe {
  sdkRefusalOfString: string;
  sentForString: number;
  sdkRefusalOfNumber: string;
  emulatorAnswer: unknown;
  resourceCheck: string | string[];
  nativeType: string | undefined;
}

const probe = (cwd: string): Probe =>
  JSON.parse(
    run(cwd, ["-r", "ts-node/register/transpile-only", "tests/helpers/one-field-probe.ts"])
      .trim()
      .split("\n")
      .pop()!,
  );

describe("one field of the contract, changed, reaches every face", function () {
  this.timeout(600_000);
  let dir = "";

  before(function () {
    dir = mkdtempSync(join(tmpdir(), "one-field-"));
    for (const p of COPIED) cpSync(join(ROOT, p), join(dir, p), { recursive: true, dereference: false });
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    const contract = join(dir, "contract/openapi/public-subset.json");
    const changed = retype(JSON.parse(readFileSync(contract, "utf8")), {
      type: ["integer", "null"],
      minimum: 1,
      maximum: 99,
    });
    writeFileSync(contract, JSON.stringify(changed));
    run(dir, ["-r", "ts-node/register/transpile-only", "scripts/generate-wire.ts"]);
  });

  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("the project as it is types it a string everywhere", function () {
    const p = probe(ROOT);
    assert.equal(p.sdkRefusalOfString, "", "a string is taken by the sdk and the emulator");
    assert.match(p.sdkRefusalOfNumber, /ai_gateway_id: must be a string/);
    assert.equal(p.resourceCheck, "accepted");
    assert.equal(p.nativeType, "string");
  });

  it("the copy, rebuilt, refuses a string and takes a number on every face", function () {
    const p = probe(dir);
    assert.match(p.sdkRefusalOfString, /ai_gateway_id: must be a number/, "the sdk's request check");
    assert.equal(p.sentForString, 0, "refused before any request");
    assert.equal(p.sdkRefusalOfNumber, "");
    assert.equal(p.emulatorAnswer, 7, "the emulator parses and answers the number");
    assert.deepEqual(p.resourceCheck, ["aiGatewayId: must be a number"], "the resource's input check");
    assert.equal(p.nativeType, "integer", "the native schema");
  });

  it("the resource's input type is the number in the copy, a type error for a string", function () {
    const probeFile = join(dir, "tests/helpers/one-field-type.ts");
    writeFileSync(
      probeFile,
      [
        'import type { SearchInstanceArgs } from "../../provider/resources/search-instance";',
        'export const ok: SearchInstanceArgs = { instanceId: "kb", aiGatewayId: 7 };',
        "// @ts-expect-error a string is no longer the field's type",
        'export const bad: SearchInstanceArgs = { instanceId: "kb", aiGatewayId: "gateway" };',
        "",
      ].join("\n"),
    );
    const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
    run(dir, [
      tsc,
      "--noEmit",
      "--strict",
      "--skipLibCheck",
      "--target",
      "es2022",
      "--module",
      "commonjs",
      "--moduleResolution",
      "node",
      "--esModuleInterop",
      probeFile,
    ]);
  });
});
