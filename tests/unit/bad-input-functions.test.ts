/**
 * Bad-input corpus, functions: invalid arguments to every `run*` variant of provider/functions (and
 * sendEmail's sdk call, through the function's own mapping), with an sdk client pointed at a local
 * server that only counts requests. Each must be refused with a message naming the field and the rule,
 * before any request is sent (the counter stays at 0).
 *
 * Figure printed: cases, requests sent (0).
 */
import { strict as assert } from "node:assert";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  runBuildLogs,
  runBuildTokens,
  runCancelBuild,
  runPurgeBuildCache,
  runRedeploy,
  runTriggerBuild,
  runWaitForBuild,
} from "../../provider/functions/builds";
import { toSendEmailCall, type SendEmailInputs } from "../../provider/functions/email";
import { runCheckDomain, runQuoteDomain, runSearchDomains } from "../../provider/functions/registrar";
import { runTriggerSyncJob, runWaitForJob } from "../../provider/functions/search";
import { AccountApi } from "../../sdk";

const UUID = "0d4c8a57-6b2e-4f0a-9c1d-3e5f7a9b1c2d";
const ACCOUNT = "023e105f4ecef8ad9ca31a8372d0c353";
const LONG_ACCOUNT = "a".repeat(33);
const PROTO = JSON.parse('{"__proto__": "x"}') as Record<string, string>;

type Call = (api: AccountApi) => Promise<unknown>;
/** [what, field named, rule (a pattern of its words), the call]. */
type Case = [what: string, field: string, rule: RegExp, call: Call];

const email = (change: Partial<Record<keyof SendEmailInputs, unknown>>): Call => {
  const base: Record<string, unknown> = {
    from: "ops@example.com",
    to: "dev@example.org",
    subject: "Deployed",
    text: "done",
  };
  for (const [k, v] of Object.entries(change)) {
    if (v === undefined) delete base[k];
    else base[k] = v;
  }
  // The function resolves its inputs and hands them to this mapping, then to the sdk.
  return (api) => api.email.sending.send(...toSendEmailCall(base as unknown as SendEmailInputs));
};

/** Arguments as a program may pass them, untyped (a JavaScript program, or an Output resolved late). */
const loose = <T>(v: Record<string, unknown>): T => v as unknown as T;

const CASES: Case[] = [
  // builds
  [
    "runTriggerBuild",
    "trigger_uuid|triggerUuid",
    /UUID/,
    (api) => runTriggerBuild(api, { triggerUuid: "nope", branch: "main" }),
  ],
  [
    "runTriggerBuild",
    "trigger_uuid|triggerUuid",
    /UUID/,
    (api) => runTriggerBuild(api, { triggerUuid: "__proto__", branch: "main" }),
  ],
  [
    "runTriggerBuild",
    "trigger_uuid|triggerUuid",
    /UUID/,
    (api) => runTriggerBuild(api, { triggerUuid: "", branch: "main" }),
  ],
  ["runTriggerBuild", "branch", /branch|commit/i, (api) => runTriggerBuild(api, { triggerUuid: UUID })],
  [
    "runTriggerBuild",
    "branch",
    /empty|string/i,
    (api) => runTriggerBuild(api, { triggerUuid: UUID, branch: "" }),
  ],
  [
    "runTriggerBuild",
    "commit_hash|commitHash",
    /empty/,
    (api) => runTriggerBuild(api, { triggerUuid: UUID, commitHash: "" }),
  ],
  [
    "runTriggerBuild",
    "accountId|account_id",
    /32|empty/i,
    (api) => runTriggerBuild(api, { triggerUuid: UUID, branch: "main", accountId: "a".repeat(33) }),
  ],
  [
    "runTriggerBuild",
    "accountId|account_id",
    /32|empty/i,
    (api) => runTriggerBuild(api, { triggerUuid: UUID, branch: "main", accountId: LONG_ACCOUNT }),
  ],
  [
    "runWaitForBuild",
    "build_uuid|buildUuid",
    /UUID/,
    (api) => runWaitForBuild(api, { buildUuid: "toString" }),
  ],
  [
    "runWaitForBuild",
    "build_uuid|buildUuid",
    /UUID|string/i,
    (api) => runWaitForBuild(api, loose({ buildUuid: 42 })),
  ],
  ["runBuildLogs", "build_uuid|buildUuid", /UUID/, (api) => runBuildLogs(api, { buildUuid: "constructor" })],
  [
    "runBuildLogs",
    "accountId|account_id",
    /32|empty/i,
    (api) => runBuildLogs(api, { buildUuid: UUID, accountId: LONG_ACCOUNT }),
  ],
  ["runCancelBuild", "build_uuid|buildUuid", /UUID/, (api) => runCancelBuild(api, { buildUuid: "" })],
  [
    "runCancelBuild",
    "build_uuid|buildUuid",
    /UUID/,
    (api) => runCancelBuild(api, { buildUuid: `${UUID}/../x` }),
  ],
  ["runRedeploy", "scriptName|script_name", /empty/, (api) => runRedeploy(api, { scriptName: "" })],
  [
    "runRedeploy",
    "scriptName|script_name",
    /string/i,
    (api) => runRedeploy(api, loose({ scriptName: ["shop"] })),
  ],
  [
    "runPurgeBuildCache",
    "trigger_uuid|triggerUuid",
    /UUID/,
    (api) => runPurgeBuildCache(api, { triggerUuid: "toString" }),
  ],
  [
    "runPurgeBuildCache",
    "accountId|account_id",
    /32|empty/i,
    (api) => runPurgeBuildCache(api, { triggerUuid: UUID, accountId: LONG_ACCOUNT }),
  ],
  [
    "runBuildTokens",
    "accountId|account_id",
    /32|empty/i,
    (api) => runBuildTokens(api, { accountId: LONG_ACCOUNT }),
  ],
  // registrar
  ["runCheckDomain", "domainName", /empty|domain/i, (api) => runCheckDomain(api, { domainName: "" })],
  [
    "runCheckDomain",
    "accountId|account_id",
    /32|empty/i,
    (api) => runCheckDomain(api, { domainName: "example.com", accountId: LONG_ACCOUNT }),
  ],
  ["runSearchDomains", "q|query", /empty|character/i, (api) => runSearchDomains(api, { query: "" })],
  ["runSearchDomains", "limit", /\d/, (api) => runSearchDomains(api, { query: "shop", limit: 0 })],
  ["runSearchDomains", "limit", /\d/, (api) => runSearchDomains(api, { query: "shop", limit: 100_000 })],
  [
    "runSearchDomains",
    "limit",
    /integer|whole/i,
    (api) => runSearchDomains(api, { query: "shop", limit: 2.5 }),
  ],
  [
    "runSearchDomains",
    "extensions",
    /extension|letters|empty|array/i,
    (api) => runSearchDomains(api, { query: "shop", extensions: [""] }),
  ],
  ["runQuoteDomain", "years", /1|10/, (api) => runQuoteDomain(api, { domainName: "example.com", years: 0 })],
  ["runQuoteDomain", "years", /1|10/, (api) => runQuoteDomain(api, { domainName: "example.com", years: 11 })],
  [
    "runQuoteDomain",
    "years",
    /whole|integer/i,
    (api) => runQuoteDomain(api, { domainName: "example.com", years: 1.5 }),
  ],
  [
    "runQuoteDomain",
    "domain_name|domainName|domain",
    /domain|empty/i,
    (api) => runQuoteDomain(api, { domainName: "", years: 1 }),
  ],
  // search
  [
    "runTriggerSyncJob",
    "id|instanceId",
    /lowercase|letters|digits/i,
    (api) => runTriggerSyncJob(api, { instanceId: "BAD!" }),
  ],
  [
    "runTriggerSyncJob",
    "id|instanceId",
    /lowercase|letters|digits|empty/i,
    (api) => runTriggerSyncJob(api, { instanceId: "" }),
  ],
  [
    "runTriggerSyncJob",
    "namespace",
    /namespace|lowercase|letters|characters/i,
    (api) => runTriggerSyncJob(api, { instanceId: "kb", namespace: "Team A" }),
  ],
  [
    "runTriggerSyncJob",
    "accountId|account_id",
    /32|empty/i,
    (api) => runTriggerSyncJob(api, { instanceId: "kb", accountId: LONG_ACCOUNT }),
  ],
  [
    "runWaitForJob",
    "job_id|jobId",
    /empty|UUID|id/i,
    (api) => runWaitForJob(api, { instanceId: "kb", jobId: "" }),
  ],
  [
    "runWaitForJob",
    "id|instanceId",
    /lowercase|letters|digits/i,
    (api) => runWaitForJob(api, { instanceId: "K B", jobId: UUID }),
  ],
  // email (sendEmail)
  ["sendEmail", "from", /address|email/i, email({ from: "not-an-address" })],
  ["sendEmail", "to", /address|email/i, email({ to: "nobody" })],
  ["sendEmail", "to", /at least one|recipient|empty/i, email({ to: [] })],
  ["sendEmail", "subject", /empty|required/i, email({ subject: "" })],
  ["sendEmail", "subject", /string|required/i, email({ subject: undefined })],
  ["sendEmail", "text", /text|html/i, email({ text: undefined })],
  ["sendEmail", "headers", /not allowed|allowed|header/i, email({ headers: { Bcc: "spy@example.com" } })],
  ["sendEmail", "headers.__proto__", /not accepted as a key/, email({ headers: PROTO })],
  ["sendEmail", "headers", /not allowed|allowed|header/i, email({ headers: { constructor: "x" } })],
  [
    "sendEmail",
    "attachments.0.disposition",
    /attachment|inline/,
    email({
      attachments: [{ content: "aGk=", filename: "a.txt", type: "text/plain", disposition: "embedded" }],
    }),
  ],
  [
    "sendEmail",
    "attachments.0.content_id",
    /inline|required/i,
    email({
      attachments: [{ content: "aGk=", filename: "a.png", type: "image/png", disposition: "inline" }],
    }),
  ],
  ["sendEmail", "reply_to", /address|email/i, email({ replyTo: "@nowhere" })],
];

describe("bad-input corpus: functions (refused before any request)", () => {
  let server: Server;
  let requests = 0;
  let api: AccountApi;

  before(async () => {
    server = createServer((_req, res) => {
      requests++;
      res.writeHead(500, { "content-type": "application/json" }).end('{"success":false,"errors":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    api = new AccountApi({
      baseUrl: `http://127.0.0.1:${port}/client/v4`,
      token: "t".repeat(40),
      accountId: ACCOUNT,
      retry: { maxRetries: 0 },
      env: {},
    });
  });

  after(async () => {
    await api.close();
    await new Promise((resolve) => server.close(resolve));
    console.log(
      `      [figure] bad input, functions: ${CASES.length} cases, requests sent: ${requests}` + "",
    );
  });

  CASES.forEach(([what, field, rule, call], i) =>
    it(`#${i + 1} ${what}: refuses ${field.split("|")[0] ?? field} (${String(rule)})`, async function () {
      const before = requests;
      const message = await call(api).then(
        (v) => `accepted: ${JSON.stringify(v)}`,
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      );
      assert.equal(requests, before, `a request was sent before refusing: ${message}`);
      const names = field.split("|");
      const named = names.some((n) =>
        new RegExp(`(^|[\\s;:.(\`'"])${n.replace(/\./g, "\\.")}(\\.[\\w.]+)?[\`'"]?:? `).test(message),
      );
      assert.ok(named, `the message names none of ${names.join(", ")}: ${message}`);
      assert.match(message, rule);
    }),
  );
});
