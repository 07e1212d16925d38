import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseProbe, phaseTimeline, unionMs, type ProbeFact } from "../../bench/timeline";

describe("bench timeline", () => {
  it("counts overlapping intervals once and ignores empty ones", () => {
    assert.equal(unionMs([]), 0);
    assert.equal(
      unionMs([
        [0, 10],
        [5, 15],
        [20, 25],
        [30, 30],
      ]),
      20,
    );
    assert.equal(
      unionMs([
        [20, 25],
        [0, 100],
        [10, 20],
      ]),
      100,
    );
  });

  it("skips a torn or foreign probe line", () => {
    const text = [
      JSON.stringify({ pid: 1, fact: "start", role: "host", at: 5 }),
      '{"pid":1,"fact":"rpc","meth',
      JSON.stringify({ pid: 1, something: "else" }),
      "",
    ].join("\n");
    assert.deepEqual(parseProbe(text), [{ pid: 1, fact: "start", role: "host", at: 5 }]);
  });

  it("splits a command's time between the engine, the host's start-up, the program, calls and requests", () => {
    const probe: ProbeFact[] = [
      { pid: 1, fact: "start", role: "resolver", at: 1_100 },
      { pid: 2, fact: "start", role: "host", at: 1_150 },
      { pid: 2, fact: "listening", at: 1_400 },
      { pid: 2, fact: "rpc", method: "handshake", type: "", t0: 1_450, t1: 1_460, ok: true },
      { pid: 2, fact: "rpc", method: "check", type: "Kind", t0: 1_500, t1: 1_600, ok: true },
      { pid: 2, fact: "rpc", method: "create", type: "Kind", t0: 1_700, t1: 1_800, ok: true },
      { pid: 2, fact: "rpc", method: "create", type: "Kind", t0: 1_750, t1: 1_900, ok: true },
      // another command's host: outside this window
      { pid: 3, fact: "start", role: "host", at: 9_000 },
      { pid: 3, fact: "rpc", method: "read", type: "Kind", t0: 9_100, t1: 9_200, ok: true },
    ];
    const t = phaseTimeline({
      started: 1_000,
      ended: 3_000,
      probe,
      requests: [
        { at: 1_790, durationMs: 40 },
        { at: 1_880, durationMs: 60 },
        { at: 5_000, durationMs: 10 },
      ],
      program: [1_020, 1_080],
    });
    assert.equal(t.ms, 2_000);
    assert.equal(t.engineToHostMs, 100);
    assert.equal(t.hostListeningMs, 300);
    assert.equal(t.hostFirstAnswerMs, 360);
    assert.equal(t.hostFirstResourceAnswerMs, 500);
    assert.equal(t.programMs, 60);
    assert.deepEqual(t.calls.create, { count: 2, openMs: 200 });
    assert.deepEqual(t.calls.check, { count: 1, openMs: 100 });
    assert.equal(t.providerOpenMs, 300);
    assert.deepEqual(t.requests, { count: 2, waitMs: 100, openMs: 100 });
    // ours: the program [1020,1080], the host's start-up [1100,1600], the calls [1500,1600] and
    // [1700,1900]: 60 + 500 + 200 = 760 of 2000 ms.
    assert.equal(t.engineOnlyMs, 1_240);
  });

  it("the probe records the host's start, its listening and each answered call", () => {
    // A stand-in host: a script whose path names dynamic-provider, serving one gRPC-like call
    // through a module named @grpc/grpc-js, as Pulumi's host does.
    const dir = mkdtempSync(join(tmpdir(), "probe-"));
    try {
      const modules = join(dir, "node_modules", "@grpc", "grpc-js");
      mkdirSync(modules, { recursive: true });
      mkdirSync(join(dir, "dynamic-provider"));
      const fake = [
        "class Server {",
        "  addService(service, impl) { this.impl = impl; }",
        "  bindAsync(address, creds, cb) { setTimeout(() => cb(null, 1234), 5); }",
        "}",
        "module.exports = { Server };",
      ].join("\n");
      writeFileSync(join(modules, "index.js"), fake);
      const host = [
        "const grpc = require('@grpc/grpc-js');",
        "const server = new grpc.Server();",
        "server.addService({ check: { originalName: 'check' } }, { check(call, cb) { setTimeout(() => cb(null, 'ok'), 20); } });",
        "server.bindAsync('x', null, () => {",
        "  const call = { request: { getUrn: () => 'urn:pulumi:s::p::pulumi-nodejs:dynamic/account-api:SearchInstance::a' } };",
        "  server.impl.check(call, (err, res) => process.stdout.write(String(res)));",
        "});",
      ].join("\n");
      const script = join(dir, "dynamic-provider", "index.js");
      writeFileSync(script, host);
      const file = join(dir, "probe.jsonl");
      const out = execFileSync(
        process.execPath,
        ["--require", join(__dirname, "..", "..", "bench", "host-probe.cjs"), script],
        {
          env: { ...process.env, BENCH_PROBE_FILE: file },
          encoding: "utf8",
        },
      );
      assert.equal(out, "ok");
      const facts = parseProbe(readFileSync(file, "utf8"));
      assert.deepEqual(
        facts.map((f) => f.fact),
        ["start", "listening", "rpc"],
      );
      const rpc = facts[2];
      assert.equal(rpc?.fact === "rpc" && rpc.method, "check");
      assert.equal(rpc?.fact === "rpc" && rpc.type, "SearchInstance");
      assert.ok(rpc?.fact === "rpc" && rpc.t1 - rpc.t0 >= 15);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
