/**
 * Bad-input corpus, CLI: invalid arguments and options to the built command line
 * (`node dist/cli/main.js`, as a user runs it; `npm run build` first), with the API pointed at a local
 * server that only counts requests. Each run must exit with the usage code (64), print a message that
 * names the argument or option and the rule, and send nothing; a file argument that cannot be read
 * included. Expectations hold to the field and the
 * rule, not to exact wording: the verbs are being reworked.
 *
 * Figure printed: cases, exit codes seen, requests sent (0).
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

const CLI = join(__dirname, "..", "..", "dist", "cli", "main.js");
const UUID = "0d4c8a57-6b2e-4f0a-9c1d-3e5f7a9b1c2d";
const MAIL = ["--from", "ops@example.com", "--to", "dev@example.org", "--subject", "s", "--text", "t"];

/** [argv, what the message must name, the rule (a pattern of its words)]. */
type Case = [argv: string[], names: RegExp, rule: RegExp];

const CASES: Case[] = [
  // build
  [["build", "trigger", "nope", "--branch", "main"], /triggerUuid/, /UUID/],
  [["build", "trigger", "__proto__", "--branch", "main"], /triggerUuid/, /UUID/],
  [["build", "trigger", UUID], /--branch|--commit/, /rule 1|or both/],
  [["build", "trigger", UUID, "--branch", ""], /--branch/, /rule 1|or both/],
  [["build", "wait", "constructor"], /buildUuid/, /UUID/],
  [["build", "wait", UUID, "--deadline", "-5"], /--deadline/, /positive integer/],
  [["build", "wait", UUID, "--deadline", "soon"], /--deadline/, /positive integer/],
  [["build", "logs", "toString"], /buildUuid/, /UUID/],
  [["build", "cancel", "not-a-build"], /buildUuid/, /UUID/],
  [["build", "redeploy", ""], /scriptName/, /empty/],
  [["build", "purge-cache", "__proto__"], /triggerUuid/, /UUID/],
  [["build", "tokens", "--account-id", "a".repeat(33)], /--account-id or ACCOUNT_API_ACCOUNT_ID/, /32/],
  [["build", "trigger"], /triggerUuid/, /missing|required/i],
  // job
  [["job", "run", "BAD!"], /\bid\b/, /lowercase letters/],
  [["job", "run", "__proto__", "--deadline", "0"], /--deadline/, /positive integer/],
  [["job", "run", "kb", "--namespace", "Team A"], /namespace/, /lowercase|letters|characters/i],
  [["job", "wait", "kb", ""], /job_?[iI]d/, /empty|UUID/],
  [["job", "logs", "K B", UUID], /\bid\b/, /lowercase letters/],
  // domain
  [["domain", "check", ""], /domains?/, /empty|domain name/i],
  [["domain", "check", "not_a_domain"], /not_a_domain/, /fully qualified domain name/],
  [["domain", "check", "example.com", "bad name.com"], /bad name\.com/, /fully qualified domain name/],
  [["domain", "quote", "not_a_domain"], /not_a_domain/, /fully qualified domain name/],
  [["domain", "search", ""], /\bq\b|query/, /empty/],
  [["domain", "search", "shop", "--limit", "0"], /--limit/, /positive integer/],
  [["domain", "quote", "example.com", "--years", "11"], /years/, /between 1 and 10/],
  [["domain", "quote", "example.com", "--years", "many"], /--years/, /positive integer/],
  // send-email
  [["send-email", ...MAIL.slice(2), "--from", "nobody"], /from/, /email address/],
  [
    ["send-email", "--from", "ops@example.com", "--to", "nobody", "--subject", "s", "--text", "t"],
    /\bto\b/,
    /email address/,
  ],
  [
    ["send-email", "--from", "ops@example.com", "--to", "dev@example.org", "--text", "t"],
    /--subject/,
    /required|not specified/i,
  ],
  [["send-email", ...MAIL.slice(0, 6)], /--text/, /body/],
  [["send-email", ...MAIL, "--header", "Bcc:spy@example.com"], /Bcc/, /bcc field/],
  [["send-email", ...MAIL, "--header", "constructor:x"], /constructor/, /allowed-header/],
  [["send-email", ...MAIL, "--header", "no-colon"], /--header|header/, /name:value|colon/i],
  [["send-email", ...MAIL, "--header", "__proto__:x"], /__proto__/, /not accepted as a key/],
  [
    ["send-email", ...MAIL, "--attach", "/nonexistent/file.pdf"],
    /--attach \/nonexistent\/file\.pdf/,
    /no such file/,
  ],
  [
    ["send-email", ...MAIL.slice(0, 6), "--text-file", "/nonexistent/body.txt"],
    /--text-file/,
    /no such file/,
  ],
  [["send-email", ...MAIL.slice(0, 6), "--html-file", "/tmp"], /--html-file \/tmp/, /a folder, not a file/],
  // markdown, emulator, drift, recover
  [["markdown", "/nonexistent/page.html"], /page\.html/, /no such file/],
  [["drift", "--markdown", "/nonexistent/dir/summary.md"], /--markdown/, /does not exist/],
  [["drift", "--cwd", "/nonexistent/project"], /--cwd/, /no such folder/],
  [["recover"], /--stack/, /required/],
  [["recover", "--stack", "dev", "--cwd", "/nonexistent/project"], /--cwd/, /no such folder/],
  [["emulator", "--port", "abc"], /--port/, /integer from 0 to 65535/],
  [["emulator", "--port", "70000"], /--port/, /integer from 0 to 65535/],
  [["no-such-verb"], /no-such-verb/, /unknown command/],
  [["build", "--bogus"], /--bogus/, /unknown option/],
];

interface Run {
  code: number;
  said: string;
  /** Requests that reached this run's own counting server. */
  requests: number;
}

/** One CLI run against its own server that counts requests and answers 500. */
async function run(argv: string[]): Promise<Run> {
  let requests = 0;
  const server: Server = createServer((_req, res) => {
    requests++;
    res.writeHead(500, { "content-type": "application/json" }).end('{"success":false,"errors":[]}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    ACCOUNT_API_BASE_URL: `http://127.0.0.1:${port}/client/v4`,
    ACCOUNT_API_TOKEN: "t".repeat(40),
    ACCOUNT_API_ACCOUNT_ID: "023e105f4ecef8ad9ca31a8372d0c353",
  };
  const { code, said } = await new Promise<{ code: number; said: string }>((resolve) => {
    execFile(process.execPath, [CLI, ...argv], { env, timeout: 30_000 }, (error, out, err) => {
      resolve({
        code: error ? (typeof error.code === "number" ? error.code : -1) : 0,
        said: `${err}\n${out}`,
      });
    });
  });
  await new Promise((resolve) => server.close(resolve));
  return { code, said, requests };
}

/** Runs every case, two at a time (the machine has two cores), in the order given. */
async function runAll(cases: readonly Case[]): Promise<Run[]> {
  const results: Run[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < cases.length; i = next++) results[i] = await run(cases[i]![0]);
  };
  await Promise.all([worker(), worker()]);
  return results;
}

describe("bad-input corpus: CLI verbs (built CLI)", function () {
  this.timeout(180_000);
  let runs: Run[] = [];

  before(async function () {
    // npm test builds dist first; a missing CLI is a failure, never a skip.
    assert.ok(existsSync(CLI), "dist/cli/main.js is missing: run npm run build");
    runs = await runAll(CASES);
  });

  after(() => {
    const codes = new Map<number, number>();
    for (const r of runs) codes.set(r.code, (codes.get(r.code) ?? 0) + 1);
    const seen = [...codes].map(([c, n]) => `exit ${c}×${n}`).join(", ");
    const requests = runs.reduce((n, r) => n + r.requests, 0);
    console.log(
      `      [figure] bad input, CLI: ${CASES.length} runs (${seen}), requests sent: ${requests}` + "",
    );
  });

  CASES.forEach(([argv, names, rule], i) =>
    it(`#${i + 1} account-api ${argv.map((a) => (a.includes(" ") || a === "" ? JSON.stringify(a) : a)).join(" ")}`, function () {
      const r = runs[i];
      assert.ok(r);
      assert.equal(r.requests, 0, `a request was sent: ${r.said}`);
      // A file or folder that cannot be used is bad input too (docs/cli.md): nothing was sent.
      assert.equal(r.code, 64, `exit ${r.code}: ${r.said}`);
      assert.match(r.said, names, `the message names the field: ${r.said}`);
      assert.match(r.said, rule, `the message says the rule: ${r.said}`);
    }),
  );
});
