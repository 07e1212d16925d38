/**
 * The conformance runner itself, on small inline contracts: path matching, the override table,
 * validation of requests and responses, coverage, fault probes, and scenario loading.
 */
import { strict as assert } from "node:assert";
import { z } from "zod";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildMultipart } from "../../emulator/builds/multipart";
import { OperationMatcher, parseContract, type Contract, type Operation } from "./contract";
import { evaluate, failureText, figureLine, statusSeen } from "./coverage";
import { loadScenario, openKit, probeFaults } from "./harness";
import { OverlayError, parseOverlay, type Override } from "../../contract/overlay-schema";
import {
  checkRows,
  docTable,
  OVERRIDES_HEADING,
  overrideRows,
  Overrides,
  type TableProblem,
} from "./overrides";
import type { RecordedExchange } from "./recorder";
import { ContractValidator, undeclaredFields } from "./validator";

const ENVELOPE_ERROR = {
  type: "object",
  properties: {
    success: { enum: [false], type: "boolean" },
    errors: {
      type: "array",
      items: { type: "object", properties: { code: { type: "integer" }, message: { type: "string" } } },
    },
  },
  required: ["success", "errors"],
};

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

const THING = {
  type: "object",
  properties: {
    id: { type: "string", readOnly: true },
    name: { type: "string", maxLength: 5 },
    size: { type: "integer", enum: [1, 2] },
    secret: { type: "string", writeOnly: true },
    tags: { type: "array", items: { type: "object", properties: { key: { type: "string" } } } },
  },
  required: ["id", "name"],
};

function op(partial: Partial<Operation> & Pick<Operation, "method" | "path">): Operation {
  return { area: "search", operationId: `${partial.method} ${partial.path}`, responses: {}, ...partial };
}

const CONTRACT: Contract = parseContract(
  {
    operations: [
      op({
        method: "GET",
        path: "/accounts/{account_id}/things/{thing_id}",
        responses: { "200": json(THING) },
      }),
      op({ method: "GET", path: "/accounts/{account_id}/things/latest", responses: { "200": json(THING) } }),
      op({
        method: "POST",
        path: "/accounts/{account_id}/things",
        requestBody: json(THING),
        responses: { "201": json(THING), "4XX": json(ENVELOPE_ERROR) },
      }),
      op({
        method: "POST",
        path: "/accounts/{account_id}/things/{thing_id}/files",
        requestBody: {
          content: {
            "multipart/form-data": {
              schema: {
                type: "object",
                properties: { file: { type: "string", format: "binary" }, wait: { type: "boolean" } },
                required: ["file"],
              },
            },
          },
        },
        responses: { "200": {} },
      }),
    ],
  },
  "inline",
);
const [GET_THING, GET_LATEST, CREATE, UPLOAD] = CONTRACT.operations as [
  Operation,
  Operation,
  Operation,
  Operation,
];

let seq = 0;
function exchange(partial: Partial<RecordedExchange> & Pick<RecordedExchange, "method" | "path" | "status">) {
  return {
    seq: ++seq,
    query: "",
    sender: "sdk" as const,
    requestContentType: undefined,
    requestBody: undefined,
    responseContentType: "application/json; charset=utf-8",
    responseText: "",
    dropped: false,
    ...partial,
  };
}

/** A create of the inline contract: a JSON body, answered with `response` (JSON text). */
function create(requestBody: unknown, response: unknown, extra: Partial<RecordedExchange> = {}) {
  return exchange({
    method: "POST",
    path: "/accounts/a1/things",
    status: 201,
    requestContentType: "application/json",
    requestBody,
    responseText: JSON.stringify(response),
    ...extra,
  });
}

const validator = new ContractValidator();
const none = new Overrides([]);

describe("conformance runner: operation matching", function () {
  const matcher = new OperationMatcher(CONTRACT.operations);

  it("matches by method and template, the literal segment over a parameter", function () {
    assert.equal(matcher.match("GET", "/accounts/a1/things/latest"), GET_LATEST);
    assert.equal(matcher.match("GET", "/accounts/a1/things/t-9"), GET_THING);
    assert.equal(matcher.match("get", "/accounts/a1/things/t-9"), GET_THING);
    assert.equal(matcher.match("POST", "/accounts/a1/things"), CREATE);
  });

  it("does not match another method, another depth or an empty segment", function () {
    assert.equal(matcher.match("DELETE", "/accounts/a1/things/t-9"), undefined);
    assert.equal(matcher.match("GET", "/accounts/a1/things/t-9/more"), undefined);
    assert.equal(matcher.match("GET", "/accounts/a1/things/"), undefined);
  });

  it("reads path parameters, decoded", function () {
    assert.deepEqual(OperationMatcher.params(GET_THING, "/accounts/a1/things/a%20b"), {
      account_id: "a1",
      thing_id: "a b",
    });
  });

  it("refuses a file that is not a contract, naming what is wrong", function () {
    assert.throws(
      () => parseContract({ operations: [{ method: "GET" }] }, "bad.json"),
      /bad\.json: not a contract file/,
    );
  });
});

describe("conformance runner: validation", function () {
  it("reports a bad response with its instance path and ajv's message", function () {
    const x = exchange({
      method: "GET",
      path: "/accounts/a1/things/t1",
      status: 200,
      responseText: JSON.stringify({ id: "t1", name: "far too long", size: 3 }),
    });
    const report = evaluate(CONTRACT, [GET_THING], [x], validator, none);
    const text = failureText(report);
    assert.equal(report.conforming, 0);
    assert.match(text, /GET \/accounts\/\{account_id\}\/things\/\{thing_id\}/);
    assert.match(
      text,
      /#\d+ sdk GET \/accounts\/a1\/things\/t1 → 200: response 200 \/name: must NOT have more than 5 characters/,
    );
    assert.match(text, /response 200 \/size: must be equal to one of the allowed values: \[1,2\]/);
  });

  it("reads readOnly and writeOnly the OpenAPI way: not sent, not required, on the side they belong to", function () {
    const x = create({ name: "ok", id: "mine", secret: "s" }, { id: "t1", name: "ok", secret: "s" });
    const v = validator.check(CREATE, x);
    assert.deepEqual(
      v.issues.map((i) => `${i.side} ${i.pointer} ${i.message}`),
      [
        "request /id is read-only: the service sets it, a request must not send it",
        "response /secret is write-only: the service takes it, a response must not send it back",
      ],
    );
    const clean = validator.check(CREATE, {
      ...x,
      requestBody: { name: "ok" },
      responseText: '{"id":"t1","name":"ok"}',
    });
    assert.deepEqual(clean.issues, []);
  });

  it("locates a missing required property where it should be", function () {
    const x = create({ size: 1 }, { id: "t1", name: "ok" });
    assert.deepEqual(
      validator.check(CREATE, x).issues.map((i) => `${i.pointer} ${i.message}`),
      ["/name must have required property 'name'"],
    );
  });

  it("does not validate the body of a raw request, only its answer", function () {
    const refusal = { success: false, errors: [{ code: 1001, message: "name: bad" }] };
    const x = create({ name: 42 }, refusal, { sender: "raw", status: 400 });
    const v = validator.check(CREATE, x);
    assert.deepEqual(v.issues, []);
    assert.equal(v.statusKey, "4XX");
    const wrong = validator.check(CREATE, { ...x, responseText: '{"success":true,"errors":[]}' });
    assert.deepEqual(
      wrong.issues.map((i) => `${i.statusKey} ${i.pointer}`),
      ["4XX /success"],
    );
  });

  it("fails an undocumented 2xx status and only notes an undocumented error status", function () {
    const ok = exchange({ method: "POST", path: "/accounts/a1/things", status: 200, responseText: "{}" });
    const v = validator.check(CREATE, ok);
    assert.match(
      v.issues[0]?.message ?? "",
      /status 200 is not documented \(the contract documents 201, 4XX\)/,
    );
    const gone = validator.check(
      GET_THING,
      exchange({ method: "GET", path: "/accounts/a1/things/x", status: 404 }),
    );
    assert.deepEqual(gone.issues, []);
    assert.match(gone.notes[0]?.message ?? "", /status 404 is not documented/);
  });

  it("validates a multipart body part by part, form text read as the schema's types", function () {
    const form = buildMultipart(
      [
        { name: "file", filename: "a.txt", body: Buffer.from("hello") },
        { name: "wait", body: Buffer.from("true") },
      ],
      "b0undary",
    );
    const x = exchange({
      method: "POST",
      path: "/accounts/a1/things/t1/files",
      status: 200,
      requestContentType: form.contentType,
      requestBody: form.body,
    });
    assert.deepEqual(validator.check(UPLOAD, x).issues, []);
    const bad = buildMultipart([{ name: "wait", body: Buffer.from("maybe") }], "b0undary");
    const issues = validator.check(UPLOAD, { ...x, requestBody: bad.body }).issues.map((i) => i.pointer);
    assert.deepEqual(issues.sort(), ["/file", "/wait"]);
  });

  it("refuses a request content type the operation does not take", function () {
    const x = exchange({
      method: "POST",
      path: "/accounts/a1/things/t1/files",
      status: 200,
      requestContentType: "application/json",
      requestBody: { file: "x" },
    });
    assert.match(
      validator.check(UPLOAD, x).issues[0]?.message ?? "",
      /content-type application\/json: the contract takes multipart\/form-data/,
    );
  });

  it("notes request fields the contract does not name, in nested objects and arrays too", function () {
    assert.deepEqual(undeclaredFields(THING, { name: "a", nam: "b", tags: [{ key: "k", kye: "v" }] }), [
      "/nam",
      "/tags/0/kye",
    ]);
    // An object without declared properties is a map: nothing to say.
    assert.deepEqual(undeclaredFields({ type: "object" }, { anything: 1 }), []);
  });
});

describe("conformance runner: coverage", function () {
  it("reports a documented status that was never seen", function () {
    const x = create({ name: "ok" }, { id: "t1", name: "ok" });
    const report = evaluate(CONTRACT, [CREATE], [x], validator, none);
    assert.equal(report.conforming, 0);
    assert.deepEqual(report.operations[0]?.missing, ["4XX"]);
    assert.match(failureText(report), /documented status not seen: 4XX/);
    const refused = create(undefined, { success: false, errors: [] }, { sender: "raw", status: 409 });
    assert.equal(evaluate(CONTRACT, [CREATE], [x, refused], validator, none).conforming, 1);
  });

  it("counts an operation the scenario never reached as not conforming, fault probes or not", function () {
    const probe = exchange({
      method: "GET",
      path: "/accounts/a1/things/t1",
      sender: "fault",
      status: 200,
      responseText: "{}",
    });
    const report = evaluate(CONTRACT, [GET_THING], [probe], validator, none);
    assert.match(failureText(report), /never exercised by the scenario/);
  });

  it("lists exchanges outside the contract without failing on them", function () {
    const x = exchange({ method: "GET", path: "/accounts/a1/elsewhere", status: 200 });
    assert.deepEqual(evaluate(CONTRACT, [], [x], validator, none).outside, [
      `#${x.seq} sdk GET /accounts/a1/elsewhere → 200`,
    ]);
  });

  it("matches status ranges and prints the figure per area and overall", function () {
    assert.equal(statusSeen("4XX", new Set([200, 409])), true);
    assert.equal(statusSeen("4XX", new Set([200, 500])), false);
    assert.equal(statusSeen("201", new Set([200])), false);
    assert.equal(
      figureLine({ email: { conforming: 1, total: 2 }, search: { conforming: 3, total: 4 } }),
      'FIGURE conformance {"email":{"conforming":1,"total":2},"search":{"conforming":3,"total":4},"overall":{"conforming":4,"total":6}}',
    );
  });
});

describe("conformance runner: the override table", function () {
  const rowsOf = (...overrides: Override[]) => overrideRows({ overrides }, "overlay.json");
  const response = (operation: string, status: string, pointer: string, rule: string): Override => ({
    operation,
    side: "response",
    status,
    pointer,
    apiLine: 1,
    rule,
  });
  const request = (operation: string, pointer: string, rule: string, apiLine = 1): Override => ({
    operation,
    side: "request",
    pointer,
    apiLine,
    rule,
  });

  it("takes the overlay's rows, writing each as the doc's table does", function () {
    const { rows, problems } = rowsOf(
      response("GET /accounts/{account_id}/things/{thing_id}", "200", "/tags/*/key", "key is a number"),
      request("POST /accounts/{account_id}/things", "", "the whole body"),
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(
      rows.map((r) => [r.operation, r.side, r.status, r.pointer, r.where, r.text]),
      [
        [
          "GET /accounts/{account_id}/things/{thing_id}",
          "response",
          "200",
          "/tags/*/key",
          "overlay.json overrides[0]",
          "| GET /accounts/{account_id}/things/{thing_id} | response 200 /tags/*/key | api.md:1 | key is a number |",
        ],
        [
          "POST /accounts/{account_id}/things",
          "request",
          undefined,
          "",
          "overlay.json overrides[1]",
          "| POST /accounts/{account_id}/things | request | api.md:1 | the whole body |",
        ],
      ],
    );
  });

  it("refuses malformed rows in the overlay and reports unsorted ones", function () {
    const overlay = (overrides: unknown[]) => ({
      overrides,
      wireRenames: [],
      newerFacts: { source: "s", fields: [], enums: [] },
    });
    const bad = [
      { operation: "POST /x", side: "response", pointer: "/name", apiLine: 2, rule: "r" },
      { operation: "POST /x", side: "request", status: "400", pointer: "/name", apiLine: 2, rule: "r" },
      { operation: "POST /x", side: "request", pointer: "name", apiLine: 2, rule: "r" },
    ];
    for (const row of bad) assert.throws(() => parseOverlay(overlay([row]), "o.json"), OverlayError);
    assert.throws(() => parseOverlay(overlay([bad[0]]), "o.json"), /o\.json: not a valid overlay: .*status/);
    const { problems } = rowsOf(request("POST /x", "/a", "r"), request("GET /x", "/a", "r"));
    assert.deepEqual(
      problems.map((p) => p.message),
      ["rows must be sorted by operation"],
    );
  });

  it("finds the doc's table under its heading, and says when there is none", function () {
    const doc = [
      "# x",
      "",
      OVERRIDES_HEADING,
      "",
      "text",
      "",
      "| a | b |",
      "|---|---|",
      "| 1 | 2 |",
      "",
      "## next",
      "| c |",
    ];
    assert.deepEqual(docTable(doc.join("\n")), ["| a | b |", "|---|---|", "| 1 | 2 |"]);
    assert.match((docTable("# nothing") as TableProblem).message, /heading .* not found/);
    assert.match((docTable(OVERRIDES_HEADING) as TableProblem).message, /no table under/);
  });

  it("refuses a row whose operation is not in the contract or whose api.md line does not exist", function () {
    const { rows } = rowsOf(
      request("DELETE /accounts/{account_id}/things", "/a", "r", 2),
      request("GET /accounts/{account_id}/things/latest", "/a", "r", 99),
    );
    const problems = checkRows(rows, CONTRACT, "line one\nline two\n");
    assert.deepEqual(
      problems.map((p) => p.message),
      [
        "operation DELETE /accounts/{account_id}/things is not in the contract",
        "api.md:99 does not exist (or is blank)",
      ],
    );
    assert.deepEqual(
      checkRows(rows, CONTRACT, undefined).map((p) => p.message),
      ["operation DELETE /accounts/{account_id}/things is not in the contract"],
      "without api.md, only the operations are checked",
    );
  });

  it("accepts an error only at a listed location, and reports the rows that accepted nothing", function () {
    const { rows } = rowsOf(
      response("GET /accounts/{account_id}/things/{thing_id}", "200", "/tags/*/key", "key is a number"),
      response("GET /accounts/{account_id}/things/{thing_id}", "200", "/size", "size is free"),
      request("POST /accounts/{account_id}/things", "/name", "never needed"),
    );
    const overrides = new Overrides(rows);
    const x = exchange({
      method: "GET",
      path: "/accounts/a1/things/t1",
      status: 200,
      responseText: JSON.stringify({ id: "t1", name: "n", tags: [{ key: 1 }, { key: 2 }], size: 1 }),
    });
    assert.equal(evaluate(CONTRACT, [GET_THING], [x], validator, overrides).conforming, 1);
    const other = exchange({ ...x, responseText: JSON.stringify({ id: "t1", name: 5, tags: [{ key: 1 }] }) });
    assert.match(
      failureText(evaluate(CONTRACT, [GET_THING], [other], validator, overrides)),
      /response 200 \/name: must be string/,
    );
    const ran = new Set(CONTRACT.operations.map((o) => `${o.method} ${o.path}`));
    assert.deepEqual(
      overrides.unused(ran).map((r) => r.rule),
      ["size is free", "never needed"],
    );
    assert.deepEqual(overrides.unused(new Set()), [], "rows of areas that did not run are not judged");
  });
});

describe("conformance runner: the kit and fault probes (real emulator)", function () {
  this.timeout(30_000);

  it("produces a documented 503 and 429 with injected faults and validates their envelope", async function () {
    const jobs: Operation = op({
      method: "POST",
      path: "/accounts/{account_id}/ai-search/instances/{id}/jobs",
      requestBody: json({ type: "object" }),
      responses: {
        "429": json(ENVELOPE_ERROR),
        "503": json({ ...ENVELOPE_ERROR, required: ["success", "errors", "result"] }),
      },
    });
    const open = await openKit();
    try {
      const probed = await probeFaults([jobs], open);
      assert.deepEqual(
        probed.map((p) => p.status),
        [429, 503],
      );
      assert.deepEqual(open.kit.emulator.faults.list(), [], "probes leave no fault rule behind");
    } finally {
      await open.close();
    }
    const contract = parseContract({ operations: [jobs] }, "inline");
    const report = evaluate(contract, [jobs], open.recorder.exchanges, validator, none);
    assert.deepEqual(
      open.recorder.exchanges.map((x) => `${x.sender} ${x.status}`),
      ["fault 429", "fault 503"],
    );
    // The emulator's envelope carries `result: null`: the 503 validates; only exercise is missing.
    assert.deepEqual(report.operations[0]?.failures, ["never exercised by the scenario"]);
  });

  it("raw sends a body as given and expectStatus checks the ApiError's status", async function () {
    const open = await openKit();
    try {
      const { kit } = open;
      const path = `/accounts/${kit.accountId}/ai-search/instances`;
      const res = await kit.raw("POST", path, "{not json");
      assert.equal(res.status, 400);
      // The transport itself: this test must not depend on an area's method signatures.
      const get = () =>
        kit.api.client.request({ method: "GET", path: `${path}/missing`, schema: z.unknown() });
      await kit.expectStatus(get(), 404);
      await assert.rejects(
        kit.expectStatus(get(), 409),
        /expected an ApiError with status 409, got ApiError 404/,
      );
      await assert.rejects(kit.expectStatus(Promise.resolve(1), 404), /the call succeeded/);
      assert.deepEqual(
        open.recorder.exchanges.map((x) => `${x.sender} ${x.method} ${x.status}`),
        ["raw POST 400", "sdk GET 404", "sdk GET 404"],
      );
    } finally {
      await open.close();
    }
  });
});

describe("conformance runner: scenario files", function () {
  const dir = mkdtempSync(join(tmpdir(), "conformance-scenario-"));

  it("says which file is missing", function () {
    assert.match(
      String(loadScenario("email", join(dir, "email.ts"))),
      /no scenario for email: .*email\.ts is missing/,
    );
  });

  it("refuses a file without a scenario, or with another area's", function () {
    writeFileSync(join(dir, "none.js"), "exports.other = 1;\n");
    writeFileSync(join(dir, "wrong.js"), 'exports.scenario = { area: "search", run: async () => {} };\n');
    assert.match(String(loadScenario("email", join(dir, "none.js"))), /must export `scenario: AreaScenario`/);
    assert.match(
      String(loadScenario("email", join(dir, "wrong.js"))),
      /its scenario's area is "search", not "email"/,
    );
  });
});
